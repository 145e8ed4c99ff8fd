import type { K8sObject, WorkloadObject } from './objects';

/**
 * Merging live-cluster objects with workspace objects. Pure data.
 *
 * - A workspace object with the same API group, kind, namespace and name replaces its cluster twin: that
 *   is what `kubectl apply` of the workspace would do (the legacy group `extensions` counts as `apps`, so
 *   `extensions/v1beta1` and `apps/v1` DaemonSets of one name are twins; a Knative `Service` is not a twin
 *   of a core Service).
 * - Pods are instances of a controller's pod template. A Pod whose controller (Deployment through its
 *   ReplicaSet, DaemonSet, StatefulSet, Job, ReplicationController) is itself in the workspace or in
 *   the cluster objects is dropped: the controller already carries the template, and the workspace
 *   version is what will run after apply. The remaining Pods of one controller are collapsed into one
 *   representative, so replicas never "collide" with each other; its nodeName is kept only when all
 *   of them run on the same node. Mirror Pods of static Pods (owner kind Node) stay one per node.
 *   Source for owner references: https://kubernetes.io/docs/concepts/overview/working-with-objects/owners-dependents/ (v1.33);
 *   ReplicaSet names are `<deployment>-<pod-template-hash>`: kubernetes pkg/controller/deployment/sync.go (v1.33).
 */
export interface ClusterMerge {
  /** Cluster objects to pass to `analyze(..., {extraObjects})`. */
  readonly objects: readonly K8sObject[];
  /** Cluster objects replaced by a workspace object, as `Kind namespace/name`. */
  readonly shadowed: readonly string[];
  /** Pods dropped or collapsed because their controller is represented. */
  readonly podsFolded: number;
}

/** Groups that served today's `apps` kinds before apps/v1 (Kubernetes ≤ 1.15): the same objects. */
const LEGACY_GROUPS: Readonly<Record<string, string>> = { extensions: 'apps' };

/** `group/Kind/namespace/name`, the key `kubectl apply` matches on (legacy `extensions` = `apps`). */
export function twinKey(o: Pick<K8sObject, 'group' | 'kind' | 'namespace' | 'name'>): string {
  return `${LEGACY_GROUPS[o.group] ?? o.group}/${o.kind}/${o.namespace}/${o.name}`;
}

interface OwnerRef {
  apiVersion?: unknown;
  kind?: unknown;
  name?: unknown;
  controller?: unknown;
}

/**
 * The controller ownerReference of an object exactly as written, as a twin key (a ReplicaSet stays a
 * ReplicaSet), or undefined without one (and for mirror Pods, whose owner is their Node).
 */
export function controllerRefKey(o: K8sObject): string | undefined {
  const ref = controllerRef(o);
  return ref && twinKey({ group: ref.group, kind: ref.kind, namespace: o.namespace, name: ref.name });
}

function controllerRef(o: K8sObject): { group: string; kind: string; name: string } | undefined {
  const refs = (o.raw.metadata as { ownerReferences?: unknown } | undefined)?.ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const ref = (refs as OwnerRef[]).find((r) => r && r.controller === true) ?? (refs as OwnerRef[])[0];
  if (!ref || typeof ref.kind !== 'string' || typeof ref.name !== 'string' || ref.kind === 'Node') return undefined;
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  return { group: apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '', kind: ref.kind, name: ref.name };
}

/**
 * The controller a cluster Pod belongs to, as a twin key, or undefined for bare Pods and mirror Pods.
 * A ReplicaSet named `<name>-<pod-template-hash>` stands for Deployment `<name>`.
 */
export function podController(pod: K8sObject): string | undefined {
  const ref = controllerRef(pod);
  if (!ref) return undefined;
  const hash = pod.labels['pod-template-hash'];
  if (ref.kind === 'ReplicaSet' && hash && ref.name.endsWith(`-${hash}`)) {
    return twinKey({ group: ref.group, kind: 'Deployment', namespace: pod.namespace, name: ref.name.slice(0, -hash.length - 1) });
  }
  return twinKey({ group: ref.group, kind: ref.kind, namespace: pod.namespace, name: ref.name });
}

/** Merges cluster objects under workspace objects (see {@link ClusterMerge}). Linear in objects. */
export function mergeClusterObjects(workspace: readonly K8sObject[], cluster: readonly K8sObject[]): ClusterMerge {
  const workspaceKeys = new Set(workspace.map(twinKey));
  const shadowed: string[] = [];
  const kept: K8sObject[] = [];
  for (const o of cluster) {
    if (workspaceKeys.has(twinKey(o))) shadowed.push(`${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`);
    else kept.push(o);
  }
  const represented = new Set([...workspaceKeys, ...kept.filter((o) => o.kind !== 'Pod').map(twinKey)]);
  const groups = new Map<string, WorkloadObject[]>();
  const out: K8sObject[] = [];
  let podsFolded = 0;
  for (const o of kept) {
    const controller = o.kind === 'Pod' && o.category === 'workload' ? podController(o) : undefined;
    if (!controller) {
      out.push(o);
      continue;
    }
    if (represented.has(controller)) {
      podsFolded++;
      continue;
    }
    const group = groups.get(controller);
    if (group) group.push(o as WorkloadObject);
    else groups.set(controller, [o as WorkloadObject]);
  }
  for (const pods of groups.values()) {
    pods.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const first = pods[0];
    podsFolded += pods.length - 1;
    const sameNode = pods.every((p) => p.pod.nodeName?.value === first.pod.nodeName?.value);
    out.push(sameNode ? first : { ...first, pod: { ...first.pod, nodeName: undefined } });
  }
  return { objects: out, shadowed, podsFolded };
}
