import type { Span } from '../core/source/span';

/**
 * The spans of a serialized loaded file in one `Int32Array`, for the parse cache. A loaded medium workspace
 * holds ~70,000 `{file, start, end}` objects in its typed fields; v8-deserializing each one (three keys read
 * and internalized, a string, two numbers) was a third of what reading a cache entry cost. Stored this way, every
 * span's place holds the same marker object (v8 serialization writes a repeated object as a back-reference: a
 * byte or two) and its offsets sit in the table, in walk order; reading rebuilds each span as one object literal.
 */
export interface SpanTable {
  /** The object that stands where each tabled span was (compared by identity). */
  readonly marker: object;
  /**
   * Two ints per span in walk order: `start, end` (UTF-16 offsets, both ≥ 0) for a span met for the first time,
   * or `~k, 0` for the same span object as the k-th one (a span reachable twice stays one object).
   */
  readonly ints: Int32Array;
}

/**
 * Keys whose values are plain manifest data (JSON, string maps): they hold no spans and are never walked
 * (the same list as core/load/shift-spans.ts walkSpans, whose walk this one follows).
 */
const PLAIN_KEYS = new Set(['raw', 'labels', 'annotations', 'selector', 'nodeSelector', 'nodeLabels', 'tolerations', 'values']);

type MutableSpan = { -readonly [K in keyof Span]: Span[K] };
type Container = Record<string | number, unknown> | unknown[] | Map<unknown, unknown>;

/** A span as walkSpans sees one: `file` is `name`, `start` and `end` are numbers (other keys may follow). */
function isSpanOf(v: object, name: string): v is MutableSpan {
  const s = v as Partial<Span>;
  return s.file === name && typeof s.start === 'number' && typeof s.end === 'number';
}

const MAX_OFFSET = 0x7fffffff;

/** A span that can be tabled: exactly the keys `file, start, end` in that order, with int32 offsets ≥ 0. */
function isPlainSpan(v: MutableSpan): boolean {
  const { start, end } = v;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < 0 || start > MAX_OFFSET || end > MAX_OFFSET) return false;
  let i = 0;
  for (const key in v) {
    if (i > 2 || key !== (i === 0 ? 'file' : i === 1 ? 'start' : 'end')) return false;
    i++;
  }
  return i === 3;
}

/**
 * Replaces, IN PLACE, every span of `name` in `roots` (walked as walkSpans walks them) by `marker`, and gives
 * every other span of `name` (one with extra keys) the name `''`; returns the table and a function that puts
 * everything back as it was. `name` is the spans' current file name (`''` when a load worker already dropped it).
 */
export function tableSpans(roots: readonly unknown[], name: string): { table: SpanTable; restore: () => void } {
  const marker = {};
  const ints: number[] = [];
  const seen = new Map<object, number>();
  const replaced: [Container, unknown, MutableSpan][] = [];
  const renamed: MutableSpan[] = [];
  /** The marker for span `v` (tabled), else undefined. */
  const tabled = (v: object): object | undefined => {
    if (!isSpanOf(v, name) || !isPlainSpan(v)) return undefined;
    const k = seen.get(v);
    if (k === undefined) {
      seen.set(v, seen.size);
      ints.push(v.start, v.end);
    } else ints.push(~k, 0);
    return marker;
  };
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || v === marker) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        const m = item !== null && typeof item === 'object' ? tabled(item) : undefined;
        if (m) {
          replaced.push([v, i, item as MutableSpan]);
          v[i] = m;
        } else walk(item);
      }
    } else if (v instanceof Map) {
      for (const [key, item] of v) {
        const m = item !== null && typeof item === 'object' ? tabled(item as object) : undefined;
        if (m) {
          replaced.push([v, key, item as MutableSpan]);
          v.set(key, m);
        } else walk(item);
      }
    } else if (!(v instanceof Set)) {
      if (isSpanOf(v, name)) {
        // A span with more keys than a span: kept as it is, without its name (as dropSpanNames does).
        if (name !== '') {
          renamed.push(v);
          v.file = '';
        }
        return;
      }
      const o = v as Record<string, unknown>;
      for (const key in o) {
        if (PLAIN_KEYS.has(key)) continue;
        const item = o[key];
        const m = item !== null && typeof item === 'object' ? tabled(item) : undefined;
        if (m) {
          replaced.push([o, key, item as MutableSpan]);
          o[key] = m;
        } else walk(item);
      }
    }
  };
  for (const root of roots) walk(root);
  const restore = (): void => {
    for (const [container, key, span] of replaced) {
      if (container instanceof Map) container.set(key, span);
      else (container as Record<string | number, unknown>)[key as string | number] = span;
    }
    for (const span of renamed) span.file = name;
  };
  return { table: { marker, ints: Int32Array.from(ints) }, restore };
}

/**
 * Undoes {@link tableSpans} on freshly deserialized `roots` (the same walk, in the same order): each marker
 * becomes a `{file: name, start, end}` span again, and every other span named `''` gets `name`.
 * @throws Error when the table does not match the values (a damaged cache entry: the caller loads the file again)
 */
export function untableSpans(roots: readonly unknown[], table: SpanTable, name: string): void {
  const { marker, ints } = table;
  const spans: Span[] = [];
  let at = 0;
  const next = (): Span => {
    if (at + 1 >= ints.length) throw new Error('span table too short');
    const a = ints[at];
    const b = ints[at + 1];
    at += 2;
    if (a < 0) {
      const same = spans[~a];
      if (!same) throw new Error('span table refers to an unknown span');
      return same;
    }
    const span: Span = { file: name, start: a, end: b };
    spans.push(span);
    return span;
  };
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (v === marker) throw new Error('span marker out of place');
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (item === marker) v[i] = next();
        else walk(item);
      }
    } else if (v instanceof Map) {
      for (const [key, item] of v) {
        if (item === marker) v.set(key, next());
        else walk(item);
      }
    } else if (!(v instanceof Set)) {
      if (isSpanOf(v, '')) {
        v.file = name;
        return;
      }
      if (isSpanOf(v, name)) return; // a span rebuilt above, reached again through a shared object
      const o = v as Record<string, unknown>;
      for (const key in o) {
        if (PLAIN_KEYS.has(key)) continue;
        const item = o[key];
        if (item === marker) o[key] = next();
        else walk(item);
      }
    }
  };
  for (const root of roots) walk(root);
  if (at !== ints.length) throw new Error('span table too long');
}
