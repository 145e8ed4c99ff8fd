import type { Span } from '../../source/span';
import type { Fix } from '../../rules/rule';
import type { K8sObject } from '../../model/objects';
import { spanAt } from '../../model/views/raw-fields';
import { jsonType, type SpecProblem, type WrittenText } from './service-spec';
import { MAX_MAP_VALUES } from './object-envelope';
import { firstFitting } from '../../output/fit-message';
import type { FileText } from '../../source/string-number';
import { quoteScalarFix } from '../../rules/fixes/quote-scalar';
import { firstAndMore } from './misread-keys';
import { misreadKey, QUOTABLE_PLAIN, ScalarWriting, stringAdvice, writingAt } from './string-advice';

/** JSON type of a written value, as Go's decoder names it in `cannot unmarshal <type>`. */
export type FoundKind = 'string' | 'number' | 'bool' | 'array' | 'object';

const FOUND: Readonly<Record<FoundKind, string>> = { string: 'a string', number: 'a number', bool: 'a boolean', array: 'a list', object: 'a mapping' };

/** One value of a map[string]string field that is not a string, as {@link mapValueProblem} reports it. */
export interface MapValue {
  readonly span: Span;
  /** The map's path for the message, as the API prints paths (`spec.ingress[0].from[1].podSelector.matchLabels`). */
  readonly path: string;
  /** The map key, or for an element of a []string field (a selector requirement's `values`) its index. */
  readonly key: string | number;
  readonly found: FoundKind;
  /** The scalar as read (YAML 1.1), for numbers and booleans. */
  readonly value?: unknown;
  /** The Go struct holding the map and its path without indices, as the decoder names them: `LabelSelector.spec.selector.matchLabels`. */
  readonly goField: string;
  /** `Deployment shop/web`, for the message. */
  readonly who: string;
  /** False when the value is not written in place (an alias, an anchored value): no quick fix. */
  readonly editable: boolean;
  /** Where the key is written, when it is written with the value (not brought in by a merge key). */
  readonly keySpan?: Span;
  /** The value's tag as the loader read it on the node (`!!int`), when the text cannot show it (a tag on another line). */
  readonly tag?: string;
  /** Said after the advice (`, and the key in Service shop/web, which selects by true too`), when the fix goes further. */
  readonly also?: string;
  /** No quick fix (quoting the key here alone would break a match elsewhere: the message's `also` says what). */
  readonly noFix?: boolean;
}

/**
 * A decoder field path cut for a message that has no room for it: the struct and the last two fields, the middle as
 * `…` (`LabelSelectorRequirement.….matchExpressions.values`), as ingress-spec.ts cuts `IngressServiceBackend.….service.port`.
 * The finding's place and the message's own path say where the field is.
 */
export function elidedGoField(goField: string): string {
  const parts = goField.split('.');
  return parts.length <= 4 ? goField : `${parts[0]}.….${parts.slice(-2).join('.')}`;
}

/**
 * An API field path in a quoted validation error cut as {@link elidedGoField} cuts a decoder's, for a message that has
 * no room for it: the first five steps and the last two, the middle as `…`
 * (`spec.template.spec.affinity.podAffinity.….matchExpressions[0].operator`).
 */
export function elidedApiPath(path: string): string {
  const parts = path.split('.');
  return parts.length <= 8 ? path : [...parts.slice(0, 5), '…', ...parts.slice(-2)].join('.');
}

/**
 * A value of a map[string]string field beyond the object's own metadata (pod template labels and annotations,
 * nodeSelector, a selector's matchLabels) that YAML reads as a number, a boolean or a collection, said as
 * object-invalid says it of `metadata.labels` (kubernetes/api-server/object-envelope.ts metadataTypeProblems):
 * `spec.template.metadata.labels.tier is a number, not a string (YAML 1.1 reads the unquoted value as the number 1):
 * the API server cannot decode Deployment default/web ("json: cannot unmarshal number into Go struct field
 * ObjectMeta.spec.template.metadata.labels of type string"); quote it`. kubectl converts YAML to JSON as YAML 1.1
 * reads it (sigs.k8s.io/yaml on go-yaml v2: `yes`, `on`, `1`, `1.10`, `0123` are not strings), and the API server's
 * decoder (sigs.k8s.io/json, encoding/json's UnmarshalTypeError: the last struct entered and the field path from
 * the root, no map key) refuses the whole object. A plain scalar gets the quick fix that quotes it as written
 * (`yes` → `"yes"`, the value the author meant); a tagged one (`!!int 4`) is told to lose its tag, which decides the
 * type whatever the quotes; a plain key YAML 1.1 reads otherwise (`on`, the key `true`) is quoted with the value
 * (see {@link ScalarWriting}). `source`: the whole text of the file, to read how the value and its key are written.
 */
export function mapValueProblem(v: MapValue, written?: WrittenText, source?: FileText): SpecProblem {
  const scalar = v.found === 'bool' || v.found === 'number';
  const json = /\.json$/i.test(v.span.file);
  const text = v.editable ? source?.(v.span) : undefined;
  // A list element (a selector requirement's value) has no key of its own to read or quote.
  const key = typeof v.key === 'string' ? v.key : undefined;
  const spelled: ScalarWriting | undefined = v.editable ? writingAt(source, v.span, v.keySpan, key) : undefined;
  const writing: ScalarWriting | undefined = v.tag && !spelled?.tag ? { ...spelled, tag: v.tag } : spelled;
  const at = typeof v.key === 'number' ? `[${v.key}]` : `.${v.key}`;
  const head = `${v.path}${at} is ${FOUND[v.found]}, not a string`;
  // A JSON manifest says what it means (`1` is a number there): only YAML needs the reading explained.
  const advice = scalar ? stringAdvice(v.found as 'bool' | 'number', v.value, writing, json) : { read: '', fix: '; give a string' };
  const read = advice.read;
  const fix = `${advice.fix}${v.also ?? ''}`;
  const refusedAs = (goField: string): string => `: the API server cannot decode ${v.who} ("json: cannot unmarshal ${v.found} into Go struct field ${goField} of type string")`;
  const refused = refusedAs(v.goField);
  const cut = refusedAs(elidedGoField(v.goField));
  const fixes: Fix[] = !scalar || !v.editable || v.noFix ? []
    : text !== undefined ? quoteScalarFix(text, v.span, v.keySpan, key)
    : quoteWritten(written?.(v.span), v.span);
  // Deep paths leave no room for everything: the map's own name then stands for its path (the decoder's error
  // quotes the whole path), and then the YAML 1.1 reading and the fix go (the rule's page has them).
  const short = `${v.path.slice(v.path.lastIndexOf('.') + 1)}${at} is ${FOUND[v.found]}, not a string`;
  // Then the decoder's path loses its middle (a CronJob's affinity term is deep); the objects to change with this
  // one (`also`, no quick fix then) are kept before the decoder's whole path.
  const withoutFix = `${short}${refused}`;
  const cutWithFix = `${short}${cut}${fix}`;
  const last = v.also ? [cutWithFix, withoutFix] : [withoutFix, cutWithFix];
  return { span: v.span, message: firstFitting(`${head}${read}${refused}${fix}`, `${short}${read}${refused}${fix}`, `${short}${refused}${fix}`, ...last, `${short}${cut}`), fixes };
}

/** `Quote "yes"` from the value's text alone (the file's whole text unknown: no tag or key to look at). */
function quoteWritten(text: string | undefined, span: Span): Fix[] {
  return text !== undefined && QUOTABLE_PLAIN.test(text) ? [{ title: `Quote "${text}"`, edits: [{ span, newText: `"${text}"` }], preferred: true }] : [];
}

/**
 * The workloads whose Pods carry the label `key` = `value` (the key as the API server would store it: `true` for a
 * written `on`, `on` for a quoted one) and that a selector would select with that entry, as `Deployment shop/web`.
 * Made by the rule, which holds the model.
 */
export type SelectedByKey = (key: string, value: string) => readonly string[];

/**
 * The values of a written map[string]string (`map`, found at the raw path `at` of `obj`) that are not strings, at
 * most {@link MAX_MAP_VALUES}, each as {@link mapValueProblem} says it (a null value decodes to "" and passes), for
 * checks that read the object's JSON rather than the loader's typed fields (a Service's selector, a NetworkPolicy's
 * matchLabels). `path` and `goField` as in {@link MapValue}; `who`: `Service shop/web` or a placeholder.
 * `selected`, for a selector of Pods, decides whether the fix of an entry with a misread key (`on: yes`, read
 * `true: true`) quotes the key: it quotes the value alone when Pods carry the key as read (`true=yes`, as their own
 * unquoted `on` reads; quoting the key would make the selector ask for `on`, which they lack: a Service would lose its
 * endpoints, a NetworkPolicy would select nothing), and the key with it when they carry it as written or when no Pods
 * are known.
 */
export function rawMapValueProblems(obj: K8sObject, map: Readonly<Record<string, unknown>>, at: string, path: string, goField: string, who: string, written?: WrittenText, source?: FileText, selected?: SelectedByKey): SpecProblem[] {
  const out: SpecProblem[] = [];
  for (const key in map) {
    const value = map[key];
    if (value === null || typeof value === 'string') continue;
    if (out.length === MAX_MAP_VALUES) break;
    const found = jsonType(value) as FoundKind;
    const span = spanAt(obj, `${at}.${key}`);
    const keySpan = obj.paths?.get(`${at}.${key}#key`);
    const v: MapValue = { span, path, key, found, value, goField, who, editable: true, ...(keySpan ? { keySpan } : {}) };
    out.push(keyAsPodsCarryIt(v, selected, written, source) ?? mapValueProblem(v, written, source));
  }
  return out;
}

/**
 * The problem of a selector entry whose key is misread (`on: yes`) when the Pods it is meant for carry the key as
 * read (`true`) and none carry it as written (`on`): the fix quotes the value alone (`on: "yes"`), and the message
 * says the key stays as read. Undefined otherwise (the fix then quotes both, as {@link mapValueProblem} makes it).
 */
function keyAsPodsCarryIt(v: MapValue, selected: SelectedByKey | undefined, written?: WrittenText, source?: FileText): SpecProblem | undefined {
  const key = v.key as string;
  const text = v.keySpan && selected ? source?.(v.keySpan) : undefined;
  const writtenKey = text !== undefined ? misreadKey(text, v.keySpan, key) : undefined;
  if (writtenKey === undefined) return undefined;
  const { keySpan: _, ...valueOnly } = v;
  // The string the quoted value becomes (`yes` for `yes`, `4` for `!!int 4`), which the Pods' label is to equal.
  const edit = mapValueProblem(valueOnly, written, source).fixes?.[0]?.edits[0];
  if (!edit) return undefined;
  const quoted = edit.newText.slice(1, -1);
  const users = selected!(key, quoted);
  if (users.length === 0 || selected!(writtenKey, quoted).length > 0) return undefined;
  return mapValueProblem({ ...valueOnly, also: `, not the key: Pods of ${firstAndMore(users)} carry ${key}` }, written, source);
}
