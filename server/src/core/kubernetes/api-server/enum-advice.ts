import type { Span } from '../../source/span';
import type { FileText } from '../../source/string-number';

/**
 * The values validation accepts for string fields with a fixed set, by the field's Go type, in the order the advice
 * names them. A YAML 1.1 boolean or number there (`restartPolicy: yes`, `scheme: 1`) is a decode error, and quoting
 * it only moves the refusal to validation (`Unsupported value: "yes"`), so the advice names the values instead.
 * Sources, kubernetes v1.31: pkg/apis/core/validation/validation.go (validateInitContainerRestartPolicy,
 * supportedHTTPSchemes, supportedScheduleActions, supportedPortProtocols, supportedServiceType,
 * validExternalTrafficPolicies / validateServiceInternalTrafficFieldsValue, supportedServiceIPFamilyPolicy,
 * supportedSessionAffinityType, ValidateNodeSelectorRequirement),
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go (ValidateLabelSelectorRequirement),
 * pkg/apis/networking/validation/validation.go (supportedPathTypes).
 */
const ACCEPTED: Readonly<Record<string, readonly string[]>> = {
  'v1.ContainerRestartPolicy': ['Always'],
  'v1.URIScheme': ['HTTP', 'HTTPS'],
  'v1.UnsatisfiableConstraintAction': ['DoNotSchedule', 'ScheduleAnyway'],
  'v1.Protocol': ['TCP', 'UDP', 'SCTP'],
  'v1.ServiceType': ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'],
  'v1.ServiceExternalTrafficPolicy': ['Cluster', 'Local'],
  'v1.ServiceInternalTrafficPolicy': ['Cluster', 'Local'],
  'v1.IPFamilyPolicy': ['SingleStack', 'PreferDualStack', 'RequireDualStack'],
  'v1.ServiceAffinity': ['None', 'ClientIP'],
  'v1.PathType': ['Prefix', 'Exact', 'ImplementationSpecific'],
  'v1.LabelSelectorOperator': ['In', 'NotIn', 'Exists', 'DoesNotExist'],
  'v1.NodeSelectorOperator': ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'],
};

/**
 * The values validation accepts for a string field of Go type `goType` with a fixed set (see the table above), in
 * the order the API lists them; empty for another type. The checks that judge those fields take their lists here.
 */
export function acceptedValues(goType: string): readonly string[] {
  return ACCEPTED[goType] ?? [];
}

/** `Always`, `HTTP or HTTPS`, `TCP, UDP or SCTP`. */
function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/**
 * The advice for a boolean or number given to a field of Go type `goType` whose values are a fixed set, where
 * quoting the text written at `span` would still be refused: `; write Always`, `; use HTTP or HTTPS`. Undefined for
 * another field, or when the text as written, quoted, is itself accepted (then quoting is the fix).
 */
export function enumAdvice(goType: string, source: FileText | undefined, span: Span | undefined): string | undefined {
  const accepted = ACCEPTED[goType];
  if (!accepted) return undefined;
  const text = span ? source?.(span)?.slice(span.start, span.end) : undefined;
  if (text !== undefined && accepted.includes(text)) return undefined;
  return accepted.length === 1 ? `; write ${accepted[0]}` : `; use ${orList(accepted)}`;
}
