import type { K8sObject, WorkloadObject } from '../../model/objects';
import type { Span } from '../../source/span';
import type { FileText } from '../../source/string-number';
import { misreadKey } from './string-advice';
import { READ_KEY } from '../../load/handler-paths';

/**
 * A label or selector key written as a plain YAML 1.1 word that kubectl reads as another key: `on` (read `true`),
 * `0x10` (read `16`). kubectl converts YAML to JSON with sigs.k8s.io/yaml on go-yaml v2 (resolve.go resolves `on`,
 * `yes`, `y` as booleans; yaml.go convertToJSONableObject writes the key with fmt, `"true"`), so `on: web` is the
 * label `true=web` on the API server, while `"on": web` is `on=web`.
 */
export interface MisreadKey {
  /** The key as written (`on`). */
  readonly written: string;
  /** The key as kubectl sends it (`true`). */
  readonly read: string;
  /** Where the key is written. */
  readonly span: Span;
}

/**
 * The key `key` (as read) of the map at `map` (a dotted path of `obj`, `spec.selector`) when it is written as a
 * plain word YAML 1.1 reads as another key ({@link MisreadKey}); undefined for a key read as written, a quoted
 * key, one brought in by a merge key, or an object whose text is unknown (a live cluster's). `source`: the whole
 * text of the file of a span.
 */
export function misreadKeyAt(obj: K8sObject, map: string, key: string, source: FileText | undefined): MisreadKey | undefined {
  // Only a key such a word is read as can be one (the loader records where those are written): the others need no
  // look-up in `paths`, whose index is decoded on the first one (every workload a message names would pay for it).
  if (!READ_KEY.test(key)) return undefined;
  const span = obj.paths?.get(`${map}.${key}#key`);
  const text = span ? source?.(span) : undefined;
  const written = text !== undefined ? misreadKey(text, span, key) : undefined;
  return written !== undefined ? { written, read: key, span: span! } : undefined;
}

/** The {@link MisreadKey}s among `keys` of the map at `map` of `obj`, in the order of `keys`. */
export function misreadKeysOf(obj: K8sObject, map: string, keys: Iterable<string>, source: FileText | undefined): MisreadKey[] {
  const out: MisreadKey[] = [];
  for (const key of keys) {
    const found = misreadKeyAt(obj, map, key, source);
    if (found) out.push(found);
  }
  return out;
}

/** The path of a workload's pod template labels: `spec.template.metadata.labels`, a Pod's own `metadata.labels`. */
export function templateLabelsPath(w: WorkloadObject): string {
  return w.pod.path === 'spec' ? 'metadata.labels' : `${w.pod.path.replace(/\.spec$/, '')}.metadata.labels`;
}

/** The path of a workload's selector labels: `spec.selector.matchLabels`, a ReplicationController's `spec.selector`. */
export function selectorLabelsPath(w: WorkloadObject): string {
  return w.kind === 'ReplicationController' ? 'spec.selector' : 'spec.selector.matchLabels';
}

/**
 * The hint for a message that shows labels or a selector with misread keys:
 * ` (the unquoted key on reads as true in YAML 1.1, as kubectl reads it)`, or for several
 * ` (the unquoted keys on and 0x10 read as true and 16 in YAML 1.1, as kubectl reads them)`; '' for none. `short`,
 * for a message with little room: ` (kubectl reads the unquoted key on as true)`.
 */
export function misreadNote(keys: readonly MisreadKey[], short = false): string {
  const seen = new Map<string, MisreadKey>();
  for (const k of keys) if (!seen.has(`${k.written}\n${k.read}`)) seen.set(`${k.written}\n${k.read}`, k);
  const unique = [...seen.values()];
  if (unique.length === 0) return '';
  const and = (words: string[]): string => (words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);
  if (short) return ` (kubectl reads the unquoted key${unique.length > 1 ? 's' : ''} ${and(unique.map((k) => k.written))} as ${and(unique.map((k) => k.read))})`;
  if (unique.length === 1) return ` (the unquoted key ${unique[0].written} reads as ${unique[0].read} in YAML 1.1, as kubectl reads it)`;
  return ` (the unquoted keys ${and(unique.map((k) => k.written))} read as ${and(unique.map((k) => k.read))} in YAML 1.1, as kubectl reads them)`;
}

/**
 * `Service shop/web`, or `Service shop/web and 2 more`: the objects that must change with a misread key, for a message
 * that has little room left (the decoder's error takes most of it).
 */
export function firstAndMore(names: readonly string[]): string {
  return names.length > 1 ? `${names[0]} and ${names.length - 1} more` : names[0];
}

/**
 * The advice for a matchExpressions `key` written as a plain word YAML 1.1 reads as a boolean or number (`key: on`,
 * read `true`, a decode error): quoting it makes the selector ask for the key `on`, which labels written `on`
 * unquoted do not have (kubectl sends them as `true`). `labels` (a workload's template labels path): when they write
 * the key the same way, they must be quoted alike, or the selector no longer matches its own template. Undefined
 * for a key written as it reads (`key: 5`) or unknown text, where plain `; quote it` says all.
 */
export function misreadRequirementKeyAdvice(obj: K8sObject, value: unknown, span: Span | undefined, source: FileText | undefined, labels?: string): string | undefined {
  const read = String(value);
  const text = span ? source?.(span) : undefined;
  const written = text !== undefined ? misreadKey(text, span, read) : undefined;
  if (written === undefined) return undefined;
  const template = labels !== undefined ? misreadKeyAt(obj, labels, read, source) : undefined;
  return template
    ? `; quote it and the template labels' key ${template.written} alike (YAML 1.1 reads both as ${read})`
    : `; quote it (YAML 1.1 reads the unquoted ${written} as ${read})`;
}
