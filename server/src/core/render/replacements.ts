import { isMap, isScalar, isSeq, YAMLMap } from 'yaml';
import type { Span } from '../source/span';
import { PatchTarget, targetOf } from './kustomization';
import { scalarText, TreePath } from './tree-walk';

/**
 * One kustomize replacement (api/types/replacement.go, kustomize v5.4): a value copied from a field of one object
 * of the build (`source`) or written as `sourceValue`, into fields of the objects `targets` select. Spans are
 * offsets into the file that writes the replacement (the kustomization, or a file its `replacements: - path:` names).
 */
export interface Replacement {
  /** The replacement (list item or file document): where a finding goes when nothing more precise is known. */
  readonly span: Span;
  readonly source?: {
    readonly kind?: string;
    readonly group?: string;
    readonly version?: string;
    readonly name?: string;
    readonly namespace?: string;
    /** kustomize's default is `metadata.name`. */
    readonly fieldPath: string;
    /** Where `fieldPath:` (else `source:`) is written. */
    readonly span: Span;
    readonly delimiter?: string;
    readonly index?: number;
  };
  readonly sourceValue?: { readonly value: string; readonly span: Span };
  readonly targets: readonly {
    readonly select?: PatchTarget;
    readonly reject: readonly PatchTarget[];
    readonly fieldPaths: readonly string[];
    /** With a delimiter the source value replaces one part of the target's value. */
    readonly delimiter?: string;
  }[];
}

const spanAt = (file: string, node: unknown): Span | undefined => {
  const r = (node as { range?: [number, number, number] } | undefined)?.range;
  return r ? { file, start: r[0], end: r[1] } : undefined;
};

/**
 * Reads one replacement from its YAML node (a `replacements` list item written inline, or a document of a
 * replacement file). Undefined for anything that is not a mapping with `targets` (kustomize reports it).
 */
export function readReplacement(file: string, node: unknown): Replacement | undefined {
  const span = spanAt(file, node);
  if (!isMap(node) || !span) return undefined;
  const targetsNode = node.get('targets', true);
  if (!isSeq(targetsNode)) return undefined;
  const targets = targetsNode.items.flatMap((t) => {
    if (!isMap(t)) return [];
    const paths = t.get('fieldPaths', true);
    const reject = t.get('reject', true);
    const options = t.get('options', true);
    return [{
      select: targetOf(t.get('select', true)),
      reject: isSeq(reject) ? reject.items.flatMap((r) => targetOf(r) ?? []) : [],
      fieldPaths: isSeq(paths) ? paths.items.flatMap((p) => scalarText(p) ?? []) : [],
      ...(isMap(options) && scalarText(options.get('delimiter', true)) !== undefined ? { delimiter: scalarText(options.get('delimiter', true)) } : {}),
    }];
  });
  const sourceNode = node.get('source', true);
  const valueNode = node.get('sourceValue', true);
  let source: Replacement['source'];
  if (isMap(sourceNode)) {
    const fieldPathNode = sourceNode.get('fieldPath', true);
    const options = sourceNode.get('options', true);
    const sel = targetOf(sourceNode) ?? {};
    const index = isMap(options) ? Number(scalarText(options.get('index', true)) ?? 0) : 0;
    source = {
      ...sel,
      fieldPath: scalarText(fieldPathNode) ?? 'metadata.name',
      span: spanAt(file, fieldPathNode) ?? spanAt(file, sourceNode) ?? span,
      ...(isMap(options) && scalarText(options.get('delimiter', true)) !== undefined ? { delimiter: scalarText(options.get('delimiter', true)), index } : {}),
    };
  }
  const sourceValue = isScalar(valueNode) && scalarText(valueNode) !== undefined ? { value: scalarText(valueNode)!, span: spanAt(file, valueNode) ?? span } : undefined;
  return { span, ...(source ? { source } : {}), ...(sourceValue ? { sourceValue } : {}), targets };
}

/** The replacements of a replacement file's parsed documents: each document is one replacement or a list of them. */
export function replacementsOfFile(file: string, roots: readonly unknown[]): Replacement[] {
  return roots.flatMap((root) => (isSeq(root) ? root.items : [root]).flatMap((item) => readReplacement(file, item) ?? []));
}

/**
 * Splits a replacement field path as kustomize does (api/internal/utils/pathsplitter.go SmarterPathSplitter, v5.4):
 * on dots, except inside `[...]`; `containers[name=web]` is a key and a list selector.
 */
export function splitFieldPath(path: string): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  for (const c of path) {
    if (c === '[') depth++;
    if (c === ']') depth = Math.max(0, depth - 1);
    if (c === '.' && depth === 0) {
      if (current) out.push(current);
      current = '';
    } else current += c;
  }
  if (current) out.push(current);
  return out.flatMap((segment) => {
    const m = /^([^[]+)(\[.*\])$/.exec(segment);
    return m ? [m[1], m[2]] : [segment];
  });
}

/**
 * The nodes a replacement field path selects in a rendered object (kyaml PathGetter, v5.4): a key of a mapping; in a
 * list, an index, `[key=value]` (the items whose field `key` is `value`) or `*` (every item).
 */
export function nodesAtFieldPath(root: unknown, fieldPath: string): { node: unknown; path: TreePath }[] {
  let current: { node: unknown; path: (string | number)[] }[] = [{ node: root, path: [] }];
  for (const segment of splitFieldPath(fieldPath)) {
    const next: typeof current = [];
    for (const { node, path } of current) {
      if (isSeq(node)) {
        const selector = /^\[([^=\]]+)=(.*)\]$/.exec(segment);
        node.items.forEach((item, i) => {
          const take = segment === '*' || (/^\d+$/.test(segment) && Number(segment) === i) || (selector !== null && isMap(item) && scalarText((item as YAMLMap).get(selector[1], true)) === selector[2]);
          if (take) next.push({ node: item, path: [...path, i] });
        });
      } else if (isMap(node)) {
        for (const pair of node.items) {
          const key = scalarText(pair.key);
          if (key !== undefined && (segment === '*' || key === segment) && pair.value !== null) next.push({ node: pair.value, path: [...path, key] });
        }
      }
    }
    current = next;
  }
  return current;
}

/** The part of a source value a replacement copies: the whole value, or with a delimiter the part at `index`. */
export function copiedValue(value: string, delimiter: string | undefined, index = 0): string | undefined {
  if (delimiter === undefined || delimiter === '') return value;
  const parts = value.split(delimiter);
  return index >= 0 && index < parts.length ? parts[index] : undefined;
}
