import { Alias, isAlias, isCollection, isMap, isPair, isScalar, isSeq, Node, Pair, Scalar } from 'yaml';
import type { AliasIndex } from './alias-index';

/** Per anchored node, as in `yaml`'s toJS: how often it was used and how many aliases its value expands. */
interface AnchorUse {
  aliasCount: number;
  count: number;
  res: unknown;
  created: boolean;
}

/** Thrown for an alias whose anchor is not defined before it (message as `yaml`'s, read by documentReadProblem). */
const unresolved = (alias: Alias): ReferenceError =>
  new ReferenceError(`Unresolved alias (the anchor must be set before the alias): ${alias.source}`);

/**
 * An alias inside the very node its anchor names (`spec: &s {selector: *s}`): a value that contains itself, which
 * JSON cannot hold. kubectl refuses the manifest: go-yaml's decoder says "anchor 's' value contains itself"
 * (gopkg.in/yaml.v2 decode.go, d.alias), read through sigs.k8s.io/yaml. `yaml`'s toJS makes a circular object.
 */
export class SelfAliasError extends ReferenceError {
  constructor(readonly alias: Alias) {
    super(`anchor '${alias.source}' value contains itself`);
    this.name = 'SelfAliasError';
  }
}

/** A merge key (`<<`) whose value, or an item of whose list, is not a mapping: `node` is that value (where the finding goes). */
export class MergeSourceError extends Error {
  constructor(readonly node: unknown) {
    // `yaml`'s own words, which the unresolved-alias check of document-error.ts also recognises.
    super('Merge sources must be maps or map aliases');
    this.name = 'MergeSourceError';
  }
}

/** The alias bomb refusal, with the alias whose expansion went over the limit (where the finding goes). */
export class AliasLimitError extends ReferenceError {
  constructor(readonly alias: Alias) {
    super('Excessive alias count indicates a resource exhaustion attack');
    this.name = 'AliasLimitError';
  }
}

/**
 * A mapping key that is a list or a mapping, which no JSON object can have: kubectl's go-yaml v2 refuses it while
 * decoding (`yaml: invalid map key: []interface {}{"nodePort"}`, gopkg.in/yaml.v2 decode.go d.mapping, v2.4.0), so
 * sigs.k8s.io/yaml fails with "error converting YAML to JSON" and the document is never applied. `key` is the key
 * as written (an alias when the key is one).
 */
export class CollectionKeyError extends Error {
  constructor(readonly key: Node, readonly value: unknown) {
    super('invalid map key');
    this.name = 'CollectionKeyError';
  }
}

/**
 * The plain JSON-like value of a `yaml` node, exactly what `node.toJS(doc, { maxAliasCount })` returns
 * (mappings as objects with `yaml`'s key stringification, YAML 1.1 merge keys, the same alias-bomb limit
 * and the same errors), but with aliases resolved through an {@link AliasIndex} instead of `yaml`'s
 * per-alias walks of the whole document, so a document with thousands of aliases converts in linear time.
 * `aliases` is asked for the index only when an alias is met (most documents have none: no extra walk).
 *
 * A mapping key that is a collection (`[nodePort]: 1`, `? {a: 1} : x`) is refused ({@link CollectionKeyError}), as
 * kubectl refuses it, rather than stringified as `yaml` does (with a warning on stderr).
 * @throws ReferenceError for an unresolved alias; {@link AliasLimitError} when the alias limit is exceeded;
 *   Error `Merge sources must be maps or map aliases` for a merge key whose value is not a mapping;
 *   {@link CollectionKeyError} for a collection key; {@link SelfAliasError} for an alias inside its own anchor
 */
export function plainJSON(node: Node, aliases: () => AliasIndex, maxAliasCount: number): unknown {
  const anchors = new Map<Node, AnchorUse>();

  /** Anchored nodes whose value is being made: an alias to one of them is inside it. */
  const open = new Set<Node>();

  const resolveAlias = (alias: Alias): Node | undefined => {
    const found = aliases().target(alias);
    if (!found) return undefined;
    if (open.has(found)) throw new SelfAliasError(alias);
    let data = anchors.get(found);
    if (!data) {
      convert(found);
      data = anchors.get(found);
    }
    if (data?.res === undefined) throw new ReferenceError('This should not happen: Alias anchor was not resolved?');
    if (maxAliasCount >= 0) {
      data.count += 1;
      if (data.aliasCount === 0) data.aliasCount = aliasCount(found);
      if (data.count * data.aliasCount > maxAliasCount) throw new AliasLimitError(alias);
    }
    return found;
  };

  const aliasCount = (n: unknown): number => {
    if (isAlias(n)) {
      const source = aliases().target(n);
      const anchor = source && anchors.get(source);
      return anchor ? anchor.count * anchor.aliasCount : 0;
    }
    if (isCollection(n)) {
      let count = 0;
      for (const item of n.items as unknown[]) count = Math.max(count, aliasCount(item));
      return count;
    }
    if (isPair(n)) return Math.max(aliasCount(n.key), aliasCount(n.value));
    return 1;
  };

  /** `yaml`'s toJS(value, arg, ctx): anchored nodes register their result as soon as it is created. */
  const convert = (n: unknown, asMap = false): unknown => {
    if (!n || typeof n !== 'object') return n;
    if (!hasAnchor(n)) return toJSON(n, undefined, asMap);
    const data: AnchorUse = { aliasCount: 0, count: 1, res: undefined, created: false };
    anchors.set(n as Node, data);
    open.add(n as Node);
    const res = toJSON(n, data, asMap);
    open.delete(n as Node);
    if (!data.created) created(data, res);
    return res;
  };

  const created = (data: AnchorUse | undefined, res: unknown): void => {
    if (data && !data.created) {
      data.created = true;
      data.res = res;
    }
  };

  const toJSON = (n: unknown, data: AnchorUse | undefined, asMap: boolean): unknown => {
    if (isScalar(n)) return n.value;
    if (isAlias(n)) {
      const source = resolveAlias(n);
      if (!source) throw unresolved(n);
      return anchors.get(source)!.res;
    }
    if (isSeq(n)) {
      const seq: unknown[] = [];
      created(data, seq);
      for (const item of n.items) seq.push(convert(item));
      return seq;
    }
    if (isMap(n)) {
      const map: Record<string, unknown> | Map<unknown, unknown> = asMap ? new Map() : {};
      created(data, map);
      for (const item of n.items) addPair(map, item as Pair);
      return map;
    }
    return n;
  };

  const addPair = (map: Record<string, unknown> | Map<unknown, unknown>, { key, value }: Pair): void => {
    if (isMergeKey(key)) {
      addMerge(map, value);
      return;
    }
    const jsKey = convert(key);
    if (jsKey !== null && typeof jsKey === 'object') throw new CollectionKeyError(key as Node, jsKey);
    if (map instanceof Map) {
      map.set(jsKey, convert(value));
      return;
    }
    const stringKey = jsKey === null ? '' : String(jsKey);
    const jsValue = convert(value);
    if (stringKey in map) Object.defineProperty(map, stringKey, { value: jsValue, writable: true, enumerable: true, configurable: true });
    else map[stringKey] = jsValue;
  };

  const addMerge = (map: Record<string, unknown> | Map<unknown, unknown>, value: unknown): void => {
    const source = isAlias(value) ? resolveAlias(value) : value;
    if (isSeq(source)) for (const it of source.items) mergeValue(map, it);
    else mergeValue(map, source);
  };

  const mergeValue = (map: Record<string, unknown> | Map<unknown, unknown>, value: unknown): void => {
    const source = isAlias(value) ? resolveAlias(value) : value;
    if (!isMap(source)) throw new MergeSourceError(value);
    const srcMap = toJSON(source, undefined, true) as Map<unknown, unknown>;
    for (const [key, v] of srcMap) {
      if (map instanceof Map) {
        if (!map.has(key)) map.set(key, v);
      } else if (!Object.prototype.hasOwnProperty.call(map, key as PropertyKey)) {
        Object.defineProperty(map, key as PropertyKey, { value: v, writable: true, enumerable: true, configurable: true });
      }
    }
  };

  return convert(node);
}

/** `yaml`'s hasAnchor: a scalar or collection with a (non-empty) anchor name. */
const hasAnchor = (n: unknown): boolean => (isScalar(n) || isCollection(n)) && !!n.anchor;

/**
 * A merge key as `yaml` (merge: true) composes it: the `<<` plain scalar becomes a Scalar whose value is
 * `Symbol(<<)` and which carries `addToJSMap`; a quoted `"<<"` is an ordinary string key.
 */
function isMergeKey(key: unknown): boolean {
  if (!isScalar(key)) return false;
  if (typeof (key as Scalar & { addToJSMap?: unknown }).addToJSMap === 'function') return true;
  const v = key.value;
  return (!key.type || key.type === Scalar.PLAIN) && (v === '<<' || (typeof v === 'symbol' && v.description === '<<'));
}
