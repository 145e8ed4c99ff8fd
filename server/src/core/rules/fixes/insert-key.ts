import type { LoadedFile } from '../../load/load-file';
import type { Span } from '../../source/span';
import type { TextEdit } from '../rule';

/**
 * An edit adding `line` (`port: 80`) as a new key of the block mapping that holds the key at `key`, on a new
 * line right after that key's single-line value and at the key's column — which also works for the first key
 * of a list item (`- name: web`), where the dash shares the line. Undefined when the value spans several
 * lines or is followed by more text on its line (flow style, a comment stays where it is).
 */
export function insertKeyAfter(file: LoadedFile, key: Span, value: Span, line: string): TextEdit | undefined {
  const text = file.text;
  const lineStart = text.lastIndexOf('\n', key.start - 1) + 1;
  if (text.slice(value.start, value.end).includes('\n') || text.slice(key.start, value.start).includes('\n')) return undefined;
  let end = text.indexOf('\n', value.end);
  if (end < 0) end = text.length;
  if (end > 0 && text[end - 1] === '\r') end--;
  const rest = text.slice(value.end, end);
  if (!/^\s*(#.*)?$/.test(rest)) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { span: { file: key.file, start: end, end }, newText: `${eol}${' '.repeat(key.start - lineStart)}${line}` };
}
