import { Document, isAlias, isMap, isPair, isScalar, isSeq, Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import type { Located, Span } from '../source/span';
import { AliasIndex } from './alias-index';
import { type FrontCoding, frontCodings } from '../source/packed-paths';
import { precomposedJSON } from './event-nodes';
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

  constructor(readonly doc: Document.Parsed, readonly file: string) {}

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
    return plainJSON(node, () => this.aliases, maxAliasCount, () => node.toJS(this.doc, { maxAliasCount }));
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
    for (const item of map.items) {
      if (!isPair(item)) continue;
      const k = isScalar(item.key) ? item.key.value : item.key;
      if (k === key) return item;
      if (isMergeKey(k)) (merges ??= []).push(item.value);
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

  /** A string→string map (labels, selectors); non-string values are stringified. */
  stringMap(node: unknown, path: readonly (string | number)[]): Record<string, string> {
    const out: Record<string, string> = {};
    const map = this.asMap(this.at(node, path));
    if (!map) return out;
    for (const item of map.items) {
      const key = this.scalarValue(item.key);
      const value = this.scalarValue(item.value);
      if (key === undefined || key === null || isMergeKey(key)) continue;
      out[String(key)] = value === null || value === undefined ? '' : String(value);
    }
    return out;
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
