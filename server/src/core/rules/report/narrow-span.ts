import type { LoadedFile } from '../../load/load-file';
import type { Span } from '../../source/span';

/**
 * Narrows a scalar's span to the part that holds one value, e.g. `30000-40000` inside the command
 * word `--service-node-port-range=30000-40000`, or `false` in `strictARP: false` inside a ConfigMap's
 * embedded `config.conf` (a literal block keeps its text verbatim apart from indentation). The
 * scalar was parsed by `yaml`; this only locates the first capture group of `pattern` that matched
 * (alternatives may capture in different groups) in its source text.
 * Returns `span` unchanged when the file text is not available or the pattern does not match
 * exactly once (quoted or escaped scalars, several occurrences).
 */
export function narrowSpan(files: ReadonlyMap<string, LoadedFile> | undefined, span: Span, pattern: RegExp): Span {
  const file = files?.get(span.file);
  if (!file) return span;
  const text = file.text.slice(span.start, span.end);
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const matches = [...text.matchAll(global)];
  if (matches.length !== 1) return span;
  const m = matches[0];
  const group = m.slice(1).find((g) => g !== undefined);
  if (group === undefined) return span;
  const start = span.start + m.index! + m[0].lastIndexOf(group);
  return { file: span.file, start, end: start + group.length };
}

/** A RegExp source matching `text` literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
