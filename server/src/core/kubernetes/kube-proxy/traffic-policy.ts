import type { ServiceObject, WorkloadObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import { daemonSetRestriction } from '../scheduler/daemonset-coverage';

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
