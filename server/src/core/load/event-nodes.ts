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
  constructor(public flow: boolean, public anchor: string | undefined) {}
}
adopt(EventMap, YAMLMap, 'yaml.map');

export class EventSeq {
  items: unknown[] = [];
  comment: string | undefined = undefined;
  commentBefore: string | undefined = undefined;
  range: Range = [0, 0, 0];
  constructor(public flow: boolean, public anchor: string | undefined) {}
}
adopt(EventSeq, YAMLSeq, 'yaml.seq');

export class EventPair {
  constructor(public key: unknown, public value: unknown) {}
}
adopt(EventPair, Pair, 'yaml.pair');

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
