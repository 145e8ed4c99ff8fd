import { PackedPaths } from '../source/packed-paths';
import type { Span } from '../source/span';

/**
 * Keys whose values are plain data read from the manifest (JSON, string maps): they hold no spans and are
 * never walked. `raw` is the object's JSON, which can contain anything a user writes, so it must never be
 * mistaken for spans.
 */
export const PLAIN_KEYS: ReadonlySet<string> = new Set(['raw', 'labels', 'annotations', 'selector', 'nodeSelector', 'nodeLabels', 'tolerations', 'values']);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function isSpan(value: object, file: string): value is Mutable<Span> {
  const v = value as Partial<Span>;
  return v.file === file && typeof v.start === 'number' && typeof v.end === 'number';
}

/** Calls `visit` for every {@link Span} of `file` inside `value` (skipping plain manifest data, see PLAIN_KEYS). */
export function walkSpans(value: unknown, file: string, visit: (span: Mutable<Span>) => void): void {
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item);
    } else if (v instanceof Map || v instanceof PackedPaths) {
      // A PackedPaths makes every span object it has not made yet: from then on they are its spans.
      for (const item of v.values()) walk(item);
    } else if (!(v instanceof Set)) {
      if (isSpan(v, file)) visit(v);
      else for (const key in v) if (!PLAIN_KEYS.has(key)) walk((v as Record<string, unknown>)[key]);
    }
  };
  walk(value);
}

/**
 * Every {@link Span} of `file` inside `roots` (as {@link walkSpans} finds them), each span object once even when
 * it is reachable twice, to move later with {@link moveSpans}' `flat` lists instead of walking the values again.
 */
export function collectSpans(roots: readonly unknown[], file: string): Mutable<Span>[] {
  const out: Mutable<Span>[] = [];
  // Listed spans are marked by a bitwise-negated start (always negative) while walking, then restored.
  const list = (span: Mutable<Span>): void => {
    if (span.start < 0) return;
    span.start = ~span.start;
    out.push(span);
  };
  for (const root of roots) walkSpans(root, file, list);
  for (const span of out) span.start = ~span.start;
  return out;
}

/**
 * Moves every {@link Span} of `file` that starts at or after `from` by `delta` UTF-16 code units, IN PLACE,
 * in all of `roots` (loader output: objects, problems; findings) and in the `flat` lists of spans (from
 * {@link collectSpans}: no span twice in one list, and the lists disjoint — one list per document, and documents
 * share no span). Used when an edit earlier in a file moves the documents after it: their parsed results
 * (and the findings about them) are reused instead of computed again, which keeps a keystroke in a
 * 2,000-document file cheap.
 *
 * A span object reachable twice (an object's anchor reused as a defaulted field's span, a finding pointing
 * at an object's span, a span in a flat list and in a root) must move once. Rather than a visited set (costly
 * for tens of thousands of spans), the walk over `roots` marks the spans it moves by storing their new offsets
 * bitwise-negated (always negative); the flat lists, each span once, move their unmarked spans and restore the
 * marked ones in one pass; a last walk over `roots` restores the rest.
 */
export function moveSpans(roots: readonly unknown[], delta: number, file: string, from = 0, flat: readonly (readonly Mutable<Span>[])[] = []): void {
  if (delta === 0) return;
  const mark = (span: Mutable<Span>): void => {
    if (span.start < from) return; // before the edit, or already marked in this pass (negative)
    span.start = ~(span.start + delta);
    span.end = ~(span.end + delta);
  };
  const restore = (span: Mutable<Span>): void => {
    if (span.start >= 0) return;
    span.start = ~span.start;
    span.end = ~span.end;
  };
  for (const root of roots) walkSpans(root, file, mark);
  for (const list of flat) {
    for (const span of list) {
      const start = span.start;
      if (start < 0) {
        span.start = ~start; // moved by the walk over roots
        span.end = ~span.end;
      } else if (start >= from) {
        span.start = start + delta;
        span.end += delta;
      }
    }
  }
  for (const root of roots) walkSpans(root, file, restore);
}
