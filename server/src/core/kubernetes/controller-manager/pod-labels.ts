import type { LabelRequirement, LabelSelector } from '../../model/views/label-selector';
import type { WorkloadObject } from '../../model/objects';
import { asRecord } from '../../model/views/raw-fields';
import { labelSelectorMatches } from '../api-server/label-selector';

/**
 * Labels the controllers (and the API server's Job defaulting) put on the Pods they create, beyond the pod
 * template's own labels. A Service, NetworkPolicy or PodMonitor selecting one of them does select those Pods.
 *
 * - StatefulSet: `statefulset.kubernetes.io/pod-name` = `<name>-<ordinal>` and `apps.kubernetes.io/pod-index` =
 *   `<ordinal>` (v1.28+), ordinals `spec.ordinals.start` … start + `spec.replicas` − 1; `controller-revision-hash`.
 * - Deployment: `pod-template-hash` (written into its ReplicaSets' templates).
 * - DaemonSet: `controller-revision-hash`, `pod-template-generation`.
 * - Job (unless `spec.manualSelector: true`): `batch.kubernetes.io/job-name` and `job-name` = the Job's name,
 *   `batch.kubernetes.io/controller-uid` and `controller-uid`; Indexed Jobs also
 *   `batch.kubernetes.io/job-completion-index` = 0 … `spec.completions` − 1 (v1.28+). A CronJob's Jobs get
 *   names with a schedule suffix nobody can know from the manifest.
 *
 * Hashes, uids and generations are unknowable from a manifest: a selector on them may match.
 * Sources: https://kubernetes.io/docs/reference/labels-annotations-taints/ (v1.33: statefulset.kubernetes.io/pod-name,
 * apps.kubernetes.io/pod-index, controller-revision-hash, pod-template-hash, batch.kubernetes.io/job-name,
 * batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-completion-index);
 * https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#pod-name-label and #pod-index-label;
 * https://kubernetes.io/docs/concepts/workloads/controllers/job/ (the Pod template labels of a Job);
 * kubernetes pkg/controller/statefulset/stateful_set_utils.go (updateIdentity), pkg/registry/batch/job/strategy.go
 * (generateSelector), pkg/controller/daemon/util/daemonset_util.go (CreatePodTemplate), v1.33.
 */
export const CONTROLLER_LABEL_KEYS: ReadonlySet<string> = new Set([
  'statefulset.kubernetes.io/pod-name', 'apps.kubernetes.io/pod-index', 'controller-revision-hash', 'pod-template-hash',
  'pod-template-generation', 'batch.kubernetes.io/job-name', 'job-name', 'batch.kubernetes.io/controller-uid', 'controller-uid',
  'batch.kubernetes.io/job-completion-index',
]);

/** A label whose value differs per Pod: the Pod's ordinal (StatefulSet) or completion index (Indexed Job). */
interface OrdinalLabel {
  /** The label value of the Pod with ordinal `i`. */
  readonly valueOf: (i: number) => string;
  /** The ordinal a value names, or undefined when no Pod can carry it. */
  readonly ordinalOf: (value: string) => number | undefined;
}

/** The labels a workload's controller adds to its Pods. */
export interface ControllerLabels {
  /** Same value on every Pod (a Job's name). */
  readonly fixed: Readonly<Record<string, string>>;
  /** Set on every Pod, value unknowable here (hashes, uids, a CronJob's Job names). */
  readonly unknown: ReadonlySet<string>;
  /** Per-Pod values, all driven by one ordinal. */
  readonly ordinal: Readonly<Record<string, OrdinalLabel>>;
  /** The ordinals of the Pods: [start, start + count), count undefined when unknown (not a literal integer). */
  readonly start: number;
  readonly count: number | undefined;
}

const NONE: ControllerLabels = { fixed: {}, unknown: new Set(), ordinal: {}, start: 0, count: undefined };

/** strconv.Itoa's decimal form only: `1`, not `01` or `+1`. */
function decimal(value: string): number | undefined {
  return /^(0|[1-9][0-9]{0,9})$/.test(value) ? Number(value) : undefined;
}

/** An integer field: its value, `fallback` when absent, undefined when it is anything else (templated, wrong type). */
function integerField(value: unknown, fallback: number): number | undefined {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

const cache = new WeakMap<WorkloadObject, ControllerLabels>();

/** The labels the controller of `w` adds to its Pods (none for a bare Pod, ReplicaSet, ReplicationController, CRD workloads). */
export function controllerLabels(w: WorkloadObject): ControllerLabels {
  let out = cache.get(w);
  if (!out) cache.set(w, (out = compute(w)));
  return out;
}

function compute(w: WorkloadObject): ControllerLabels {
  // `raw` is read only by the kinds whose labels depend on their spec: a loaded file's `raw` is parsed when first
  // read, and Deployments (most workloads) need none of it.
  const spec = (): Record<string, unknown> => asRecord(w.raw.spec);
  switch (w.kind) {
    case 'StatefulSet': {
      const name = w.name;
      const ordinal: Record<string, OrdinalLabel> = {
        'apps.kubernetes.io/pod-index': { valueOf: String, ordinalOf: decimal },
      };
      if (name) {
        ordinal['statefulset.kubernetes.io/pod-name'] = {
          valueOf: (i) => `${name}-${i}`,
          ordinalOf: (v) => (v.startsWith(`${name}-`) ? decimal(v.slice(name.length + 1)) : undefined),
        };
      }
      const { ordinals, replicas } = spec();
      const start = integerField(asRecord(ordinals).start, 0);
      return {
        fixed: {}, unknown: new Set(name ? ['controller-revision-hash'] : ['controller-revision-hash', 'statefulset.kubernetes.io/pod-name']),
        ordinal, start: start ?? 0, count: start === undefined ? undefined : integerField(replicas, 1),
      };
    }
    case 'Deployment':
      return { ...NONE, unknown: new Set(['pod-template-hash']) };
    case 'DaemonSet':
      return { ...NONE, unknown: new Set(['controller-revision-hash', 'pod-template-generation']) };
    case 'Job':
    case 'CronJob': {
      const jobSpec = w.kind === 'Job' ? spec() : asRecord(asRecord(spec().jobTemplate).spec);
      if (jobSpec.manualSelector === true) return NONE;
      const jobName = w.kind === 'Job' && w.name ? w.name : undefined;
      const unknown = new Set(['batch.kubernetes.io/controller-uid', 'controller-uid']);
      const fixed: Record<string, string> = {};
      for (const key of ['batch.kubernetes.io/job-name', 'job-name']) {
        if (jobName) fixed[key] = jobName;
        else unknown.add(key);
      }
      if (jobSpec.completionMode !== 'Indexed') return { ...NONE, fixed, unknown };
      return {
        // completions is required for Indexed Jobs; absent or not an integer: the indexes are unknown.
        fixed, unknown, start: 0, count: jobSpec.completions === undefined ? undefined : integerField(jobSpec.completions, 0),
        ordinal: { 'batch.kubernetes.io/job-completion-index': { valueOf: String, ordinalOf: decimal } },
      };
    }
    default:
      return NONE;
  }
}

/** True when the controller of `w` sets `key` on its Pods (whatever the value). */
export function controllerSets(w: WorkloadObject, key: string): boolean {
  const c = controllerLabels(w);
  return Object.hasOwn(c.fixed, key) || c.unknown.has(key) || Object.hasOwn(c.ordinal, key);
}

/**
 * True when some Pod that `w` creates may carry labels matching `selector` (metav1.LabelSelector semantics, see
 * api-server/label-selector.ts): the pod template labels plus the controller's ({@link controllerLabels}). A
 * requirement on an unknowable label (a hash, a uid) counts as possibly met — never as "selects nothing"; one on a
 * per-Pod ordinal label is met when an ordinal of an existing Pod fits every such requirement at once. `count`
 * replaces the number of Pods the manifest gives (a HorizontalPodAutoscaler's minReplicas).
 */
export function podSelectorMatches(selector: LabelSelector, w: WorkloadObject, count?: number): boolean {
  const written = controllerLabels(w);
  const c = count === undefined ? written : { ...written, count };
  const ordinalKeys = Object.keys(c.ordinal);
  if (ordinalKeys.length === 0 && c.unknown.size === 0 && Object.keys(c.fixed).length === 0) return labelSelectorMatches(selector, w.pod.labels);
  const concrete: Record<string, string> = { ...w.pod.labels, ...c.fixed };
  const plain: LabelRequirement[] = [];
  /** Ordinals every positive requirement allows (undefined: no positive requirement yet), and those excluded. */
  let allowed: Set<number> | undefined;
  const excluded = new Set<number>();
  const requireOrdinals = (label: OrdinalLabel, values: readonly string[]): void => {
    const ordinals = new Set(values.map(label.ordinalOf).filter((i): i is number => i !== undefined));
    allowed = allowed ? new Set([...allowed].filter((i) => ordinals.has(i))) : ordinals;
  };
  const requirements: LabelRequirement[] = [
    ...Object.entries(selector.matchLabels).map(([key, v]) => ({ key, operator: 'In', values: [v] })),
    ...selector.matchExpressions,
  ];
  for (const r of requirements) {
    // Own keys only: a label key is any string, `constructor` and `toString` too.
    const ordinal = Object.hasOwn(c.ordinal, r.key) ? c.ordinal[r.key] : undefined;
    if (ordinal) {
      if (r.operator === 'In') requireOrdinals(ordinal, r.values);
      else if (r.operator === 'NotIn') for (const v of r.values) { const i = ordinal.ordinalOf(v); if (i !== undefined) excluded.add(i); }
      else if (r.operator !== 'Exists') return false; // DoesNotExist, or an operator the API server rejects
    } else if (c.unknown.has(r.key)) {
      if (r.operator === 'DoesNotExist' || !['In', 'NotIn', 'Exists'].includes(r.operator)) return false;
    } else {
      plain.push(r);
    }
  }
  if (!labelSelectorMatches({ matchLabels: {}, matchExpressions: plain }, concrete)) return false;
  const inRange = (i: number): boolean => i >= c.start && (c.count === undefined || i < c.start + c.count);
  if (allowed) return [...allowed].some((i) => inRange(i) && !excluded.has(i));
  if (c.count === undefined) return true;
  let excludedInRange = 0;
  for (const i of excluded) if (inRange(i)) excludedInRange++;
  return c.count > excludedInRange;
}

/** A Service selector (`key: value` pairs, all required) as {@link podSelectorMatches} reads it; `{}` or none selects nothing. */
export function serviceSelectorMatches(selector: Readonly<Record<string, string>> | undefined, w: WorkloadObject, count?: number): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return podSelectorMatches({ matchLabels: selector, matchExpressions: [] }, w, count);
}

/**
 * What the Pods of `w` carry under a controller-set `key`, for messages: `web-0 … web-1 (replicas 2)`,
 * `bench`, `a hash set by the controller`; undefined when the controller does not set `key`.
 */
export function controllerLabelText(w: WorkloadObject, key: string): string | undefined {
  const c = controllerLabels(w);
  if (Object.hasOwn(c.fixed, key)) return c.fixed[key];
  const ordinal = Object.hasOwn(c.ordinal, key) ? c.ordinal[key] : undefined;
  if (ordinal) {
    if (c.count === undefined) return `${ordinal.valueOf(c.start)} and up`;
    if (c.count === 0) return `none for ${w.kind === 'Job' || w.kind === 'CronJob' ? 'completions' : 'replicas'} 0`;
    const first = ordinal.valueOf(c.start);
    const last = ordinal.valueOf(c.start + c.count - 1);
    return `${first === last ? first : `${first} … ${last}`} for ${w.kind === 'Job' || w.kind === 'CronJob' ? 'completions' : 'replicas'} ${c.count}`;
  }
  return c.unknown.has(key) ? 'a value set by the controller' : undefined;
}
