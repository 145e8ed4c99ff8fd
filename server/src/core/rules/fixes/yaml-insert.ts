import type { LoadedFile } from '../../load/load-file';
import { loadFile } from '../../load/load-file';
import type { K8sObject } from '../../model/objects';
import type { Span } from '../../source/span';
import type { TextEdit } from '../rule';
import { applyEditsToText } from './apply-edits';
import { isJsonManifest, jsonEntry } from './json-manifest';

/**
 * Text edits that add a block-style entry next to an existing one, copying its indentation. The
 * parser (`yaml`) gives the spans; only the indentation of the anchor's own line is read from the
 * text. Every edit is checked by re-loading the edited file ({@link verifiedEdit}), so a fix is
 * offered only when the result parses and holds the new value.
 */

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Offset of the end of the line holding the last non-blank character of `span` (before `\r\n`/`\n`). */
function endOfLastLine(text: string, span: Span): number {
  let pos = span.end;
  while (pos > span.start && /\s/.test(text[pos - 1])) pos--;
  let end = text.indexOf('\n', pos);
  if (end < 0) end = text.length;
  if (end > 0 && text[end - 1] === '\r') end--;
  return end;
}

/** Text between the start of `offset`'s line and `offset`. */
function linePrefix(text: string, offset: number): string {
  return text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
}

/**
 * An edit adding a sequence item `- <lines>` after the block-sequence item whose value spans `item`
 * (e.g. an env entry), at the same indentation; trailing comments stay on their line.
 * @param lines the item's `key: value` lines, first one after the dash
 * @returns undefined when the item is not a block-sequence item written on its own line (flow style)
 */
export function insertSeqItemAfter(file: LoadedFile, item: Span, lines: readonly string[]): TextEdit | undefined {
  const prefix = linePrefix(file.text, item.start);
  const m = /^( *)- +$/.exec(prefix);
  if (!m) return undefined;
  const eol = eolOf(file.text);
  const keyIndent = ' '.repeat(prefix.length);
  const at = endOfLastLine(file.text, item);
  const body = lines.map((l, i) => (i === 0 ? `${m[1]}- ${l}` : `${keyIndent}${l}`)).join(eol);
  return { span: { file: item.file, start: at, end: at }, newText: eol + body };
}

/**
 * An edit adding `lines` as new keys of a block mapping, before the key whose key span is `sibling`
 * (same indentation; nested lines keep their own extra indentation). In a JSON manifest each line must be one
 * `key: value` entry and is written as JSON (`"targetPort": 8080,`); undefined for nested lines.
 */
export function insertKeysBefore(file: LoadedFile, sibling: Span, lines: readonly string[]): TextEdit | undefined {
  const prefix = linePrefix(file.text, sibling.start);
  if (!/^ *$/.test(prefix)) return undefined;
  const eol = eolOf(file.text);
  const start = sibling.start - prefix.length;
  if (isJsonManifest(sibling.file)) {
    const entries = lines.map(jsonEntry);
    if (entries.some((e) => e === undefined)) return undefined;
    return { span: { file: sibling.file, start, end: start }, newText: entries.map((e) => `${prefix}${e},`).join(eol) + eol };
  }
  return { span: { file: sibling.file, start, end: start }, newText: lines.map((l) => prefix + l).join(eol) + eol };
}

export { applyEditsToText };

/**
 * Returns `edit` when applying it gives YAML that still loads without errors and in which `check`
 * holds for the edited object; undefined otherwise — a fix that would corrupt the file is never
 * offered. Only the object's own document is re-parsed when it starts a line (fast on big
 * multi-document files such as calico.yaml); `kind: List` items re-parse the whole file.
 */
export function verifiedEdit(file: LoadedFile, obj: K8sObject, edit: TextEdit | undefined, check: (edited: K8sObject) => boolean): TextEdit | undefined {
  if (!edit) return undefined;
  const { start, end } = obj.extent;
  const ownLine = linePrefix(file.text, start) === '' && !/\/\d+$/.test(obj.uid);
  const inside = edit.span.start >= start && edit.span.end <= end;
  const [text, shift] = ownLine && inside ? [file.text.slice(start, end), start] : [file.text, 0];
  const moved: TextEdit = { span: { ...edit.span, start: edit.span.start - shift, end: edit.span.end - shift }, newText: edit.newText };
  const edited = loadFile(file.file, applyEditsToText(text, [moved]));
  if (edited.problems.some((p) => p.severity === 'error')) return undefined;
  const again = edited.objects.find((o) => o.identity === obj.identity && (shift > 0 || o.docIndex === obj.docIndex));
  return again && check(again) ? edit : undefined;
}
