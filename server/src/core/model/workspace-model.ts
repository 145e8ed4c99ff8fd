import type { CoreConfig } from '../config/config';
import type { LoadedFile, LoadProblem } from '../load/load-file';
import type { ExternalIPClaim, HostPortClaim, NodePortClaim, ServicePortClaim } from './claims';
import { buildIndexes, ModelIndexes, push, selectorIndexKeys, selectWorkloads, workloadIndexKeys } from './model-indexes';
import { serviceSelectorMatches } from '../kubernetes/controller-manager/pod-labels';
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
  /** Service ports on externalIPs by port number (one claim per address and port). */
  readonly externalIPs: ReadonlyMap<number, readonly ExternalIPClaim[]>;
  /** Workloads whose pod template labels match a Service's selector. */
  selectedWorkloads(service: ServiceObject): readonly WorkloadObject[];
  /** Services whose selector matches a workload's pod template labels. */
  selectingServices(workload: WorkloadObject): readonly ServiceObject[];
  /**
   * Every Service / workload of a namespace, in object order, and the namespaces that hold any: lookups by
   * name or label selector (Ingress backends, routes, policies, monitors). Complete also in the partial
   * models of incremental re-checks, whose `services` / `workloads` lists hold only the re-checked objects.
   */
  servicesIn(namespace: string): readonly ServiceObject[];
  workloadsIn(namespace: string): readonly WorkloadObject[];
  namespaces(): readonly string[];
  /**
   * The Services of a namespace that the API server rejects (kubernetes/api-server/rejection.ts), in object order:
   * a model without the rejected objects (model-without.ts) leaves them out of every list above, and answers here
   * what it left out, so a reference by name can say why it does not resolve. Absent or empty on a model that keeps
   * every object.
   */
  rejectedServicesIn?(namespace: string): readonly ServiceObject[];
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

/**
 * True when some Pod of the workload carries every selector key/value: its template labels or those its controller
 * adds (kubernetes/controller-manager/pod-labels.ts). An empty or absent selector selects nothing for Services.
 */
export function selectorMatches(selector: Readonly<Record<string, string>> | undefined, workload: WorkloadObject): boolean {
  return serviceSelectorMatches(selector, workload);
}

/** Builds the model from loaded files (or any objects, e.g. from a live cluster). */
export function buildModel(files: readonly LoadedFile[], config: CoreConfig, extraObjects: readonly K8sObject[] = []): WorkspaceModel {
  const objects: K8sObject[] = [];
  const problems: LoadProblem[] = [];
  for (const f of files) {
    // One push per item: spreading 150,000 objects into push() overflows the call stack.
    for (const o of f.objects) objects.push(o);
    for (const p of f.problems) problems.push(p);
  }
  for (const o of extraObjects) objects.push(o);
  const hasKubernetesService = objects.some((o) => o.category === 'service' && o.identity === '/Service/default/kubernetes');
  if (!hasKubernetesService) objects.push(builtinKubernetesService());
  return buildModelFromObjects(objects, problems, config);
}

export function buildModelFromObjects(objects: readonly K8sObject[], problems: readonly LoadProblem[], config: CoreConfig): WorkspaceModel {
  return modelFromIndexes(objects, problems, deriveClusterSettings(objects, config), buildIndexes(objects));
}

const INDEXES = new WeakMap<WorkspaceModel, ModelIndexes>();

/** The indexes a model was built with (for incremental updates, see core/workspace/incremental.ts). */
export function indexesOf(model: WorkspaceModel): ModelIndexes | undefined {
  return INDEXES.get(model);
}

/**
 * A model over `objects` with indexes built (or patched) beforehand. Selector matches are computed on
 * first use per Service / workload, through the label index (never pairwise over all objects).
 */
export function modelFromIndexes(objects: readonly K8sObject[], problems: readonly LoadProblem[], settings: ClusterSettings, indexes: ModelIndexes, lazy = false): WorkspaceModel {
  const services: ServiceObject[] = [];
  const workloads: WorkloadObject[] = [];
  const nodes: NodeObject[] = [];
  for (const obj of objects) {
    if (obj.category === 'service') services.push(obj);
    else if (obj.category === 'workload') workloads.push(obj);
    else if (obj.category === 'node') nodes.push(obj);
  }
  let selected: Map<ServiceObject, readonly WorkloadObject[]> | undefined;
  let selecting: Map<WorkloadObject, ServiceObject[]> | undefined;
  const selection = (): void => {
    selected = new Map();
    selecting = new Map();
    for (const svc of services) {
      if (!svc.selector || Object.keys(svc.selector).length === 0) continue;
      const matches = selectWorkloads(svc, indexes.byLabel);
      selected.set(svc, matches);
      for (const w of matches) push(selecting, w, svc);
    }
  };
  // Lazy mode answers per object (a selector lookup, or one pass over the Services), for models that only a
  // few objects are asked about (incremental re-checks); eager mode matches every Service once.
  const lazySelected = new Map<ServiceObject, readonly WorkloadObject[]>();
  const lazySelecting = new Map<WorkloadObject, ServiceObject[]>();
  let bySelectorLabel: Map<string, ServiceObject[]> | undefined; // selector index keys → Services
  const servicesSelecting = (w: WorkloadObject): ServiceObject[] => {
    if (!bySelectorLabel) {
      bySelectorLabel = new Map();
      for (const svc of services) {
        if (svc.selector) for (const key of selectorIndexKeys(svc.selector)) push(bySelectorLabel, key, svc);
      }
    }
    const found = new Set<ServiceObject>();
    for (const key of workloadIndexKeys(w)) {
      for (const svc of bySelectorLabel.get(key) ?? []) if (svc.namespace === w.namespace && serviceSelectorMatches(svc.selector, w)) found.add(svc);
    }
    return found.size ? services.filter((svc) => found.has(svc)) : []; // in Service order, as the eager index gives
  };
  let byNamespace: { services: Map<string, ServiceObject[]>; workloads: Map<string, WorkloadObject[]>; names: string[] } | undefined;
  const namespaced = (): NonNullable<typeof byNamespace> => {
    if (!byNamespace) {
      const s = new Map<string, ServiceObject[]>();
      const w = new Map<string, WorkloadObject[]>();
      for (const svc of services) push(s, svc.namespace, svc);
      for (const wl of workloads) push(w, wl.namespace, wl);
      byNamespace = { services: s, workloads: w, names: [...new Set([...s.keys(), ...w.keys()])].sort() };
    }
    return byNamespace;
  };
  const model: WorkspaceModel = {
    objects, services, workloads, nodes, problems, settings,
    servicesIn: (ns) => namespaced().services.get(ns) ?? [],
    workloadsIn: (ns) => namespaced().workloads.get(ns) ?? [],
    namespaces: () => namespaced().names,
    nodePorts: indexes.nodePorts, hostPorts: indexes.hostPorts, servicePorts: indexes.servicePorts, externalIPs: indexes.externalIPs,
    selectedWorkloads: (svc) => {
      if (lazy) {
        let found = lazySelected.get(svc);
        if (!found) lazySelected.set(svc, (found = selectWorkloads(svc, indexes.byLabel)));
        return found;
      }
      if (!selected) selection();
      return selected!.get(svc) ?? [];
    },
    selectingServices: (w) => {
      if (lazy) {
        let found = lazySelecting.get(w);
        if (!found) lazySelecting.set(w, (found = servicesSelecting(w)));
        return found;
      }
      if (!selecting) selection();
      return selecting!.get(w) ?? [];
    },
  };
  INDEXES.set(model, indexes);
  return model;
}
