import type { Span } from './span';
import { StringPool } from './string-pool';

/**
 * The `paths` of every object of one file in a compact form that crosses threads and the parse cache cheaply:
 * one `Int32Array` and one string instead of a `Map` of hundreds of thousands of `{file, start, end}` objects.
 * Entry `i` (in each object's `paths` order) is `ints[4i .. 4i+3]` = the length of the key prefix it shares
 * with the previous entry of the same object, the length of the rest of its key (in `suffixes`, entries
 * concatenated in order), and the UTF-16 `[start, end)` of its span. Keys come in the loader's walk order
 * (`spec`, `spec.ports#key`, `spec.ports`, …), so the shared prefix is most of each key and `suffixes` stays
 * short. Plain data (structured-clonable; `ints.buffer` can be transferred).
 */
export interface PathTable {
  readonly ints: Int32Array;
  readonly suffixes: string;
}

/** Where one object's entries lie in its file's {@link PathTable}: entries `[from, from + count)`. */
export interface PathRange {
  readonly from: number;
  readonly count: number;
}

const INTS_PER_ENTRY = 4;

/**
 * Decoded keys, shared by every object: the same keys (`spec.ports.0.port`, `metadata.labels#app`) come back in
 * object after object, and a key made of a shared prefix and a suffix is a new string each time it is decoded.
 */
const decodedKeys = new StringPool(256, 200_000);

/**
 * The front coding of a `paths` map, recorded by the walk that built it (the loader's `collectPaths`): for its
 * entries in order, how many leading characters the key shares with the previous entry's key (at most the true
 * common prefix) and the rest of the key. The walk knows both from the keys' segments, so {@link packPaths}
 * copies them instead of comparing every key with the previous one character by character (the keys are built
 * by concatenation, and reading their characters first flattens each one). Kept beside the map (never on it, so
 * the map stays a plain `Map`); used only while it has one coding per entry.
 */
export interface FrontCoding {
  readonly shared: number[];
  readonly suffixes: string[];
}
export const frontCodings = new WeakMap<ReadonlyMap<string, Span>, FrontCoding>();

/**
 * Packs the `paths` maps of a file's objects (in order; undefined for objects without) into one
 * {@link PathTable}, returning each object's {@link PathRange} (undefined where it had none).
 */
export function packPaths(maps: readonly (ReadonlyMap<string, Span> | undefined)[]): { table: PathTable; ranges: (PathRange | undefined)[] } {
  let total = 0;
  for (const map of maps) total += map?.size ?? 0;
  const ints = new Int32Array(total * INTS_PER_ENTRY);
  const parts: string[] = [];
  const ranges: (PathRange | undefined)[] = [];
  let entry = 0;
  for (const map of maps) {
    if (!map) {
      ranges.push(undefined);
      continue;
    }
    const from = entry;
    const packed = map instanceof PackedPaths ? map.packedEntries() : undefined;
    if (packed) {
      ints.set(packed.ints, entry * INTS_PER_ENTRY);
      parts.push(packed.suffixes);
      entry += map.size;
      ranges.push({ from, count: entry - from });
      continue;
    }
    const coding = frontCodings.get(map);
    if (coding && coding.shared.length === map.size && coding.suffixes.length === map.size) {
      let k = 0;
      for (const span of map.values()) {
        const suffix = coding.suffixes[k];
        const at = entry * INTS_PER_ENTRY;
        ints[at] = coding.shared[k];
        ints[at + 1] = suffix.length;
        ints[at + 2] = span.start;
        ints[at + 3] = span.end;
        parts.push(suffix);
        k++;
        entry++;
      }
      ranges.push({ from, count: entry - from });
      continue;
    }
    let previous = '';
    for (const [key, span] of map) {
      let shared = 0;
      const limit = Math.min(key.length, previous.length);
      while (shared < limit && key.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      const at = entry * INTS_PER_ENTRY;
      ints[at] = shared;
      ints[at + 1] = key.length - shared;
      ints[at + 2] = span.start;
      ints[at + 3] = span.end;
      parts.push(shared === 0 ? key : key.slice(shared));
      previous = key;
      entry++;
    }
    ranges.push({ from, count: entry - from });
  }
  return { table: { ints, suffixes: parts.join('') }, ranges };
}

type MutableSpan = { -readonly [K in keyof Span]: Span[K] };

/**
 * Builds the {@link PathTable} of one file entry by entry, for a loader that writes each object's `paths`
 * straight into it (no `Map`, no span object, no key string per entry): {@link begin} an object, {@link add} its
 * entries in order (a key given as the length it shares with the previous entry's key and the rest of it, in
 * pieces), {@link end} it (its {@link PackedPaths}, or {@link drop} to forget its entries), and {@link finish} the
 * table once the file is read: the `PackedPaths` read the table only then.
 */
export class PathTableBuilder {
  private readonly ints: number[] = [];
  private readonly parts: string[] = [];
  private suffixLength = 0;
  private from = 0;
  private objectSuffixStart = 0;
  private partsFrom = 0;
  private readonly table: { ints: Int32Array; suffixes: string } = { ints: new Int32Array(0), suffixes: '' };

  /** @param file the file name every span of the table carries */
  constructor(readonly file: string) {}

  /** Starts an object's entries. */
  begin(): void {
    this.from = this.ints.length / INTS_PER_ENTRY;
    this.objectSuffixStart = this.suffixLength;
    this.partsFrom = this.parts.length;
  }

  /**
   * One entry: `shared` leading UTF-16 units of the previous entry's key, then `suffix`, and its span `[start, end)`.
   * A suffix that is a key of the document as the parser made it must be passed as a new string (`${key}#key`):
   * a key string used as a property name of `raw` becomes a thin string, which `join` counts as two-byte, so the
   * whole table's suffixes would be a two-byte string, twice the bytes to post (concatenation reads through it).
   */
  add(shared: number, start: number, end: number, suffix: string): void {
    this.ints.push(shared, suffix.length, start, end);
    this.parts.push(suffix);
    this.suffixLength += suffix.length;
  }

  /** The {@link PackedPaths} of the entries added since {@link begin}. */
  end(): PackedPaths {
    return new PackedPaths(this.file, this.table, { from: this.from, count: this.ints.length / INTS_PER_ENTRY - this.from }, this.objectSuffixStart);
  }

  /** Forgets the entries added since {@link begin}. */
  drop(): void {
    this.ints.length = this.from * INTS_PER_ENTRY;
    this.parts.length = this.partsFrom;
    this.suffixLength = this.objectSuffixStart;
  }

  /** Makes the table the file's {@link PackedPaths} read. */
  finish(): void {
    this.table.ints = Int32Array.from(this.ints);
    this.table.suffixes = this.parts.join('');
  }
}

/**
 * One object's `paths` read from a {@link PathTable}: a `ReadonlyMap<string, Span>` with the same keys,
 * order and spans as the `Map` the loader built, but whose keys are decoded only when the object is first
 * asked for one (most objects never are), and whose span objects are made on first use and then kept, so
 * a span handed out is the same object every time (findings hold them; edits move them in place).
 */
export class PackedPaths implements ReadonlyMap<string, Span> {
  private index: Map<string, number> | undefined;
  private spans: (MutableSpan | undefined)[] | undefined;
  /** Offset in `table.suffixes` where this object's first suffix starts. */
  private readonly suffixStart: number;

  /**
   * @param file the file name every span carries
   * @param suffixStart where this object's suffixes start in `table.suffixes` (see {@link packedPathsOfFile})
   */
  constructor(readonly file: string, private readonly table: PathTable, private readonly range: PathRange, suffixStart: number) {
    this.suffixStart = suffixStart;
  }

  get size(): number {
    return this.range.count;
  }

  /**
   * This object's entries as {@link packPaths} would pack them (its slice of the table's ints, with `shared` of its
   * first entry as written, and its suffixes), or undefined once a span was handed out (it may have moved since).
   */
  packedEntries(): PathTable | undefined {
    if (this.spans) return undefined;
    const { ints, suffixes } = this.table;
    const from = this.range.from * INTS_PER_ENTRY;
    const to = from + this.range.count * INTS_PER_ENTRY;
    let length = 0;
    for (let at = from + 1; at < to; at += INTS_PER_ENTRY) length += ints[at];
    return { ints: ints.subarray(from, to), suffixes: suffixes.slice(this.suffixStart, this.suffixStart + length) };
  }

  get(key: string): Span | undefined {
    const i = this.lookup().get(key);
    return i === undefined ? undefined : this.spanAt(i);
  }

  has(key: string): boolean {
    return this.lookup().has(key);
  }

  *keys(): MapIterator<string> {
    yield* this.lookup().keys();
  }

  *values(): MapIterator<Span> {
    for (const i of this.lookup().values()) yield this.spanAt(i);
  }

  *entries(): MapIterator<[string, Span]> {
    for (const [key, i] of this.lookup()) yield [key, this.spanAt(i)];
  }

  [Symbol.iterator](): MapIterator<[string, Span]> {
    return this.entries();
  }

  forEach(callback: (value: Span, key: string, map: ReadonlyMap<string, Span>) => void, thisArg?: unknown): void {
    for (const [key, span] of this.entries()) callback.call(thisArg, span, key, this);
  }

  get [Symbol.toStringTag](): string {
    return 'PackedPaths';
  }

  /** Key → entry, decoded on first use (keys are unique: they were a Map's). */
  private lookup(): Map<string, number> {
    if (this.index) return this.index;
    const index = new Map<string, number>();
    const { ints, suffixes } = this.table;
    let at = this.suffixStart;
    let previous = '';
    for (let i = 0; i < this.range.count; i++) {
      const base = (this.range.from + i) * INTS_PER_ENTRY;
      const length = ints[base + 1];
      const key = decodedKeys.intern(ints[base] === 0 ? suffixes.slice(at, at + length) : previous.slice(0, ints[base]) + suffixes.slice(at, at + length));
      at += length;
      index.set(key, i);
      previous = key;
    }
    return (this.index = index);
  }

  private spanAt(i: number): MutableSpan {
    const spans = (this.spans ??= new Array(this.range.count));
    const cached = spans[i];
    if (cached) return cached;
    const base = (this.range.from + i) * INTS_PER_ENTRY;
    return (spans[i] = { file: this.file, start: this.table.ints[base + 2], end: this.table.ints[base + 3] });
  }
}

/** The {@link PackedPaths} of each range of one file's table (undefined stays undefined). */
export function packedPathsOfFile(file: string, table: PathTable, ranges: readonly (PathRange | undefined)[]): (PackedPaths | undefined)[] {
  const out: (PackedPaths | undefined)[] = [];
  let suffix = 0;
  for (const range of ranges) {
    if (!range) {
      out.push(undefined);
      continue;
    }
    out.push(new PackedPaths(file, table, range, suffix));
    for (let i = 0; i < range.count; i++) suffix += table.ints[(range.from + i) * INTS_PER_ENTRY + 1];
  }
  return out;
}
