/**
 * Where "next / previous finding" (F8 / Shift+F8) goes in a read-only rendered view (no `vscode` import, so it is
 * unit-tested on its own; rendered-diagnostics.ts binds it to the keys).
 *
 * VS Code's own F8 (`editor.action.marker.next`) visits only the markers of its diagnostic collections. In a
 * rendered view most findings are drawn as decorations instead (the copies of source-line findings, kept out of
 * Problems: see rendered-diagnostics.ts), so F8 there skipped them, or found nothing at all. The view's keys visit
 * both kinds, in document order, as F8 does: from the cursor onwards, wrapping at the end of the document.
 */
import type { PositionLike } from './view-copies';

/** A finding's place: 0-based start line and character (a vscode.Range's `start` fits). */
export interface FindingStart {
  readonly start: PositionLike;
}

/** `a` before `b` (-1), at it (0) or after it (1), by line then character. */
function compare(a: PositionLike, b: PositionLike): number {
  return a.line !== b.line ? Math.sign(a.line - b.line) : Math.sign(a.character - b.character);
}

/**
 * The finding F8 (`direction` 1) or Shift+F8 (-1) moves to from `cursor`: the first one starting after the cursor
 * (before it, for -1), wrapping around the document; the one at the cursor only when it is the only place there
 * is. Findings at the same start count once (the first given). Undefined when there are none.
 */
export function nextFinding<F extends FindingStart>(findings: readonly F[], cursor: PositionLike, direction: 1 | -1): F | undefined {
  const ordered = [...findings].sort((a, b) => compare(a.start, b.start));
  const distinct = ordered.filter((f, i) => i === 0 || compare(ordered[i - 1].start, f.start) !== 0);
  if (distinct.length === 0) return undefined;
  if (direction === 1) return distinct.find((f) => compare(f.start, cursor) > 0) ?? distinct[0];
  for (let i = distinct.length - 1; i >= 0; i--) if (compare(distinct[i].start, cursor) < 0) return distinct[i];
  return distinct[distinct.length - 1];
}
