import type { ServiceObject, WorkloadObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import { daemonSetRestriction } from '../scheduler/daemonset-coverage';
import { idleWorkload } from '../controller-manager/idle';
import type { Autoscaler } from '../controller-manager/autoscalers';

/** Kinds whose `spec.replicas` sets the pod count (default 1 when not written). */
const REPLICATED_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/**
 * The workloads a Service selects that do not put a pod on every node — Deployments, StatefulSets, Jobs,
 * bare Pods, and DaemonSets restricted by nodeSelector or required node affinity (see
 * {@link daemonSetRestriction}) — so a `Local` traffic policy leaves nodes without a local endpoint.
 * Variants of one object (same identity) count once. Workloads that run no pods now (`replicas: 0`, a Job or
 * CronJob suspended or with `parallelism: 0` or `completions: 0`: {@link idleWorkload}) are left out: they give no endpoint on any node, whatever the policy. Empty
 * when the Service selects nothing else, or when one of its backends is a DaemonSet on every node (then every
 * node has a local endpoint).
 */
export function partialCoverageBackends(model: WorkspaceModel, service: ServiceObject): WorkloadObject[] {
  const byIdentity = new Map<string, WorkloadObject>();
  for (const w of model.selectedWorkloads(service)) {
    if (w.kind === 'PodTemplate' || idleWorkload(w)) continue;
    if (w.kind === 'DaemonSet' && daemonSetRestriction(w) === undefined) return [];
    if (!byIdentity.has(w.identity)) byIdentity.set(w.identity, w);
  }
  return [...byIdentity.values()];
}

/**
 * How many pods a workload runs, for messages: `3 replicas`, `1 replica, the default`, `1 pod`, `2-10 replicas by
 * HorizontalPodAutoscaler default/web` when `autoscaler` scales it (`2-10 replicas, autoscaled` when `short`);
 * undefined for Jobs.
 */
export function podCount(w: WorkloadObject, autoscaler?: Autoscaler, short = false): string | undefined {
  if (w.kind === 'Pod') return '1 pod';
  if (!REPLICATED_KINDS.has(w.kind)) return undefined;
  if (autoscaler) return `${autoscaler.min}-${autoscaler.max} replicas${short ? ', autoscaled' : ` by HorizontalPodAutoscaler ${autoscaler.hpa.namespace}/${autoscaler.hpa.name}`}`;
  if (!w.replicas) return '1 replica, the default';
  return `${w.replicas.value} replica${w.replicas.value === 1 ? '' : 's'}`;
}

/** The HorizontalPodAutoscaler of `w` in `autoscalers` (see {@link ../controller-manager/autoscalers}), if any. */
export function autoscalerOf(w: WorkloadObject, autoscalers: ReadonlyMap<string, Autoscaler> | undefined): Autoscaler | undefined {
  return autoscalers?.get(`${w.kind}/${w.namespace}/${w.name}`);
}

/**
 * Most pods the backends run (replicas, 1 per bare Pod; an autoscaled workload's `maxReplicas`); undefined when a
 * Job or CronJob is among them.
 */
export function totalPods(backends: readonly WorkloadObject[], autoscalers?: ReadonlyMap<string, Autoscaler>): number | undefined {
  let total = 0;
  for (const w of backends) {
    if (w.kind === 'Pod') total += 1;
    else if (REPLICATED_KINDS.has(w.kind)) total += autoscalerOf(w, autoscalers)?.max ?? w.replicas?.value ?? 1;
    else return undefined;
  }
  return total;
}
