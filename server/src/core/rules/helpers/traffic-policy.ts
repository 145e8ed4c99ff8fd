import type { Located } from '../../source/span';
import type { ServiceObject, WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { Fix, RelatedLocation } from '../rule';
import { joinNames } from './collisions';
import { daemonSetRestriction } from './daemonset-coverage';

/** Kinds whose `spec.replicas` sets the pod count (default 1 when not written). */
const REPLICATED_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/**
 * The workloads a Service selects that do not put a pod on every node — Deployments, StatefulSets, Jobs,
 * bare Pods, and DaemonSets restricted by nodeSelector or required node affinity (see
 * {@link daemonSetRestriction}) — so a `Local` traffic policy leaves nodes without a local endpoint.
 * Variants of one object (same identity) count once. Empty when the Service selects nothing, or when one of
 * its backends is a DaemonSet on every node (then every node has a local endpoint).
 */
export function partialCoverageBackends(model: WorkspaceModel, service: ServiceObject): WorkloadObject[] {
  const byIdentity = new Map<string, WorkloadObject>();
  for (const w of model.selectedWorkloads(service)) {
    if (w.kind === 'PodTemplate') continue;
    if (w.kind === 'DaemonSet' && daemonSetRestriction(w) === undefined) return [];
    if (!byIdentity.has(w.identity)) byIdentity.set(w.identity, w);
  }
  return [...byIdentity.values()];
}

/**
 * How the backends fall short of every node, for messages: `Deployment a/b (2 replicas), not a DaemonSet`,
 * `DaemonSet ing/ing, which runs only on nodes matching node-role=ingress`, or for a mix
 * `Deployment a/b (2 replicas) and DaemonSet ing/ing (only on nodes matching node-role=ingress), not on every node`.
 */
export function backendsShortfall(backends: readonly WorkloadObject[]): string {
  const restricted = backends.filter((w) => w.kind === 'DaemonSet');
  if (restricted.length === 0) return `${describeBackends(backends)}, not a DaemonSet`;
  if (backends.length === 1) return `${describe(backends[0])}, which runs only on nodes matching ${daemonSetRestriction(backends[0])}`;
  return `${describeBackends(backends)}, not on every node`;
}

/** How many pods a workload runs, for messages: `3 replicas`, `1 replica, the default`, `1 pod`; undefined for Jobs. */
export function podCount(w: WorkloadObject): string | undefined {
  if (w.kind === 'Pod') return '1 pod';
  if (!REPLICATED_KINDS.has(w.kind)) return undefined;
  if (!w.replicas) return '1 replica, the default';
  return `${w.replicas.value} replica${w.replicas.value === 1 ? '' : 's'}`;
}

/** Total pods of the backends (replicas, 1 per bare Pod); undefined when a Job or CronJob is among them. */
export function totalPods(backends: readonly WorkloadObject[]): number | undefined {
  let total = 0;
  for (const w of backends) {
    if (w.kind === 'Pod') total += 1;
    else if (REPLICATED_KINDS.has(w.kind)) total += w.replicas?.value ?? 1;
    else return undefined;
  }
  return total;
}

/** `Deployment ns/x (2 replicas)` for each backend, joined with commas and "and", at most five (see joinNames). */
export function describeBackends(backends: readonly WorkloadObject[]): string {
  const names = backends.map((w) => {
    const count = podCount(w) ?? onlyOn(w);
    return count ? `${describe(w)} (${count})` : describe(w);
  });
  return joinNames(names);
}

/** Related locations pointing at each backend (its metadata.name, or its replicas value when written). */
export function backendLocations(backends: readonly WorkloadObject[]): RelatedLocation[] {
  return backends.map((w) => {
    const count = podCount(w) ?? onlyOn(w);
    return { span: w.replicas?.span ?? w.span, message: `backend ${describe(w)}${count ? ` (${count})` : ''}` };
  });
}

/** `only on nodes matching node-role=ingress` for a restricted DaemonSet, else undefined. */
function onlyOn(w: WorkloadObject): string | undefined {
  const restriction = daemonSetRestriction(w);
  return restriction ? `only on nodes matching ${restriction}` : undefined;
}

/** A fix replacing a traffic policy value with `Cluster`; edits only that scalar. */
export function setToCluster(value: Located<string>, title: string, preferred: boolean): Fix {
  return { title, edits: [{ span: value.span, newText: 'Cluster' }], preferred };
}
