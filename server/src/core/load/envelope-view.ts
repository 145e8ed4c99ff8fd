import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { type ScalarWriting, shownTag } from '../kubernetes/api-server/string-advice';
import { checkObjectEnvelope, EnvelopeResult, EnvelopeView, JsonKind, nonObjectDocument } from '../kubernetes/api-server/object-envelope';
import type { LoadProblem } from './load-file';
import type { NodeReader } from './node-reader';
import type { Located } from '../source/span';

/** An {@link EnvelopeView} over one node of a parsed document (aliases followed, spans where written). */
function envelopeView(reader: NodeReader, root: unknown): EnvelopeView {
  // The envelope checks ask for the same few paths several times each (kind, then its span, …), most of them
  // below `metadata`: each path is looked up once, in the node of its parent path (itself looked up once).
  const found = new Map<string, unknown>();
  const node = (path: string): unknown => {
    if (!path) return root;
    let n = found.get(path);
    if (n === undefined && !found.has(path)) {
      const dot = path.lastIndexOf('.');
      const parent = dot < 0 ? root : node(path.slice(0, dot));
      found.set(path, (n = parent === undefined ? undefined : reader.at(parent, [dot < 0 ? path : path.slice(dot + 1)])));
    }
    return n;
  };
  return {
    kindOf: (path) => jsonKind(reader.resolve(node(path))),
    scalar: (path) => scalarOf(reader, node(path)),
    span: (path) => reader.span(node(path)),
    nonStringEntries(path) {
      const map = reader.asMap(node(path));
      if (!map) return undefined;
      return map.items.flatMap((item) => {
        const value = reader.resolve(item.value);
        const kind = jsonKind(value);
        if (kind === undefined || kind === 'null' || kind === 'string') return [];
        const key = reader.scalarValue(item.key);
        if (key === undefined || key === null || typeof key === 'symbol' || typeof key === 'object') return [];
        const entry = { key: String(key), kind, scalar: scalarOf(reader, item.value), span: reader.span(item.value) };
        if (kind !== 'bool' && kind !== 'number') return [entry];
        // How a value that is not a string is written (and where its key is), for the message and the quick fix.
        const keySpan = reader.span(item.key);
        return [{ ...entry, writing: writingOf(value, item.key), ...(keySpan ? { keySpan } : {}) }];
      });
    },
    writing: (path) => writingOf(reader.resolve(node(path))),
  };
}

/**
 * How a scalar value (resolved) and its key node are written, as far as YAML 1.1 reads them (see ScalarWriting): its
 * explicit tag, its quotes, and a plain key that is read as a boolean or a number (`on` → true).
 */
function writingOf(value: Node | undefined, key?: unknown): ScalarWriting | undefined {
  const tag = isScalar(value) && value.tag ? shownTag(value.tag) : undefined;
  const quoted = isScalar(value) && (value.type === 'QUOTE_DOUBLE' || value.type === 'QUOTE_SINGLE');
  const k = isScalar(key) && key.type === 'PLAIN' && (typeof key.value === 'boolean' || typeof key.value === 'number') ? key : undefined;
  const written = k && typeof k.source === 'string' && k.source !== String(k.value) ? k.source : undefined;
  if (!tag && !quoted && written === undefined) return undefined;
  return { ...(tag ? { tag } : {}), ...(quoted ? { quoted } : {}), ...(written !== undefined ? { key: { written, read: String(k!.value) } } : {}) };
}

/** The JSON type of a resolved node, or undefined when absent. */
function jsonKind(n: unknown): JsonKind | undefined {
  if (n === undefined || n === null) return undefined;
  if (isMap(n)) return 'object';
  if (isSeq(n)) return 'array';
  if (!isScalar(n)) return undefined;
  const v = n.value;
  return v === null || v === undefined ? 'null' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' || typeof v === 'bigint' ? 'number' : 'string';
}

function scalarOf(reader: NodeReader, node: unknown): string | number | boolean | null | undefined {
  const v = reader.scalarValue(node);
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

/** apiVersion and kind an item of a typed list (`ServiceList`) takes from its list when it writes neither. */
export interface ListDefaults {
  readonly apiVersion: Located<string>;
  readonly kind: Located<string>;
}

/**
 * The envelope verdict for one candidate object node (document root or `List` item), see {@link checkObjectEnvelope}.
 * `defaults` stand in for an item's missing apiVersion and kind (their spans: the item's).
 */
export function readEnvelope(reader: NodeReader, root: unknown, defaults?: ListDefaults): EnvelopeResult {
  const view = envelopeView(reader, root);
  if (!defaults) return checkObjectEnvelope(view);
  const given = (path: string): Located<string> | undefined => (path === 'apiVersion' ? defaults.apiVersion : path === 'kind' ? defaults.kind : undefined);
  return checkObjectEnvelope({
    ...view,
    kindOf: (path) => (given(path) ? 'string' : view.kindOf(path)),
    scalar: (path) => given(path)?.value ?? view.scalar(path),
    span: (path) => (given(path) ? view.span('') : view.span(path)),
  });
}

/** The info problem for a document (or `List` item) that is not a mapping, if it is a list or a scalar. */
export function notAnObject(reader: NodeReader, root: unknown, what?: string): LoadProblem[] {
  const problem = nonObjectDocument(envelopeView(reader, root), what);
  return problem ? [problem] : [];
}
