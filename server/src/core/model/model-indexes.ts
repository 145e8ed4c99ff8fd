import { ExternalIPClaim, HostPortClaim, hostPortClaims, NodePortClaim, ServicePortClaim } from './claims';
import type { K8sObject, ServiceObject, WorkloadObject } from './objects';
import { CONTROLLER_LABEL_KEYS, controllerLabels, serviceSelectorMatches } from '../kubernetes/controller-manager/pod-labels';

/**
 * The indexes of a {@link WorkspaceModel}, keyed by port number (1–65535) or by pod label `key=value`.
 * Lists are in object order (the order of `model.objects`), so findings built from them are stable.
 */
export interface ModelIndexes {
  readonly nodePorts: ReadonlyMap<number, readonly NodePortClaim[]>;
  readonly hostPorts: ReadonlyMap<number, readonly HostPortClaim[]>;
  readonly servicePorts: ReadonlyMap<number, readonly ServicePortClaim[]>;
  /** Service ports on externalIPs, by port number (one claim per address and port). */
  readonly externalIPs: ReadonlyMap<number, readonly ExternalIPClaim[]>;
  /**
   * Workloads by pod template label `key=value`, and by bare `key` for each label their controller sets on the
   * Pods (kubernetes/controller-manager/pod-labels.ts; label keys hold no `=`), so selector matching is not pairwise.
   */
  readonly byLabel: ReadonlyMap<string, readonly WorkloadObject[]>;
}

/** Everything one object contributes to the indexes. */
interface Contribution {
  readonly nodePorts: NodePortClaim[];
  readonly hostPorts: HostPortClaim[];
  readonly servicePorts: ServicePortClaim[];
  readonly externalIPs: ExternalIPClaim[];
  readonly labels: string[];
}

const EMPTY: Contribution = { nodePorts: [], hostPorts: [], servicePorts: [], externalIPs: [], labels: [] };

/** The claims and label keys of one object (Services: nodePort, healthCheckNodePort, port, externalIP ports; workloads: host-level ports, labels). */
export function contributionOf(obj: K8sObject): Contribution {
  if (obj.category === 'service') {
    const out: Contribution = { nodePorts: [], hostPorts: [], servicePorts: [], externalIPs: [], labels: [] };
    for (const sp of obj.ports) {
      const protocol = sp.protocol.value.toUpperCase();
      if (sp.nodePort) out.nodePorts.push({ port: sp.nodePort.value, field: 'nodePort', service: obj, servicePort: sp, protocol, span: sp.nodePort.span });
      if (!sp.port) continue;
      out.servicePorts.push({ port: sp.port.value, protocol, service: obj, servicePort: sp, span: sp.port.span });
      for (const ip of obj.externalIPs) out.externalIPs.push({ port: sp.port.value, protocol, address: ip.value, service: obj, servicePort: sp, span: ip.span, portSpan: sp.port.span });
    }
    const hc = obj.healthCheckNodePort;
    if (hc) out.nodePorts.push({ port: hc.value, field: 'healthCheckNodePort', service: obj, protocol: 'TCP', span: hc.span });
    return out;
  }
  if (obj.category === 'workload') {
    return { nodePorts: [], hostPorts: hostPortClaims(obj), servicePorts: [], externalIPs: [], labels: workloadIndexKeys(obj) };
  }
  return EMPTY;
}

/** The label index keys of a workload: `key=value` per pod template label, bare `key` per controller-set label. */
export function workloadIndexKeys(w: WorkloadObject): string[] {
  const c = controllerLabels(w);
  const keys = Object.entries(w.pod.labels).map(([k, v]) => `${k}=${v}`);
  for (const k of [...Object.keys(c.fixed), ...c.unknown, ...Object.keys(c.ordinal)]) keys.push(k);
  return keys;
}

/**
 * The index keys under which every workload a Service selector may match is found: `key=value` of its first
 * entry whose key no controller sets; when every key is controller-set, `key=value` and bare `key` of the first.
 */
export function selectorIndexKeys(selector: Readonly<Record<string, string>>): string[] {
  const keys = Object.keys(selector);
  const plain = keys.find((k) => !CONTROLLER_LABEL_KEYS.has(k));
  if (plain !== undefined) return [`${plain}=${selector[plain]}`];
  return keys.length ? [`${keys[0]}=${selector[keys[0]]}`, keys[0]] : [];
}

/** The workloads under any of `keys` in `byLabel`, each once. */
export function workloadsUnder(byLabel: ModelIndexes['byLabel'], keys: readonly string[]): readonly WorkloadObject[] {
  if (keys.length === 1) return byLabel.get(keys[0]) ?? [];
  return [...new Set(keys.flatMap((k) => byLabel.get(k) ?? []))];
}

/** Appends `value` to the list of `key` (multimap insert). */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Builds the indexes in one pass over the objects (O(objects)). */
export function buildIndexes(objects: readonly K8sObject[]): ModelIndexes {
  const nodePorts = new Map<number, NodePortClaim[]>();
  const hostPorts = new Map<number, HostPortClaim[]>();
  const servicePorts = new Map<number, ServicePortClaim[]>();
  const externalIPs = new Map<number, ExternalIPClaim[]>();
  const byLabel = new Map<string, WorkloadObject[]>();
  for (const obj of objects) {
    const c = contributionOf(obj);
    for (const claim of c.nodePorts) push(nodePorts, claim.port, claim);
    for (const claim of c.hostPorts) push(hostPorts, claim.port, claim);
    for (const claim of c.servicePorts) push(servicePorts, claim.port, claim);
    for (const claim of c.externalIPs) push(externalIPs, claim.port, claim);
    for (const label of c.labels) push(byLabel, label, obj as WorkloadObject);
  }
  return { nodePorts, hostPorts, servicePorts, externalIPs, byLabel };
}

/**
 * The indexes after `removed` objects left and `added` objects came, without rebuilding them: only the
 * entries (port numbers, labels) those objects touch are recomputed. `order` gives each object's position
 * in the new `objects`, so every list keeps the order {@link buildIndexes} would give.
 */
export function patchIndexes(prev: ModelIndexes, removed: readonly K8sObject[], added: readonly K8sObject[], order: ReadonlyMap<K8sObject, number>): ModelIndexes {
  const gone = new Set<K8sObject>(removed);
  const patch = <K, V>(map: ReadonlyMap<K, readonly V[]>, pick: (c: Contribution) => readonly [K, V][], owner: (v: V) => K8sObject): Map<K, readonly V[]> => {
    const out = new Map(map);
    const touched = new Map<K, V[]>();
    for (const obj of removed) for (const [key] of pick(contributionOf(obj))) if (!touched.has(key)) touched.set(key, []);
    for (const obj of added) for (const [key, value] of pick(contributionOf(obj))) push(touched, key, value);
    for (const [key, fresh] of touched) {
      const kept = (map.get(key) ?? []).filter((v) => !gone.has(owner(v)));
      const list = kept.concat(fresh).sort((a, b) => (order.get(owner(a)) ?? 0) - (order.get(owner(b)) ?? 0));
      if (list.length) out.set(key, list);
      else out.delete(key);
    }
    return out;
  };
  return {
    nodePorts: patch(prev.nodePorts, (c) => c.nodePorts.map((x) => [x.port, x] as [number, NodePortClaim]), (x) => x.service),
    hostPorts: patch(prev.hostPorts, (c) => c.hostPorts.map((x) => [x.port, x] as [number, HostPortClaim]), (x) => x.workload),
    servicePorts: patch(prev.servicePorts, (c) => c.servicePorts.map((x) => [x.port, x] as [number, ServicePortClaim]), (x) => x.service),
    externalIPs: patch(prev.externalIPs, (c) => c.externalIPs.map((x) => [x.port, x] as [number, ExternalIPClaim]), (x) => x.service),
    byLabel: patchLabels(prev.byLabel, removed, added, order),
  };
}

function patchLabels(prev: ReadonlyMap<string, readonly WorkloadObject[]>, removed: readonly K8sObject[], added: readonly K8sObject[], order: ReadonlyMap<K8sObject, number>): Map<string, readonly WorkloadObject[]> {
  const out = new Map(prev);
  const gone = new Set<K8sObject>(removed);
  const touched = new Map<string, WorkloadObject[]>();
  for (const obj of removed) for (const label of contributionOf(obj).labels) if (!touched.has(label)) touched.set(label, []);
  for (const obj of added) for (const label of contributionOf(obj).labels) push(touched, label, obj as WorkloadObject);
  for (const [label, fresh] of touched) {
    const list = (prev.get(label) ?? []).filter((w) => !gone.has(w)).concat(fresh).sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    if (list.length) out.set(label, list);
    else out.delete(label);
  }
  return out;
}

/**
 * Workloads of the Service's namespace some of whose Pods carry every selector key/value — template labels and
 * the labels their controller adds (serviceSelectorMatches) — none for an empty selector.
 */
export function selectWorkloads(svc: ServiceObject, byLabel: ModelIndexes['byLabel']): WorkloadObject[] {
  const selector = svc.selector;
  if (!selector || Object.keys(selector).length === 0) return [];
  // A Job or bare Pod template labelled like a Deployment's pods is still a backend; keep all kinds.
  return workloadsUnder(byLabel, selectorIndexKeys(selector)).filter((w) => w.namespace === svc.namespace && serviceSelectorMatches(selector, w));
}
