import type { Span } from '../../source/span';
import type { K8sObject } from '../../model/objects';
import { describe } from '../../model/objects';
import { entryOrDashSpanAt, rawAt, spanAt } from '../../model/views/raw-fields';
import { caseFix, jsonKindWords, jsonType, lowerCaseFix, SpecProblem, WrittenText } from './service-spec';
import { apiRejects, firstCause, portNameErrors, portNumErrors, shown, shownJson, supportedValues } from './validation';
import { int32Failure, isInt32, writtenNumber } from './json-numbers';
import { firstFitting } from '../../output/fit-message';
import { type FoundKind, mapValueProblem, rawMapValueProblems, type SelectedByKey } from './string-maps';
import { MAX_MAP_VALUES } from './object-envelope';
import { enumAdvice } from './enum-advice';
import { FileText, stringNumberAt, stringNumberWords, unstringHint, unstringSpan } from '../../source/string-number';
import { quoteAdvice, templateQuoteAdviceAt } from './string-advice';
import { requirementRefusal } from './label-selector';
import { misreadRequirementKeyAdvice } from './misread-keys';

/** NetworkPolicyPort `protocol` values, in the order the API server lists them (not sorted, unlike a Service's). */
export const POLICY_PROTOCOLS: readonly string[] = ['TCP', 'UDP', 'SCTP'];

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * Every `spec.ingress[].ports[]` and `spec.egress[].ports[]` entry of a networking.k8s.io/v1 NetworkPolicy that
 * the API server refuses, at the value concerned, quoting its error. Two stages, as in the API server:
 *
 * - decoding (the whole object is refused): a `ports` that is not a list or an entry that is not a mapping, an
 *   `endPort` that is not an int32 (`endPort: "8100"`), a `protocol` that is not a string, a `port` that is neither
 *   a number nor a string (IntOrString);
 * - ValidateNetworkPolicyPort: `protocol` not exactly `TCP`, `UDP` or `SCTP` (case-sensitive); a numeric `port` or
 *   an `endPort` outside 1–65535; `endPort` below `port`; `endPort` with a named `port` or without `port`; a named
 *   `port` that is not an IANA_SVC_NAME (a quoted number such as `"8080"` is a name, and an invalid one).
 *
 * The endPort-below-port error is quoted without its value: up to v1.35 the API server prints `port`'s value there,
 * from v1.36 `endPort`'s (kubernetes/kubernetes PR #137960). Sources: kubernetes
 * pkg/apis/networking/validation/validation.go (ValidateNetworkPolicySpec, ValidateNetworkPolicyPort, v1.33–v1.36);
 * staging/src/k8s.io/api/networking/v1/types.go (NetworkPolicyPort: protocol *v1.Protocol, port *IntOrString,
 * endPort *int32); staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go (UnmarshalJSON: a quoted value is a
 * string, anything else is decoded as an int32).
 */
export function networkPolicyPortProblems(policy: K8sObject, written?: WrittenText, source?: FileText): SpecProblem[] {
  const who = describe(policy);
  const spec = rawAt(policy.raw, 'spec');
  if (!isObject(spec)) return [];
  const out: SpecProblem[] = [];
  for (const direction of ['ingress', 'egress'] as const) {
    const rules = spec[direction];
    if (!Array.isArray(rules)) continue;
    const ruleStruct = direction === 'ingress' ? 'NetworkPolicyIngressRule' : 'NetworkPolicyEgressRule';
    rules.forEach((rule, r) => {
      if (!isObject(rule) || !isSet(rule.ports)) return;
      const listPath = `spec.${direction}.${r}.ports`;
      if (!Array.isArray(rule.ports)) {
        out.push(decodeError(spanAt(policy, listPath), `ports of ${direction} rule #${r} is ${jsonKindWords(rule.ports)}, not a list`, who, `json: cannot unmarshal ${jsonType(rule.ports)} into Go struct field ${ruleStruct}.spec.${direction}.ports of type []v1.NetworkPolicyPort`));
        return;
      }
      rule.ports.forEach((entry, i) => {
        const at = `${listPath}.${i}`;
        const api = `spec.${direction}[${r}].ports[${i}]`;
        if (entry === null) return; // decodes to an empty entry: every port of TCP
        if (!isObject(entry)) {
          out.push(decodeError(spanAt(policy, at), `port entry #${i} of ${direction} rule #${r} is ${jsonKindWords(entry)}, not a mapping with protocol, port, endPort`, who, `json: cannot unmarshal ${jsonType(entry)} into Go struct field ${ruleStruct}.spec.${direction}.ports of type v1.NetworkPolicyPort`));
          return;
        }
        out.push(...portEntryProblems(policy, entry, at, api, `NetworkPolicyPort.spec.${direction}.ports`, who, written, source));
      });
    });
  }
  return out;
}

/** One entry: decode errors first (they refuse the whole object, so validation messages would never be seen). */
function portEntryProblems(policy: K8sObject, entry: Raw, at: string, api: string, goStruct: string, who: string, written?: WrittenText, source?: FileText): SpecProblem[] {
  const span = (key: string): Span => spanAt(policy, `${at}.${key}`);
  const { protocol, port, endPort } = entry;
  const decode: SpecProblem[] = [];
  if (isSet(protocol) && typeof protocol !== 'string') {
    decode.push(decodeError(span('protocol'), `protocol ${shownJson(protocol)} is not a string`, who, `json: cannot unmarshal ${jsonType(protocol)} into Go struct field ${goStruct}.protocol of type v1.Protocol`, enumAdvice('v1.Protocol', source, span('protocol')) ?? quoteAdvice(source, span('protocol'))));
  }
  if (isSet(port) && typeof port !== 'string' && !isInt32(port)) {
    // IntOrString decodes anything unquoted as an int32, with the plain decoder's error (no field path).
    decode.push(typeof port === 'number'
      ? numberError(span('port'), 'port', port, who, `json: cannot unmarshal number ${String(port)} into Go value of type int32`, written)
      : decodeError(span('port'), `port ${shownJson(port)} is neither a port number nor a port name`, who, `json: cannot unmarshal ${jsonType(port)} into Go value of type int32`));
  }
  if (isSet(endPort) && !isInt32(endPort)) {
    if (typeof endPort === 'number') {
      decode.push(numberError(span('endPort'), 'endPort', endPort, who, int32Failure(endPort, `${goStruct}.endPort`)!.error, written));
    } else {
      const quoted = typeof endPort === 'string' && /^\d+$/.test(endPort);
      const asString = quoted ? stringNumberAt(source, span('endPort')) : undefined;
      const d = decodeError(span('endPort'), `endPort ${shownJson(endPort)} is not an integer`, who, `json: cannot unmarshal ${jsonType(endPort, true)} into Go struct field ${goStruct}.endPort of type int32`, quoted ? `; ${unstringHint(asString ?? { quoted: true, start: 0 })}` : '');
      decode.push(quoted ? { ...d, fixes: [{ title: `Change endPort "${endPort}" to ${Number(endPort)}`, edits: [{ span: unstringSpan(asString, d.span), newText: String(Number(endPort)) }], preferred: true }] } : d);
    }
  }
  if (decode.length) return decode;

  const out: SpecProblem[] = [];
  const rejects = (what: string, field: string, detail: string): string => apiRejects(what, who, `${api}.${field}`, detail);
  if (typeof protocol === 'string' && !POLICY_PROTOCOLS.includes(protocol)) {
    const loc = { value: protocol, span: span('protocol') };
    const fixes = caseFix(loc, POLICY_PROTOCOLS, 'protocol');
    const fix = fixes.length ? `; write ${fixes[0].edits[0].newText}` : '; use TCP, UDP or SCTP';
    out.push({
      span: loc.span,
      message: rejects(`protocol ${shown(protocol)} is not TCP, UDP or SCTP (case-sensitive)`, 'protocol', `Unsupported value: ${shown(protocol)}: supported values: ${supportedValues(POLICY_PROTOCOLS)}`) + fix,
      fixes,
    });
  }
  const hasEnd = typeof endPort === 'number';
  if (typeof port === 'number') {
    for (const detail of portNumErrors(port)) out.push({ span: span('port'), message: rejects(`port ${port} is not a port number`, 'port', `Invalid value: ${port}: ${detail}`) + '; use 1-65535' });
    if (hasEnd && endPort < port) {
      out.push({ span: span('endPort'), message: rejects(`endPort ${endPort} is below port ${port}, so the range ${port}-${endPort} is empty`, 'endPort', 'Invalid value: …: must be greater than or equal to `port`') + '; port is the first port of the range, endPort the last' });
    }
    if (hasEnd) for (const detail of portNumErrors(endPort)) out.push({ span: span('endPort'), message: rejects(`endPort ${endPort} is not a port number`, 'endPort', `Invalid value: ${endPort}: ${detail}`) + '; use 1-65535' });
  } else if (typeof port === 'string') {
    if (hasEnd) {
      out.push({ span: span('endPort'), message: rejects(`endPort ${endPort} is set with the named port ${shown(port)} (a range needs numbers)`, 'endPort', `Invalid value: ${endPort}: may not be specified when \`port\` is non-numeric`) + '; remove endPort or write port as a number' });
    }
    const quoted = /^\d+$/.test(port);
    const loc = { value: port, span: span('port') };
    const asString = quoted ? stringNumberAt(source, loc.span) ?? { quoted: true, start: loc.span.start } : undefined;
    const hint = asString ? ` (${stringNumberWords(asString)} is a port name; ${unstringHint(asString)})` : '';
    const fixes = quoted ? [{ title: `Change port ${shown(port)} to the number ${Number(port)}`, edits: [{ span: unstringSpan(asString, loc.span), newText: String(Number(port)) }], preferred: true }] : lowerCaseFix(loc, portNameErrors);
    const fix = quoted ? '' : fixes.length ? `; write ${shown(port.toLowerCase())}` : "; use a container port's name";
    for (const detail of firstCause(portNameErrors(port))) {
      out.push({ span: loc.span, message: rejects(`port ${shown(port)} is not a valid port name (IANA_SVC_NAME)${hint}`, 'port', `Invalid value: ${shown(port)}: ${detail}`) + fix, fixes });
    }
  } else if (hasEnd) {
    out.push({ span: span('endPort'), message: rejects(`endPort ${endPort} is set without port`, 'endPort', `Invalid value: ${endPort}: may not be specified when \`port\` is not specified`) + '; add port (the first port of the range)' });
  }
  return out;
}

function decodeError(span: Span, what: string, who: string, error: string, fix = ''): SpecProblem {
  return { span, message: `${what}: the API server cannot decode ${who} ("${error}")${fix}` };
}

/** A number that is not an int32: `.inf` / `.nan` stop kubectl's YAML-to-JSON conversion, others the decoder. */
function numberError(span: Span, field: string, value: number, who: string, decoderError: string, written?: WrittenText): SpecProblem {
  const failure = int32Failure(value, '')!;
  const shown = `${field} ${writtenNumber(value, written?.(span))} ${failure.what}`;
  return failure.by === 'kubectl'
    ? { span, message: `${shown}: kubectl cannot convert the manifest ("${failure.error}")` }
    : { span, message: `${shown}: the API server cannot decode ${who} ("${decoderError}")` };
}

/**
 * The parts of a selector's `matchExpressions` (`exprs`, at the raw path `at`; `api` and `goPath` as the API and the
 * decoder print its path) that the API server's decoder refuses, as the loader records them for a workload's
 * selectors: the list or an entry of the wrong type, a `key` or `operator` that is not a string, a `values` that is
 * not a list (`values: web`), and each element of `values` that is not a string (`values: [1, true]`: values is a
 * []string; at most 20, said as a matchLabels value is; null decodes to "" and passes); and the entries validation
 * refuses ({@link requirementRefusal}: `operator: in`, In without values, Exists with values, an entry written as null,
 * an empty requirement refused for its empty operator). Sources (v1.33):
 * apimachinery pkg/apis/meta/v1/types.go (LabelSelector.MatchExpressions, LabelSelectorRequirement: key string,
 * operator LabelSelectorOperator, values []string), pkg/apis/meta/v1/validation/validation.go
 * (ValidateLabelSelectorRequirement).
 */
function requirementProblems(policy: K8sObject, exprs: unknown, at: string, api: string, goPath: string, who: string, written?: WrittenText, source?: FileText): SpecProblem[] {
  if (!isSet(exprs)) return [];
  if (!Array.isArray(exprs)) {
    return [decodeError(spanAt(policy, at), `${api} is ${jsonKindWords(exprs)}, not a list of requirements (key, operator, values)`, who, `json: cannot unmarshal ${jsonType(exprs)} into Go struct field LabelSelector.${goPath} of type []v1.LabelSelectorRequirement`)];
  }
  const out: SpecProblem[] = [];
  exprs.forEach((entry, i) => {
    const path = `${at}.${i}`;
    if (entry !== null && !isObject(entry)) {
      const error = `json: cannot unmarshal ${jsonType(entry)} into Go struct field LabelSelector.${goPath} of type v1.LabelSelectorRequirement`;
      const full = decodeError(spanAt(policy, path), `${api}[${i}] is ${jsonKindWords(entry)}, not a mapping (key, operator, values)`, who, error);
      // A peer's long path leaves no room: the list's own name stands for it (the finding's place says which).
      out.push({ ...full, message: firstFitting(full.message, decodeError(full.span, `matchExpressions[${i}] is ${jsonKindWords(entry)}, not a mapping (key, operator, values)`, who, error).message) });
      return;
    }
    if (entry === null) {
      // An empty requirement to the decoder, which validation refuses for its empty operator.
      const base = apiRejects(`${api}[${i}] is null, an empty requirement (no key, no operator)`, who, `${api}[${i}].operator`, requirementRefusal('', 0)!.detail);
      out.push({ span: entryOrDashSpanAt(policy, path, source), message: firstFitting(`${base}; remove the entry`, base) });
      return;
    }
    for (const [field, goType] of [['key', 'string'], ['operator', 'v1.LabelSelectorOperator']] as const) {
      const v = entry[field];
      const span = spanAt(policy, `${path}.${field}`);
      if (isSet(v) && typeof v !== 'string') out.push(decodeError(span, `${field} ${shownJson(v)} is ${jsonKindWords(v)}, not a string`, who, `json: cannot unmarshal ${jsonType(v)} into Go struct field LabelSelectorRequirement.${goPath}.${field} of type ${goType}`, enumAdvice(goType, source, span) ?? templateQuoteAdviceAt(source, span) ?? (field === 'key' ? misreadRequirementKeyAdvice(policy, v, span, source) : undefined) ?? '; quote it'));
    }
    const values = entry.values;
    if (isSet(values) && !Array.isArray(values)) {
      out.push(decodeError(spanAt(policy, `${path}.values`), `values ${shownJson(values)} is ${jsonKindWords(values)}, not a list of strings`, who, `json: cannot unmarshal ${jsonType(values)} into Go struct field LabelSelectorRequirement.${goPath}.values of type []string`));
      return;
    }
    const operator = entry.operator;
    if (!isSet(operator) || typeof operator === 'string') {
      const op = typeof operator === 'string' ? operator : '';
      const refusal = requirementRefusal(op, Array.isArray(values) ? values.length : 0);
      if (refusal) {
        const what = refusal.field === 'operator' ? `selector operator ${shown(op)} is not a valid operator` : `selector requirement (${op}) has ${Array.isArray(values) && values.length ? 'values' : 'no values'}`;
        const base = apiRejects(what, who, `${api}[${i}].${refusal.field}`, refusal.detail);
        out.push({ span: spanAt(policy, refusal.field === 'operator' || Array.isArray(values) ? `${path}.${refusal.field}` : path), message: firstFitting(`${base}; ${refusal.fix}`, base) });
      }
    }
    if (!Array.isArray(values)) return;
    let n = 0;
    values.forEach((v, k) => {
      if (v === null || typeof v === 'string' || n++ >= MAX_MAP_VALUES) return;
      out.push(mapValueProblem({ span: spanAt(policy, `${path}.values.${k}`), path: `${api}[${i}].values`, key: k, found: jsonType(v) as FoundKind, value: v, goField: `LabelSelectorRequirement.${goPath}.values`, who, editable: true }, written, source));
    });
  });
  return out;
}

/**
 * The label selectors of a networking.k8s.io/v1 NetworkPolicy (`spec.podSelector`, and the `podSelector` and
 * `namespaceSelector` of every `from` / `to` peer) whose matchLabels or matchExpressions the API server's decoder refuses: a
 * selector or a matchLabels that is not a mapping, or a value that is not a string (`matchLabels: {tier: 1}`, at
 * most 20 per map; a null value decodes to the empty string and passes), said as {@link rawMapValueProblems}, and
 * the matchExpressions of {@link requirementProblems}.
 * Sources: staging/src/k8s.io/api/networking/v1/types.go (NetworkPolicySpec.PodSelector, NetworkPolicyPeer.PodSelector /
 * NamespaceSelector *metav1.LabelSelector), apimachinery pkg/apis/meta/v1/types.go (LabelSelector.MatchLabels
 * map[string]string), v1.33. `selected`: the workloads of the policy's namespace whose Pods carry a label (a misread
 * key's fix keeps the key as the Pods carry it; a namespaceSelector selects Namespaces, not Pods).
 */
export function networkPolicySelectorProblems(policy: K8sObject, written?: WrittenText, source?: FileText, selected?: SelectedByKey): SpecProblem[] {
  const spec = rawAt(policy.raw, 'spec');
  if (!isObject(spec)) return [];
  const who = describe(policy);
  const out: SpecProblem[] = [];
  /** `at`: the raw path (indices as steps); `api`: the path as the API prints it; `goPath`: the decoder's (no indices). */
  const selector = (value: unknown, at: string, api: string, goPath: string, holder: string): void => {
    if (!isSet(value)) return;
    if (!isObject(value)) {
      out.push(decodeError(spanAt(policy, at), `${api} is ${jsonKindWords(value)}, not a mapping (matchLabels, matchExpressions)`, who, `json: cannot unmarshal ${jsonType(value)} into Go struct field ${holder}.${goPath} of type v1.LabelSelector`));
      return;
    }
    const labels = value.matchLabels;
    if (isSet(labels) && !isObject(labels)) {
      out.push(decodeError(spanAt(policy, `${at}.matchLabels`), `${api}.matchLabels is ${jsonKindWords(labels)}, not a mapping of strings`, who, `json: cannot unmarshal ${jsonType(labels)} into Go struct field LabelSelector.${goPath}.matchLabels of type map[string]string`, '; give a mapping of key: "value" strings'));
    } else if (isObject(labels)) {
      out.push(...rawMapValueProblems(policy, labels, `${at}.matchLabels`, `${api}.matchLabels`, `LabelSelector.${goPath}.matchLabels`, who, written, source, at.endsWith('podSelector') ? selected : undefined));
    }
    out.push(...requirementProblems(policy, value.matchExpressions, `${at}.matchExpressions`, `${api}.matchExpressions`, `${goPath}.matchExpressions`, who, written, source));
  };
  selector(spec.podSelector, 'spec.podSelector', 'spec.podSelector', 'spec.podSelector', 'NetworkPolicySpec');
  for (const direction of ['ingress', 'egress'] as const) {
    const rules = spec[direction];
    if (!Array.isArray(rules)) continue;
    const peersKey = direction === 'ingress' ? 'from' : 'to';
    rules.forEach((rule, r) => {
      const peers = isObject(rule) ? rule[peersKey] : undefined;
      if (!Array.isArray(peers)) return;
      peers.forEach((peer, p) => {
        if (!isObject(peer)) return;
        for (const field of ['podSelector', 'namespaceSelector']) {
          selector(peer[field], `spec.${direction}.${r}.${peersKey}.${p}.${field}`, `spec.${direction}[${r}].${peersKey}[${p}].${field}`, `spec.${direction}.${peersKey}.${field}`, 'NetworkPolicyPeer');
        }
      });
    });
  }
  return out;
}
