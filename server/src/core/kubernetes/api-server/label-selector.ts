import type { LabelSelector } from '../../model/views/label-selector';
import { acceptedValues } from './enum-advice';

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

/** What ValidateLabelSelectorRequirement refuses in one matchExpressions entry: the field and the API's detail. */
export interface RequirementRefusal {
  readonly field: 'operator' | 'values';
  /** As the API prints it after the field path (`Invalid value: "in": not a valid selector operator`). */
  readonly detail: string;
  /** A short fix for the message (`write In`, `remove values`). */
  readonly fix: string;
  /** Set when the values are refused for being more than one (Gt / Lt of a node selector requirement). */
  readonly many?: boolean;
}

const LABEL_OPERATORS = acceptedValues('v1.LabelSelectorOperator');

/**
 * The refusal of a metav1 LabelSelectorRequirement by the API server's validation, from its operator (`''` when
 * not written) and how many values it has: In / NotIn need values ("Required value: must be specified when
 * `operator` is 'In' or 'NotIn'"), Exists / DoesNotExist take none ("Forbidden: may not be specified when `operator`
 * is 'Exists' or 'DoesNotExist'"), any other operator is "not a valid selector operator" (operators are
 * case-sensitive). A selector so refused is not matched against anything: LabelSelectorAsSelector fails first.
 * Source: kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go
 * (ValidateLabelSelectorRequirement), v1.33.
 */
export function requirementRefusal(operator: string, valueCount: number): RequirementRefusal | undefined {
  switch (operator) {
    case 'In':
    case 'NotIn':
      return valueCount === 0 ? { field: 'values', detail: "Required value: must be specified when `operator` is 'In' or 'NotIn'", fix: 'give the values to match, or use Exists' } : undefined;
    case 'Exists':
    case 'DoesNotExist':
      return valueCount > 0 ? { field: 'values', detail: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", fix: 'remove values, or use In' } : undefined;
    default: {
      const match = LABEL_OPERATORS.find((o) => o.toLowerCase() === operator.toLowerCase());
      return { field: 'operator', detail: `Invalid value: ${JSON.stringify(operator)}: not a valid selector operator`, fix: match ? `write ${match}` : 'use In, NotIn, Exists or DoesNotExist' };
    }
  }
}

const NODE_OPERATORS = acceptedValues('v1.NodeSelectorOperator');

/**
 * The refusal of a NodeSelectorRequirement (a node affinity term's `matchExpressions`) by the API server's validation,
 * as {@link requirementRefusal} with the two operators nodes add: `Gt` and `Lt` take exactly one value ("Required
 * value: must be specified single value when `operator` is 'Lt' or 'Gt'"). Source: kubernetes
 * pkg/apis/core/validation/validation.go (ValidateNodeSelectorRequirement), v1.31.
 */
export function nodeRequirementRefusal(operator: string, valueCount: number): RequirementRefusal | undefined {
  if (operator === 'Gt' || operator === 'Lt') {
    return valueCount === 1 ? undefined : { field: 'values', detail: "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'", fix: 'give exactly one value (an integer)', ...(valueCount > 1 ? { many: true } : {}) };
  }
  const refusal = requirementRefusal(operator, valueCount);
  if (refusal?.field !== 'operator') return refusal;
  const match = NODE_OPERATORS.find((o) => o.toLowerCase() === operator.toLowerCase());
  return { ...refusal, fix: match ? `write ${match}` : 'use In, NotIn, Exists, DoesNotExist, Gt or Lt' };
}
