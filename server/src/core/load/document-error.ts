import type { Document } from 'yaml';
import { AliasIndex } from './alias-index';
import type { LoadProblem } from './load-file';
import { AliasLimitError, SelfAliasError } from './plain-json';

/**
 * The problem for a document whose reading threw. `yaml` parses aliases lazily, so two mistakes only
 * surface when a value is read (as a ReferenceError from `toJS`):
 * - an alias whose anchor is not defined earlier in the same document (`UNRESOLVED_ALIAS`, located at
 *   the alias itself, e.g. an anchor set in a previous `---` document), also as a merge source (`<<: *p`);
 * - an alias inside the node its anchor names (`ALIAS_CYCLE`, at the alias: {@link SelfAliasError});
 * - an alias bomb, refused by the `maxAliasCount` limit (`ALIAS_LIMIT`, located at the alias that went over it;
 *   kubectl's go-yaml refuses such documents with "yaml: document contains excessive aliasing", checked with kubectl 1.31).
 * Anything else is reported as `READ_ERROR` on the document rather than crashing the run.
 */
export function documentReadProblem(doc: Document.Parsed, file: string, err: unknown, aliases?: AliasIndex): LoadProblem {
  const message = String((err as Error)?.message ?? err).split('\n')[0].trim();
  const range = doc.range ?? [0, 0];
  const whole = { file, start: range[0], end: Math.max(range[0] + 1, range[1]) };
  // Checked before the message: a merge key with an unknown anchor (`<<: *p`) throws "Merge sources must be maps
  // or map aliases", but the mistake is the alias, as kustomize says ("unknown anchor 'p' referenced").
  if (err instanceof SelfAliasError && err.alias.range) {
    const span = { file, start: err.alias.range[0], end: Math.max(err.alias.range[0] + 1, err.alias.range[1]) };
    return { span, message: `alias *${err.alias.source} is inside the value its anchor names, so the value would contain itself: kubectl refuses the document ("yaml: anchor '${err.alias.source}' value contains itself"); copy the values instead`, code: 'ALIAS_CYCLE', severity: 'error' };
  }
  const alias = /alias/i.test(message) ? (aliases ?? new AliasIndex(doc)).firstUnresolved() : undefined;
  if (alias?.range) {
    const span = { file, start: alias.range[0], end: Math.max(alias.range[0] + 1, alias.range[1]) };
    return { span, message: `Unresolved alias (the anchor must be set before the alias, in the same document): ${alias.source}`, code: 'UNRESOLVED_ALIAS', severity: 'error' };
  }
  if (/^Unresolved alias/.test(message)) return { span: whole, message, code: 'UNRESOLVED_ALIAS', severity: 'error' };
  if (/alias/i.test(message)) {
    // On the alias whose expansion went over the limit, in the words of the reader that refuses it too.
    const over = err instanceof AliasLimitError ? err.alias.range : undefined;
    const span = over ? { file, start: over[0], end: Math.max(over[0] + 1, over[1]) } : whole;
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
