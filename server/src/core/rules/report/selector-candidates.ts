import type { WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';

/** The pod template whose labels come closest to a Service selector, and how they differ. */
export interface SelectorCandidate {
  readonly workload: WorkloadObject;
  /** Selector entries the template has. */
  readonly matched: readonly string[];
  /** `tier=front` (has another value) or `no tier` (lacks the key), per unmatched selector entry. */
  readonly differences: readonly string[];
}

/**
 * The workload of `candidates` whose pod labels match the most selector entries (then: has the most of its
 * keys), if any matches one entry or has one key; ties go to the first in object order.
 */
export function nearestPodTemplate(selector: Readonly<Record<string, string>>, candidates: readonly WorkloadObject[]): SelectorCandidate | undefined {
  let best: { w: WorkloadObject; score: number } | undefined;
  const entries = Object.entries(selector);
  for (const w of candidates) {
    const labels = w.pod.labels;
    const matched = entries.filter(([k, v]) => labels[k] === v).length;
    const keys = entries.filter(([k]) => k in labels).length;
    const score = matched * 1000 + keys;
    if (score > 0 && (!best || score > best.score)) best = { w, score };
  }
  if (!best) return undefined;
  const labels = best.w.pod.labels;
  return {
    workload: best.w,
    matched: entries.filter(([k, v]) => labels[k] === v).map(([k, v]) => `${k}=${v}`),
    differences: entries.filter(([k, v]) => labels[k] !== v).map(([k]) => (k in labels ? `${k}=${labels[k]}` : `no ${k}`)),
  };
}

/** `Deployment shop/web-v2 (tier=front, no track)` — the candidate and what it has instead. */
export function candidateText(c: SelectorCandidate): string {
  return `${describe(c.workload)} (${c.differences.join(', ')})`;
}
