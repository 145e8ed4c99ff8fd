import type { CoreConfig } from '../config/config';
import type { LoadedFile, LoadProblem } from '../load/load-file';
import { HostPortClaim, hostPortClaims, NodePortClaim, ServicePortClaim } from './claims';
import { ClusterSettings, deriveClusterSettings } from './cluster-settings';
import type { K8sObject, NodeObject, ServiceObject, WorkloadObject } from './objects';

/**
 * The port model of one cluster's worth of objects: typed objects, effective cluster settings and
 * indexes keyed by port number, so every rule answers "who claims port N" in O(1) instead of
 * comparing objects pairwise. Built in O(objects).
 */
export interface WorkspaceModel {
  readonly objects: readonly K8sObject[];
  readonly services: readonly ServiceObject[];
  readonly workloads: readonly WorkloadObject[];
  readonly nodes: readonly NodeObject[];
  readonly problems: readonly LoadProblem[];
  readonly settings: ClusterSettings;
  /** nodePort and healthCheckNodePort claims by number (one allocator serves both). */
  readonly nodePorts: ReadonlyMap<number, readonly NodePortClaim[]>;
  /** Host-level ports (hostPort, hostNetwork containerPort) by number. */
  readonly hostPorts: ReadonlyMap<number, readonly HostPortClaim[]>;
  /** Service `port`s by number, including the implicit default/kubernetes 443. */
  readonly servicePorts: ReadonlyMap<number, readonly ServicePortClaim[]>;
  /** Workloads whose pod template labels match a Service's selector. */
  selectedWorkloads(service: ServiceObject): readonly WorkloadObject[];
  /** Services whose selector matches a workload's pod template labels. */
  selectingServices(workload: WorkloadObject): readonly ServiceObject[];
}

/** File name used for the implicit Service default/kubernetes. */
export const BUILTIN_KUBERNETES_FILE = 'builtin:service/default/kubernetes';

/**
 * The Service `default/kubernetes` that every cluster has (ClusterIP, port 443/TCP → the API server),
 * although no manifest declares it. Source: kubernetes pkg/controlplane/controller/kubernetesservice (v1.33).
 */
export function builtinKubernetesService(): ServiceObject {
  const span = { file: BUILTIN_KUBERNETES_FILE, start: 0, end: 0 };
  return {
    uid: `${BUILTIN_KUBERNETES_FILE}#0`, apiVersion: 'v1', group: '', kind: 'Service', name: 'kubernetes', namespace: 'default',
    identity: '/Service/default/kubernetes', file: BUILTIN_KUBERNETES_FILE, docIndex: 0, span, extent: span,
    labels: { component: 'apiserver', provider: 'kubernetes' }, annotations: {}, origin: { type: 'builtin' }, raw: {},
    category: 'service', type: { value: 'ClusterIP', span }, typeWritten: true, selector: undefined,
    ports: [{ index: 0, span, name: { value: 'https', span }, protocol: { value: 'TCP', span }, port: { value: 443, span }, targetPort: { value: 6443, span } }],
    externalIPs: [], fieldSpans: new Map(),
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** True when every selector key/value is among the labels (an empty selector selects nothing for Services). */
export function selectorMatches(selector: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (!selector) return false;
  const keys = Object.keys(selector);
  return keys.length > 0 && keys.every((k) => labels[k] === selector[k]);
}

/** Builds the model from loaded files (or any objects, e.g. from a live cluster). */
export function buildModel(files: readonly LoadedFile[], config: CoreConfig, extraObjects: readonly K8sObject[] = []): WorkspaceModel {
  const objects: K8sObject[] = [];
  const problems: LoadProblem[] = [];
  for (const f of files) {
    objects.push(...f.objects);
    problems.push(...f.problems);
  }
  objects.push(...extraObjects);
  const hasKubernetesService = objects.some((o) => o.category === 'service' && o.identity === '/Service/default/kubernetes');
  if (!hasKubernetesService) objects.push(builtinKubernetesService());
  return buildModelFromObjects(objects, problems, config);
}

export function buildModelFromObjects(objects: readonly K8sObject[], problems: readonly LoadProblem[], config: CoreConfig): WorkspaceModel {
  const services: ServiceObject[] = [];
  const workloads: WorkloadObject[] = [];
  const nodes: NodeObject[] = [];
  const nodePorts = new Map<number, NodePortClaim[]>();
  const hostPorts = new Map<number, HostPortClaim[]>();
  const servicePorts = new Map<number, ServicePortClaim[]>();
  // Selector index: label "k=v" → workloads carrying it, so selector matching is not pairwise.
  const byLabel = new Map<string, WorkloadObject[]>();
  for (const obj of objects) {
    if (obj.category === 'service') {
      services.push(obj);
      for (const sp of obj.ports) {
        if (sp.nodePort) push(nodePorts, sp.nodePort.value, { port: sp.nodePort.value, field: 'nodePort', service: obj, servicePort: sp, protocol: sp.protocol.value.toUpperCase(), span: sp.nodePort.span });
        if (sp.port) push(servicePorts, sp.port.value, { port: sp.port.value, protocol: sp.protocol.value.toUpperCase(), service: obj, servicePort: sp, span: sp.port.span });
      }
      if (obj.healthCheckNodePort) {
        const hc = obj.healthCheckNodePort;
        push(nodePorts, hc.value, { port: hc.value, field: 'healthCheckNodePort', service: obj, protocol: 'TCP', span: hc.span });
      }
    } else if (obj.category === 'workload') {
      workloads.push(obj);
      for (const claim of hostPortClaims(obj)) push(hostPorts, claim.port, claim);
      for (const [k, v] of Object.entries(obj.pod.labels)) push(byLabel, `${k}=${v}`, obj);
    } else if (obj.category === 'node') {
      nodes.push(obj);
    }
  }
  const selected = new Map<ServiceObject, WorkloadObject[]>();
  const selecting = new Map<WorkloadObject, ServiceObject[]>();
  for (const svc of services) {
    if (!svc.selector || Object.keys(svc.selector).length === 0) continue;
    const [firstKey, ...rest] = Object.keys(svc.selector);
    const candidates = byLabel.get(`${firstKey}=${svc.selector[firstKey]}`) ?? [];
    const matches = candidates.filter((w) => w.namespace === svc.namespace && rest.every((k) => w.pod.labels[k] === svc.selector![k]));
    // A Job or bare Pod template labelled like a Deployment's pods is still a backend; keep all kinds.
    selected.set(svc, matches);
    for (const w of matches) push(selecting, w, svc);
  }
  return {
    objects, services, workloads, nodes, problems,
    settings: deriveClusterSettings(objects, config),
    nodePorts, hostPorts, servicePorts,
    selectedWorkloads: (svc) => selected.get(svc) ?? [],
    selectingServices: (w) => selecting.get(w) ?? [],
  };
}
