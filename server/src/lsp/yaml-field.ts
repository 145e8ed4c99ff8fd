import { Alias, Document, isAlias, isPair, isScalar, isSeq, Scalar, visit } from 'yaml';
import { parseDocuments } from '../core/load/parse-documents';

/** The field under the cursor: the key it belongs to and the scalar value. */
export interface FieldAt {
  /** The mapping key (`nodePort`), or the key of the list the value is an item of (`externalIPs`). */
  readonly key: string;
  readonly value: unknown;
  /** UTF-16 offsets of the value scalar ([start, end)), or of the key when the field has no scalar value. */
  readonly start: number;
  readonly end: number;
}

/**
 * Finds the field at `offset` with `yaml`'s parser and visitor (no text scanning), for hovers.
 * The cursor may be on the key (`nodePort`) or on its scalar value (`30080`), or on a scalar item of
 * a list value (`externalIPs: [1.2.3.4]`), or on an alias of a scalar (`nodePort: *np`: the anchored value, with
 * the alias's offsets, since findings on a value taken through an alias are reported on the alias). Returns
 * undefined elsewhere. Never throws on bad YAML: the
 * parser recovers and positions of the parts it understood still answer.
 */
export function fieldAt(text: string, offset: number): FieldAt | undefined {
  let found: FieldAt | undefined;
  // Guarded parse: a document nested too deeply is empty (never composed, never a crash).
  for (const doc of parseDocuments(text, { strict: false }).docs) {
    const range = doc.range;
    if (!range || offset < range[0] || offset > range[2]) continue;
    visit(doc, {
      Pair(_key, pair) {
        const k = pair.key;
        if (!isScalar(k)) return undefined;
        const v = pair.value;
        const alias = isAlias(v) ? aliasedScalar(v, doc) : undefined;
        if (alias && isAlias(v) && v.range && v.range[0] <= offset && offset <= v.range[1]) {
          found = { key: String(k.value), value: alias.value, start: v.range[0], end: v.range[1] };
          return visit.BREAK;
        }
        if (!within(k, offset)) return undefined;
        found = isScalar(v) && v.range
          ? { key: String(k.value), value: v.value, start: v.range[0], end: v.range[1] }
          : alias && isAlias(v) && v.range
            ? { key: String(k.value), value: alias.value, start: v.range[0], end: v.range[1] }
            : { key: String(k.value), value: undefined, start: k.range![0], end: k.range![1] };
        return visit.BREAK;
      },
      Scalar(_key, node, path) {
        if (!within(node, offset)) return undefined;
        const parent = path[path.length - 1];
        if (isPair(parent) && parent.value === node && isScalar(parent.key)) {
          found = { key: String(parent.key.value), value: node.value, start: node.range![0], end: node.range![1] };
          return visit.BREAK;
        }
        const grand = path[path.length - 2];
        if (isSeq(parent) && isPair(grand) && isScalar(grand.key)) {
          found = { key: String(grand.key.value), value: node.value, start: node.range![0], end: node.range![1] };
          return visit.BREAK;
        }
        return undefined;
      },
    });
    if (found) break;
  }
  return found;
}

/** The scalar an alias stands for, or undefined (an alias of a collection, or of no anchor). */
function aliasedScalar(alias: Alias, doc: Document.Parsed): Scalar | undefined {
  const node = alias.resolve(doc);
  return isScalar(node) ? node : undefined;
}

/** True when `offset` is inside the scalar's value (end inclusive, so a cursor just after `30080` counts). */
function within(node: Scalar, offset: number): boolean {
  return !!node.range && node.range[0] <= offset && offset <= node.range[1];
}
