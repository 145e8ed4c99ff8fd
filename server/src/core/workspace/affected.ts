import type { CoreConfig } from '../config/config';
import { deriveClusterSettings } from '../model/cluster-settings';
import { contributionOf, ModelIndexes } from '../model/model-indexes';
import type { K8sObject, ServiceObject, WorkloadObject } from '../model/objects';
import { selectorMatches, WorkspaceModel } from '../model/workspace-model';
import { workloadComponents } from '../kubernetes/node/components';
import { referencedNamespaces } from '../model/views/references';
import { objectRejection } from '../kubernetes/api-server/rejection';

const environmentCache = new WeakMap<K8sObject, boolean>();

/**
 * True for objects whose presence shapes how rules judge OTHER objects, so a change to them needs a full
 * re-check: everything that is neither a Service nor a pod workload (Nodes, ConfigMaps such as kube-proxy's
 * or cilium-config, KubeProxyConfiguration, Calico Installation, MetalLB resources…), workloads that are a
 * cluster component (kube-proxy, a CNI, MetalLB, node-exporter… as kubernetes/node/components.ts knows them),
 * workloads that set a cluster setting (kube-apiserver `--service-node-port-range`, valid or not, kube-proxy
 * `--proxy-mode`), and the Service default/kubernetes. Cached per object (objects are immutable).
 */
export function isEnvironment(obj: K8sObject, config: CoreConfig): boolean {
  let env = environmentCache.get(obj);
  if (env !== undefined) return env;
  if (obj.category === 'service') env = obj.identity === '/Service/default/kubernetes';
  else if (obj.category === 'workload') {
    const settings = deriveClusterSettings([obj], { ...config, nodePortRange: undefined, kubeProxyMode: undefined });
    env = workloadComponents(obj).size > 0 || settings.nodePortRange.source !== 'default' || settings.kubeProxyMode !== undefined || settings.invalidNodePortRanges !== undefined;
  } else env = true;
  environmentCache.set(obj, env);
  return env;
}

const readsCache = new WeakMap<K8sObject, ReturnType<typeof referencedNamespaces> | null>();

/** {@link referencedNamespaces}, cached per object (what an object reads does not change when its spans move). */
function readNamespaces(obj: K8sObject): ReturnType<typeof referencedNamespaces> {
  let read = readsCache.get(obj);
  if (read === undefined) readsCache.set(obj, (read = referencedNamespaces(obj) ?? null));
  return read ?? undefined;
}

/**
 * How many workloads each Service selects in a model (only the Services {@link affectedObjects} asked about, and
 * those carried over from the model before): the next model's counts follow from the changed workloads alone, so
 * an edit does not match every Service of a namespace against the pod templates again.
 */
const selectionCounts = new WeakMap<WorkspaceModel, Map<ServiceObject, number>>();

/** Counts selected workloads in `after`, derived from `before`'s counts for Services that did not change. */
function selectionCounter(removed: readonly K8sObject[], added: readonly K8sObject[], before: WorkspaceModel, after: WorkspaceModel): (svc: ServiceObject) => number {
  // `after` is `before` without `removed`, with `added`: a Service in neither selects what it did, less the removed
  // workloads that it selected, plus the added ones that it selects (as each model's own selector lookups say).
  const delta = new Map<ServiceObject, number>();
  for (const w of removed) if (w.category === 'workload') for (const svc of before.selectingServices(w)) delta.set(svc, (delta.get(svc) ?? 0) - 1);
  for (const w of added) if (w.category === 'workload') for (const svc of after.selectingServices(w)) delta.set(svc, (delta.get(svc) ?? 0) + 1);
  const changed = new Set<K8sObject>([...removed, ...added]);
  const previous = selectionCounts.get(before);
  const counts = new Map<ServiceObject, number>();
  if (previous) for (const [svc, n] of previous) if (!changed.has(svc)) counts.set(svc, n + (delta.get(svc) ?? 0));
  selectionCounts.set(after, counts);
  return (svc) => {
    let n = counts.get(svc);
    if (n === undefined) counts.set(svc, (n = after.selectedWorkloads(svc).length));
    return n;
  };
}

/**
 * The objects whose findings a change can alter: the changed objects (new versions), every object
 * claiming one of their port numbers as a nodePort, healthCheckNodePort or hostPort (collisions and shadowing
 * are keyed by number: a hostPort against nodePorts and Service ports, a nodePort against nodePorts and
 * hostPorts), the Services with an externalIP on one of their externalIP ports (externalIP conflicts; a Service
 * `port` alone relates a Service to no other Service), the workloads a changed Service
 * selects and the Services selecting a changed workload (before and after the change), and the other
 * variants of a changed object (same identity), the Ingresses, routes, NetworkPolicies and monitors that read a
 * changed object's namespace, the Services of that namespace whose selector matches nothing, and the Services of
 * other namespaces that match nothing in their own but whose selector matches a changed workload. Port numbers and selectors of `removed` (old versions) count
 * too, so a collision that an edit resolves is re-checked on both sides.
 */
export function affectedObjects(
  removed: readonly K8sObject[],
  added: readonly K8sObject[],
  before: WorkspaceModel,
  after: WorkspaceModel,
  indexes: ModelIndexes,
): Set<K8sObject> {
  const out = new Set<K8sObject>(added);
  const numbers = new Set<number>();
  const external = new Set<number>();
  for (const obj of [...removed, ...added]) {
    const c = contributionOf(obj);
    for (const claim of c.nodePorts) numbers.add(claim.port);
    for (const claim of c.hostPorts) numbers.add(claim.port);
    for (const claim of c.servicePorts) numbers.add(claim.port);
    for (const claim of c.externalIPs) external.add(claim.port);
  }
  for (const n of numbers) {
    for (const claim of indexes.nodePorts.get(n) ?? []) out.add(claim.service);
    for (const claim of indexes.hostPorts.get(n) ?? []) out.add(claim.workload);
  }
  // Rules about a hostPort equal to a Service port read both from the indexes: the Services need no re-check.
  for (const n of external) for (const claim of indexes.externalIPs.get(n) ?? []) out.add(claim.service);
  const relate = (model: WorkspaceModel, obj: K8sObject): void => {
    if (obj.category === 'service') for (const w of model.selectedWorkloads(obj)) out.add(w);
    if (obj.category === 'workload') for (const s of model.selectingServices(obj)) out.add(s);
  };
  for (const obj of removed) relate(before, obj);
  for (const obj of added) relate(after, obj);
  // Ingresses, routes, NetworkPolicies and monitors name ports of the Services and pods of the namespaces they
  // read; Services whose selector matches nothing are judged by what else their namespace holds.
  const namespaces = new Set<string>();
  for (const obj of [...removed, ...added]) if (obj.category === 'service' || obj.category === 'workload') namespaces.add(obj.namespace);
  const identities = new Set([...removed, ...added].map((o) => o.identity));
  // One pass over the objects for both: the namespace readers and the other variants of a changed object.
  for (const obj of after.objects) {
    if (identities.has(obj.identity)) out.add(obj);
    if (namespaces.size === 0 || obj.category === 'service' || obj.category === 'workload') continue;
    const read = readNamespaces(obj);
    if (read && (read === 'any' || [...read].some((ns) => namespaces.has(ns)))) out.add(obj);
  }
  const selected = selectionCounter(removed, added, before, after);
  // The rules run without the objects the API server rejects: a Service whose selected workloads are all rejected
  // selects nothing there, and is judged by what else its namespace holds too.
  const rejection = objectRejection(after);
  const selectsNothing = (svc: ServiceObject): boolean => selected(svc) === 0 || after.selectedWorkloads(svc).every((w) => rejection(w) !== undefined);
  if (namespaces.size) {
    for (const ns of namespaces) {
      for (const svc of after.servicesIn(ns)) if (svc.selector && Object.keys(svc.selector).length && selectsNothing(svc)) out.add(svc);
    }
  }
  // A Service matching nothing in its own namespace names the pod templates of other namespaces its selector matches.
  const changedWorkloads = [...removed, ...added].filter((o): o is WorkloadObject => o.category === 'workload');
  if (changedWorkloads.length) {
    for (const svc of after.services) {
      if (!svc.selector || Object.keys(svc.selector).length === 0 || out.has(svc)) continue;
      if (changedWorkloads.some((w) => w.namespace !== svc.namespace && selectorMatches(svc.selector, w)) && selectsNothing(svc)) out.add(svc);
    }
  }
  // Old versions that are gone are not in the new model: the model went from `before` to `after` by taking away
  // `removed` and adding `added`, so the objects of `out` that are not in `after` are removed ones not added again.
  const kept = new Set(added);
  for (const obj of removed) if (!kept.has(obj)) out.delete(obj);
  return out;
}
