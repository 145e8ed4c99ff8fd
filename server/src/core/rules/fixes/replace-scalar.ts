import type { LoadedFile } from '../../load/load-file';
import type { Span } from '../../source/span';
import type { TextEdit } from '../rule';
import { isJsonManifest } from './json-manifest';
import { stringNumber, unstringSpan } from '../../source/string-number';

/**
 * An edit replacing the scalar at `span` with `newText`, only when the text there is the scalar `current`
 * written in place — plain, or single / double quoted without escapes — and not an alias or an anchored value
 * (rewriting those would change other places too). Undefined otherwise, or when the file text is unknown
 * (objects of a live cluster). An integer `newText` is written plain (a number); any other text keeps the
 * quotes the value had (`"http"` becomes `"web"`), and is always a JSON string in a JSON manifest.
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
  // An integer replaces a tagged scalar together with its tag: `!!str 8080` must become 8080, not `!!str 8080`.
  const spelled = stringNumber(file.text, span);
  if (spelled?.anchored) return undefined;
  if (/^-?\d+$/.test(newText)) return { span: unstringSpan(spelled, span), newText };
  return { span, newText: inQuotesOf(text, newText, isJsonManifest(span.file)) };
}

/** `newText` as the scalar is written: integers plain, other text in the original's quotes (JSON: double quotes). */
function inQuotesOf(original: string, newText: string, json: boolean): string {
  if (/^-?\d+$/.test(newText)) return newText;
  if (json || original.startsWith('"')) return JSON.stringify(newText);
  if (original.startsWith("'")) return `'${newText.replace(/'/g, "''")}'`;
  return newText;
}
