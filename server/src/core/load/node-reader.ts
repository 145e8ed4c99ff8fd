import { Document, isAlias, isMap, isPair, isScalar, isSeq, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { Located, Span } from '../source/span';
import { AliasIndex } from './alias-index';
import { type FrontCoding, frontCodings, type PathTableBuilder } from '../source/packed-paths';
import { EventMap, precomposedJSON } from './event-nodes';
import { plainJSON } from './plain-json';

/** The most aliases followed while resolving one value (guards against alias loops and bombs). */
const MAX_ALIAS_HOPS = 32;
/** The most nodes {@link NodeReader.enterObject} maps for one object (alias bombs are refused before, by toJS). */
const MAX_BROUGHT_NODES = 100_000;

/**
 * Navigation over one `yaml` document's node tree that keeps source spans. Aliases are followed to
 * their anchors for values, while spans stay where the value is written (the alias), so a finding
 * points into the object that uses the value. Merge keys (`<<: *base`) are searched after the map's
 * own keys, as the YAML 1.1 merge convention says. A value written in another object and brought in by an alias
 * or a merge key of an ancestor (`- <<: *p`, `ports: *ports`) gets the span of that alias, once
 * {@link enterObject} was called for the object.
 */
export class NodeReader {
  private index: AliasIndex | undefined;
  /** Nodes written outside the object being read, mapped to the span of the alias in the object that brings them in. */
  private brought: Map<unknown, Span> | undefined;

  /**
   * @param pathTable where {@link objectPaths} writes objects' `paths` (as they cross a thread boundary anyway),
   *   instead of making a `Map` of them
   */
  constructor(readonly doc: Document.Parsed, readonly file: string, private readonly pathTable?: PathTableBuilder) {}

  /** The document's aliases and their anchors (built on first use, one walk of the document). */
  get aliases(): AliasIndex {
    return (this.index ??= new AliasIndex(this.doc));
  }

  /** The node an alias points to (or the node itself). Constant time per alias (see {@link AliasIndex}). */
  resolve(node: unknown): Node | undefined {
    let current = node;
    for (let hops = 0; isAlias(current); hops++) {
      if (hops >= MAX_ALIAS_HOPS) return undefined;
      current = this.aliases.target(current);
    }
    return (current ?? undefined) as Node | undefined;
  }

  /**
   * The plain JSON value of `node` (mappings as objects, aliases and merge keys resolved), as `yaml`'s
   * `node.toJS(doc, { maxAliasCount })` computes it, in linear time (see {@link plainJSON}).
   * @throws ReferenceError for unresolved aliases and alias bombs (more than `maxAliasCount` expansions)
   */
  toJS(node: Node, maxAliasCount: number): unknown {
    // The composer made it while composing a collection without aliases or merge keys (no limit to check).
    const made = precomposedJSON(node);
    if (made !== undefined) return made;
    return plainJSON(node, () => this.aliases, maxAliasCount);
  }

  /**
   * Starts reading the object whose text is `root`'s: every node reached through an alias or merge key in the
   * object (`- <<: *p`, `spec: *s`) that is written outside the object is given that alias's span by
   * {@link span}, so a finding on the value lands on the line of the object that uses it (kubectl reads the
   * value as if it were written there). When several aliases of the object bring the same node, the first one
   * (in document order) is used. Costs nothing for documents without aliases.
   */
  enterObject(root: unknown): void {
    this.brought = undefined;
    const own = (root as Node | undefined)?.range;
    if (!this.index || !own) return;
    const brought = new Map<unknown, Span>();
    const outside = (n: unknown): boolean => {
      const r = (n as Node | undefined)?.range;
      return !!r && (r[0] < own[0] || r[1] > own[1]);
    };
    const bring = (node: unknown, entry: Span, depth: number): void => {
      if (depth > MAX_ALIAS_HOPS * 4 || brought.size >= MAX_BROUGHT_NODES || !node || brought.has(node)) return;
      if (outside(node)) brought.set(node, entry);
      const target = isAlias(node) ? this.aliases.target(node) : node;
      if (target !== node) return bring(target, entry, depth + 1);
      if (isMap(target)) for (const item of target.items) bring(item.value, entry, depth + 1);
      else if (isSeq(target)) for (const item of target.items) bring(item, entry, depth + 1);
    };
    const walkOwn = (node: unknown, depth: number): void => {
      if (depth > 256 || brought.size >= MAX_BROUGHT_NODES) return;
      if (isAlias(node)) {
        const entry = this.span(node);
        if (entry) bring(this.aliases.target(node), entry, 0);
      } else if (isMap(node)) for (const item of node.items) walkOwn(item.value, depth + 1);
      else if (isSeq(node)) for (const item of node.items) walkOwn(item, depth + 1);
    };
    walkOwn(root, 0);
    if (brought.size) this.brought = brought;
  }

  /** True when `node` is written outside the object being read and brought into it by an alias or merge key. */
  isBrought(node: unknown): boolean {
    return this.brought?.has(node) ?? false;
  }

  /** Span of a node's value (without a trailing comment); see {@link enterObject} for values brought by an alias. */
  span(node: unknown): Span | undefined {
    const entry = this.brought?.get(node);
    if (entry) return entry;
    const range = (node as Node | undefined)?.range;
    if (!range) return undefined;
    return { file: this.file, start: range[0], end: range[1] };
  }

  asMap(node: unknown): YAMLMap | undefined {
    const resolved = this.resolve(node);
    return isMap(resolved) ? resolved : undefined;
  }

  asSeq(node: unknown): YAMLSeq | undefined {
    const resolved = this.resolve(node);
    return isSeq(resolved) ? resolved : undefined;
  }

  /** The pair for `key` in `map`, looking through merge keys. */
  pair(map: YAMLMap | undefined, key: string, depth = 0): Pair | undefined {
    if (!map || depth > MAX_ALIAS_HOPS) return undefined;
    let merges: unknown[] | undefined;
    const items = map.items;
    if (map instanceof EventMap) {
      // The composer's maps hold only pairs with scalar keys (it declines every other key): no checks per item.
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        const k = (item.key as Scalar).value;
        if (k === key) return item;
        if (isMergeKey(k)) (merges ??= []).push(item.value);
      }
    } else {
      for (const item of items) {
        if (!isPair(item)) continue;
        const k = isScalar(item.key) ? item.key.value : item.key;
        if (k === key) return item;
        if (isMergeKey(k)) (merges ??= []).push(item.value);
      }
    }
    for (const source of merges ?? []) {
      const sources = this.asSeq(source)?.items ?? [source];
      for (const s of sources) {
        const found = this.pair(this.asMap(s), key, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** The value node (unresolved, so its span is where it is written) at `path` below `node`. */
  at(node: unknown, path: readonly (string | number)[]): unknown {
    let current: unknown = node;
    for (const step of path) {
      if (typeof step === 'number') {
        current = this.asSeq(current)?.items[step];
      } else {
        current = this.pair(this.asMap(current), step)?.value;
      }
      if (current === undefined || current === null) return undefined;
    }
    return current;
  }

  /** The JS value of a scalar node (after alias resolution), or undefined for collections. */
  scalarValue(node: unknown): unknown {
    const resolved = this.resolve(node);
    return isScalar(resolved) ? resolved.value : undefined;
  }

  /** A scalar at `path` with its span, when the scalar satisfies `accept`. */
  located<T>(node: unknown, path: readonly (string | number)[], accept: (v: unknown) => v is T): Located<T> | undefined {
    const valueNode = this.at(node, path);
    if (valueNode === undefined) return undefined;
    const value = this.scalarValue(valueNode);
    const span = this.span(valueNode);
    return span && accept(value) ? { value, span } : undefined;
  }

  string(node: unknown, path: readonly (string | number)[]): Located<string> | undefined {
    return this.located(node, path, isString);
  }

  /** A scalar rendered as a string (numbers and booleans included), e.g. for env values. */
  text(node: unknown, path: readonly (string | number)[]): Located<string> | undefined {
    const valueNode = this.at(node, path);
    const value = this.scalarValue(valueNode);
    const span = this.span(valueNode);
    if (!span || value === undefined || value === null || typeof value === 'object') return undefined;
    return { value: String(value), span };
  }

  integer(node: unknown, path: readonly (string | number)[]): Located<number> | undefined {
    return this.located(node, path, isInteger);
  }

  boolean(node: unknown, path: readonly (string | number)[]): Located<boolean> | undefined {
    return this.located(node, path, isBoolean);
  }

  /** Items of a sequence at `path` (empty when absent or not a sequence). */
  items(node: unknown, path: readonly (string | number)[]): unknown[] {
    return this.asSeq(this.at(node, path))?.items ?? [];
  }

  /**
   * A string→string map (labels, selectors); non-string values are stringified, a collection value is `''`.
   * Merge keys (`<<: *common`, `<<: [*a, *b]`) bring their maps' pairs as the object's `raw` has them (see
   * {@link ./plain-json}): a key written in the map wins over a merged one wherever the `<<` stands, and an
   * earlier merge source over a later one.
   */
  stringMap(node: unknown, path: readonly (string | number)[]): Record<string, string> {
    const out: Record<string, string> = {};
    const map = this.asMap(this.at(node, path));
    if (map) this.addStringPairs(map, out, false, 0);
    return out;
  }

  /** {@link stringMap}'s pairs of `map` into `out`; `merged`: `map` is a merge source (its pairs never replace one). */
  private addStringPairs(map: YAMLMap, out: Record<string, string>, merged: boolean, depth: number): void {
    if (depth > MAX_ALIAS_HOPS) return;
    let merges: unknown[] | undefined;
    for (const item of map.items) {
      const key = this.scalarValue(item.key);
      if (key === undefined || key === null) continue;
      if (isMergeKey(key)) {
        (merges ??= []).push(item.value);
        continue;
      }
      const k = String(key);
      if (merged && Object.prototype.hasOwnProperty.call(out, k)) continue;
      const value = this.scalarValue(item.value);
      const text = value === null || value === undefined ? '' : String(value);
      // `__proto__` as a key is data, not the object's prototype.
      if (k === '__proto__') Object.defineProperty(out, k, { value: text, writable: true, enumerable: true, configurable: true });
      else out[k] = text;
    }
    for (const source of merges ?? []) {
      const sources = this.asSeq(source)?.items ?? [source];
      for (const s of sources) {
        const from = this.asMap(s);
        if (from) this.addStringPairs(from, out, true, depth + 1);
      }
    }
  }

  /**
   * The `paths` of one object: {@link collectPaths} of each `[node, prefix]` of `walks` in turn, into one map;
   * written into the reader's path table when it has one and every key of the walks is one only they can make
   * (see {@link tablePaths}), else a `Map`. Undefined for no walks.
   */
  objectPaths(walks: readonly (readonly [node: unknown, prefix: string])[]): ReadonlyMap<string, Span> | undefined {
    if (!walks.length) return undefined;
    const table = this.pathTable;
    if (table) {
      table.begin();
      if (walks.every(([node, prefix]) => this.tablePaths(table, node, prefix))) return table.end();
      table.drop();
    }
    let out: Map<string, Span> | undefined;
    for (const [node, prefix] of walks) out = this.collectPaths(node, prefix, out ?? new Map());
    return out;
  }

  /**
   * {@link collectPaths}' walk written into `table`: the same entries in the same order, each key front-coded as
   * collectPaths records it, with no key string, span or map made. False (the entries then are to be dropped)
   * where the map could differ from the walk's entries: a node below the root without a span (no entry), a
   * mapping whose keys could make one dotted path twice (see {@link distinctPaths}), or a mapping not composed
   * from events (whose keys the composer did not check for duplicates).
   */
  private tablePaths(table: PathTableBuilder, root: unknown, rootPrefix: string): boolean {
    const walk = (node: unknown, prefixLength: number, depth: number, shared: number, suffix: string): boolean => {
      if (prefixLength) {
        const entry = this.brought?.get(node);
        const range = entry ? undefined : (node as Node | undefined)?.range;
        if (entry) table.add(shared, entry.start, entry.end, suffix);
        else if (range) table.add(shared, range[0], range[1], suffix);
        else return false;
      }
      if (depth > 64) return true;
      const resolved = this.resolve(node);
      const base = prefixLength ? prefixLength + 1 : 0;
      if (resolved instanceof EventMap) {
        if (!distinctPaths(resolved)) return false;
        let previous: string | undefined;
        for (const item of resolved.items) {
          const keyNode = item.key as Node & { value: string };
          const segment = keyNode.value;
          const keyEntry = this.brought?.get(keyNode);
          const keyRange = keyEntry ? undefined : keyNode.range;
          const start = keyEntry ? keyEntry.start : keyRange ? keyRange[0] : -1;
          const end = keyEntry ? keyEntry.end : keyRange ? keyRange[1] : -1;
          if (start < 0) return false;
          const pathLength = prefixLength ? prefixLength + 1 + segment.length : segment.length;
          if (previous === undefined) table.add(prefixLength, start, end, prefixLength ? `.${segment}#key` : `${segment}#key`);
          else {
            const common = commonPrefixLength(previous, segment);
            table.add(base + common, start, end, `${segment.slice(common)}#key`);
          }
          if (!walk(item.value, pathLength, depth + 1, pathLength, '')) return false;
          previous = segment;
        }
      } else if (isMap(resolved)) return false;
      else if (isSeq(resolved)) {
        const items = resolved.items;
        for (let i = 0; i < items.length; i++) {
          const segment = String(i);
          const pathLength = prefixLength ? prefixLength + 1 + segment.length : segment.length;
          let ok: boolean;
          if (i === 0) ok = walk(items[i], pathLength, depth + 1, prefixLength, prefixLength ? `.${segment}` : segment);
          else {
            const common = commonPrefixLength(String(i - 1), segment);
            ok = walk(items[i], pathLength, depth + 1, base + common, segment.slice(common));
          }
          if (!ok) return false;
        }
      }
      return true;
    };
    // The first entry of a walk shares nothing with the entry before it (as in collectPaths).
    return walk(root, rootPrefix.length, 0, 0, rootPrefix);
  }

  /**
   * Every node below `root` keyed by dotted path (for kinds read through `raw`), map keys also as `path#key`.
   * `prefix` is the dotted path of `root` itself when it is not the object's root; entries go into `out`.
   * The walk also records the map's front coding ({@link frontCodings}: what each key shares with the one before
   * it, from the keys' segments), which packing the map for another thread then copies.
   */
  collectPaths(root: unknown, prefix = '', out = new Map<string, Span>()): Map<string, Span> {
    // A coding covers the whole map or nothing: started on an empty map, continued on one it covers.
    let coding: FrontCoding | undefined = out.size === 0 ? { shared: [], suffixes: [] } : frontCodings.get(out);
    if (coding && coding.shared.length !== out.size) coding = undefined;
    const emit = (key: string, span: Span | undefined, shared: number, suffix: string): void => {
      if (!span) return;
      out.set(key, span);
      if (coding) {
        coding.shared.push(shared);
        coding.suffixes.push(suffix);
      }
    };
    // `shared`/`suffix`: the coding of `prefix` itself against the entry emitted before it.
    const walk = (node: unknown, prefix: string, depth: number, shared: number, suffix: string): void => {
      const span = this.span(node);
      if (prefix) {
        // An entry left out would make the next key's coding refer to the wrong predecessor.
        if (span) emit(prefix, span, shared, suffix);
        else coding = undefined;
      }
      if (depth > 64) return;
      const resolved = this.resolve(node);
      // Where a child's own segment starts in its key: after `prefix.` (nothing before it at the root).
      const base = prefix ? prefix.length + 1 : 0;
      if (isMap(resolved)) {
        // The entry before a child's `path#key` is `prefix` (first child; none at the root) or the last one under
        // the previous child (`prefix.<previous segment>…`): what they share is known from the two segments.
        let previous: string | undefined;
        for (const item of resolved.items) {
          const key = this.scalarValue(item.key);
          if (key === undefined || key === null) continue;
          const segment = String(key);
          const keySpan = this.span(item.key);
          const path = prefix ? `${prefix}.${segment}` : segment;
          if (!keySpan) coding = undefined;
          if (previous === undefined) emit(`${path}#key`, keySpan, prefix.length, prefix ? `.${segment}#key` : `${segment}#key`);
          else {
            const common = commonPrefixLength(previous, segment);
            emit(`${path}#key`, keySpan, base + common, `${segment.slice(common)}#key`);
          }
          // `path` itself follows `path#key`.
          walk(item.value, path, depth + 1, path.length, '');
          previous = segment;
        }
      } else if (isSeq(resolved)) {
        const items = resolved.items;
        for (let i = 0; i < items.length; i++) {
          const segment = String(i);
          const path = prefix ? `${prefix}.${segment}` : segment;
          if (i === 0) walk(items[i], path, depth + 1, prefix.length, prefix ? `.${segment}` : segment);
          else {
            const common = commonPrefixLength(String(i - 1), segment);
            walk(items[i], path, depth + 1, base + common, segment.slice(common));
          }
        }
      }
    };
    // The first entry of a walk into a map that already has entries shares nothing (always a valid coding).
    walk(root, prefix, 0, 0, prefix);
    if (coding && coding.shared.length === out.size) frontCodings.set(out, coding);
    else frontCodings.delete(out);
    return out;
  }
}

/**
 * Whether no two keys of `map` (composed from events: its keys are distinct values) can give one dotted path in
 * {@link NodeReader.collectPaths}' walk. Two paths `P.s1…` and `P.s2…` through different keys of one map are
 * the same string only when one key is the other followed by `.` or `#` and more (`a` and `a.b`, `""` and
 * `#key`), since what follows a key in a path starts with `.` or `#`; and a key that is not a string (`1`
 * beside `"1"`, a merge key, null) is written as `String(key)` or skipped. Label and annotation keys hold dots
 * (`app.kubernetes.io/name`), so those are checked against their siblings, not refused.
 */
function distinctPaths(map: EventMap): boolean {
  let marked = false;
  for (const item of map.items) {
    const k = (item.key as { value: unknown }).value;
    if (typeof k !== 'string') return false;
    if (!marked && (k.includes('.') || k.includes('#'))) marked = true;
  }
  if (!marked) return true;
  const keys = new Set<string>();
  for (const item of map.items) keys.add((item.key as { value: string }).value);
  for (const k of keys) {
    for (let p = 0; p < k.length; p++) {
      const c = k.charCodeAt(p);
      if ((c === 46 || c === 35) && keys.has(k.slice(0, p))) return false; // `.` or `#`
    }
  }
  return true;
}

/** How many leading UTF-16 code units `a` and `b` have in common. */
function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let n = 0;
  while (n < limit && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** A merge key `<<`: yaml ≥2.6 parses it (with `merge: true`) to the symbol `Symbol(<<)`, older versions to the string. */
export const isMergeKey = (k: unknown): boolean => k === '<<' || (typeof k === 'symbol' && k.description === '<<');
export const isString = (v: unknown): v is string => typeof v === 'string';
/** An int32, the type of every integer field the rules read (ports, replicas); larger numbers fail the API's decoding. */
export const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
