import type { Span } from '../source/span';

/**
 * Keys whose values are plain data read from the manifest (JSON, string maps): they hold no spans and are
 * never walked. `raw` is the object's JSON, which can contain anything a user writes, so it must never be
 * mistaken for spans.
 */
const PLAIN_KEYS = new Set(['raw', 'labels', 'annotations', 'selector', 'nodeSelector', 'nodeLabels', 'tolerations', 'values']);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function isSpan(value: object, file: string): value is Span {
  const v = value as Partial<Span>;
  return v.file === file && typeof v.start === 'number' && typeof v.end === 'number';
}

/**
 * Moves every {@link Span} of `file` found in `value` (loader output: objects, problems; or findings) by
 * `delta` UTF-16 code units, IN PLACE. Used when an edit earlier in a file moves the documents after it:
 * their parsed results are reused instead of parsed again, which is what keeps a keystroke in a
 * 2,000-document file cheap. A span object reachable twice (e.g. an object's anchor also listed in its
 * `paths`) is moved once: `moved` records the span objects already moved in this pass, and can be passed
 * to later calls of the same pass (e.g. findings that point at those same span objects). Only spans starting
 * at or after `from` move.
 */
export function moveSpans(value: unknown, delta: number, file: string, moved: Set<object>, from = 0): void {
  if (delta === 0) return;
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item);
      return;
    }
    if (v instanceof Map) {
      for (const item of v.values()) walk(item);
      return;
    }
    if (v instanceof Set) return;
    if (isSpan(v, file)) {
      if (moved.has(v) || v.start < from) return;
      moved.add(v);
      const span = v as Mutable<Span>;
      span.start += delta;
      span.end += delta;
      return;
    }
    for (const key in v) if (!PLAIN_KEYS.has(key)) walk((v as Record<string, unknown>)[key]);
  };
  walk(value);
}
