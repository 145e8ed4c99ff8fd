import { describe, mayFind, WorkloadObject } from '../../model/objects';
import { asArray, asRecord, isRecord, keySpanAt, rawAt, spanAt } from '../../model/views/raw-fields';
import type { FileText } from '../../source/string-number';
import { firstFitting } from '../../output/fit-message';
import { caseFix } from './service-spec';
import { apiRejects, shown, supportedValues } from './validation';
import { requirementProblems, type PodSpecProblem } from './pod-spec';
import { acceptedValues } from './enum-advice';

/** The preferred terms of each affinity kind and the key of the term each entry weighs. */
const WEIGHED = [['nodeAffinity', 'preference'], ['podAffinity', 'podAffinityTerm'], ['podAntiAffinity', 'podAffinityTerm']] as const;
/** supportedScheduleActions, sorted as the API lists them. */
const SCHEDULE_ACTIONS = acceptedValues('v1.UnsatisfiableConstraintAction');

/** An integer the decoder puts in an int32 (anything else is a decode error, decodeProblems' finding). */
const isInt32 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2 ** 31 - 1;

/**
 * The scheduling fields of a pod spec that validation refuses: the `weight` of a preferred node affinity, pod
 * affinity or pod anti-affinity term outside 1–100 (`Invalid value: 0: must be in the range 1-100`; an unset weight
 * is 0); a topologySpreadConstraint's `maxSkew` below 1 (`must be greater than zero`; unset is 0), empty
 * `topologyKey` (`Required value: can not be empty`) and `whenUnsatisfiable` other than DoNotSchedule or
 * ScheduleAnyway (`Unsupported value: "doNotSchedule": …`, with the quick fix that corrects the case; unset is "");
 * and the refused matchExpressions entries ({@link requirementProblems}: a null entry, `operator: in`, In without
 * values) of the pod (anti-)affinity terms' `labelSelector` and `namespaceSelector`, of node affinity terms and of the
 * constraints' `labelSelector`. Values of the wrong type are decode errors (the loader records them). `partial` (a
 * kustomize patch, merged into its base by topologyKey) judges only the values it writes. Sources: kubernetes
 * pkg/apis/core/validation/validation.go (validateAffinity, ValidatePreferredSchedulingTerms,
 * validateWeightedPodAffinityTerms, validatePodAffinityTerm, ValidateNodeSelectorTerm,
 * validateTopologySpreadConstraints, ValidateMaxSkew, ValidateTopologyKey, ValidateWhenUnsatisfiable), v1.31.
 * `source` (the files' text) places a null entry written as a bare `-` on its dash.
 */
export function schedulingProblems(w: WorkloadObject, partial = false, source?: FileText): PodSpecProblem[] {
  if (!mayFind(w, 'scheduling')) return [];
  const spec = rawAt(w.raw, w.pod.path);
  if (!isRecord(spec)) return [];
  const out: PodSpecProblem[] = [];
  const pod = w.pod.path;
  const rejects = (span: PodSpecProblem['span'], what: string, path: string, detail: string, fix: string, fixes: PodSpecProblem['fixes'] = []): void => {
    const base = apiRejects(what, describe(w), path, detail);
    out.push({ span, message: firstFitting(`${base}; ${fix}`, base), fixes });
  };
  /** The value of `field` in `entry`, null and unset read as the zero value `zero` (undefined in a patch). */
  const written = (entry: Record<string, unknown>, field: string, zero: unknown): unknown => entry[field] ?? (partial ? undefined : zero);
  const selector = (value: unknown, at: string, api: string): void => {
    if (isRecord(value)) out.push(...requirementProblems(w, `${at}.matchExpressions`, `${api}.matchExpressions`, false, source));
  };
  const podTerm = (term: unknown, at: string, api: string): void => {
    for (const key of ['labelSelector', 'namespaceSelector']) selector(asRecord(term)[key], `${at}.${key}`, `${api}.${key}`);
  };
  const nodeTerm = (term: unknown, at: string, api: string): void => {
    if (isRecord(term)) out.push(...requirementProblems(w, `${at}.matchExpressions`, `${api}.matchExpressions`, true, source));
  };

  const affinity = asRecord(spec.affinity);
  for (const [kind, termKey] of WEIGHED) {
    const kindAt = `${pod}.affinity.${kind}`;
    const of = asRecord(affinity[kind]);
    const required = of.requiredDuringSchedulingIgnoredDuringExecution;
    if (kind === 'nodeAffinity') {
      asArray(asRecord(required).nodeSelectorTerms).forEach((t, i) => nodeTerm(t, `${kindAt}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.${i}`, `${kindAt}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`));
    } else {
      asArray(required).forEach((t, i) => podTerm(t, `${kindAt}.requiredDuringSchedulingIgnoredDuringExecution.${i}`, `${kindAt}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`));
    }
    asArray(of.preferredDuringSchedulingIgnoredDuringExecution).forEach((entry, i) => {
      if (!isRecord(entry)) return;
      const at = `${kindAt}.preferredDuringSchedulingIgnoredDuringExecution.${i}`;
      const api = `${kindAt}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      const weight = written(entry, 'weight', 0);
      if (isInt32(weight) && (weight < 1 || weight > 100)) {
        const unset = entry.weight === undefined || entry.weight === null;
        const what = unset ? `preferred ${kind} term #${i} has no weight (an unset weight is 0)` : `${kind} weight ${weight} of preferred term #${i} is outside 1-100`;
        rejects(unset ? keySpanAt(w, `${at}.${termKey}`) : spanAt(w, `${at}.weight`), what, `${api}.weight`, `Invalid value: ${weight}: must be in the range 1-100`, 'use a weight from 1 to 100');
      }
      if (kind === 'nodeAffinity') nodeTerm(entry.preference, `${at}.preference`, `${api}.preference`);
      else podTerm(entry.podAffinityTerm, `${at}.podAffinityTerm`, `${api}.podAffinityTerm`);
    });
  }

  asArray(spec.topologySpreadConstraints).forEach((c, i) => {
    if (!isRecord(c)) return;
    const at = `${pod}.topologySpreadConstraints.${i}`;
    const api = `${pod}.topologySpreadConstraints[${i}]`;
    const unsetAt = (field: string): PodSpecProblem['span'] => (c[field] === undefined || c[field] === null ? spanAt(w, at) : spanAt(w, `${at}.${field}`));
    const skew = written(c, 'maxSkew', 0);
    if (isInt32(skew) && skew < 1) {
      rejects(unsetAt('maxSkew'), c.maxSkew == null ? `topology spread constraint #${i} has no maxSkew (an unset maxSkew is 0)` : `maxSkew ${skew} of topology spread constraint #${i} is not above 0`, `${api}.maxSkew`, `Invalid value: ${skew}: must be greater than zero`, 'use 1 or more');
    }
    if (written(c, 'topologyKey', '') === '') {
      rejects(unsetAt('topologyKey'), `topology spread constraint #${i} has ${c.topologyKey === '' ? 'an empty' : 'no'} topologyKey`, `${api}.topologyKey`, 'Required value: can not be empty', 'set the node label to spread over, e.g. topology.kubernetes.io/zone');
    }
    const action = written(c, 'whenUnsatisfiable', '');
    if (typeof action === 'string' && !SCHEDULE_ACTIONS.includes(action)) {
      const match = SCHEDULE_ACTIONS.find((a) => a.toLowerCase() === action.toLowerCase());
      const what = action === '' ? `topology spread constraint #${i} has no whenUnsatisfiable` : `whenUnsatisfiable ${shown(action)} is not supported`;
      const span = unsetAt('whenUnsatisfiable');
      rejects(span, what, `${api}.whenUnsatisfiable`, `Unsupported value: ${shown(action)}: supported values: ${supportedValues(SCHEDULE_ACTIONS)}`, match ? `write ${match}` : 'use DoNotSchedule or ScheduleAnyway', action ? caseFix({ value: action, span }, SCHEDULE_ACTIONS, 'whenUnsatisfiable') : []);
    }
    selector(c.labelSelector, `${at}.labelSelector`, `${api}.labelSelector`);
  });
  return out;
}
