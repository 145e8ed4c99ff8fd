import { Document, isMap, isPair, isScalar, isSeq, Node, parseAllDocuments, YAMLMap, YAMLSeq } from 'yaml';
import { PARSE_OPTIONS } from '../load/load-file';
import type { Span } from '../source/span';

/** A path into an object: map keys and list indexes (`['spec', 'ports', 0, 'nodePort']`). */
export type TreePath = readonly (string | number)[];

/**
 * Strategic-merge keys of Kubernetes list fields (k8s.io/api `patchMergeKey` tags, v1.33): a patch item is merged
 * with the item that has the same value of this key. Lists of CRDs and lists without a key are replaced whole,
 * so their items are matched by index.
 */
const MERGE_KEYS = ['name', 'containerPort', 'port', 'mountPath', 'devicePath', 'ip', 'topologyKey'];

/** The merge key field of a list item (a map), if it has one. */
export function mergeKeyOf(item: unknown): string | undefined {
  if (!isMap(item)) return undefined;
  for (const key of MERGE_KEYS) {
    const v = item.get(key, true);
    if (isScalar(v) && v.value !== null && v.value !== undefined) return key;
  }
  return undefined;
}

/** The item of `list` that a patch item merges with: same merge key value (and same protocol when both say), else the same index. */
export function matchItem(list: YAMLSeq, item: unknown, index: number): { node: unknown; index: number } | undefined {
  const key = mergeKeyOf(item);
  if (key && isMap(item)) {
    const want = String((item.get(key, true) as { value: unknown }).value);
    const protocol = scalarText(item.get('protocol', true));
    const i = list.items.findIndex((other) => {
      if (!isMap(other)) return false;
      const v = other.get(key, true);
      if (!isScalar(v) || String(v.value) !== want) return false;
      const p = scalarText(other.get('protocol', true));
      return protocol === undefined || p === undefined || p === protocol;
    });
    return i >= 0 ? { node: list.items[i], index: i } : undefined;
  }
  return index < list.items.length ? { node: list.items[index], index } : undefined;
}

export function scalarText(node: unknown): string | undefined {
  return isScalar(node) && node.value !== null && node.value !== undefined && typeof node.value !== 'object' ? String(node.value) : undefined;
}

export function spanOf(file: string, node: unknown): Span | undefined {
  const r = (node as Node | undefined)?.range;
  return r ? { file, start: r[0], end: r[1] } : undefined;
}

/** The child of a map or list node at one path step. */
export function child(node: unknown, step: string | number): unknown {
  if (typeof step === 'number') return isSeq(node) ? node.items[step] : undefined;
  if (!isMap(node)) return undefined;
  const pair = node.items.find((p) => isPair(p) && scalarText(p.key) === step);
  return pair?.value ?? undefined;
}

/** The key node of `step` in a map node. */
export function keyNode(node: unknown, step: string): unknown {
  if (!isMap(node)) return undefined;
  return node.items.find((p) => isPair(p) && scalarText(p.key) === step)?.key;
}

export function at(node: unknown, path: TreePath): unknown {
  let current = node;
  for (const step of path) {
    current = child(current, step);
    if (current === undefined || current === null) return undefined;
  }
  return current;
}

/**
 * Visits every node below `root` (keys too, with `isKey`), depth first, parents before children.
 * @param visit return false to skip a node's children
 */
export function walkTree(root: unknown, visit: (node: unknown, path: TreePath, isKey: boolean) => boolean | void, depthLimit = 64): void {
  const go = (node: unknown, path: (string | number)[], depth: number): void => {
    if (visit(node, path, false) === false || depth > depthLimit) return;
    if (isMap(node)) {
      for (const pair of (node as YAMLMap).items) {
        const key = scalarText(pair.key);
        if (key === undefined) continue;
        visit(pair.key, [...path, key], true);
        if (pair.value !== null && pair.value !== undefined) go(pair.value, [...path, key], depth + 1);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => go(item, [...path, i], depth + 1));
    }
  };
  go(root, [], 0);
}

/** Parsed documents of a file's text, cached per text (source files are parsed again only for rendering). */
const parsedCache = new WeakMap<object, Document.Parsed[]>();
export function parsedDocuments(holder: { readonly text: string }): Document.Parsed[] {
  let docs = parsedCache.get(holder);
  if (!docs) {
    docs = parseAllDocuments(holder.text, { ...PARSE_OPTIONS }) as Document.Parsed[];
    if (!Array.isArray(docs)) docs = [];
    parsedCache.set(holder, docs);
  }
  return docs;
}

/** `kind`, `apiVersion` and `metadata.name`/`namespace` of a parsed document's root. */
export function identityOf(root: unknown): { kind?: string; apiVersion?: string; name?: string; namespace?: string } {
  return {
    kind: scalarText(child(root, 'kind')),
    apiVersion: scalarText(child(root, 'apiVersion')),
    name: scalarText(at(root, ['metadata', 'name'])),
    namespace: scalarText(at(root, ['metadata', 'namespace'])),
  };
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ''). */
export function groupOf(apiVersion: string | undefined): string {
  return apiVersion && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
}
