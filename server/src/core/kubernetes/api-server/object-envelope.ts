/**
 * What kubectl and the API server say about an object's envelope — `apiVersion`, `kind`, `metadata` and the
 * shape of `spec` — before any field of the spec is looked at. Pure: it reads values through an
 * {@link EnvelopeView}, so it does not depend on the YAML parser.
 *
 * Sources (kubernetes v1.33):
 * - `Object 'Kind' is missing in '…'` / `Object 'apiVersion' is missing in '…'`:
 *   staging/src/k8s.io/apimachinery/pkg/runtime/error.go (NewMissingKindErr, NewMissingVersionErr), returned by
 *   the JSON serializer and the unstructured decoder that kubectl uses for every manifest;
 * - `metadata.name: Required value: name or generateName is required`:
 *   staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor);
 * - `<Kind> in version "<v>" cannot be handled as a <Kind>: <decode error>`:
 *   staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (transformDecodeError), wrapping the JSON
 *   decoder's `json: cannot unmarshal <type> into Go struct field <Struct>.<path> of type <type>`
 *   (sigs.k8s.io/json, the API server's decoder, keeps encoding/json's UnmarshalTypeError text).
 */
import type { Span } from '../../source/span';
import { checksNamespace, isPlaceholder, nameError, nameRuleOf } from './object-names';
import { ScalarWriting, stringAdvice } from './string-advice';

/** JSON type of a value, as Go's decoder names it in `cannot unmarshal <type>`. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'bool' | 'null';

/** Read access to one candidate object, by dotted path below its root (`''` = the root itself). */
export interface EnvelopeView {
  /** The JSON type at `path`, or undefined when the key is absent. */
  kindOf(path: string): JsonKind | undefined;
  /** The scalar at `path` (undefined when absent or a collection). */
  scalar(path: string): string | number | boolean | null | undefined;
  /** Where the value at `path` is written. */
  span(path: string): Span | undefined;
  /**
   * The entries of the mapping at `path` whose value is neither a string nor null (keys may contain dots:
   * `app.kubernetes.io/name`), in order; undefined when not a mapping. Only these: a labels or annotations map of
   * strings (the usual one) costs no entry.
   */
  nonStringEntries(path: string): readonly EnvelopeEntry[] | undefined;
  /** How the scalar at `path` is written (its tag, its quotes), when known. */
  writing?(path: string): ScalarWriting | undefined;
}

/** One key/value of a mapping, as {@link EnvelopeView.nonStringEntries} gives it. */
export interface EnvelopeEntry {
  readonly key: string;
  readonly kind: JsonKind | undefined;
  readonly scalar: string | number | boolean | null | undefined;
  readonly span: Span | undefined;
  /** How the value (and its key) is written, when known: a tag, quotes, a key YAML 1.1 reads otherwise. */
  readonly writing?: ScalarWriting;
  /** Where the key is written. */
  readonly keySpan?: Span;
}

/** One envelope problem. `code` is `OBJECT_*` (reported by the `object-invalid` rule). */
export interface EnvelopeProblem {
  readonly span: Span;
  readonly message: string;
  readonly code: 'OBJECT_NO_API_VERSION' | 'OBJECT_NO_KIND' | 'OBJECT_UNKNOWN_KIND' | 'OBJECT_NO_NAME' | 'OBJECT_NAME' | 'OBJECT_DECODE' | 'OBJECT_METADATA_TYPE' | 'OBJECT_NOT_MAPPING';
  readonly severity: 'error' | 'info';
  /** True when quoting the value written at `span` fixes the problem (a string field given an unquoted bool or number). */
  readonly quotable?: boolean;
  /** With {@link quotable}, for a map value: where its key is written, and the key as read (the fix quotes a misread key too). */
  readonly key?: ProblemKey;
  /** With {@link quotable}: the end of `message` that says how to write the value (`; quote it`), which depends on who writes it. */
  readonly advice?: string;
}

/** Where the key of a map value is written and the key as read; for a label of a Pod, what selectors select it by. */
export interface ProblemKey {
  readonly span: Span;
  readonly read: string;
  /** For a Pod's label: its namespace as written (absent: the configured default one) and the value as read (`1`). */
  readonly pod?: { readonly namespace?: string; readonly value: string };
}

/**
 * The result for one candidate: `object` = read it as a Kubernetes object; `reject` = the API server would
 * refuse it (its problems say why; it takes part in no other check); `ignore` = not a Kubernetes object at
 * all (a Helm values file, a CI config): silently not analysed.
 */
export interface EnvelopeResult {
  readonly verdict: 'object' | 'reject' | 'ignore';
  readonly problems: readonly EnvelopeProblem[];
}

interface BuiltinKind {
  /** apiVersion to suggest when it is missing. */
  readonly apiVersion: string;
  /** Top-level field holding the object's spec struct, when it has one (`template` for PodTemplate). */
  readonly specField?: string;
}

const core = (specField?: string): BuiltinKind => ({ apiVersion: 'v1', ...(specField ? { specField } : {}) });
const grouped = (apiVersion: string, specField?: string): BuiltinKind => ({ apiVersion, ...(specField ? { specField } : {}) });

/**
 * Built-in kinds served by every API server (group from the apiVersion, then the kind). Only these get the
 * missing-name / missing-apiVersion checks: other tools' YAML (Drone's `kind: pipeline`, kind's
 * `kind: Cluster`, kubeconfig `kind: Config`) uses the same keys without being API objects.
 */
const BUILTIN_KINDS: ReadonlyMap<string, BuiltinKind> = new Map([
  ...(['Pod', 'Service', 'ReplicationController', 'Namespace', 'Node', 'PersistentVolume', 'PersistentVolumeClaim', 'LimitRange', 'ResourceQuota'] as const).map((k) => [k, core('spec')] as const),
  ...(['ConfigMap', 'Secret', 'ServiceAccount', 'Endpoints', 'Event'] as const).map((k) => [k, core()] as const),
  ['PodTemplate', core('template')],
  ...(['Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet'] as const).map((k) => [k, grouped('apps/v1', 'spec')] as const),
  ['ControllerRevision', grouped('apps/v1')],
  ['Job', grouped('batch/v1', 'spec')],
  ['CronJob', grouped('batch/v1', 'spec')],
  ...(['Ingress', 'NetworkPolicy', 'IngressClass'] as const).map((k) => [k, grouped('networking.k8s.io/v1', 'spec')] as const),
  ['PodDisruptionBudget', grouped('policy/v1', 'spec')],
  ['HorizontalPodAutoscaler', grouped('autoscaling/v2', 'spec')],
  ...(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const).map((k) => [k, grouped('rbac.authorization.k8s.io/v1')] as const),
  ['StorageClass', grouped('storage.k8s.io/v1')],
  ['PriorityClass', grouped('scheduling.k8s.io/v1')],
  ['EndpointSlice', grouped('discovery.k8s.io/v1')],
  ['CustomResourceDefinition', grouped('apiextensions.k8s.io/v1', 'spec')],
  ['ValidatingWebhookConfiguration', grouped('admissionregistration.k8s.io/v1')],
  ['MutatingWebhookConfiguration', grouped('admissionregistration.k8s.io/v1')],
]);

/** The group of a builtin kind (`''` for core). */
const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '');
const versionOf = (apiVersion: string): string => apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
/** The group of each builtin kind, worked out once (it is compared for every object read). */
const BUILTIN_GROUPS: ReadonlyMap<string, string> = new Map([...BUILTIN_KINDS].map(([kind, known]) => [kind, groupOf(known.apiVersion)]));

/** The builtin kind `kind` of `apiVersion`'s group, when it is one (Knative's `serving.knative.dev` Service is not). */
function builtin(apiVersion: string, kind: string): BuiltinKind | undefined {
  const known = BUILTIN_KINDS.get(kind);
  return known && BUILTIN_GROUPS.get(kind) === groupOf(apiVersion) ? known : undefined;
}

/** An apiVersion as the API spells them: `v1`, `apps/v1`, `networking.k8s.io/v1beta1`. */
const API_VERSION = /^([a-z0-9]([a-z0-9.-]*[a-z0-9])?\/)?v\d+((alpha|beta)\d+)?$/;

/** The API groups of the built-in kinds ('' for the core group). */
const BUILTIN_GROUP_SET: ReadonlySet<string> = new Set(BUILTIN_GROUPS.values());
/** The built-in kinds by their lowercase spelling (kinds are case-sensitive: `service` is no kind). */
const BUILTIN_BY_LOWER: ReadonlyMap<string, string> = new Map([...BUILTIN_KINDS.keys()].map((k) => [k.toLowerCase(), k]));

/**
 * A built-in kind written with the apiVersion of another built-in group (`apps/v1` Service, `v1` Deployment) or in
 * another case (`kind: service`): no API group serves it, so kubectl maps it to no resource and applies nothing
 * ("no matches for kind "Service" in version "apps/v1"", k8s.io/apimachinery/pkg/api/meta NoKindMatchError, as
 * kubectl apply prints it, v1.31). Groups outside the built-in ones (`extensions`, `events.k8s.io`, custom resource
 * groups such as Knative's `serving.knative.dev` Service) are never judged: they may serve that kind.
 * @returns the kind as the API spells it and the apiVersion that serves it; undefined when nothing is wrong
 */
function misplacedKind(apiVersion: string, kind: string): { readonly kind: string; readonly apiVersion: string } | undefined {
  const group = groupOf(apiVersion);
  if (!API_VERSION.test(apiVersion) || !BUILTIN_GROUP_SET.has(group)) return undefined;
  const proper = BUILTIN_KINDS.has(kind) ? kind : BUILTIN_BY_LOWER.get(kind.toLowerCase());
  if (!proper || (proper === kind && BUILTIN_GROUPS.get(kind) === group)) return undefined;
  return { kind: proper, apiVersion: BUILTIN_GROUPS.get(proper) === group ? apiVersion : BUILTIN_KINDS.get(proper)!.apiVersion };
}

/** `article + JSON type` for messages: `a list`, `a string`. */
function shapeWord(kind: JsonKind): string {
  return { object: 'a mapping', array: 'a list', string: 'a string', number: 'a number', bool: 'a boolean', null: 'null' }[kind];
}

const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';
/** A scalar that is there (`name: y` is a YAML 1.1 boolean, but it is written: the loader reads it as text). */
const written = (v: unknown): boolean => v !== undefined && v !== null && String(v) !== '';

/**
 * Checks the envelope of one candidate object (a document root or a `List` item that is a mapping).
 * @returns the verdict and its problems (spans from the view; a problem without a span is dropped)
 */
export function checkObjectEnvelope(view: EnvelopeView): EnvelopeResult {
  const apiVersion = view.scalar('apiVersion');
  const kind = view.scalar('kind');
  const problems: EnvelopeProblem[] = [];
  const add = (path: string, code: EnvelopeProblem['code'], message: string, severity: EnvelopeProblem['severity'] = 'error'): void => {
    const span = view.span(path) ?? view.span('');
    if (span) problems.push({ span, message, code, severity });
  };
  if (!nonEmptyString(apiVersion) || !nonEmptyString(kind)) {
    if (nonEmptyString(kind) && !nonEmptyString(apiVersion) && BUILTIN_KINDS.has(kind)) {
      const suggested = BUILTIN_KINDS.get(kind)!.apiVersion;
      add('kind', 'OBJECT_NO_API_VERSION', `${kind} has no apiVersion: kubectl cannot decode it ("Object 'apiVersion' is missing in '{…}'") and applies nothing; add apiVersion: ${suggested}`);
      return { verdict: 'reject', problems };
    }
    if (nonEmptyString(apiVersion) && !nonEmptyString(kind) && API_VERSION.test(apiVersion) && view.kindOf('metadata') === 'object') {
      add('apiVersion', 'OBJECT_NO_KIND', `object of apiVersion ${apiVersion} has no kind: kubectl cannot decode it ("Object 'Kind' is missing in '{…}'") and applies nothing; add its kind`);
      return { verdict: 'reject', problems };
    }
    return { verdict: 'ignore', problems };
  }
  const known = builtin(apiVersion, kind);
  const misplaced = known ? undefined : misplacedKind(apiVersion, kind);
  if (misplaced) {
    const refused = `kubectl refuses it ("no matches for kind \"${kind}\" in version \"${apiVersion}\"") and applies nothing`;
    if (misplaced.kind !== kind) add('kind', 'OBJECT_UNKNOWN_KIND', `kind ${kind} is not a kind of ${apiVersion} (kinds are case-sensitive): ${refused}; write kind: ${misplaced.kind}`);
    else add('apiVersion', 'OBJECT_UNKNOWN_KIND', `apiVersion ${apiVersion} has no kind ${kind}: ${refused}; use apiVersion: ${misplaced.apiVersion}`);
    return { verdict: 'reject', problems };
  }
  problems.push(...metadataTypeProblems(view, kind, known ? versionOf(apiVersion) : undefined));
  if (!known) return { verdict: problems.length ? 'reject' : 'object', problems };
  const cannotDecode = (field: string, goType: string, found: JsonKind): string =>
    `${field} is ${shapeWord(found)}, not a mapping: the API server refuses the ${kind} ("json: cannot unmarshal ${found} into Go struct field ${kind}.${field} of type ${goType}")`;
  const metadata = view.kindOf('metadata');
  if (metadata !== undefined && metadata !== 'null' && metadata !== 'object') {
    add('metadata', 'OBJECT_DECODE', cannotDecode('metadata', 'v1.ObjectMeta', metadata));
  } else if (problems.some((p) => p.code === 'OBJECT_METADATA_TYPE')) {
    // A name given as a boolean or number is reported as such, not as missing.
  } else if (!written(view.scalar('metadata.name')) && !written(view.scalar('metadata.generateName'))) {
    add(metadata === 'object' ? 'metadata' : 'kind', 'OBJECT_NO_NAME', `${kind} has no metadata.name: the API server rejects it with "metadata.name: Required value: name or generateName is required"; give it a name`);
  } else {
    problems.push(...nameProblems(view, kind));
  }
  if (known.specField) {
    const spec = view.kindOf(known.specField);
    if (spec !== undefined && spec !== 'null' && spec !== 'object') {
      const goType = `${versionOf(apiVersion)}.${known.specField === 'template' ? 'PodTemplateSpec' : `${kind}Spec`}`;
      add(known.specField, 'OBJECT_DECODE', cannotDecode(known.specField, goType, spec));
    }
  }
  return { verdict: problems.length ? 'reject' : 'object', problems };
}

/** A value for a message: quoted as JSON, cut to 20 characters (the finding's range shows all of it). */
const shown = (v: string): string => JSON.stringify(v.length > 20 ? `${v.slice(0, 19)}…` : v);

/**
 * A `metadata.name` (not a generateName) or `metadata.namespace` of a built-in kind that the API server refuses
 * (see kubernetes/api-server/object-names.ts): `metadata.name: Invalid value: "Web_App": a DNS-1035 label must
 * consist of …`. Placeholders of other tools (`${VAR}`, `$(VAR)`, `{{ … }}`) are not judged.
 * @returns at most one `OBJECT_NAME` error for the name and one for the namespace, at the value
 */
export function nameProblems(view: EnvelopeView, kind: string): EnvelopeProblem[] {
  const out: EnvelopeProblem[] = [];
  const judge = (field: 'name' | 'namespace', rule: ReturnType<typeof nameRuleOf>): void => {
    const path = field === 'name' ? 'metadata.name' : 'metadata.namespace';
    const value = view.scalar(path);
    const span = view.span(path);
    if (!rule || typeof value !== 'string' || value === '' || !span || isPlaceholder(value)) return;
    const error = nameError(rule, value);
    if (!error) return;
    out.push({ span, code: 'OBJECT_NAME', severity: 'error', message: `${kind} ${field} ${shown(value)}: the API server rejects it ("metadata.${field}: Invalid value: ${shown(value)}: ${error}"); ${field === 'name' ? 'rename it' : 'use another namespace'}` });
  };
  judge('name', nameRuleOf(kind));
  if (checksNamespace(kind)) judge('namespace', 'RFC 1123 label');
  return out;
}

/**
 * The paths of the string fields of metav1.ObjectMeta a manifest may write (status-like ones too: kubectl sends
 * what is written). Made once: the view caches lookups by path, and a string made per call is hashed again.
 */
const METADATA_STRING_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink'].map((f) => `metadata.${f}`);
/** The paths of the map[string]string fields of metav1.ObjectMeta. */
const METADATA_STRING_MAPS = ['metadata.labels', 'metadata.annotations'];
/** Most values of one labels/annotations map reported (one finding each); the other string maps the loader checks use it too. */
export const MAX_MAP_VALUES = 20;

/**
 * Non-string values in the string fields of `metadata` (name, namespace, generateName, uid, resourceVersion,
 * selfLink, and the values of labels and annotations). kubectl converts YAML to JSON as YAML 1.1 reads it, so an
 * unquoted `on`/`no`/`yes`/`true` is a JSON boolean and `0123` (octal) or `1.10` a number; the API server's decoder
 * then refuses the whole object: `json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.namespace of
 * type string` (sigs.k8s.io/yaml YAMLToJSON, go-yaml v2 resolve.go; sigs.k8s.io/json, wrapped by
 * apiserver/pkg/endpoints/handlers/rest.go transformDecodeError for built-in kinds; custom resources fail the
 * same ObjectMeta decoding). `null` decodes to an empty string and is not reported.
 * @param version the built-in kind's API version (the message then names the kind); undefined for other kinds
 * @returns one `OBJECT_METADATA_TYPE` error per wrong value (at most {@link MAX_MAP_VALUES} per labels/annotations map)
 */
export function metadataTypeProblems(view: EnvelopeView, kind: string, version: string | undefined): EnvelopeProblem[] {
  if (view.kindOf('metadata') !== 'object') return [];
  const out: EnvelopeProblem[] = [];
  const report = (span: Span | undefined, field: string, goType: string, found: JsonKind, scalar: unknown, shown = field, writing?: ScalarWriting, key?: EnvelopeProblem['key']): void => {
    const map = goType === 'map[string]string';
    if (!span) return;
    const decode = `json: cannot unmarshal ${found} into Go struct field ObjectMeta.${field} of type ${goType}`;
    // The API server's wrapper (`<Kind> in version "<v>" cannot be handled as a <Kind>: `) is in the rule's page.
    const refused = version ? `the API server refuses the ${kind} ("${decode}")` : `the API server refuses it ("${decode}")`;
    const plain = !map && (found === 'bool' || found === 'number');
    const { read, fix } = plain ? stringAdvice(found, scalar, writing) : { read: '', fix: map ? '; give a mapping of key: "value" strings' : '; give a string' };
    out.push({ span, code: 'OBJECT_METADATA_TYPE', severity: 'error', ...(plain ? { quotable: true, advice: fix } : {}), ...(plain && key ? { key } : {}), message: `${shown} is ${shapeWord(found)}, not ${map ? 'a mapping of strings' : 'a string'}${read}: ${refused}${fix}` });
  };
  for (const path of METADATA_STRING_FIELDS) {
    const found = view.kindOf(path);
    if (found !== undefined && found !== 'null' && found !== 'string') report(view.span(path), path, 'string', found, view.scalar(path), path, view.writing?.(path));
  }
  for (const path of METADATA_STRING_MAPS) {
    const found = view.kindOf(path);
    if (found === undefined || found === 'null') continue;
    if (found !== 'object') {
      report(view.span(path), path, 'map[string]string', found, view.scalar(path));
      continue;
    }
    const wrong = view.nonStringEntries(path) ?? [];
    // A Pod's labels are what Services, NetworkPolicies and PodDisruptionBudgets select: object-invalid asks them.
    const namespace = view.scalar('metadata.namespace');
    const pod = (e: EnvelopeEntry) => (kind === 'Pod' && version && path === 'metadata.labels' ? { pod: { ...(typeof namespace === 'string' ? { namespace } : {}), value: String(e.scalar) } } : {});
    for (const e of wrong.slice(0, MAX_MAP_VALUES)) report(e.span, path, 'string', e.kind!, e.scalar, `${path}.${e.key}`, e.writing, e.keySpan ? { span: e.keySpan, read: e.key, ...pod(e) } : undefined);
  }
  return out;
}

/**
 * The info finding for a document that is not a mapping (a top-level list or scalar): it holds no
 * Kubernetes object, so nothing in it is checked. Empty documents (only comments) get none.
 */
export function nonObjectDocument(view: EnvelopeView, what = 'this document'): EnvelopeProblem | undefined {
  const found = view.kindOf('');
  const span = view.span('');
  if (!span || found === undefined || found === 'null' || found === 'object') return undefined;
  return {
    span,
    code: 'OBJECT_NOT_MAPPING',
    severity: 'info',
    message: `${what} is ${shapeWord(found)}, not a Kubernetes object (a mapping with apiVersion, kind and metadata): nothing in it is checked`,
  };
}
