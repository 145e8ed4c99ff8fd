/**
 * The names the API server accepts in `metadata.name` and `metadata.namespace` of the built-in kinds, and its words
 * for a name it refuses. Sources (kubernetes v1.31):
 * - staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go: IsDNS1035Label, IsDNS1123Label,
 *   IsDNS1123Subdomain and their messages (RegexError, MaxLenError);
 * - pkg/apis/core/validation/validation.go: ValidateServiceName = NameIsDNS1035Label ("The name of a Service object
 *   must be a valid RFC 1035 label name", https://kubernetes.io/docs/concepts/services-networking/service/),
 *   ValidateNamespaceName = NameIsDNSLabel, ValidatePodName, ValidateConfigMapName, ValidateSecretName… =
 *   NameIsDNSSubdomain; apps, batch, networking and discovery validation use NameIsDNSSubdomain for theirs;
 * - staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor: the namespace of a
 *   namespaced object must be a DNS label: ValidateNamespaceName).
 * Kinds with other name rules (RBAC's path segments, `<plural>.<group>` of a CRD, Events) are not listed.
 */

/** The name rules of the API server, as apimachinery names them. */
export type NameRule = 'DNS-1035 label' | 'RFC 1123 label' | 'RFC 1123 subdomain';

const SUBDOMAIN_KINDS = [
  'Pod', 'ReplicationController', 'ConfigMap', 'Secret', 'ServiceAccount', 'Endpoints', 'PersistentVolumeClaim', 'PersistentVolume', 'Node',
  'PodTemplate', 'Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Ingress', 'NetworkPolicy', 'IngressClass', 'EndpointSlice',
];
const NAME_RULES: ReadonlyMap<string, NameRule> = new Map<string, NameRule>([
  ['Service', 'DNS-1035 label'],
  ['Namespace', 'RFC 1123 label'],
  ...SUBDOMAIN_KINDS.map((k) => [k, 'RFC 1123 subdomain'] as [string, NameRule]),
]);

/** Namespaced kinds among those of {@link NAME_RULES}: their `metadata.namespace` must be an RFC 1123 label. */
const NAMESPACED: ReadonlySet<string> = new Set(['Service', ...SUBDOMAIN_KINDS.filter((k) => !['PersistentVolume', 'Node', 'IngressClass'].includes(k))]);

/** The name rule of a built-in kind, or undefined when it has another one (or is not listed). */
export function nameRuleOf(kind: string): NameRule | undefined {
  return NAME_RULES.get(kind);
}

/** True when a `metadata.namespace` of the kind is validated as an RFC 1123 label. */
export function checksNamespace(kind: string): boolean {
  return NAMESPACED.has(kind);
}

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';

/** The API server's words for each rule, without the regex it quotes (the rule page has it). */
const RULE_TEXT: Record<NameRule, { readonly max: number; readonly pattern: RegExp; readonly words: string }> = {
  'DNS-1035 label': { max: 63, pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/, words: "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character" },
  'RFC 1123 label': { max: 63, pattern: new RegExp(`^${LABEL}$`), words: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character" },
  'RFC 1123 subdomain': { max: 253, pattern: new RegExp(`^${LABEL}(\\.${LABEL})*$`), words: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character" },
};

/** The API server's first complaint about `value` under `rule` (the length first, as apimachinery lists them), or undefined when valid. */
export function nameError(rule: NameRule, value: string): string | undefined {
  const r = RULE_TEXT[rule];
  if (value.length > r.max) return `must be no more than ${r.max} characters`;
  return r.pattern.test(value) ? undefined : r.words;
}

/**
 * True for a value that is still a placeholder some tool replaces before `kubectl apply` sees it: Flux and
 * envsubst `${VAR}`, kustomize `$(VAR)`, Go templates `{{ … }}`. Such a name is not judged.
 */
export function isPlaceholder(value: string): boolean {
  return /\$\{|\$\(|\{\{/.test(value);
}
