import { fileTextOf } from '../render/source-map';
import { describe } from '../model/objects';
import type { Span } from '../source/span';
import { isNetworkPolicy } from '../model/views/network-policy';
import { networkPolicyProblems } from '../kubernetes/api-server/rejection';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'networkpolicy-spec-invalid';

/** NetworkPolicy port entries and label selectors the API server's decoder or ValidateNetworkPolicyPort rejects (see explanation). */
export const networkpolicySpecInvalid: Rule = {
  id,
  title: 'NetworkPolicy port or selector the API server rejects',
  severity: 'error',
  reportsRejection: true,
  decidesRejection: true,
  explanation: [
    'The API server validates every NetworkPolicy before storing it; `kubectl apply` fails with',
    '`The NetworkPolicy "x" is invalid: …` and the policy — every rule of it — is never enforced. This rule reports, at',
    'the offending value of each `spec.ingress[].ports[]` and `spec.egress[].ports[]` entry and quoting the API server:',
    '',
    '- a `protocol` other than `TCP`, `UDP` or `SCTP`: the values are case-sensitive, so `tcp` is rejected',
    '  (`Unsupported value: "tcp": supported values: "TCP", "UDP", "SCTP"`; a quick fix corrects the case);',
    '- a numeric `port` or an `endPort` outside 1–65535 (`must be between 1 and 65535, inclusive`);',
    '- an `endPort` below `port` ("must be greater than or equal to `port`"). The error\'s value is shown as "…":',
    '  API servers up to v1.35 print the `port` there, v1.36 and later the `endPort`;',
    '- an `endPort` with a named `port` ("may not be specified when `port` is non-numeric") — a range needs numbers —',
    '  or without any `port` ("may not be specified when `port` is not specified");',
    '- a named `port` that is not an IANA service name (at most 15 characters, a-z 0-9 and `-`, at least one letter,',
    '  no `--`, no `-` at either end). A quoted number such as `port: "8080"` is a *name* to the API and fails with',
    '  `must contain at least one letter (a-z)`; a quick fix removes the quotes;',
    '- values of the wrong type, which the decoder refuses before validation (`json: cannot unmarshal string into Go',
    '  struct field NetworkPolicyPort.spec.ingress.ports.endPort of type int32`): a quoted `endPort` (a quick fix',
    '  removes the quotes), a `protocol` that is not a string, a `port` that is a boolean or not an integer, a `ports`',
    '  that is not a list or an entry that is not a mapping;',
    '- a `matchLabels` value YAML reads as a number, a boolean or a collection in `spec.podSelector` or in the',
    '  `podSelector` / `namespaceSelector` of a `from` or `to` peer: kubectl converts YAML as YAML 1.1 reads it, so an',
    '  unquoted `1`, `0123` (octal 83), `yes` or `on` is no string, and the decoder refuses the policy (`json: cannot',
    '  unmarshal number into Go struct field LabelSelector.spec.podSelector.matchLabels of type string`). One finding',
    '  per value (up to 20 per map), with a quick fix that quotes it as written (a tagged value, `!!int 3`, loses its',
    '  tag, which decides the type whatever the quotes; a key YAML 1.1 reads otherwise, `on` read as `true`, is quoted',
    '  too, except in a `podSelector` when workloads of the namespace carry the key as read and none as written: then only',
    '  the value is quoted, `on: "yes"`, and the message names them); a null value decodes to "" and is accepted. A selector or a `matchLabels` written as a string or a list is',
    '  refused too;',
    '- the same selectors\' `matchExpressions` of the wrong type: `values` is a list of strings, so `values: web` and',
    '  `values: [1, true]` are refused (`json: cannot unmarshal number into Go struct field',
    '  LabelSelectorRequirement.spec.podSelector.matchExpressions.values of type string`; one finding per value, with',
    '  the quick fix that quotes it), as are a `key` or `operator` that is not a string, and a `matchExpressions` or',
    '  entry that is not a list or mapping. A null value decodes to "" and is accepted; a null entry decodes to an',
    '  empty requirement (below);',
    '- the same selectors\' `matchExpressions` entries that validation refuses: an operator that is not one (`in`:',
    '  `not a valid selector operator`; operators are case-sensitive), `In` or `NotIn` without values, `Exists` or',
    '  `DoesNotExist` with values, and an entry written as null (`- ` alone), an empty requirement refused for its',
    '  empty operator (`Invalid value: "": not a valid selector operator`).',
    '',
    'Whether a valid port matches any pod is `networkpolicy-port-unresolved`\'s concern. Live cluster objects are',
    'skipped (the API server already accepted them).',
    '',
    'A value that breaks several of the API\'s checks (`${PORT}` as a port name breaks two) gets one finding, quoting',
    'the first of the API server\'s messages; written values over 24 characters and names over 63 are cut (`…`).',
  ].join('\n'),
  sources: [
    'kubernetes pkg/apis/networking/validation/validation.go (ValidateNetworkPolicySpec, ValidateNetworkPolicyPort, v1.33)',
    'https://github.com/kubernetes/kubernetes/pull/137960 (the endPort error prints endPort\'s value instead of port\'s, v1.36)',
    'kubernetes staging/src/k8s.io/api/networking/v1/types.go (NetworkPolicyPort: protocol, port IntOrString, endPort int32; NetworkPolicySpec.PodSelector, NetworkPolicyPeer.PodSelector / NamespaceSelector *metav1.LabelSelector, v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go (LabelSelector.MatchLabels map[string]string, LabelSelector.MatchExpressions, LabelSelectorRequirement: key string, operator LabelSelectorOperator, values []string, v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go (ValidateLabelSelectorRequirement, v1.33)',
    'sigs.k8s.io/yaml v1.4 (kubectl\'s YAML → JSON, go-yaml v2 YAML 1.1: unquoted yes/no/on/off are booleans, 0123 is octal)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsValidPortNum, IsValidPortName, v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go (IntOrString.UnmarshalJSON, v1.33)',
  ],
  judgesEachObject: true,
  judgesObjectAlone: true,
  check({ model, files }) {
    const findings: Finding[] = [];
    const written = (span: Span): string | undefined => files?.get(span.file)?.text.slice(span.start, span.end);
    const source = fileTextOf(files);
    for (const obj of model.objects) {
      if (!isNetworkPolicy(obj) || obj.apiVersion !== 'networking.k8s.io/v1' || obj.origin.type !== 'file') continue;
      const selected = (key: string, value: string) => model.workloadsIn(obj.namespace).filter((w) => w.pod.labels[key] === value && Object.hasOwn(w.pod.labels, key)).map(describe);
      for (const p of networkPolicyProblems(obj, written, source, selected)) {
        findings.push({ ruleId: id, severity: 'error', message: p.message, span: p.span, object: refOf(obj), related: p.related ?? [], fixes: p.fixes ?? [] });
      }
    }
    return findings;
  },
};
