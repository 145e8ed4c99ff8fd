import { isAlias, isMap, isPair, isScalar, Node, Pair, YAMLMap } from 'yaml';
import type { Span } from '../source/span';

/**
 * The text span whose deletion removes the entry `key: value` from a YAML mapping and leaves valid
 * YAML with every other entry, comment and the surrounding formatting unchanged. Works for block maps
 * (`containerPort: 80\n  hostPort: 31123`) and flow maps (`{containerPort: 80, hostPort: 31123}`):
 * - an entry after another one is removed from the end of the previous value to the end of its own
 *   value (the separating newline+indent or `, ` goes with it);
 * - the first entry, or one after a collection, a commented value or comment lines, is removed from its key to
 *   the next key (so `- hostPort: 1\n  containerPort: 2` becomes `- containerPort: 2`).
 *
 * Returns undefined — the caller then offers no fix — whenever that edit could not be exact: the map
 * or the entry is reached through an alias or carries an anchor (other places would change too), the
 * entry is the map's only one, the key is found only through a merge key (`<<`), or a comment is
 * attached to the entry or next to the separator it would take with it.
 * @param file the file name written into the returned span
 */
export function pairRemovalSpan(file: string, mapNode: unknown, key: string): Span | undefined {
  if (isAlias(mapNode) || !isMap(mapNode) || mapNode.anchor) return undefined;
  const map = mapNode as YAMLMap;
  const pairs = map.items.filter(isPair) as Pair[];
  if (pairs.length < 2) return undefined;
  const index = pairs.findIndex((p) => isScalar(p.key) && p.key.value === key);
  if (index < 0) return undefined;
  const pair = pairs[index];
  const keyNode = pair.key as Node;
  const valueNode = pair.value as Node | null;
  if (!keyNode.range || !valueNode?.range || valueNode.anchor) return undefined;
  if (hasComment(valueNode) || keyNode.comment) return undefined;
  if (index > 0 && !keyNode.commentBefore) {
    const prev = pairs[index - 1];
    // Only after a scalar (or alias) value: a block collection's range runs into the next line.
    const prevValue = prev.value as Node | null;
    if (prevValue?.range && (isScalar(prevValue) || isAlias(prevValue)) && !prevValue.comment) return { file, start: prevValue.range[1], end: valueNode.range[1] };
  }
  return untilNextKey(file, keyNode, pairs[index + 1]);
}

/**
 * From the entry's key to the next entry's key (`healthCheckNodePort: 1\n  ports:` keeps the indentation written
 * before the removed key for the next one, `a: 1, b: 2` in flow style): exact in block and flow maps, after any kind
 * of previous value, and comment lines written above the removed key stay. Undefined for the last entry or when a
 * comment is written before the next key.
 */
function untilNextKey(file: string, keyNode: Node, nextPair: Pair | undefined): Span | undefined {
  const next = nextPair?.key as Node | null | undefined;
  if (!next?.range || next.commentBefore || !keyNode.range) return undefined;
  return { file, start: keyNode.range[0], end: next.range[0] };
}

function hasComment(node: Node): boolean {
  return !!(node.comment || node.commentBefore);
}

/** True when a node is an alias or carries an anchor: an edit there would change more than one place. */
export function isShared(node: unknown): boolean {
  return isAlias(node) || !!(node as Node | null | undefined)?.anchor;
}

/** True when `key` is written in the map itself (not only reachable through a merge key). */
export function hasOwnKey(mapNode: unknown, key: string): boolean {
  return isMap(mapNode) && mapNode.items.some((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
}
