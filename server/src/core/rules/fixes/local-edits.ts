import { Alias, Document, isAlias, isCollection, isScalar, Node, visit } from 'yaml';
import type { LoadedFile } from '../../load/load-file';
import { parseDocuments } from '../../load/parse-documents';
import { PARSE_OPTIONS } from '../../load/parse-options';
import type { Fix, TextEdit } from '../rule';

/**
 * Makes a fix change only the object it names when the text it edits is shared through YAML anchors and
 * aliases (YAML 1.2.2 §3.2.2.2, and the YAML 1.1 merge key `<<`, which kubectl reads through go-yaml):
 * - an edit of an alias used as a scalar value (`nodePort: *np`) replaces the alias with the literal: only
 *   this use changes;
 * - an edit of an anchored scalar (`nodePort: &np 30090`) that aliases use elsewhere writes the new value
 *   without the anchor and writes the old value in place of each alias (`*np` becomes `30090`), so the
 *   other objects keep theirs;
 * - a fix is dropped when an edit lies inside an anchored collection that an alias or merge key uses
 *   (`- &p {port: 80, nodePort: 30700}` with `- <<: *p` elsewhere: the edit would move both objects), or
 *   when it would replace an alias of a collection (`<<: *p`, `ports: *ports`).
 * Files without `&` or `*` (no anchors, the common case) are not parsed again.
 * @param parsed documents of a file already parsed in this run (filled on first use)
 * @returns the fix (as is, or with edits added and changed), or undefined when it cannot be made local
 */
export function localFix(fix: Fix, files: ReadonlyMap<string, LoadedFile>, parsed: Map<string, readonly Document.Parsed[]> = new Map()): Fix | undefined {
  const edits: TextEdit[] = [];
  let changed = false;
  for (const edit of fix.edits) {
    const file = files.get(edit.span.file);
    if (!file || !(file.text.includes('&') || file.text.includes('*'))) {
      edits.push(edit);
      continue;
    }
    let docs = parsed.get(file.file);
    if (!docs) parsed.set(file.file, (docs = parseDocuments(file.text, PARSE_OPTIONS).docs));
    const doc = docs.find((d) => d.range[0] <= edit.span.start && edit.span.end <= d.range[2]);
    const local = doc ? localEdits(doc, file.text, edit) : [edit];
    if (!local) return undefined;
    changed ||= local.length !== 1 || local[0] !== edit;
    edits.push(...local);
  }
  return changed ? { ...fix, edits } : fix;
}

/** The edits that make `edit` local to its object in `doc`, or undefined when none can (see {@link localFix}). */
function localEdits(doc: Document.Parsed, text: string, edit: TextEdit): TextEdit[] | undefined {
  const { start, end } = edit.span;
  const aliases: Alias[] = [];
  const containing: Node[] = [];
  const latest = new Map<string, Node>();
  const targets = new Map<Alias, Node | undefined>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        aliases.push(node);
        targets.set(node, latest.get(node.source));
      } else if ((isScalar(node) || isCollection(node)) && node.anchor) latest.set(node.anchor, node);
      const range = node.range;
      if (range && range[0] <= start && end <= range[1]) containing.push(node);
    },
  });
  const used = (node: Node): Alias[] => aliases.filter((a) => targets.get(a) === node);
  const exact = containing.length && containing[containing.length - 1].range![0] === start && containing[containing.length - 1].range![1] === end ? containing[containing.length - 1] : undefined;
  for (const outer of containing) if (isCollection(outer) && outer.anchor && used(outer).length) return undefined;
  if (!exact || start === end) return [edit];
  if (isAlias(exact)) return isScalar(targets.get(exact)) ? [edit] : undefined;
  if (!isScalar(exact) || !exact.anchor) return [edit];
  const users = used(exact);
  if (!users.length) return [edit];
  const old = text.slice(start, end);
  // `&np 30090`: the anchor is written right before the value; the new value goes in without it.
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start).trimEnd();
  const anchorAt = before.endsWith(`&${exact.anchor}`) ? lineStart + before.length - exact.anchor.length - 1 : start;
  return [{ span: { ...edit.span, start: anchorAt }, newText: edit.newText }, ...users.map((a) => ({ span: { ...edit.span, start: a.range![0], end: a.range![1] }, newText: old }))];
}
