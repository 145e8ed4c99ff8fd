import type { LoadedFile } from '../../load/load-file';
import type { Span } from '../../source/span';
import type { TextEdit } from '../rule';
import { isJsonManifest, jsonEntry } from './json-manifest';

/**
 * An edit adding `line` (`port: 80`) as a new key of the block mapping that holds the key at `key`, on a new
 * line right after that key's single-line value and at the key's column — which also works for the first key
 * of a list item (`- name: web`), where the dash shares the line. Undefined when the value spans several
 * lines or is followed by more text on its line (flow style, a comment stays where it is).
 * In a JSON manifest the entry is written as JSON (`,` after the value, then `"port": 80` on its own line at the
 * key's column), only when the key starts its line.
 */
export function insertKeyAfter(file: LoadedFile, key: Span, value: Span, line: string): TextEdit | undefined {
  const text = file.text;
  const lineStart = text.lastIndexOf('\n', key.start - 1) + 1;
  if (text.slice(value.start, value.end).includes('\n') || text.slice(key.start, value.start).includes('\n')) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (isJsonManifest(key.file)) {
    const entry = jsonEntry(line);
    if (!entry || !/^[ \t]*$/.test(text.slice(lineStart, key.start))) return undefined;
    return { span: { file: key.file, start: value.end, end: value.end }, newText: `,${eol}${text.slice(lineStart, key.start)}${entry}` };
  }
  let end = text.indexOf('\n', value.end);
  if (end < 0) end = text.length;
  if (end > 0 && text[end - 1] === '\r') end--;
  const rest = text.slice(value.end, end);
  if (!/^\s*(#.*)?$/.test(rest)) return undefined;
  return { span: { file: key.file, start: end, end }, newText: `${eol}${' '.repeat(key.start - lineStart)}${line}` };
}
