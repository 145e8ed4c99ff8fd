import type { LoadedFile } from '../../load/load-file';
import type { Span } from '../../source/span';
import type { TextEdit } from '../rule';

/**
 * An edit replacing the scalar at `span` with `newText`, only when the text there is the scalar `current`
 * written in place — plain, or single / double quoted without escapes — and not an alias or an anchored value
 * (rewriting those would change other places too). Undefined otherwise, or when the file text is unknown
 * (objects of a live cluster).
 */
export function replaceScalarEdit(files: ReadonlyMap<string, LoadedFile> | undefined, span: Span, current: string | number, newText: string): TextEdit | undefined {
  const file = files?.get(span.file);
  if (!file) return undefined;
  const text = file.text.slice(span.start, span.end);
  const expected = String(current);
  const written = text === expected || text === `"${expected}"` || text === `'${expected}'`;
  if (!written) return undefined;
  // `&name value`: the anchor is written just before the scalar on its line.
  const before = file.text.slice(file.text.lastIndexOf('\n', span.start - 1) + 1, span.start);
  if (/&[^\s,[\]{}]+\s+$/.test(before)) return undefined;
  return { span, newText };
}
