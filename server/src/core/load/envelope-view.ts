import { isMap, isScalar, isSeq } from 'yaml';
import { checkObjectEnvelope, EnvelopeResult, EnvelopeView, JsonKind, nonObjectDocument } from '../kubernetes/api-server/object-envelope';
import type { LoadProblem } from './load-file';
import type { NodeReader } from './node-reader';

/** An {@link EnvelopeView} over one node of a parsed document (aliases followed, spans where written). */
function envelopeView(reader: NodeReader, root: unknown): EnvelopeView {
  const node = (path: string): unknown => (path ? reader.at(root, path.split('.')) : root);
  return {
    kindOf(path): JsonKind | undefined {
      const n = reader.resolve(node(path));
      if (n === undefined || n === null) return undefined;
      if (isMap(n)) return 'object';
      if (isSeq(n)) return 'array';
      if (!isScalar(n)) return undefined;
      const v = n.value;
      return v === null || v === undefined ? 'null' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' || typeof v === 'bigint' ? 'number' : 'string';
    },
    scalar(path) {
      const v = reader.scalarValue(node(path));
      return v === null || ['string', 'number', 'boolean'].includes(typeof v) ? (v as string | number | boolean | null) : undefined;
    },
    span: (path) => reader.span(node(path)),
  };
}

/** The envelope verdict for one candidate object node (document root or `List` item), see {@link checkObjectEnvelope}. */
export function readEnvelope(reader: NodeReader, root: unknown): EnvelopeResult {
  return checkObjectEnvelope(envelopeView(reader, root));
}

/** The info problem for a document (or `List` item) that is not a mapping, if it is a list or a scalar. */
export function notAnObject(reader: NodeReader, root: unknown, what?: string): LoadProblem[] {
  const problem = nonObjectDocument(envelopeView(reader, root), what);
  return problem ? [problem] : [];
}
