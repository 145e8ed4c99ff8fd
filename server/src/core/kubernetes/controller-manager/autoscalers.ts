import type { K8sObject } from '../../model/objects';

/** A HorizontalPodAutoscaler's replica bounds for its target. */
export interface Autoscaler {
  readonly hpa: K8sObject;
  readonly min: number;
  readonly max: number;
}

/** {@link autoscalersOf} per object list (a model's lists are not changed once made). */
const byList = new WeakMap<readonly K8sObject[], ReadonlyMap<string, Autoscaler>>();

/**
 * The HorizontalPodAutoscalers of the objects by target (`Kind/namespace/name` of `spec.scaleTargetRef`, in the
 * HPA's namespace); `minReplicas` defaults to 1. An HPA without an integer `maxReplicas` (required) is left out.
 * Source: https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/horizontal-pod-autoscaler-v2/ (v1.33).
 */
export function autoscalersOf(objects: readonly K8sObject[]): ReadonlyMap<string, Autoscaler> {
  // Several rules of one run ask for the same model's list (traffic-policy coverage, selectors, hostPort replicas).
  const known = byList.get(objects);
  if (known) return known;
  const out = new Map<string, Autoscaler>();
  byList.set(objects, out);
  for (const o of objects) {
    if (o.kind !== 'HorizontalPodAutoscaler' || o.group !== 'autoscaling') continue;
    const spec = (o.raw.spec ?? {}) as { scaleTargetRef?: { kind?: unknown; name?: unknown }; minReplicas?: unknown; maxReplicas?: unknown };
    const ref = spec.scaleTargetRef;
    if (!ref || typeof ref.kind !== 'string' || typeof ref.name !== 'string' || !Number.isInteger(spec.maxReplicas)) continue;
    const min = Number.isInteger(spec.minReplicas) ? (spec.minReplicas as number) : 1;
    const key = `${ref.kind}/${o.namespace}/${ref.name}`;
    if (!out.has(key)) out.set(key, { hpa: o, min, max: spec.maxReplicas as number });
  }
  return out;
}
