import { describe, type K8sObject, type WorkloadObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import { type LabelSelector, labelSelectorFrom } from '../../model/views/label-selector';
import { networkPolicyView } from '../../model/views/network-policy';
import { rawAt } from '../../model/views/raw-fields';
import { podSelectorMatches } from '../../kubernetes/controller-manager/pod-labels';
import type { SelectingByKey } from '../../kubernetes/api-server/pod-spec';

/** True when `selector` asks for the label `key` (in matchLabels or a matchExpressions requirement) and selects the Pods of `w`. */
function selectsByKey(selector: LabelSelector | undefined, w: WorkloadObject, key: string): boolean {
  if (!selector) return false;
  const asks = Object.hasOwn(selector.matchLabels, key) || selector.matchExpressions.some((e) => e.key === key);
  return asks && podSelectorMatches(selector, w);
}

/**
 * The objects of `model` that select the Pods of a workload with a label key as read (`true` for a written `on`),
 * which a quick fix changing that key in the workload alone would stop matching: Services (their selector), and in
 * the workload's namespace NetworkPolicies (`spec.podSelector`, and a peer's `podSelector` without a
 * `namespaceSelector`, which selects in the policy's namespace) and PodDisruptionBudgets (`spec.selector`). Each as
 * `Service shop/web`, in object order.
 */
export function selectingByKey(model: WorkspaceModel): SelectingByKey {
  return (w, key) => {
    const out = model.selectingServices(w).filter((s) => s.selector && Object.hasOwn(s.selector, key)).map(describe);
    for (const [o, selectors] of podSelectorsIn(model, w.namespace)) if (selectors.some((s) => selectsByKey(s, w, key))) out.push(describe(o));
    return out;
  };
}

/**
 * The objects of `model` in `namespace` whose Pod selector asks for the label `key` = `value` (keys as read: `true`
 * for a written `on`): Services, NetworkPolicies (`spec.podSelector`, a peer's `podSelector` without a
 * `namespaceSelector`) and PodDisruptionBudgets, as `Service shop/web`. For a Pod the API server refuses, which is
 * not in the model to match whole: each selector that asks for the label may select it once it is fixed.
 */
export function askingForLabel(model: WorkspaceModel, namespace: string, key: string, value: string): string[] {
  const asks = (s: Readonly<Record<string, string>> | undefined): boolean => s !== undefined && Object.hasOwn(s, key) && s[key] === value;
  const out = model.servicesIn(namespace).filter((s) => asks(s.selector)).map(describe);
  for (const [o, selectors] of podSelectorsIn(model, namespace)) if (selectors.some((s) => asks(s?.matchLabels))) out.push(describe(o));
  return out;
}

/**
 * The Pod selectors of the NetworkPolicies (`spec.podSelector`, and a peer's `podSelector` without a
 * `namespaceSelector`, which selects in the policy's namespace) and PodDisruptionBudgets (`spec.selector`) of
 * `namespace`, by object, in object order.
 */
function podSelectorsIn(model: WorkspaceModel, namespace: string): [K8sObject, (LabelSelector | undefined)[]][] {
  const out: [K8sObject, (LabelSelector | undefined)[]][] = [];
  for (const o of model.objects) {
    if (o.namespace !== namespace) continue;
    const policy = networkPolicyView(o);
    if (policy) {
      const peers = policy.rules.flatMap((r) => r.peers ?? []).filter((p) => !p.namespaceSelector).map((p) => p.podSelector);
      out.push([o, [policy.podSelector, ...peers]]);
    } else if (o.kind === 'PodDisruptionBudget' && o.group === 'policy') {
      out.push([o, [labelSelectorFrom(rawAt(o.raw, 'spec.selector'))]]);
    }
  }
  return out;
}
