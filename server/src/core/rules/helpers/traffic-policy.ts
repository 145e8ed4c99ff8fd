import type { Located } from '../../source/span';
import type { ServiceObject, WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { Fix, RelatedLocation } from '../rule';
import { joinNames } from './collisions';

/** Kinds whose `spec.replicas` sets the pod count (default 1 when not written). */
const REPLICATED_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/**
 * The workloads a Service selects that are not DaemonSets — those do not run on every node, so a
 * `Local` traffic policy leaves nodes without a local endpoint. Variants of one object (same identity)
 * count once. Empty when the Service selects nothing or only DaemonSets.
 */
export function nonDaemonSetBackends(model: WorkspaceModel, service: ServiceObject): WorkloadObject[] {
  const byIdentity = new Map<string, WorkloadObject>();
  for (const w of model.selectedWorkloads(service)) {
    if (w.kind !== 'DaemonSet' && !byIdentity.has(w.identity)) byIdentity.set(w.identity, w);
  }
  return [...byIdentity.values()];
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
    const count = podCount(w);
    return count ? `${describe(w)} (${count})` : describe(w);
  });
  return joinNames(names);
}

/** Related locations pointing at each backend (its metadata.name, or its replicas value when written). */
export function backendLocations(backends: readonly WorkloadObject[]): RelatedLocation[] {
  return backends.map((w) => ({ span: w.replicas?.span ?? w.span, message: `backend ${describe(w)}${podCount(w) ? ` (${podCount(w)})` : ''}` }));
}

/** A fix replacing a traffic policy value with `Cluster`; edits only that scalar. */
export function setToCluster(value: Located<string>, title: string, preferred: boolean): Fix {
  return { title, edits: [{ span: value.span, newText: 'Cluster' }], preferred };
}
