import type { TextEdit } from '../rule';

/** Applies edits of one file to its text (edits must not overlap). */
export function applyEditsToText(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start)) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}
