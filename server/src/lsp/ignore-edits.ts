import { isMap, isScalar, isSeq, Node, Scalar, YAMLMap } from 'yaml';
import { parseDocuments } from '../core/load/parse-documents';
import { directiveIds, DISABLE_NEXT_LINE, IGNORE_ANNOTATION } from '../core/engine/suppress';
import { ignoreListHas } from '../core/engine/run-rules';
import { listedRuleIds } from '../core/load/suppressions';

/** A text edit on one file: the text in `[start, end)` (UTF-16 offsets) becomes `newText`. */
export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** Applies edits (non-overlapping) to a text. */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/**
 * The smallest edit that makes an object ignore `ruleId` through the `kube-netlint.io/ignore`
 * annotation, found with `yaml`'s nodes (never by scanning text): extends an existing annotation
 * value, adds a key to `metadata.annotations` (block or flow style, at the indentation of its
 * siblings), or adds `annotations:` to `metadata`. Comments and the rest of the text are untouched.
 * In a JSON manifest (`json`) keys are written as JSON strings and a new entry goes on its own line when the
 * object's entries are one per line, so the file stays valid JSON in its own layout.
 * @param uid the object's uid (`file#doc` or `file#doc/item` for `kind: List` items)
 * @returns undefined when the object cannot be edited safely (aliases, no metadata, already ignored)
 */
export function ignoreObjectEdit(text: string, uid: string, ruleId: string, json = false): OffsetEdit | undefined {
  const m = /#(\d+)(?:\/(\d+))?$/.exec(uid);
  if (!m) return undefined;
  // Guarded parse: a document nested too deeply is empty with an error (never composed, never a crash).
  const { docs } = parseDocuments(text, { strict: false });
  const doc = docs[Number(m[1])];
  if (!doc || doc.errors.length) return undefined;
  let root: unknown = doc.contents;
  if (m[2] !== undefined) {
    const items = isMap(root) ? root.get('items', true) : undefined;
    root = isSeq(items) ? items.items[Number(m[2])] : undefined;
  }
  if (!isMap(root)) return undefined;
  const metadata = root.get('metadata', true);
  if (!isMap(metadata)) return undefined;
  const value = JSON.stringify(ruleId);
  const key = (k: string): string => (json ? JSON.stringify(k) : k);
  const flowAnnotations = `{${key(IGNORE_ANNOTATION)}: ${value}}`;
  const annotations = metadata.items.find((p) => isScalar(p.key) && p.key.value === 'annotations');
  if (!annotations) {
    const metaKey = root.items.find((p) => isScalar(p.key) && p.key.value === 'metadata')!.key as Scalar;
    return insertEntry(text, metadata, key('annotations'), flowAnnotations, (indent, step) => `${indent}annotations:\n${indent}${step}${IGNORE_ANNOTATION}: ${value}\n`, metaKey);
  }
  const map = annotations.value;
  if (isScalar(map) && (map.value === null || map.value === undefined) && map.range) {
    // `annotations:` with no value (or `null` / `~`): give it a flow mapping.
    const [start, end] = map.range;
    return { start, end, newText: start === end ? ` ${flowAnnotations}` : flowAnnotations };
  }
  if (!isMap(map)) return undefined;
  const existing = map.items.find((p) => isScalar(p.key) && p.key.value === IGNORE_ANNOTATION);
  if (existing) {
    const v = existing.value;
    if (!isScalar(v) || !v.range) return undefined;
    const current = v.value === null || v.value === undefined ? '' : String(v.value);
    if (current && ignoreListHas(current, ruleId)) return undefined;
    return { start: v.range[0], end: v.range[1], newText: JSON.stringify(withRuleId(current, ruleId)) };
  }
  return insertEntry(text, map, key(IGNORE_ANNOTATION), value, (indent) => `${indent}${IGNORE_ANNOTATION}: ${value}\n`, annotations.key as Scalar);
}

/** An ignore annotation value with `ruleId` added after its last rule id: before a ` -- reason`, never into it. */
function withRuleId(current: string, ruleId: string): string {
  if (!current.trim()) return ruleId;
  const ids = listedRuleIds(current);
  const last = ids[ids.length - 1];
  if (!last) return `${ruleId} ${current.trimStart()}`;
  const end = last.at + last.id.length;
  return `${current.slice(0, end)},${ruleId}${current.slice(end)}`;
}

/**
 * Inserts `key: value` into a mapping: after `{` for a flow mapping (on a line of its own, at the first entry's
 * indentation, when that entry starts a line), else as a new line right after
 * the parent key's line, with the indentation of the mapping's first entry (`block(indent, step)` builds that line; `step` is one
 * indentation level, measured from the parent key's column).
 */
function insertEntry(text: string, map: YAMLMap, key: string, flowValue: string, block: (indent: string, step: string) => string, parentKey: Scalar): OffsetEdit | undefined {
  if (!map.range) return undefined;
  if (map.flow) {
    const open = map.range[0];
    if (text[open] !== '{') return undefined;
    const first = (map.items[0]?.key as Node | undefined)?.range?.[0];
    const gap = first === undefined ? '' : text.slice(open + 1, first);
    // `{\n    "name": "a"`: the new entry gets its own line, like the others.
    const lineBreak = /^[ \t]*\r?\n[ \t]*$/.exec(gap);
    if (lineBreak) return { start: open + 1, end: open + 1, newText: `${gap}${key}: ${flowValue},` };
    return { start: open + 1, end: open + 1, newText: `${key}: ${flowValue}${map.items.length ? ', ' : ''}` };
  }
  const first = (map.items[0]?.key as Node | undefined)?.range?.[0];
  if (first === undefined) return undefined;
  const indent = text.slice(text.lastIndexOf('\n', first - 1) + 1, first);
  if (!/^ *$/.test(indent)) return undefined;
  const parentStart = parentKey.range?.[0] ?? 0;
  // Insert on the line right after the parent key, so comments above the first entry stay with it.
  const lineStart = text.indexOf('\n', parentStart) + 1;
  if (lineStart === 0 || lineStart > first) return undefined;
  const parentColumn = parentStart - (text.lastIndexOf('\n', parentStart - 1) + 1);
  const step = indent.length > parentColumn ? indent.length - parentColumn : 2;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { start: lineStart, end: lineStart, newText: block(indent, ' '.repeat(step)).replace(/\n/g, eol) };
}

/**
 * The edit that silences `ruleId` on the line holding `offset`: a `# kube-netlint-disable-next-line`
 * comment line above it with the line's indentation, or the rule appended to such a comment when
 * the line above already is one. Callers must check the result with the loader (a line inside a
 * block scalar cannot take a comment).
 */
export function ignoreLineEdit(text: string, offset: number, ruleId: string): OffsetEdit | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  if (lineStart > 0) {
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const prev = text.slice(prevStart, lineStart - 1).replace(/\r$/, '');
    const ids = directiveIds(prev);
    if (ids) {
      if (!ids.length || ids.some((d) => d.id === ruleId || d.id === '*')) return undefined;
      const last = ids[ids.length - 1];
      const end = prevStart + last.at + last.id.length; // after the last id: before a ` -- reason`, not into it
      return { start: end, end, newText: ` ${ruleId}` };
    }
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { start: lineStart, end: lineStart, newText: `${indent}# ${DISABLE_NEXT_LINE} ${ruleId}${eol}` };
}
