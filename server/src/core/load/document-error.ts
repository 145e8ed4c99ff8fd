import type { Document } from 'yaml';
import { AliasIndex } from './alias-index';
import type { LoadProblem } from './load-file';
import { isScalar, isSeq, type Node } from 'yaml';
import { AliasLimitError, CollectionKeyError, MergeSourceError, SelfAliasError } from './plain-json';

/**
 * The problem for a document whose reading threw. `yaml` parses aliases lazily, so two mistakes only
 * surface when a value is read (as a ReferenceError from `toJS`):
 * - an alias whose anchor is not defined earlier in the same document (`UNRESOLVED_ALIAS`, located at
 *   the alias itself, e.g. an anchor set in a previous `---` document), also as a merge source (`<<: *p`);
 * - an alias inside the node its anchor names (`ALIAS_CYCLE`, at the alias: {@link SelfAliasError});
 * - a mapping key that is a list or a mapping (`COLLECTION_KEY`, at the key: {@link CollectionKeyError});
 * - a merge key whose value is not a mapping or a list of them (`MERGE_SOURCE`, at that value: {@link MergeSourceError};
 *   kubectl v1.31.9 refuses it with "yaml: map merge requires map or sequence of maps as the value");
 * - an alias bomb, refused by the `maxAliasCount` limit (`ALIAS_LIMIT`, located at the alias that went over it;
 *   kubectl's go-yaml refuses such documents with "yaml: document contains excessive aliasing", checked with kubectl 1.31).
 * Anything else is reported as `READ_ERROR` on the document rather than crashing the run.
 */
export function documentReadProblem(doc: Document.Parsed, file: string, err: unknown, aliases?: AliasIndex): LoadProblem {
  const message = String((err as Error)?.message ?? err).split('\n')[0].trim();
  // A range of at least one character (an empty node still gets a squiggle).
  const spanOf = (range: readonly number[]): LoadProblem['span'] => ({ file, start: range[0], end: Math.max(range[0] + 1, range[1]) });
  const whole = spanOf(doc.range ?? [0, 0]);
  if (err instanceof SelfAliasError && err.alias.range) {
    return { span: spanOf(err.alias.range), message: `alias *${err.alias.source} is inside the value its anchor names, so the value would contain itself: kubectl refuses the document ("yaml: anchor '${err.alias.source}' value contains itself"); copy the values instead`, code: 'ALIAS_CYCLE', severity: 'error' };
  }
  if (err instanceof CollectionKeyError && err.key.range) {
    return { span: spanOf(err.key.range), message: collectionKeyMessage(err), code: 'COLLECTION_KEY', severity: 'error' };
  }
  // Checked before the message: a merge key with an unknown anchor (`<<: *p`) throws "Merge sources must be maps
  // or map aliases", but the mistake is the alias, as kustomize says ("unknown anchor 'p' referenced").
  const alias = /alias/i.test(message) ? (aliases ?? new AliasIndex(doc)).firstUnresolved() : undefined;
  if (alias?.range) {
    return { span: spanOf(alias.range), message: `Unresolved alias (the anchor must be set before the alias, in the same document): ${alias.source}`, code: 'UNRESOLVED_ALIAS', severity: 'error' };
  }
  if (/^Unresolved alias/.test(message)) return { span: whole, message, code: 'UNRESOLVED_ALIAS', severity: 'error' };
  if (err instanceof MergeSourceError) {
    const range = (err.node as Node | undefined)?.range;
    return { span: range ? spanOf(range) : whole, message: 'a merge key (<<) takes a mapping or a list of mappings, not this value: kubectl refuses the document ("yaml: map merge requires map or sequence of maps as the value"); merge an anchored mapping (<<: *base)', code: 'MERGE_SOURCE', severity: 'error' };
  }
  if (/alias/i.test(message)) {
    // On the alias whose expansion went over the limit, in the words of the reader that refuses it too.
    const over = err instanceof AliasLimitError ? err.alias.range : undefined;
    const span = over ? spanOf(over) : whole;
    const name = err instanceof AliasLimitError ? ` *${err.alias.source}` : '';
    return { span, message: `the aliases of this document expand past the limit at${name || ' an alias'} (an alias bomb), so it is not read; kubectl refuses it too ("yaml: document contains excessive aliasing")`, code: 'ALIAS_LIMIT', severity: 'error' };
  }
  return { span: whole, message: `could not read this document: ${message}`, code: 'READ_ERROR', severity: 'error' };
}

/**
 * One problem per distinct syntax error of a document: the parser repeats the same error for every
 * unclosed bracket (2,000 `[` give hundreds of identical BAD_INDENT errors), so later copies of the same
 * code and message are folded into the first, which says how many more there are.
 */
export function collapseRepeatedErrors(errors: readonly LoadProblem[]): LoadProblem[] {
  const first = new Map<string, { problem: LoadProblem; more: number }>();
  for (const e of errors) {
    const key = `${e.code}|${e.message}`;
    const seen = first.get(key);
    if (seen) seen.more++;
    else first.set(key, { problem: e, more: 0 });
  }
  return [...first.values()].map(({ problem, more }) =>
    more ? { ...problem, message: `${problem.message} (and ${more} more time${more === 1 ? '' : 's'} in this document)` } : problem);
}

/** Longest Go rendering of a collection key quoted in a message (longer ones are cut). */
const MAX_GO_KEY = 60;

/** The finding for a collection key: go-yaml v2's own words, and the plain key when the list holds one name. */
function collectionKeyMessage(err: CollectionKeyError): string {
  const go = goSharpV(err.value);
  const shown = go.length > MAX_GO_KEY ? `${go.slice(0, MAX_GO_KEY - 1)}…` : go;
  const kind = Array.isArray(err.value) ? 'a list' : 'a mapping';
  const key = err.key as Node;
  const only = isSeq(key) && key.items.length === 1 && isScalar(key.items[0]) && typeof key.items[0].value === 'string' ? key.items[0].value : undefined;
  const fix = only !== undefined && only.length <= 40 ? `write it as ${JSON.stringify(only).slice(1, -1)}:` : 'use a plain string key';
  return `this mapping key is ${kind}, which JSON cannot have: kubectl refuses the document ("error converting YAML to JSON: yaml: invalid map key: ${shown}"), so nothing of it is applied; ${fix}`;
}

/**
 * Go's `%#v` of what go-yaml v2 decodes a key into (`[]interface {}{"nodePort", 1}`, `map[interface {}]interface {}{"a":1}`),
 * for the common values; sigs.k8s.io/yaml prints the decoder's error with it.
 */
function goSharpV(v: unknown): string {
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[interface {}]interface {}{${entries.map(([k, x]) => `${JSON.stringify(k)}:${goSharpV(x)}`).join(', ')}}`;
  }
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}
