import type { Fix, Rule, RuleContext } from './rule';
import { quoteScalarFix } from './fixes/quote-scalar';
import type { LoadProblem } from '../load/load-file';
import { fileTextOf } from '../render/source-map';
import type { FileText } from '../source/string-number';
import { templateQuoteAdviceAt } from '../kubernetes/api-server/string-advice';

/**
 * The message of a load problem, its advice on quoting told again for a value a chart's template writes (the
 * loader read the rendered manifest, where quoting the values file would change nothing; see TemplateWriting).
 */
function advised(p: LoadProblem, source: FileText): string {
  const template = p.advice !== undefined ? templateQuoteAdviceAt(source, p.span) : undefined;
  return template !== undefined && p.message.endsWith(p.advice!) ? `${p.message.slice(0, p.message.length - p.advice!.length)}${template}` : p.message;
}
import { askingForLabel } from './report/selecting-by-key';
import { firstAndMore } from '../kubernetes/api-server/misread-keys';
import { firstFitting } from '../output/fit-message';

/** Objects kubectl or the API server refuse for their envelope (apiVersion, kind, metadata, spec shape); documents that are not objects. */
export const objectInvalid: Rule = {
  id: 'object-invalid',
  title: 'Object kubectl or the API server cannot accept',
  severity: 'error',
  reportsRejection: true,
  explanation: [
    'Before any field is validated, every manifest must be a Kubernetes object: a mapping with `apiVersion`, `kind`',
    'and `metadata.name`, whose `metadata` and `spec` are mappings. kube-netlint reports what kubectl or the API',
    'server says otherwise, on the value concerned, and leaves such an object out of every other check (it would never',
    'exist in the cluster, so it cannot collide with anything):',
    '',
    "- no `kind` or no `apiVersion`: kubectl cannot decode the document (`Object 'Kind' is missing in '…'`);",
    '- a built-in kind under the apiVersion of another built-in group (`apiVersion: apps/v1` with `kind: Service`,',
    '  `v1` with `Deployment`) or spelled in another case (`kind: service`): no API group serves it, so kubectl maps it',
    '  to no resource (`no matches for kind "Service" in version "apps/v1"`). Groups that may serve the kind are not',
    '  judged: older built-in groups (`extensions/v1beta1`), `events.k8s.io`, custom resource groups (Knative\'s',
    '  `serving.knative.dev` Service);',
    '- no `metadata.name` (nor `generateName`): `metadata.name: Required value: name or generateName is required`;',
    '- `metadata` or `spec` written as a list or a string: the API server cannot decode the object',
    '  (`Service in version "v1" cannot be handled as a Service: json: cannot unmarshal string into Go struct field',
    '  Service.spec of type v1.ServiceSpec`);',
    '- a string field of `metadata` (`name`, `namespace`, `generateName`, a label or annotation value…) that YAML',
    '  reads as a boolean or a number: kubectl converts YAML as YAML 1.1 does, so an unquoted `on`, `off`, `yes`, `no`,',
    '  `y`, `n` is a boolean and `0123` (octal 83) or `1.10` (1.1) a number, and the API server refuses the object',
    '  (`json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.namespace of type string`). The quick fix',
    '  quotes the value as written; a tagged value (`!!int 3`, `!!bool "yes"`) loses its tag, which decides the type',
    '  whatever the quotes, and a label or annotation key YAML 1.1 reads otherwise (`on: 80` is the label `true`,',
    '  `1.10` the label `1.1`) is quoted with the value, except a Pod\'s label key that a Service, NetworkPolicy or',
    '  PodDisruptionBudget of its namespace asks for as read (quoted alone, the key would no longer match them): the',
    '  message then names them, with no quick fix. Such an object is not read at all, so no object of namespace',
    '  `true` appears.',
    '- a `metadata.name` the kind does not allow: a Service name must be a DNS-1035 label (`[a-z]([-a-z0-9]*[a-z0-9])?`,',
    '  at most 63 characters: no dot, no leading digit), a Namespace name an RFC 1123 label (`[a-z0-9]([-a-z0-9]*[a-z0-9])?`,',
    '  at most 63), and the names of Pods, ConfigMaps, Secrets, ServiceAccounts, Endpoints, PersistentVolume(Claim)s,',
    '  Nodes, PodTemplates, Deployments, DaemonSets, StatefulSets, ReplicaSets, Jobs, CronJobs, Ingresses,',
    '  IngressClasses, NetworkPolicies and EndpointSlices RFC 1123 subdomains (labels joined by dots, at most 253);',
    '  the `metadata.namespace` of a namespaced one an RFC 1123 label. The message quotes the API server',
    '  (`metadata.name: Invalid value: "Web_App": a DNS-1035 label must consist of lower case alphanumeric characters',
    "  or '-', start with an alphabetic character, and end with an alphanumeric character`). A `generateName`, a",
    '  placeholder another tool replaces before kubectl sees it (`${VAR}`, `$(VAR)`, `{{ … }}`) and the kinds with other',
    '  name rules (RBAC roles and bindings, CustomResourceDefinitions, Events, custom resources) are not judged; the',
    '  names of rendered Helm and kustomize output are judged as rendered (prefixes, suffixes and hashes included).',
    '',
    'Messages quote the decoder\'s error; for a built-in kind the API server prints it after',
    '`<Kind> in version "<version>" cannot be handled as a <Kind>: ` (left out of the message to keep it short).',
    '',
    'A document that is a list or a scalar holds no object: it gets one **info** finding, since nothing in it is',
    'checked. Mappings with neither `apiVersion` nor `kind` (Helm values files, CI configs) are not objects and are',
    'skipped silently; the name and apiVersion checks apply only to the built-in kinds, so other tools\' YAML that',
    'reuses `kind:` (a kubeconfig, a kind cluster config) is never reported. Files a kustomization uses as patches',
    'are partial on purpose and are not checked.',
  ].join('\n'),
  sources: [
    "kubernetes staging/src/k8s.io/apimachinery/pkg/runtime/error.go (NewMissingKindErr, NewMissingVersionErr: \"Object 'Kind' is missing in\", v1.33)",
    'kubernetes staging/src/k8s.io/apimachinery/pkg/api/meta/errors.go (NoKindMatchError: "no matches for kind \\"Service\\" in version \\"apps/v1\\"", v1.31)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor: "name or generateName is required", v1.33)',
    'kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (transformDecodeError: "cannot be handled as a", v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsDNS1035Label, IsDNS1123Label, IsDNS1123Subdomain, v1.31)',
    'kubernetes pkg/apis/core/validation/validation.go (ValidateServiceName = NameIsDNS1035Label, ValidateNamespaceName = NameIsDNSLabel, v1.31)',
    'https://kubernetes.io/docs/concepts/overview/working-with-objects/names/ (v1.31)',
    'sigs.k8s.io/yaml YAMLToJSON on go-yaml v2 resolve.go (y, yes, on, n, no, off… are booleans; 0123 is octal), as kubectl reads manifests',
    'sigs.k8s.io/yaml v1.4 yaml.go (convertToJSONableObject: a bool or number map key becomes the JSON key "true", "16", "1.1"); go-yaml v2 decode.go (a scalar with an explicit !!int / !!bool tag is resolved by its tag, quoted or not); checked with kubectl v1.31.9 (kubectl label --local -o json)',
  ],
  check({ model, config, layout, files }) {
    const patches: ReadonlySet<string> = layout?.patchFiles ?? new Set();
    const source = fileTextOf(files);
    return model.problems
      .filter((p) => p.code.startsWith('OBJECT_') && !patches.has(p.span.file))
      .map((p) => {
        const fixes = p.quotable ? quoteScalarFix(files?.get(p.span.file)?.text, p.span, p.key?.span, p.key?.read) : [];
        return { ruleId: 'object-invalid', severity: p.severity, ...keptSelections(model, config.namespace, { ...p, message: advised(p, source) }, fixes), span: p.span, related: [] };
      });
  },
};

/**
 * The message and quick fixes of a problem, safe for the selectors of a Pod: quoting a misread label key of a Pod
 * (`on: 1` → `"on": "1"`, the label `on` instead of `true`) would leave out of their match the Services, NetworkPolicies
 * and PodDisruptionBudgets that ask for the label as kubectl reads it (`true`; a Service would get no endpoints).
 * Then no fix is offered, and the message names them, so that they change with it (a fix reaching into other objects,
 * often other files, would edit what the author did not point at). When the message has no room for them, the
 * reading of the key gives way (the rule's page explains it). `defaultNamespace`: a Pod's namespace when it writes none.
 */
function keptSelections(model: RuleContext['model'], defaultNamespace: string, p: LoadProblem, fixes: readonly Fix[]): { message: string; fixes: readonly Fix[] } {
  const key = p.key;
  if (!key?.pod || !fixes[0]?.edits.some((e) => e.span.start === key.span.start)) return { message: p.message, fixes };
  const users = askingForLabel(model, key.pod.namespace ?? defaultNamespace, key.read, key.pod.value);
  if (users.length === 0) return { message: p.message, fixes };
  const also = `, and the key in ${firstAndMore(users)}, which select${users.length > 1 ? '' : 's'} by ${key.read} too`;
  return { message: firstFitting(`${p.message}${also}`, `${p.message.replace(/ \(YAML 1\.1 reads [^)]*\)/, '')}${also}`), fixes: [] };
}
