import type { Span } from '../../source/span';
import { describe, type WorkloadObject } from '../../model/objects';
import { rawAt } from '../../model/views/raw-fields';

/** Kinds whose `spec.replicas` sets how many Pods their controller keeps. */
const REPLICA_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);

/** Why a workload's controller runs none of its Pods now: the field as written, and where. */
export interface Idle {
  /** `replicas: 0`, `suspend: true`, `parallelism: 0`, `completions: 0`, or (a CronJob's) `jobTemplate.spec.parallelism: 0` / `jobTemplate.spec.completions: 0`. */
  readonly field: string;
  readonly span: Span;
}

/**
 * Why the controller of `w` creates no Pods now, or undefined when it may run some:
 * - `replicas: 0` (Deployment, StatefulSet, ReplicaSet, ReplicationController). A HorizontalPodAutoscaler does not
 *   change that: it leaves a target whose replicas are 0 alone ("scaling is disabled since the replica count of the
 *   target is zero", kubernetes pkg/controller/podautoscaler/horizontal.go, v1.33) until someone scales it up;
 * - `suspend: true` on a CronJob (no Job is created: pkg/controller/cronjob/cronjob_controllerv2.go) or a Job (its
 *   Pods are not started, or are deleted: pkg/controller/job/job_controller.go, v1.33);
 * - `parallelism: 0` on a Job, or in a CronJob's `jobTemplate.spec` (every Job it creates has it): the Job
 *   controller keeps at most `parallelism` Pods active (pkg/controller/job/job_controller.go manageJob, v1.31:
 *   `wantActive` is capped by `*job.Spec.Parallelism`, and active Pods above it are deleted), so 0 runs none:
 *   "If it is specified as 0, then the Job is effectively paused until it is increased"; unset, it defaults to 1
 *   (https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism, v1.31);
 * - `completions: 0` on a Job, or in a CronJob's `jobTemplate.spec`: the Job controller wants at most `completions`
 *   minus the succeeded Pods active (manageJob: `wantActive = *job.Spec.Completions - succeeded`, capped at 0), and
 *   the Job is complete once succeeded reaches completions, so it completes without creating a Pod
 *   (pkg/controller/job/job_controller.go, v1.31).
 * Pods an older Job of a suspended CronJob still runs are not known from the manifests and are not counted.
 */
export function idleWorkload(w: WorkloadObject): Idle | undefined {
  if (REPLICA_KINDS.has(w.kind)) return w.replicas?.value === 0 ? { field: 'replicas: 0', span: w.replicas.span } : undefined;
  if (w.kind !== 'CronJob' && w.kind !== 'Job') return undefined;
  if (rawAt(w.raw, 'spec.suspend') === true) return { field: 'suspend: true', span: w.paths?.get('spec.suspend') ?? w.span };
  const jobSpec = w.kind === 'Job' ? 'spec' : 'spec.jobTemplate.spec';
  for (const key of ['parallelism', 'completions']) {
    const path = `${jobSpec}.${key}`;
    if (rawAt(w.raw, path) === 0) return { field: `${path.slice('spec.'.length)}: 0`, span: w.paths?.get(path) ?? w.span };
  }
  return undefined;
}

/**
 * `the CronJob runs no pods now (suspend: true)`: {@link idleWords} by kind, for a message that names the workload
 * elsewhere (or whose finding is on it) when long names leave no room to name it twice.
 */
export function idleWordsByKind(w: WorkloadObject, idle: Idle): string {
  return idleWords(`the ${w.kind}`, idle);
}

/** {@link idleWords} of `w` named in full, or by its kind only (`byKind`: long names leave no room to name it twice). */
export function idleWordsOf(w: WorkloadObject, idle: Idle, byKind: boolean): string {
  return byKind ? idleWordsByKind(w, idle) : idleWords(describe(w), idle);
}

/** `Deployment a/b runs no pods now (replicas: 0)`: the words messages use for an idle side. */
export function idleWords(name: string, idle: Idle): string {
  return `${name} runs no pods now (${idle.field})`;
}
