import { CST, isMap, isScalar, isSeq, Lexer, parseAllDocuments, parseDocument, stringify } from 'yaml';
import type { Span } from '../source/span';
import { QUIET } from '../load/parse-options';

/** One scalar of the merged values of a release: its key path, value and where the winning definition is written. */
export interface ValueLeaf {
  /** Dotted key path with list indexes: `service.nodePorts.http`, `ports[0].port`. */
  readonly key: string;
  readonly path: readonly (string | number)[];
  readonly value: unknown;
  /** Where it is set: the last values file (or `set:` entry) that defines the key; absent when unknown. */
  readonly span?: Span;
}

/** A values source in merge order (the chart's values.yaml first, then `-f` files, then inline values). */
export interface ValuesSource {
  readonly file: string;
  readonly text: string;
  /** Maps offsets in `text` to offsets in `file` (inline values written inside another file). */
  readonly toFileOffset?: (offset: number) => number;
  /** Key prefix (a subchart's own values.yaml sits under `<alias or name>.` of the parent's values). */
  readonly prefix?: readonly string[];
  /** Values inside a manifest (an Argo CD Application's `helm.valuesObject`): which document, and the path to the values there. */
  readonly docIndex?: number;
  readonly at?: readonly (string | number)[];
}

/**
 * The merged scalar leaves of a release's values, as Helm merges them (helm pkg/chartutil/coalesce.go, v3.17):
 * maps merge key by key, later sources win, lists and scalars replace; `null` deletes a key. `set` pairs come
 * last (`--set` beats values files). Each leaf remembers where its winning value is written.
 */
export function mergedLeaves(sources: readonly ValuesSource[], set: readonly { key: string; value: string; span?: Span }[]): Map<string, ValueLeaf> {
  const leaves = new Map<string, ValueLeaf>();
  for (const src of sources) {
    let doc;
    try {
      doc = src.docIndex !== undefined ? parseAllDocuments(src.text, { ...QUIET, prettyErrors: false })[src.docIndex] : parseDocument(src.text, { ...QUIET, prettyErrors: false });
    } catch {
      continue;
    }
    if (!doc || doc.errors.length) continue;
    const map = (o: number): number => (src.toFileOffset ? src.toFileOffset(o) : o);
    const visit = (node: unknown, path: (string | number)[]): void => {
      if (isMap(node)) {
        for (const pair of node.items) {
          const k = isScalar(pair.key) ? String(pair.key.value) : undefined;
          if (k === undefined) continue;
          if (pair.value === null || (isScalar(pair.value) && pair.value.value === null)) {
            removeBelow(leaves, [...path, k]);
            continue;
          }
          visit(pair.value, [...path, k]);
        }
      } else if (isSeq(node)) {
        removeBelow(leaves, path); // a list replaces the list before it
        node.items.forEach((item, i) => visit(item, [...path, i]));
      } else if (isScalar(node) && node.range) {
        removeBelow(leaves, path);
        const key = keyOf(path);
        leaves.set(key, { key, path, value: node.value, span: { file: src.file, start: map(node.range[0]), end: map(node.range[1]) } });
      }
    };
    let start: unknown = doc.contents;
    for (const step of src.at ?? []) start = typeof step === 'number' ? (isSeq(start) ? start.items[step] : undefined) : isMap(start) ? start.get(step, true) : undefined;
    if (start !== undefined) visit(start, [...(src.prefix ?? [])]);
  }
  for (const s of set) {
    const path = parseSetKey(s.key);
    if (!path) continue;
    removeBelow(leaves, path);
    const key = keyOf(path);
    leaves.set(key, { key, path, value: setValue(s.value), ...(s.span ? { span: s.span } : {}) });
  }
  return leaves;
}

function removeBelow(leaves: Map<string, ValueLeaf>, path: readonly (string | number)[]): void {
  const key = keyOf(path);
  for (const k of [...leaves.keys()]) if (k === key || k.startsWith(`${key}.`) || k.startsWith(`${key}[`)) leaves.delete(k);
}

/** `['ports', 0, 'port']` → `ports[0].port`. */
export function keyOf(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** `--set` key syntax (helm pkg/strvals): dots separate keys, `\.` is a literal dot, `name[0]` indexes a list. */
export function parseSetKey(key: string): (string | number)[] | undefined {
  const out: (string | number)[] = [];
  let current = '';
  for (let i = 0; i < key.length; i++) {
    const c = key[i];
    if (c === '\\' && key[i + 1] === '.') {
      current += '.';
      i++;
    } else if (c === '.') {
      if (current) out.push(current);
      current = '';
    } else if (c === '[') {
      const end = key.indexOf(']', i);
      if (end < 0) return undefined;
      if (current) out.push(current);
      current = '';
      out.push(Number(key.slice(i + 1, end)));
      i = end;
    } else current += c;
  }
  if (current) out.push(current);
  return out.length ? out : undefined;
}

/** The typed value of a `--set` value: integers and booleans as helm's strvals parses them, else the string. */
function setValue(v: string): unknown {
  if (/^-?[1-9]\d*$|^0$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

/** Sentinel numbers start here; values ≤ {@link SMALLEST_PROBED} are never replaced (counts, replicas, flags). */
const SENTINEL_BASE = 47_000;
const SMALLEST_PROBED = 16;

/** True for a value {@link sentinelPlan} replaces by a sentinel (an integer above 16 and below 1e6). */
export function probed(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > SMALLEST_PROBED && value < 1e6;
}

/**
 * Hands out distinct sentinel numbers (from 47000 up, below 1e6 while fewer than ~950k are taken) that occur in no
 * 4–6 digit run of `avoid` (the template and values texts), so a literal in a template is never taken for a sentinel.
 */
export function sentinelNumbers(avoid: string): () => number {
  const taken = new Set<number>();
  for (const m of avoid.matchAll(/\d{4,6}/g)) taken.add(Number(m[0]));
  let next = SENTINEL_BASE;
  return () => {
    while (taken.has(next)) next++;
    return next++;
  };
}

/**
 * A values file's text with every number a sentinel render replaces written as `#` and its comments left out: two
 * values files that differ only in such numbers or in comments give the same sentinel render (each of those numbers
 * is overridden by its sentinel, see {@link sentinelPlan}; helm never sees comments), so this text, with the plan,
 * keys a cache of sentinel renders. Everything else stays as written (quoting, `yes`/`on`, spacing: helm's YAML 1.1
 * reading of them may differ from a re-serialisation). Texts that do not parse are returned as they are (only an
 * identical text then matches).
 */
export function sentinelNeutralText(text: string): string {
  let docs;
  try {
    docs = parseAllDocuments(text, { ...QUIET, prettyErrors: false });
  } catch {
    return text;
  }
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length)) return text;
  // [start, end, replacement]
  const ranges: [number, number, string][] = [];
  const visit = (node: unknown): void => {
    if (isMap(node)) for (const pair of node.items) visit(pair.value);
    else if (isSeq(node)) node.items.forEach(visit);
    else if (isScalar(node) && node.range && probed(node.value)) ranges.push([node.range[0], node.range[1], '#']);
  };
  for (const d of docs) visit(d.contents);
  // Comments from the lexer (the parser's own tokens; control tokens stand for no source text).
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'doc-mode' || type === 'flow-error-end' || type === 'scalar') continue;
    if (type === 'comment') {
      // With the blanks before it, and the whole line when nothing else is on it.
      let start = offset;
      while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
      let end = offset + token.length;
      if (start === 0 || text[start - 1] === '\n') end += text.startsWith('\r\n', end) ? 2 : text[end] === '\n' ? 1 : 0;
      ranges.push([start, end, '']);
    }
    offset += token.length;
  }
  let out = '';
  let at = 0;
  for (const [start, end, replacement] of ranges.sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    out += text.slice(at, start) + replacement;
    at = end;
  }
  return out + text.slice(at);
}

/** A sentinel render's inputs: a values file that replaces numeric leaves, `--set` pairs for `set:` keys, and the key of each sentinel. */
export interface SentinelPlan {
  readonly valuesText: string;
  readonly set: readonly string[];
  readonly keyOfSentinel: ReadonlyMap<number, string>;
}

/**
 * Re-rendering with every numeric value (integers above 16) replaced by a distinct sentinel number proves which
 * key feeds a rendered field: values-file numbers are float64 in Helm (pkg/strvals and values files alike), and
 * integers below 1e6 print the same for floats and ints, so sentinels stay below that. Keys that came from
 * `set:` get their sentinel through `--set` too (it beats values files); the rest through a last `-f` file (a
 * list is written whole, since Helm replaces lists). Numbers that occur in `avoid` (template and values texts)
 * are skipped, so a literal in a template is never mistaken for a sentinel.
 */
export function sentinelPlan(leaves: ReadonlyMap<string, ValueLeaf>, setKeys: ReadonlySet<string>, avoid: string): SentinelPlan | undefined {
  const fresh = sentinelNumbers(avoid);
  const keyOfSentinel = new Map<number, string>();
  const tree: Record<string, unknown> = {};
  const set: string[] = [];
  const lists = new Map<string, { path: (string | number)[]; value: unknown[] }>();
  for (const leaf of leaves.values()) {
    if (!probed(leaf.value)) continue;
    const sentinel = fresh();
    keyOfSentinel.set(sentinel, leaf.key);
    if (setKeys.has(leaf.key)) {
      set.push(`${leaf.key}=${sentinel}`);
      continue;
    }
    const listAt = leaf.path.findIndex((p) => typeof p === 'number');
    if (listAt < 0) {
      assign(tree, leaf.path as string[], sentinel);
      continue;
    }
    // Rebuild the whole list (from the merged leaves) with its sentinels.
    const listPath = leaf.path.slice(0, listAt) as string[];
    const listKey = keyOf(listPath);
    if (!lists.has(listKey)) lists.set(listKey, { path: listPath, value: rebuild(leaves, listPath) as unknown[] });
    assignPath(lists.get(listKey)!.value, leaf.path.slice(listAt), sentinel);
  }
  for (const { path, value } of lists.values()) assign(tree, path as string[], value);
  if (keyOfSentinel.size === 0) return undefined;
  return { valuesText: stringify(tree), set, keyOfSentinel };
}

function assign(tree: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = tree;
  path.slice(0, -1).forEach((p) => {
    if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
    node = node[p] as Record<string, unknown>;
  });
  node[path[path.length - 1]] = value;
}

function assignPath(root: unknown, path: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) node = node[path[i]] as Record<string | number, unknown>;
  if (node) node[path[path.length - 1]] = value;
}

/** The value at `prefix` rebuilt from the merged leaves (lists and maps). */
function rebuild(leaves: ReadonlyMap<string, ValueLeaf>, prefix: readonly (string | number)[]): unknown {
  let root: unknown;
  for (const leaf of leaves.values()) {
    if (leaf.path.length <= prefix.length || !prefix.every((p, i) => leaf.path[i] === p)) continue;
    const rest = leaf.path.slice(prefix.length);
    if (root === undefined) root = typeof rest[0] === 'number' ? [] : {};
    let node = root as Record<string | number, unknown>;
    rest.forEach((step, i) => {
      if (i === rest.length - 1) node[step] = leaf.value;
      else {
        if (node[step] === undefined) node[step] = typeof rest[i + 1] === 'number' ? [] : {};
        node = node[step] as Record<string | number, unknown>;
      }
    });
  }
  return root ?? [];
}

/**
 * Whether a dependency's `condition` (comma-separated value paths, the first one that is set decides; helm
 * pkg/chartutil/dependencies.go processDependencyConditions, v3.17) is false for these values. Undefined when no
 * path of it is set to a boolean (helm then enables the dependency).
 */
export function conditionFalse(condition: string | undefined, leaves: ReadonlyMap<string, ValueLeaf>): boolean {
  if (!condition) return false;
  for (const path of condition.split(',').map((p) => p.trim()).filter(Boolean)) {
    const leaf = leaves.get(path);
    if (leaf && typeof leaf.value === 'boolean') return !leaf.value;
  }
  return false;
}
