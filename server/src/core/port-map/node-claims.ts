import type { CoreConfig } from '../config/config';
import { objectRejection, rejectionContextKey } from '../kubernetes/api-server/rejection';
import { allocatesNodePorts, externalIpErrors, needsHealthCheck } from '../kubernetes/api-server/validation';
import { calicoFeatures } from '../kubernetes/node/calico-features';
import { ComponentPort, COMPONENT_PORTS } from '../kubernetes/node/component-ports';
import { kubeProxyListeners, withKubeProxyListeners } from '../kubernetes/kube-proxy/listen-ports';
import { ComponentId, kubeProxyReplacement, presentComponents, workloadComponents } from '../kubernetes/node/components';
import { runningClaims } from '../kubernetes/scheduler/host-ports';
import { contributionOf } from '../model/model-indexes';
import type { K8sObject, ServiceObject, WorkloadObject } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import type { Span } from '../source/span';

/**
 * What makes a port number busy on a node:
 * - `nodePort` / `healthCheckNodePort`: a Service's number from the cluster-wide NodePort allocator; kube-proxy
 *   takes it on every node (NodePort DNAT rules, the health-check listener);
 * - `hostPort`: a container's hostPort (CNI portmap DNAT on the pod's node);
 * - `hostNetwork`: a containerPort of a `hostNetwork` pod (the process binds the node's address);
 * - `externalIP`: a Service port on one of its externalIPs (kube-proxy captures `address:port` on every node);
 * - `component`: a port a node component listens on (kubelet, kube-proxy, control plane, CNI, MetalLB).
 */
export type NodeClaimKind = 'nodePort' | 'healthCheckNodePort' | 'hostPort' | 'hostNetwork' | 'externalIP' | 'component';

/** Claim kinds in the order a port's claims are listed. */
export const NODE_CLAIM_KINDS: readonly NodeClaimKind[] = ['nodePort', 'healthCheckNodePort', 'hostPort', 'hostNetwork', 'externalIP', 'component'];

/** One claim on a node-level port number (1–65535) with a protocol (`TCP`, `UDP`, `SCTP`). */
export interface NodeClaim {
  readonly kind: NodeClaimKind;
  readonly port: number;
  readonly protocol: string;
  /**
   * The claiming object: the Service or workload; for a component port, the workload of the workspace that runs
   * the component (absent when none does, e.g. the kubelet).
   */
  readonly object?: K8sObject;
  /**
   * The claiming field (nodePort, healthCheckNodePort, hostPort, the containerPort of a hostNetwork pod, the
   * externalIPs entry); for a component port, the running workload's name. Absent when nothing in the workspace
   * declares the claim.
   */
  readonly span?: Span;
  /** Container name (hostPort, hostNetwork). */
  readonly container?: string;
  /** Init container or sidecar: `init`, `sidecar`; absent for regular containers. */
  readonly containerRole?: 'init' | 'sidecar';
  /** Service port name (nodePort, externalIP), when written. */
  readonly portName?: string;
  /** hostPort / hostNetwork: the hostIP (`0.0.0.0` when empty); component ports listening on loopback only: `127.0.0.1`. */
  readonly hostIP?: string;
  /** externalIP claims: the address as written. */
  readonly address?: string;
  /** Component claims: the row of the component port table; a host-level claim of a component's own workload names it too. */
  readonly component?: ComponentPort;
  /**
   * Why a written claim takes nothing (the API server rejects or ignores it, or rejects its whole object: then the
   * reason of that rejection); undefined when it takes the port.
   */
  readonly inactive?: string;
  /**
   * True when the API server rejects the claiming object (kubernetes/api-server/rejection.ts): the object never
   * exists, so the claim is inactive and its port is free for quick fixes and `ports --free`.
   */
  readonly rejected?: true;
  /** Component claims whose component may not run, and why (e.g. kube-proxy next to a kube-proxy replacement). */
  readonly uncertain?: string;
}

const cache = new WeakMap<WorkspaceModel, { readonly config: CoreConfig; readonly judged: object | undefined; readonly claims: readonly NodeClaim[]; ports?: ReadonlySet<number> }>();

/**
 * Every node-level claim of the model, in no particular order (see {@link NodeClaim}). Read from the model's
 * port indexes (complete even in the partial models of incremental runs) and, for component ports, from the
 * cluster components the workspace (or the config's `cni`) shows: kubelet, kube-proxy and control-plane ports
 * always, a CNI's or add-on's ports when it is present and the workspace does not turn the port's feature off
 * (as rule host-port-reserved judges them). Host-level claims of init containers and `PodTemplate` objects are
 * left out (they hold no port while the pod runs — kubernetes pkg/scheduler/framework/plugins/nodeports, v1.33).
 * Cached per model and config; O(claims + objects).
 */
export function nodeClaimsOf(model: WorkspaceModel, config: CoreConfig): readonly NodeClaim[] {
  return cached(model, config).claims;
}

const sameClaims = new WeakMap<WorkspaceModel, WorkspaceModel>();

/**
 * Lets `partial` answer {@link nodeClaimsOf} and {@link claimedPorts} with `whole`'s claims, computed once for
 * both. Only for a partial model of an incremental re-check that has `whole`'s port indexes and holds every object
 * the claims read besides them: the component workloads and every configuration object (as the partial models of
 * core/workspace/incremental.ts hold all environment objects, in the whole model's order).
 */
export function shareNodeClaims(partial: WorkspaceModel, whole: WorkspaceModel): void {
  sameClaims.set(partial, sameClaims.get(whole) ?? whole);
}

function cached(partialOrWhole: WorkspaceModel, config: CoreConfig): { readonly claims: readonly NodeClaim[]; ports?: ReadonlySet<number> } {
  const model = sameClaims.get(partialOrWhole) ?? partialOrWhole;
  const hit = cache.get(model);
  const judged = rejectionContextKey(model);
  if (hit && hit.config === config && hit.judged === judged) return hit;
  const entry = { config, judged, claims: collect(model, config) };
  cache.set(model, entry);
  return entry;
}

function collect(model: WorkspaceModel, config: CoreConfig): NodeClaim[] {
  const claims = collectWritten(model, config);
  // A claim of an object the API server rejects takes nothing: the object is never created. Its own reason (a
  // healthCheckNodePort without eTP Local) is the more exact one when it has one.
  const rejection = objectRejection(model);
  return claims.map((c) => {
    const reason = c.object && c.kind !== 'component' ? rejection(c.object) : undefined;
    return reason === undefined ? c : { ...c, inactive: c.inactive ?? reason, rejected: true };
  });
}

function collectWritten(model: WorkspaceModel, config: CoreConfig): NodeClaim[] {
  const out: NodeClaim[] = [];
  const componentOwners = new Map<ComponentId, WorkloadObject>();
  for (const claims of model.nodePorts.values()) {
    for (const c of claims) {
      if (c.service.origin.type === 'builtin') continue;
      out.push({
        kind: c.field, port: c.port, protocol: c.protocol, object: c.service, span: c.span, portName: c.servicePort?.name?.value,
        inactive: c.field === 'nodePort' ? nodePortInactive(c.service) : healthCheckInactive(c.service),
      });
    }
  }
  const table = withKubeProxyListeners(COMPONENT_PORTS, kubeProxyListeners(model.objects));
  const declared = new Set<string>(); // `component|port|protocol` a component's own workload declares
  for (const claims of model.hostPorts.values()) {
    for (const c of runningClaims(claims)) {
      const own = workloadComponents(c.workload);
      const row = table.find((r) => own.has(r.owner) && r.protocol === c.protocol && c.port >= r.min && c.port <= r.max);
      if (row) declared.add(`${row.owner}|${c.port}|${c.protocol}`);
      out.push({
        kind: c.hostNetwork ? 'hostNetwork' : 'hostPort', port: c.port, protocol: c.protocol, object: c.workload, span: c.span,
        container: c.container.name, containerRole: c.container.role === 'container' ? undefined : c.container.role, hostIP: c.hostIP, component: row,
      });
    }
  }
  for (const claims of model.externalIPs.values()) {
    for (const c of claims) {
      out.push({ kind: 'externalIP', port: c.port, protocol: c.protocol, object: c.service, span: c.span, address: c.address, portName: c.servicePort.name?.value, inactive: externalIpInactive(c.address) });
    }
  }
  for (const w of model.workloads) {
    for (const id of workloadComponents(w)) if (!componentOwners.has(id)) componentOwners.set(id, w);
  }
  out.push(...componentClaims(model, config, componentOwners, declared, table));
  return out;
}

function nodePortInactive(svc: ServiceObject): string | undefined {
  if (allocatesNodePorts(svc)) return undefined;
  // ValidateService rejects a nodePort on ClusterIP; on ExternalName it is stored but never allocated.
  const why = svc.type.value === 'ClusterIP' ? 'the API server rejects a nodePort on this type' : 'only NodePort and LoadBalancer Services get nodePorts';
  return `Service type ${svc.type.value}: no nodePort is allocated (${why})`;
}

/**
 * Why an externalIPs entry takes no port: the API server rejects the Service (not an IP; unspecified, loopback,
 * link-local or link-local multicast — ValidateNonSpecialIP, kubernetes pkg/apis/core/validation/validation.go,
 * v1.33), so kube-proxy never programs it. A leading-zero IPv4 address is accepted (a warning up to v1.35).
 */
function externalIpInactive(address: string): string | undefined {
  const errors = externalIpErrors(address);
  return errors.length ? `the API server rejects externalIP "${address}" (${errors[0]})` : undefined;
}

function healthCheckInactive(svc: ServiceObject): string | undefined {
  if (needsHealthCheck(svc)) return undefined;
  return 'not a LoadBalancer Service with externalTrafficPolicy Local: the API server rejects the healthCheckNodePort';
}

/** The rows of the component port table (kube-proxy's where the workspace moves them) whose component the cluster runs, with its feature on. */
function openComponentRows(model: WorkspaceModel, config: CoreConfig, table: readonly ComponentPort[]): ComponentPort[] {
  const present = presentComponents(model.objects, config);
  const features = calicoFeatures(model.objects);
  return table.filter((row) => (row.scope === 'every-node' || row.scope === 'control-plane' || present.has(row.scope)) && !(row.feature && features.get(row.feature)?.enabled === false));
}

/** The component ports of the table (kube-proxy's where the workspace moves them) that the cluster has open, each port of a row's range on its own. */
function componentClaims(model: WorkspaceModel, config: CoreConfig, owners: ReadonlyMap<ComponentId, WorkloadObject>, declared: ReadonlySet<string>, table: readonly ComponentPort[]): NodeClaim[] {
  const replacement = kubeProxyReplacement(model.objects);
  const out: NodeClaim[] = [];
  for (const row of openComponentRows(model, config, table)) {
    const owner = owners.get(row.owner);
    const uncertain = row.owner === 'kube-proxy' && replacement ? `the workspace shows a kube-proxy replacement (${replacement.evidence}), so kube-proxy may not run` : undefined;
    for (let port = row.min; port <= row.max; port++) {
      if (declared.has(`${row.owner}|${port}|${row.protocol}`)) continue; // the component's workload declares it: that claim stands for it
      out.push({
        kind: 'component', port, protocol: row.protocol, component: row, object: owner, span: owner?.span,
        hostIP: row.loopbackOnly ? '127.0.0.1' : undefined, uncertain,
      });
    }
  }
  return out;
}

/**
 * The port numbers some claim of the model takes: inactive claims of accepted objects included (a fix must not pick a
 * number written elsewhere), claims of objects the API server rejects left out (they never exist: their ports are free).
 */
export function claimedPorts(partialOrWhole: WorkspaceModel, config: CoreConfig): ReadonlySet<number> {
  const model = sameClaims.get(partialOrWhole) ?? partialOrWhole;
  const hit = portsCache.get(model);
  const judged = rejectionContextKey(model);
  if (hit && hit.config === config && hit.judged === judged) return hit.ports;
  const counted = portCounts.get(model);
  let ports: Set<number>;
  if (counted && counted.config === config && !cache.has(model)) {
    ports = new Set(counted.counts.keys());
    const table = withKubeProxyListeners(COMPONENT_PORTS, kubeProxyListeners(model.objects));
    for (const row of openComponentRows(model, config, table)) for (let port = row.min; port <= row.max; port++) ports.add(port);
  } else {
    const entry = cached(model, config);
    ports = new Set(entry.claims.filter((c) => !c.rejected).map((c) => c.port));
  }
  portsCache.set(model, { config, judged, ports });
  return ports;
}

const portsCache = new WeakMap<WorkspaceModel, { readonly config: CoreConfig; readonly judged: object | undefined; readonly ports: ReadonlySet<number> }>();

/** True when the API server rejects `svc` (see {@link NodeClaim.rejected}), judged as the model's claims are. */
export function serviceRejected(model: WorkspaceModel, svc: ServiceObject): boolean {
  return objectRejection(model)(svc) !== undefined;
}

/**
 * Per model, how many of its objects' own claims (everything but component ports) take each port number: what lets
 * {@link carryClaimedPorts} give the next model's {@link claimedPorts} from the objects an edit changed.
 */
const portCounts = new WeakMap<WorkspaceModel, { readonly config: CoreConfig; readonly counts: ReadonlyMap<number, number> }>();

/** The port numbers of one object's own node-level claims, as {@link collect} lists them (no component ports). */
function ownClaimPorts(o: K8sObject, each: (port: number) => void, rejected: (o: K8sObject) => string | undefined): void {
  if (rejected(o) !== undefined) return; // a rejected object's claims take nothing (see claimedPorts)
  const c = contributionOf(o);
  for (const claim of c.nodePorts) if (claim.service.origin.type !== 'builtin') each(claim.port);
  for (const claim of runningClaims(c.hostPorts)) each(claim.port);
  for (const claim of c.externalIPs) each(claim.port);
}

function countsOf(model: WorkspaceModel, config: CoreConfig): ReadonlyMap<number, number> {
  const hit = portCounts.get(model);
  if (hit && hit.config === config) return hit.counts;
  const counts = new Map<number, number>();
  const add = (port: number): void => void counts.set(port, (counts.get(port) ?? 0) + 1);
  const rejected = objectRejection(model);
  for (const claims of model.nodePorts.values()) for (const c of claims) if (c.service.origin.type !== 'builtin' && rejected(c.service) === undefined) add(c.port);
  for (const claims of model.hostPorts.values()) for (const c of runningClaims(claims)) if (rejected(c.workload) === undefined) add(c.port);
  for (const claims of model.externalIPs.values()) for (const c of claims) if (rejected(c.service) === undefined) add(c.port);
  portCounts.set(model, { config, counts });
  return counts;
}

/**
 * Lets {@link claimedPorts} of `next` follow from `prev`'s: `next` is `prev` without `removed`, with `added` (its
 * port indexes patched from `prev`'s, as core/workspace/incremental.ts makes them), in an environment of the same
 * content (component and configuration objects: a change to them runs the analysis in full), so only those objects'
 * own claims can make a number taken or free. O(distinct claimed ports) instead of a pass over every claim and
 * workload of the model; the claims themselves ({@link nodeClaimsOf}) are still read from `next` when asked for.
 */
export function carryClaimedPorts(prev: WorkspaceModel, next: WorkspaceModel, removed: readonly K8sObject[], added: readonly K8sObject[], config: CoreConfig): void {
  const before = sameClaims.get(prev) ?? prev;
  const counts = new Map(countsOf(before, config));
  const removedRejected = objectRejection(before);
  for (const o of removed) {
    ownClaimPorts(o, (port) => {
      const n = (counts.get(port) ?? 0) - 1;
      if (n > 0) counts.set(port, n);
      else counts.delete(port);
    }, removedRejected);
  }
  // `next`'s verdicts: its rejection context is recorded before the carry (core/workspace/incremental.ts).
  const addedRejected = objectRejection(next);
  for (const o of added) ownClaimPorts(o, (port) => void counts.set(port, (counts.get(port) ?? 0) + 1), addedRejected);
  portCounts.set(next, { config, counts });
}
