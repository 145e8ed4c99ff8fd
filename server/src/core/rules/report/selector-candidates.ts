import type { ServiceObject, WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import { indexesOf, selectorMatches, WorkspaceModel } from '../../model/workspace-model';
import { selectorIndexKeys, workloadsUnder } from '../../model/model-indexes';
import { controllerLabelText, serviceSelectorMatches } from '../../kubernetes/controller-manager/pod-labels';

/** The pod template whose labels come closest to a Service selector, and how they differ. */
export interface SelectorCandidate {
  readonly workload: WorkloadObject;
  /** Selector entries the template has. */
  readonly matched: readonly string[];
  /**
   * `tier=front` (has another value), `no tier` (lacks the key) or, for a label the controller sets on the Pods,
   * what they carry (`statefulset.kubernetes.io/pod-name: web-0 … web-1 (replicas 2)`), per unmatched selector entry.
   */
  readonly differences: readonly string[];
}

/**
 * The workload of `candidates` whose pod labels match the most selector entries (then: has the most of its
 * keys), if any matches one entry or has one key; ties go to the first in object order.
 */
export function nearestPodTemplate(selector: Readonly<Record<string, string>>, candidates: readonly WorkloadObject[]): SelectorCandidate | undefined {
  let best: { w: WorkloadObject; score: number } | undefined;
  const entries = Object.entries(selector);
  // Per entry, as the Pods carry it: template labels and the labels their controller adds.
  const holds = (w: WorkloadObject, k: string, v: string): boolean => serviceSelectorMatches({ [k]: v }, w);
  const hasKey = (w: WorkloadObject, k: string): boolean => k in w.pod.labels || controllerLabelText(w, k) !== undefined;
  for (const w of candidates) {
    const matched = entries.filter(([k, v]) => holds(w, k, v)).length;
    const keys = entries.filter(([k]) => hasKey(w, k)).length;
    const score = matched * 1000 + keys;
    if (score > 0 && (!best || score > best.score)) best = { w, score };
  }
  if (!best) return undefined;
  const w = best.w;
  return {
    workload: w,
    matched: entries.filter(([k, v]) => holds(w, k, v)).map(([k, v]) => `${k}=${v}`),
    differences: entries.filter(([k, v]) => !holds(w, k, v)).map(([k]) => {
      const set = controllerLabelText(w, k);
      if (set !== undefined) return `${k} ${set}`;
      return Object.hasOwn(w.pod.labels, k) ? `${k}=${w.pod.labels[k]}` : `no ${k}`;
    }),
  };
}

/** `Deployment shop/web-v2 (tier=front, no track)` — the candidate and what it has instead. */
export function candidateText(c: SelectorCandidate): string {
  return `${describe(c.workload)} (${c.differences.join(', ')})`;
}

/**
 * Pod templates of OTHER namespaces (of the same model, i.e. the same cluster) whose labels carry every key/value
 * of the Service's selector: a Service selects Pods of its own namespace only, so such a match says the
 * Service's namespace is probably wrong. Looked up through the model's label index (not pairwise), in object
 * order; `skip` leaves out partial objects (kustomize patches).
 */
export function matchesInOtherNamespaces(model: WorkspaceModel, svc: ServiceObject, skip: (w: WorkloadObject) => boolean = () => false): WorkloadObject[] {
  const selector = svc.selector;
  const keys = selector ? Object.keys(selector) : [];
  if (!selector || keys.length === 0) return [];
  const byLabel = indexesOf(model)?.byLabel;
  const candidates = byLabel
    ? workloadsUnder(byLabel, selectorIndexKeys(selector))
    : model.namespaces().flatMap((ns) => model.workloadsIn(ns));
  return candidates.filter((w) => w.namespace !== svc.namespace && !skip(w) && selectorMatches(selector, w));
}

/** `Deployment shop/web (namespace shop)`, or `Deployment shop/web and 2 more in namespaces shop, store`. */
export function otherNamespaceText(matches: readonly WorkloadObject[]): string {
  const namespaces = [...new Set(matches.map((w) => w.namespace))];
  const first = describe(matches[0]);
  const more = matches.length > 1 ? ` and ${matches.length - 1} more` : '';
  return `${first}${more} in namespace${namespaces.length > 1 ? 's' : ''} ${namespaces.slice(0, 3).join(', ')}${namespaces.length > 3 ? ', …' : ''}`;
}
