import { asArray, asRecord, asString, isRecord } from './raw-fields';

/** One `matchExpressions` entry of a metav1.LabelSelector. */
export interface LabelRequirement {
  readonly key: string;
  /** As written; kubernetes/api-server/label-selector.ts knows In, NotIn, Exists and DoesNotExist. */
  readonly operator: string;
  readonly values: readonly string[];
}

/**
 * A metav1.LabelSelector (`matchLabels` ANDed with `matchExpressions`) as written in a NetworkPolicy,
 * ServiceMonitor or PodMonitor. `{}` has neither and selects everything (unlike a Service's `selector: {}`).
 */
export interface LabelSelector {
  readonly matchLabels: Readonly<Record<string, string>>;
  readonly matchExpressions: readonly LabelRequirement[];
}

/** Reads a LabelSelector from raw JSON; undefined when the value is absent or not a mapping. */
export function labelSelectorFrom(value: unknown): LabelSelector | undefined {
  if (!isRecord(value)) return undefined;
  const matchLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(asRecord(value.matchLabels))) matchLabels[k] = v === null || v === undefined ? '' : String(v);
  const matchExpressions = asArray(value.matchExpressions).flatMap((e) => {
    const key = asString(asRecord(e).key);
    const operator = asString(asRecord(e).operator);
    // A null value decodes to "" in a []string (the element's zero value), as a null matchLabels value does.
    return key !== undefined && operator !== undefined ? [{ key, operator, values: asArray(asRecord(e).values).map((v) => (v === null || v === undefined ? '' : String(v))) }] : [];
  });
  return { matchLabels, matchExpressions };
}

/** `app=web, tier in (a, b)` — a selector as kubectl prints it, for messages. */
export function selectorText(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels).map(([k, v]) => `${k}=${v}`);
  for (const e of selector.matchExpressions) {
    if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${e.operator.toLowerCase() === 'notin' ? 'notin' : 'in'} (${e.values.join(', ')})`);
  }
  return parts.length ? parts.join(', ') : '(everything)';
}
