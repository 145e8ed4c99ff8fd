import { Alias, Document, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';

/**
 * `yaml` node objects built without `yaml`'s constructors, for the loader that composes documents from js-yaml's
 * event stream ({@link ./event-compose}). They are real `yaml` nodes to every reader: the same prototypes
 * (`instanceof Scalar`, `toJSON`), the same `yaml` type tag (`isScalar`, `isMap`, `visit` work), the same fields
 * the loader reads (`value`, `type`, `range`, `anchor`, `items`, `key`, `value`, `source`), so NodeReader, the
 * extractors, `raw` and quick-fix spans run unchanged on them. `yaml`'s own constructors define the type tag
 * (and a collection's schema) with `Object.defineProperty` on every node, which is most of the cost of
 * building one; here the tag sits on the prototype. Comments are kept only as presence (`comment` /
 * `commentBefore` are a one-space string when there is one), which is all a quick fix asks of them.
 */
const NODE_TYPE = Symbol.for('yaml.node.type');

/** `[start, valueEnd, nodeEnd]`: UTF-16 offsets, as `yaml`'s `Node.range`. */
export type Range = [number, number, number];

/** The marker for "a comment is attached here" (the text itself is never read by the loader). */
export const COMMENT = ' ';

function adopt(cls: { prototype: object }, base: { prototype: object }, type: string): void {
  Object.setPrototypeOf(cls.prototype, base.prototype);
  Object.defineProperty(cls.prototype, NODE_TYPE, { value: Symbol.for(type) });
}

export class EventScalar {
  comment: string | undefined = undefined;
  commentBefore: string | undefined = undefined;
  constructor(public value: unknown, public type: string, public range: Range, public anchor: string | undefined) {}
}
adopt(EventScalar, Scalar, 'yaml.scalar');

export class EventAlias {
  comment: string | undefined = undefined;
  commentBefore: string | undefined = undefined;
  readonly anchor = undefined;
  constructor(public source: string, public range: Range) {}
}
adopt(EventAlias, Alias, 'yaml.alias');

export class EventMap {
  items: EventPair[] = [];
  comment: string | undefined = undefined;
  commentBefore: string | undefined = undefined;
  range: Range = [0, 0, 0];
  /** The collection's plain JSON value, made by the composer (see {@link precomposedJSON}); undefined when not made. */
  json: unknown = undefined;
  constructor(public flow: boolean, public anchor: string | undefined) {}
}
adopt(EventMap, YAMLMap, 'yaml.map');

export class EventSeq {
  items: unknown[] = [];
  comment: string | undefined = undefined;
  commentBefore: string | undefined = undefined;
  range: Range = [0, 0, 0];
  /** The collection's plain JSON value, made by the composer (see {@link precomposedJSON}); undefined when not made. */
  json: unknown = undefined;
  constructor(public flow: boolean, public anchor: string | undefined) {}
}
adopt(EventSeq, YAMLSeq, 'yaml.seq');

export class EventPair {
  constructor(public key: unknown, public value: unknown) {}
}
adopt(EventPair, Pair, 'yaml.pair');

/**
 * The plain JSON value the composer made for a node while composing it (`yaml`'s `toJS` of it: mappings as
 * objects, keys stringified as `yaml` does), or undefined when none was made: for `yaml`'s own nodes, and for a
 * collection with an alias or a merge key anywhere below it (aliases, their anchors' reuse and the alias-bomb
 * limit are left to the reader's {@link ../plain-json | plainJSON}). Each value belongs to one node: a caller
 * that keeps it must not hand the same node to another caller.
 */
export function precomposedJSON(node: unknown): unknown {
  return node instanceof EventMap || node instanceof EventSeq ? node.json : undefined;
}

/**
 * The JSON value of one composed collection from its items' (see {@link precomposedJSON}); undefined when an
 * item is an alias, a merge key or a collection without one. Keys as `yaml`'s toJS adds them to a plain object:
 * `null` as `''`, other scalars by `String`, and a key already present (`__proto__`, or `1` after `"1"`) set
 * as an own property.
 */
export function collectionJSON(coll: EventMap | EventSeq): unknown {
  if (coll instanceof EventSeq) {
    const items = coll.items;
    const seq: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      const v = itemJSON(items[i]);
      if (v === undefined) return undefined;
      seq.push(v);
    }
    return seq;
  }
  const map: Record<string, unknown> = {};
  for (const { key, value } of coll.items) {
    if (!(key instanceof EventScalar)) return undefined;
    const k = key.value;
    const v = itemJSON(value);
    if (v === undefined) return undefined;
    if (typeof k === 'string' && k !== '__proto__') {
      // Keys of one composed mapping are distinct values (the composer declines duplicates), so a string key is
      // not yet an own property, and `=` makes the same own data property `defineProperty` would (the only
      // setter an empty object inherits is `__proto__`).
      map[k] = v;
      continue;
    }
    if (k !== null && typeof k === 'object') return undefined;
    const stringKey = k === null ? '' : String(k);
    if (stringKey in map) Object.defineProperty(map, stringKey, { value: v, writable: true, enumerable: true, configurable: true });
    else map[stringKey] = v;
  }
  return map;
}

function itemJSON(n: unknown): unknown {
  if (n instanceof EventScalar) return n.value;
  if (n instanceof EventMap || n instanceof EventSeq) return n.json;
  return undefined;
}

/** A parsed document as the loader reads it: contents, range, no errors, whether it starts with `---`. */
export class EventDocument {
  readonly errors: never[] = [];
  readonly warnings: never[] = [];
  readonly directives: { docStart: true | null };
  constructor(public contents: unknown, public range: Range, explicitStart: boolean) {
    this.directives = { docStart: explicitStart ? true : null };
  }
}
adopt(EventDocument, Document, 'yaml.document');

/** The same objects typed as what `yaml`'s composer returns. */
export const asParsed = (doc: EventDocument): Document.Parsed => doc as unknown as Document.Parsed;
