import * as jsYaml from 'js-yaml';
import type { AliasEvent, Event, MappingEvent, ScalarEvent, SequenceEvent } from 'js-yaml';
import { Document, Scalar, type Document as YamlDocument } from 'yaml';
import { asParsed, collectionJSON, COMMENT, EventAlias, EventDocument, EventMap, EventPair, EventScalar, EventSeq, type Range } from './event-nodes';
import { MAX_NESTING_DEPTH } from './parse-documents';
import { PARSE_OPTIONS } from './parse-options';

// Copied once: the bundles take js-yaml's CommonJS build (scripts/bundle.mjs), whose exports esbuild reads through
// a getter at every use; the composer reads these per event.
const { CHOMPING_MODE, COLLECTION_STYLE, EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE } = jsYaml;

/**
 * The fast path of the loader: `yaml`-shaped documents (see {@link ./event-nodes}) composed from js-yaml 5's
 * event stream (`parseEvents`: the parse itself, with source offsets of every scalar, alias, anchor and
 * collection start), with every node's `range` exactly as `yaml`'s composer sets it and every scalar resolved
 * by `yaml`'s own YAML 1.1 tags, so the loader reads the same values and spans from either.
 *
 * js-yaml gives no collection ends, no comments and no block-scalar header offsets. Those come from the text
 * between two tokens js-yaml located, which can only hold white space, line breaks, comments and indicators
 * (`:` `-` `,` `]` `}`); `yaml`'s conventions are then applied: a scalar's node ends after its line break and
 * after the more-indented comment lines that follow it, a block collection's value ends with its last value's
 * node, comment lines after a nested collection stay in it when one is at least as indented as it is, an empty
 * value sits after its indicator, a block scalar starts at its `|`/`>` header and ends after its last line that
 * is not a trailing empty line.
 *
 * Anything this composer does not reproduce exactly makes it decline the whole file (`undefined`), and the
 * loader then uses `yaml` itself: syntax errors (js-yaml throws; `yaml` has the messages and positions the user
 * sees), duplicate keys, tags, directives, `...` markers, explicit (`?`) or complex keys, properties on keys, a
 * BOM, tabs and carriage returns outside scalars, comments inside flow collections, empty values in flow
 * collections, comment lines after a document's last empty value when another document follows, explicit
 * block-scalar indentation, and multi-line flow collections or quoted scalars not indented past their parent.
 * The differential tests (`test/unit/event-loader.test.ts`; `test/render/event-loader-rendered.test.ts` for
 * what kustomize and Helm render) hold this composer to `yaml`'s output on every corpus, on odd YAML and on
 * thousands of generated documents.
 *
 * @param part for one document of a file composed on its own (the language server re-parses the edited document):
 *   `offset`, where `text` starts in the file (every range comes out in file offsets); `followed`, another document
 *   (its `---`) comes right after `text` in the file, which decides how `yaml` splits some trailing comment lines
 */
export function composeFromEvents(text: string, part: { readonly offset: number; readonly followed: boolean } = { offset: 0, followed: false }): Composed {
  if (UNSUPPORTED_TEXT.test(text)) return { declined: text.includes('\uFEFF') ? 'byte order mark' : text.includes('\t') ? 'tab' : 'carriage return' };
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: MAX_NESTING_DEPTH + 8 });
  } catch {
    return { declined: 'syntax error' };
  }
  let docs: YamlDocument.Parsed[];
  try {
    docs = new EventComposer(text, events, part.followed).documents();
  } catch (err) {
    if (err instanceof Declined) return { declined: err.reason };
    throw err;
  }
  if (part.offset) for (const doc of docs) shiftRanges(doc as unknown as EventDocument, part.offset);
  return { docs };
}

/**
 * Adds `offset` to every range of a composed document (the language server re-parses one document of a file as
 * a slice of the text: its nodes must carry offsets in the whole file, as `yaml`'s Parser gives them with its
 * `offset`). Iterative; each node is its own (the composer shares no node between two places).
 */
function shiftRanges(doc: EventDocument, offset: number): void {
  const move = (r: Range): void => {
    r[0] += offset;
    r[1] += offset;
    r[2] += offset;
  };
  move(doc.range);
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop() as { range?: Range; items?: unknown[] } | EventPair;
    if (node instanceof EventPair) {
      stack.push(node.key, node.value);
      continue;
    }
    if (!node || !node.range) continue;
    move(node.range);
    if (node.items) for (const item of node.items) stack.push(item);
  }
}

/** The documents, or why the text is left to `yaml`. */
export type Composed = { readonly docs: YamlDocument.Parsed[]; readonly declined?: undefined } | { readonly declined: string; readonly docs?: undefined };

/** A BOM anywhere, any tab, any carriage return not followed by a line feed. */
const UNSUPPORTED_TEXT = /[\uFEFF\t]|\r(?!\n)/;

class Declined {
  constructor(readonly reason: string) {}
}
const decline = (reason: string): never => {
  throw new Declined(reason);
};

/** `yaml`'s scalar tags for YAML 1.1 as the loader configures them (PARSE_OPTIONS), in `yaml`'s order of trial. */
interface ScalarTag {
  readonly default?: boolean | 'key';
  readonly test?: RegExp;
  resolve(source: string, onError: (message: string) => void, options: unknown): unknown;
}
const schemaDocument = new Document(null, PARSE_OPTIONS);
const schemaTags = schemaDocument.schema.tags as unknown as ScalarTag[];
const stringTag = (schemaDocument.schema as unknown as Record<symbol, ScalarTag>)[Symbol.for('yaml.scalar')];
const documentOptions = schemaDocument.options;
/** Implicit tags tried for a plain scalar (as `yaml`'s findScalarTagByTest): values, and keys (which add `<<`). */
const valueTags = schemaTags.filter((t) => t.default === true && t.test);
const keyTags = schemaTags.filter((t) => (t.default === true || t.default === 'key') && t.test);
const tagError = (): never => decline('scalar the tag cannot resolve');

/**
 * Resolved plain scalars by source text, shared by all files of a thread (most keys and many values repeat):
 * only primitive results are kept (a `<<` merge key resolves to a fresh node each time); cleared when large.
 */
const plainCache = [new Map<string, unknown>(), new Map<string, unknown>()] as const;
const PLAIN_CACHE_LIMIT = 50_000;
/**
 * Only sources shorter than this are cached. V8 makes a substring of 13 or more characters a slice that points
 * into the whole string it was cut from (SlicedString::kMinLength, v8/src/objects/string.h), so a cached long
 * source (a timestamp, an address) kept its file's whole text alive until the cache was cleared: a load worker
 * held ~30 MB of texts after 5,000 files. Shorter substrings are copies; the scalars that repeat (ports,
 * counts, booleans) are short.
 */
const MAX_CACHED_SOURCE = 12;

/**
 * First characters of the YAML 1.1 implicit scalars other than strings: `~` and `null`, booleans (`y`, `yes`,
 * `on`, `true`, `n`, `no`, `off`, `false` in their spellings), numbers (digits, sign, `.5`, `.inf`, `.nan`) and
 * the `<<` merge key. A plain scalar starting with anything else, or a long one starting with a letter, can only
 * be a string (the words above have at most 5 characters), so no tag is tried for it.
 */
const NUMBER_START = /^[-+.0-9]/;
const WORD_START = /^[~nNyYtTfFoO<]/;

function resolvePlain(source: string, atKey: boolean): unknown {
  if (source && !NUMBER_START.test(source) && (source.length > 5 || !WORD_START.test(source))) return source;
  const cache = source.length <= MAX_CACHED_SOURCE ? plainCache[atKey ? 1 : 0] : undefined;
  const hit = cache?.get(source);
  if (hit !== undefined || cache?.has(source)) return hit;
  let tag = stringTag;
  for (const t of atKey ? keyTags : valueTags) {
    if (t.test!.test(source)) {
      tag = t;
      break;
    }
  }
  let value = tag.resolve(source, tagError, documentOptions);
  if (value instanceof Scalar) {
    // `<<` resolves to a node of its own (with its merge behaviour), kept as the node; `null` to a plain Scalar.
    if ('addToJSMap' in value) return value;
    value = value.value;
  }
  if (value !== null && typeof value === 'object') return decline('scalar resolved to an object');
  if (!cache) return value;
  if (cache.size >= PLAIN_CACHE_LIMIT) cache.clear();
  cache.set(source, value);
  return value;
}

/** Where a node sits: in a block collection (with that collection's indentation), in a flow collection, at the root. */
const enum Context {
  Block,
  Flow,
  Root,
}

type ComposedNode = EventScalar | EventAlias | EventMap | EventSeq;

const SPACE = 32;
const LF = 10;
const CR = 13;
const HASH = 35;

/**
 * Whether `map` has a key equal to `value` as `yaml`'s duplicate-key check compares them (`===` of scalar values);
 * a duplicate is left to `yaml`, which reports it. NaN keys are declined too (conservative).
 */
function hasKey(map: EventMap, value: unknown): boolean {
  if (typeof value === 'number' && Number.isNaN(value)) return true;
  if (typeof value === 'symbol') return false;
  for (const pair of map.items) if ((pair.key as EventScalar).value === value) return true;
  return false;
}

class EventComposer {
  private i = 0;
  private depth = 0;
  /** Set by {@link scanGap}: whether the gap held a comment, and the largest indentation of a comment line in it. */
  private gapComment = false;
  private gapCommentIndent = -1;

  /** `followed`: the text is one document of a file, and another document follows it there. */
  constructor(private readonly text: string, private readonly events: Event[], private readonly followed = false) {}

  documents(): YamlDocument.Parsed[] {
    const { text, events } = this;
    if (/^\.\.\.(?=[ \r\n]|$)/m.test(text)) decline('document end marker');
    const markers: number[] = [];
    for (const m of text.matchAll(/^---(?=[ \r\n]|$)/gm)) markers.push(m.index!);
    let marker = 0;
    const docs: YamlDocument.Parsed[] = [];
    while (this.i < events.length) {
      const d = events[this.i++];
      if (d.type !== EVENT_ID.DOCUMENT) return decline('unexpected event');
      if (d.directives.length) decline('directive');
      if (d.explicitEnd) decline('document end marker');
      const explicit = d.explicitStart;
      let start = -1;
      let cursor = 0;
      if (explicit) {
        if (marker >= markers.length) decline('document marker');
        start = markers[marker++];
        cursor = start + 3;
      }
      let contents: ComposedNode;
      if (events[this.i].type === EVENT_ID.POP) {
        if (!explicit) decline('empty document');
        contents = this.emptyScalar(this.spacesFrom(cursor), undefined, cursor);
      } else {
        const first = this.contentStart(events[this.i]);
        if (explicit && this.text.lastIndexOf('\n', first) < start) decline('content on the document marker line');
        contents = this.node(-1, Context.Root, cursor, false);
        if (!explicit) start = Math.min(first, contents.range[0]);
      }
      if (events[this.i++]?.type !== EVENT_ID.POP) decline('unexpected event');
      docs.push(asParsed(new EventDocument(contents, [start, contents.range[2], contents.range[2]], explicit)));
    }
    if (marker !== markers.length) decline('document marker');
    return docs;
  }

  /** Offset of the first character of an event's node (its anchor or tag included). */
  private contentStart(e: Event): number {
    switch (e.type) {
      case EVENT_ID.SCALAR:
        return e.anchorStart >= 0 ? e.anchorStart : e.tagStart >= 0 ? e.tagStart : e.valueStart;
      case EVENT_ID.ALIAS:
        return e.anchorStart - 1;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE:
        return e.anchorStart >= 0 ? Math.min(e.anchorStart, e.start) : e.start;
      default:
        return decline('unexpected event');
    }
  }

  /**
   * The node of the next event. `indent`: the enclosing block collection's indentation (-1 at the root);
   * `cursor`: where the text after the previous token (its indicator) starts, for comments before the node.
   */
  private node(indent: number, context: Context, cursor: number, atKey: boolean, indicatorEnd = cursor): ComposedNode {
    const e = this.events[this.i++];
    switch (e.type) {
      case EVENT_ID.SCALAR:
        return this.scalar(e, indent, context, cursor, atKey, indicatorEnd);
      case EVENT_ID.ALIAS:
        return this.alias(e, indent, context, cursor, atKey);
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE:
        if (atKey) decline('complex key');
        if (e.tagStart >= 0) decline('tag');
        if (++this.depth > MAX_NESTING_DEPTH) decline('nesting');
        try {
          if (e.style === COLLECTION_STYLE.FLOW) return this.flowCollection(e, indent, context, cursor);
          if (context === Context.Flow) return decline('block collection in a flow collection');
          return e.type === EVENT_ID.MAPPING ? this.blockMap(e, cursor, context === Context.Root) : this.blockSeq(e, cursor);
        } finally {
          this.depth--;
        }
      default:
        return decline('unexpected event');
    }
  }

  private anchorOf(e: { anchorStart: number; anchorEnd: number }): string | undefined {
    if (e.anchorStart < 0) return undefined;
    const name = this.text.slice(e.anchorStart, e.anchorEnd);
    // A `#` in an anchor name would read as a comment below; a property must be followed by white space.
    const after = this.text.charCodeAt(e.anchorEnd);
    if (!name || name.includes('#') || name.endsWith(':') || !(after === SPACE || after === LF || after === CR || Number.isNaN(after))) decline('anchor');
    return name;
  }

  private scalar(e: ScalarEvent, indent: number, context: Context, cursor: number, atKey: boolean, indicatorEnd: number): EventScalar {
    if (e.tagStart >= 0) decline('tag');
    if (e.valueStart < 0) return decline('empty node');
    const anchor = this.anchorOf(e);
    if (atKey && anchor !== undefined) decline('anchor on a key');
    const text = this.text;
    let start: number;
    let end: number;
    let node: EventScalar;
    switch (e.style) {
      case SCALAR_STYLE.PLAIN: {
        start = e.valueStart;
        end = e.valueEnd;
        const source = e.fast ? text.slice(start, end) : getScalarValue(text, e);
        const value = resolvePlain(source, atKey);
        if (value instanceof Scalar) {
          // `<<`: the merge tag gives its own node, as in `yaml`'s composeScalar.
          node = value as unknown as EventScalar;
          node.range = [start, end, end];
          node.type = 'PLAIN';
          if (anchor) node.anchor = anchor;
        } else {
          node = new EventScalar(value, 'PLAIN', [start, end, end], anchor);
          // A key read as a boolean or a number (`on`, `0x10`) keeps its text, as `yaml`'s scalars do (`source`), for
          // the messages that say how YAML 1.1 reads it; string keys, the common case, carry nothing more.
          if (atKey && (typeof value === 'boolean' || typeof value === 'number')) (node as EventScalar & { source?: string }).source = source;
        }
        break;
      }
      case SCALAR_STYLE.SINGLE_QUOTED:
      case SCALAR_STYLE.DOUBLE_QUOTED: {
        start = e.valueStart - 1;
        end = e.valueEnd + 1;
        const quote = e.style === SCALAR_STYLE.SINGLE_QUOTED ? "'" : '"';
        if (text[start] !== quote || text[end - 1] !== quote) decline('quoted scalar');
        node = new EventScalar(getScalarValue(text, e), e.style === SCALAR_STYLE.SINGLE_QUOTED ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE', [start, end, end], anchor);
        break;
      }
      default: {
        if (atKey || context === Context.Flow) decline('block scalar key');
        return this.blockScalar(e, cursor, indicatorEnd, anchor);
      }
    }
    if (context === Context.Flow) {
      if (this.commentIn(cursor, this.contentStart(e))) decline('comment in a flow collection');
      return node;
    }
    if (!atKey) {
      if (context === Context.Block) this.checkContinuationIndent(start, end, indent, -1);
      if (this.commentBefore(cursor, e, start)) node.commentBefore = COMMENT;
      this.endNode(node, indent, context);
    }
    return node;
  }

  /** `| …` / `> …`: from the header to the end of its last line that is not a trailing empty line. */
  private blockScalar(e: ScalarEvent, cursor: number, indicatorEnd: number, anchor: string | undefined): EventScalar {
    const text = this.text;
    const header = this.nextContent(e.anchorStart >= 0 ? e.anchorEnd : indicatorEnd);
    const hasCommentBefore = this.commentIn(cursor, e.anchorStart >= 0 ? e.anchorStart : header) || (e.anchorStart >= 0 && this.commentIn(e.anchorEnd, header));
    const mode = text[header];
    if (mode !== '|' && mode !== '>') decline('block scalar header');
    let h = header + 1;
    while (text[h] === '-' || text[h] === '+') h++;
    if (text.charCodeAt(h) !== SPACE && text.charCodeAt(h) !== LF && text.charCodeAt(h) !== CR) decline('block scalar indentation indicator');
    const headerEnd = this.lineEnd(h);
    const headerComment = this.gapComment;
    if (headerEnd !== e.valueStart) decline('block scalar body');
    // The body as yaml's lexer takes it: indentation of the first line with content; trailing lines of at most
    // that many spaces are not part of it (unless chomping is `+`).
    let first = e.valueStart;
    let contentIndent = -1;
    for (let p = first; p < e.valueEnd;) {
      let s = p;
      while (text.charCodeAt(s) === SPACE) s++;
      const c = text.charCodeAt(s);
      if (c === LF || (c === CR && text.charCodeAt(s + 1) === LF)) {
        p = c === LF ? s + 1 : s + 2;
        continue;
      }
      contentIndent = s - p;
      first = p;
      break;
    }
    if (contentIndent < 0) decline('empty block scalar');
    for (let p = e.valueStart; p < first;) {
      const nl = text.indexOf('\n', p);
      if (nl - p - (text.charCodeAt(nl - 1) === CR ? 1 : 0) > contentIndent) decline('more-indented leading empty line');
      p = nl + 1;
    }
    let end = e.valueEnd;
    if (e.chomping !== CHOMPING_MODE.KEEP) {
      while (end > first) {
        const lineStart = text.lastIndexOf('\n', end - 2) + 1;
        let lineEnd = end - 1;
        if (text.charCodeAt(lineEnd) !== LF) break;
        if (text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
        let s = lineStart;
        while (s < lineEnd && text.charCodeAt(s) === SPACE) s++;
        if (s < lineEnd || lineEnd - lineStart > contentIndent || lineStart <= first) break;
        end = lineStart;
      }
    }
    const node = new EventScalar(getScalarValue(text, e), mode === '|' ? 'BLOCK_LITERAL' : 'BLOCK_FOLDED', [header, end, end], anchor);
    if (headerComment) node.comment = COMMENT;
    if (hasCommentBefore) node.commentBefore = COMMENT;
    return node;
  }

  private alias(e: AliasEvent, indent: number, context: Context, cursor: number, atKey: boolean): EventAlias {
    if (atKey) decline('alias as a key');
    const start = e.anchorStart - 1;
    const source = this.text.slice(e.anchorStart, e.anchorEnd);
    if (this.text[start] !== '*' || !source || source.endsWith(':')) decline('alias');
    const node = new EventAlias(source, [start, e.anchorEnd, e.anchorEnd]);
    if (context === Context.Flow) {
      if (this.commentIn(cursor, start)) decline('comment in a flow collection');
      return node;
    }
    if (this.commentIn(cursor, start)) node.commentBefore = COMMENT;
    this.endNode(node, indent, context);
    return node;
  }

  /** Comments between `cursor` and the node (its anchor skipped). */
  private commentBefore(cursor: number, e: ScalarEvent | MappingEvent | SequenceEvent, start: number): boolean {
    if (e.anchorStart < 0) return this.commentIn(cursor, start);
    return this.commentIn(cursor, e.anchorStart) || this.commentIn(e.anchorEnd, start);
  }

  private commentIn(from: number, to: number): boolean {
    const text = this.text;
    for (let p = from; p < to; p++) if (text.charCodeAt(p) === HASH) return true;
    return false;
  }

  /**
   * A scalar, alias or flow collection in a block collection or at the root: its node runs on to the end of its
   * line (space, comment, line break) and, in a block collection, over the following comment lines that are more
   * indented than that collection (blank lines between them included), as `yaml`'s parser gives them to it.
   */
  private endNode(node: EventScalar | EventAlias | EventMap | EventSeq, indent: number, context: Context): void {
    let end = this.lineEnd(node.range[1]);
    let comment = this.gapComment;
    if (context === Context.Block) {
      const text = this.text;
      for (let line = end; line < text.length;) {
        let s = line;
        while (text.charCodeAt(s) === SPACE) s++;
        const c = text.charCodeAt(s);
        if (c === LF) line = s + 1;
        else if (c === CR && text.charCodeAt(s + 1) === LF) line = s + 2;
        else if (c === HASH && s - line > indent) {
          const nl = text.indexOf('\n', s);
          line = end = nl === -1 ? text.length : nl + 1;
          comment = true;
        } else break;
      }
    }
    node.range[2] = end;
    if (comment && node.comment === undefined) node.comment = COMMENT;
  }

  /**
   * The end of the line a token ending at `from` is on: past spaces, a comment and the line break (or the end of
   * the text). Anything else on the line is not a value's end: declined. Sets {@link gapComment}.
   */
  private lineEnd(from: number): number {
    const text = this.text;
    let p = from;
    while (text.charCodeAt(p) === SPACE) p++;
    this.gapComment = false;
    if (text.charCodeAt(p) === HASH) {
      if (p === from) decline('comment not separated by white space');
      this.gapComment = true;
      const nl = text.indexOf('\n', p);
      return nl === -1 ? text.length : nl + 1;
    }
    const c = text.charCodeAt(p);
    if (c === LF) return p + 1;
    if (c === CR && text.charCodeAt(p + 1) === LF) return p + 2;
    if (p >= text.length) return p;
    return decline('content after a value');
  }

  /** The first offset at or after `from` that is not a space, line break or comment. Sets {@link gapComment} / {@link gapCommentIndent}. */
  private nextContent(from: number): number {
    const text = this.text;
    this.gapComment = false;
    this.gapCommentIndent = -1;
    let lineStart = text.lastIndexOf('\n', from - 1) + 1;
    let p = from;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c === SPACE) p++;
      else if (c === LF) lineStart = ++p;
      else if (c === CR && text.charCodeAt(p + 1) === LF) lineStart = p += 2;
      else if (c === HASH) {
        this.gapComment = true;
        let s = lineStart;
        while (text.charCodeAt(s) === SPACE) s++;
        this.gapCommentIndent = Math.max(this.gapCommentIndent, s - lineStart);
        const nl = text.indexOf('\n', p);
        if (nl === -1) return text.length;
        p = nl;
      } else return p;
    }
  }

  private spacesFrom(p: number): number {
    while (this.text.charCodeAt(p) === SPACE) p++;
    return p;
  }

  /** Indentation of a block collection starting at `start`: its column, with only spaces and `-` before it. */
  private indentOf(start: number): number {
    const lineStart = this.text.lastIndexOf('\n', start - 1) + 1;
    for (let p = lineStart; p < start; p++) {
      const c = this.text[p];
      if (c !== ' ' && c !== '-') decline('block collection after content on its line');
    }
    return start - lineStart;
  }

  /**
   * Lines 2… of a multi-line scalar or flow collection must be indented past the enclosing block collection, as
   * `yaml` requires (it reports the others); `closer`: the offset of a flow collection's closing bracket, which
   * may sit at the collection's own indentation.
   */
  private checkContinuationIndent(start: number, end: number, indent: number, closer: number): void {
    const text = this.text;
    for (let nl = text.indexOf('\n', start); nl !== -1 && nl < end; nl = text.indexOf('\n', nl + 1)) {
      let s = nl + 1;
      while (text.charCodeAt(s) === SPACE) s++;
      const c = text.charCodeAt(s);
      if (c === LF || c === CR || s >= end) continue;
      const lineIndent = s - nl - 1;
      if (lineIndent > indent) continue;
      if (s === closer && lineIndent === indent) continue;
      decline('continuation line not indented');
    }
  }

  /**
   * An empty node at `at`. `commentsFrom`: when set, the node owns the text from there to the next token (yaml's
   * `sep` of a map's last value, or a sequence item's start), and a comment in it ends the node at that token.
   */
  private emptyScalar(at: number, anchor: string | undefined, commentsFrom: number | undefined): EventScalar {
    const node = new EventScalar(resolvePlain('', false), 'PLAIN', [at, at, at], anchor);
    if (commentsFrom !== undefined) {
      const next = this.nextContent(at);
      if (this.commentIn(commentsFrom, next)) {
        node.range[2] = next;
        node.comment = COMMENT;
      }
    }
    return node;
  }

  /** An empty value's node (the next event is an empty plain scalar): after its indicator and its anchor. */
  private emptyValue(indicatorEnd: number, commentsFrom: () => number | undefined): EventScalar {
    const e = this.events[this.i++] as ScalarEvent;
    if (e.tagStart >= 0) decline('tag');
    const anchor = this.anchorOf(e);
    return this.emptyScalar(this.spacesFrom(anchor !== undefined ? e.anchorEnd : indicatorEnd), anchor, commentsFrom());
  }

  private isEmptyScalar(e: Event | undefined): boolean {
    return e?.type === EVENT_ID.SCALAR && e.valueStart < 0;
  }

  /** `root`: the map is the document's contents (see the last empty value below). */
  private blockMap(e: MappingEvent, cursor: number, root: boolean): EventMap {
    const text = this.text;
    const indent = this.indentOf(e.start);
    const map = new EventMap(false, this.collectionAnchor(e));
    if (this.commentBefore(cursor, e, e.start)) map.commentBefore = COMMENT;
    let prevEnd = -1;
    let emptyBefore = false;
    let value: ComposedNode | undefined;
    while (this.events[this.i].type !== EVENT_ID.POP) {
      const k = this.events[this.i];
      if (k.type !== EVENT_ID.SCALAR) return decline(k.type === EVENT_ID.ALIAS ? 'alias as a key' : 'complex key');
      if (k.valueStart < 0) decline('empty key');
      if (k.style !== SCALAR_STYLE.PLAIN && k.style !== SCALAR_STYLE.SINGLE_QUOTED && k.style !== SCALAR_STYLE.DOUBLE_QUOTED) decline('block scalar key');
      const key = this.node(indent, Context.Block, prevEnd < 0 ? e.start : prevEnd, true) as EventScalar;
      if (prevEnd < 0) {
        if (key.range[0] !== e.start) decline('mapping start');
      } else {
        if (this.nextContent(prevEnd) !== key.range[0]) decline('text before a key');
        if (this.gapComment) {
          if (emptyBefore) decline('comment after an empty value');
          key.commentBefore = COMMENT;
        }
      }
      let colon = key.range[1];
      while (text.charCodeAt(colon) === SPACE) colon++;
      if (text[colon] !== ':') decline('key without ":"');
      if (hasKey(map, key.value)) decline('duplicate key');
      emptyBefore = this.isEmptyScalar(this.events[this.i]);
      value = emptyBefore ? this.emptyValue(colon + 1, () => (this.events[this.i].type === EVENT_ID.POP ? colon + 1 : undefined)) : this.node(indent, Context.Block, colon + 1, false);
      prevEnd = emptyBefore ? value.range[1] : value.range[2];
      map.items.push(new EventPair(key, value));
    }
    this.i++;
    // A document's map whose last value is empty, with comment lines after it and another document after them:
    // `yaml` gives those lines partly to the document, partly to the value (where depends on blank lines).
    if (root && emptyBefore && value!.comment !== undefined && (value!.range[2] < text.length || this.followed)) decline('comment after the last empty value of a document');
    this.closeBlock(map, e.start, value!.range[2], indent);
    map.json = collectionJSON(map);
    return map;
  }

  private blockSeq(e: SequenceEvent, cursor: number): EventSeq {
    const indent = this.indentOf(e.start);
    const seq = new EventSeq(false, this.collectionAnchor(e));
    if (this.commentBefore(cursor, e, e.start)) seq.commentBefore = COMMENT;
    // Comments between two items belong to the second (its value's `commentBefore`), except those the first
    // item's node took (more indented than the sequence); an empty item owns everything up to the next item.
    let prevEnd = -1;
    let owned = -1;
    let item: ComposedNode | undefined;
    while (this.events[this.i].type !== EVENT_ID.POP) {
      const dash = prevEnd < 0 ? e.start : this.nextContent(prevEnd);
      if (this.text[dash] !== '-') decline('sequence item');
      const from = owned < 0 ? dash + 1 : owned;
      const empty = this.isEmptyScalar(this.events[this.i]);
      item = empty ? this.emptyValue(dash + 1, () => from) : this.node(indent, Context.Block, from, false, dash + 1);
      prevEnd = empty ? item.range[1] : item.range[2];
      owned = empty ? -1 : prevEnd;
      seq.items.push(item);
    }
    this.i++;
    this.closeBlock(seq, e.start, item!.range[2], indent);
    seq.json = collectionJSON(seq);
    return seq;
  }

  /** An anchor on a block collection must stand on a line of its own (`&a key: v` anchors the key). */
  private collectionAnchor(e: MappingEvent | SequenceEvent): string | undefined {
    const anchor = this.anchorOf(e);
    if (anchor !== undefined) {
      const nl = this.text.indexOf('\n', e.anchorEnd);
      if (nl === -1 || nl > e.start) decline('anchor on a key');
    }
    return anchor;
  }

  /**
   * A block collection's range: its value ends with its last value's node; comment lines after it stay in it
   * (its node ends at the next token) when it is indented and one of them is at least as indented as it is;
   * otherwise they go to the enclosing collection, as `yaml`'s parser does when it closes the collection.
   */
  private closeBlock(coll: EventMap | EventSeq, start: number, valueEnd: number, indent: number): void {
    const next = this.nextContent(valueEnd);
    const keeps = indent > 0 && this.gapComment && this.gapCommentIndent >= indent;
    coll.range = [start, valueEnd, keeps ? next : valueEnd];
    if (keeps) coll.comment = COMMENT;
  }

  private flowCollection(e: MappingEvent | SequenceEvent, indent: number, context: Context, cursor: number): EventMap | EventSeq {
    const text = this.text;
    const isMap = e.type === EVENT_ID.MAPPING;
    if (text[e.start] !== (isMap ? '{' : '[')) decline('pair in a flow sequence');
    const anchor = this.anchorOf(e);
    const coll = isMap ? new EventMap(true, anchor) : new EventSeq(true, anchor);
    if (context === Context.Flow ? this.commentIn(cursor, this.contentStart(e)) : false) decline('comment in a flow collection');
    if (context !== Context.Flow && this.commentBefore(cursor, e, e.start)) coll.commentBefore = COMMENT;
    let at = e.start + 1;
    while (this.events[this.i].type !== EVENT_ID.POP) {
      if (this.isEmptyScalar(this.events[this.i])) decline('empty value in a flow collection');
      if (isMap) {
        const k = this.events[this.i];
        if (k.type !== EVENT_ID.SCALAR) return decline(k.type === EVENT_ID.ALIAS ? 'alias as a key' : 'complex key');
        const key = this.node(indent, Context.Flow, at, true) as EventScalar;
        if (hasKey(coll as EventMap, key.value)) decline('duplicate key');
        if (this.isEmptyScalar(this.events[this.i])) decline('empty value in a flow collection');
        const value = this.node(indent, Context.Flow, key.range[1], false);
        (coll as EventMap).items.push(new EventPair(key, value));
        at = value.range[1];
      } else {
        const item = this.node(indent, Context.Flow, at, false);
        (coll as EventSeq).items.push(item);
        at = item.range[1];
      }
    }
    this.i++;
    let close = at;
    for (let c = text[close]; c === ' ' || c === ',' || c === '\n' || c === '\r'; c = text[++close]);
    if (text[close] !== (isMap ? '}' : ']')) decline(text[close] === '#' ? 'comment in a flow collection' : 'flow collection end');
    const end = close + 1;
    coll.range = [e.start, end, end];
    if (context === Context.Block) this.checkContinuationIndent(e.start, end, indent, close);
    coll.json = collectionJSON(coll);
    if (context !== Context.Flow) this.endNode(coll, indent, context);
    return coll;
  }
}
