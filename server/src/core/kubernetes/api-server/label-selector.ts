import type { LabelSelector } from '../../model/views/label-selector';

/**
 * metav1.LabelSelector matching, as LabelSelectorAsSelector builds it: every `matchLabels` pair and every
 * `matchExpressions` requirement must hold (In: the label is one of the values; NotIn: absent or none of
 * them; Exists / DoesNotExist: the key is or is not set). An empty selector matches everything; a
 * requirement with an unknown operator matches nothing (the API server rejects such an object).
 * Source: kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector),
 * pkg/labels/selector.go (Requirement.Matches), v1.33.
 */
export function labelSelectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels)) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    switch (e.operator) {
      case 'In':
        if (!has || !e.values.includes(labels[e.key])) return false;
        break;
      case 'NotIn':
        if (has && e.values.includes(labels[e.key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True for `{}` (no matchLabels, no matchExpressions): selects every pod / object it is matched against. */
export function selectsEverything(selector: LabelSelector): boolean {
  return Object.keys(selector.matchLabels).length === 0 && selector.matchExpressions.length === 0;
}
