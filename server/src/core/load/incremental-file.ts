import type { Document } from 'yaml';
import type { Span } from '../source/span';
import { composeFromEvents } from './event-compose';
import { hasDocumentStartBom } from './document-boms';
import type { K8sObject } from '../model/objects';
import { repoFileRole } from '../repo/repo-files';
import { LineIndex } from '../source/line-index';
import { DEFAULT_PARSER, loadDocument, loadFile, LoadedFile, LoadOptions, LoadProblem, PARSE_OPTIONS, parseFile } from './load-file';
import { parseDocuments } from './parse-documents';
import { jsonStream } from './json-stream';
import { mayHoldReaderStop, readerStop } from './reader-stops';
import { collectSpans, moveSpans } from './shift-spans';
import { findLineSuppressions, mayHoldDirective } from './suppressions';

/** One document of a file: `[start, end)` UTF-16 offsets (documents tile the file) and what was read from it. */
interface Chunk {
  readonly start: number;
  readonly end: number;
  readonly objects: readonly K8sObject[];
  readonly problems: readonly LoadProblem[];
  /** The document starts with an explicit `---` (so an edit before it cannot merge it into its predecessor). */
  readonly explicitStart: boolean;
  /**
   * Every span of this file in `objects` and `problems`, collected the first time the document has to move (an
   * edit before it) and kept: moving a flat list costs far less than walking every object again on each keystroke.
   */
  spans?: Span[];
}

/**
 * Where a new text differs from the one before, as an editor's incremental changes tell it (the language server's
 * `didChange` ranges, merged when several arrive between analyses): the new text's first `prefix` and last `suffix`
 * UTF-16 code units are those of the previous text, which was `previousLength` code units long. Saves comparing two
 * whole buffers; a range that does not fit the previous text is ignored (the texts are compared instead).
 */
export interface ChangedRange {
  readonly prefix: number;
  readonly suffix: number;
  readonly previousLength: number;
}

/** What an {@link IncrementalFile.update} did. */
export interface FileUpdate {
  readonly loaded: LoadedFile;
  /** `document`: one document was parsed again; `file`: the whole file; `none`: the text did not change. */
  readonly reparsed: 'none' | 'document' | 'file';
  /** For `document`: what parsed it (js-yaml's events, or `yaml` when the event composer declined the document). */
  readonly parser?: 'events' | 'yaml';
  /** Objects that are gone or changed (old versions) and objects that are new or changed (new versions). */
  readonly removed: readonly K8sObject[];
  readonly added: readonly K8sObject[];
  /** For `document`: spans at or after `from` (offset in the OLD text) moved by `delta` (see {@link moveSpans}). */
  readonly shift?: { readonly from: number; readonly delta: number };
}

/**
 * One file kept loaded across edits (language server). An edit inside one document of a multi-document
 * file re-parses only that document: the text before it is unchanged, the results of the documents after
 * it are reused with their spans moved (in place) by the edit's length change, so LoadedFile objects handed
 * out earlier must not be relied on for offsets after an update. The outcome is always identical to
 * `loadFile(file, text)` on the new text (tested); whenever that cannot be guaranteed — the edit crosses a
 * document boundary, adds or removes a `---`, the file uses `%` directives, Go templates or is a
 * kustomization/Chart.yaml — the whole file is parsed again.
 */
export class IncrementalFile {
  private chunks: Chunk[] | undefined;
  private current: LoadedFile;
  /** The current text may hold a suppression comment (see mayHoldDirective); when not, an edit checks its own text only. */
  private mayHoldSuppressions = false;

  constructor(readonly file: string, text: string, private readonly options: LoadOptions = {}) {
    this.current = this.loadWhole(text);
  }

  get loaded(): LoadedFile {
    return this.current;
  }

  /**
   * Moves to `text` (the whole new content, e.g. an editor buffer after an edit). `alsoMove`: more values
   * holding spans of this file (e.g. earlier findings) to move with the reused documents, in the same pass.
   * `changed`: what the editor says it changed (else the two texts are compared).
   */
  update(text: string, alsoMove: readonly unknown[] = [], changed?: ChangedRange): FileUpdate {
    const before = this.current;
    if (text === before.text) return { loaded: before, reparsed: 'none', removed: [], added: [] };
    const fast = this.updateOneDocument(text, alsoMove, changed);
    if (fast) return fast;
    this.current = this.loadWhole(text);
    return { loaded: this.current, reparsed: 'file', removed: before.objects, added: this.current.objects };
  }

  private loadWhole(text: string): LoadedFile {
    this.chunks = undefined;
    // Templates, repository files and JSON streams (one value per document, no `---` between) are loaded whole.
    if (isTemplateLike(text) || repoFileRole(this.file, text) || jsonStream(text)) return loadFile(this.file, text, this.options);
    const { docs, lines } = parseFile(text, this.options.parser ?? DEFAULT_PARSER);
    // Where kubectl stops reading (a control character, content after `---`) decides which documents count: whole.
    // A document-starting BOM is parsed from a rewritten text (see document-boms.ts), which one document's slice is not.
    if (docs.length === 0 || docs.some(hasDirectives) || readerStop(text) || hasDocumentStartBom(text)) return loadFile(this.file, text, this.options);
    const chunks = docs.map((doc, i): Chunk => {
      const objects: K8sObject[] = [];
      const problems: LoadProblem[] = [];
      loadDocument(doc, i, this.file, this.options, objects, problems);
      const start = i === 0 ? 0 : doc.range[0];
      const end = i + 1 < docs.length ? docs[i + 1].range[0] : text.length;
      return { start, end, objects, problems, explicitStart: doc.directives?.docStart === true };
    });
    // Each document's spans are listed now, while the file opens, not on the first keystroke (which would move
    // every document after it and wait for this walk).
    if (chunks.length > 1) for (const c of chunks) c.spans = collectSpans([c.objects, c.problems], this.file);
    this.chunks = chunks;
    return this.assemble(text, chunks, lines, true);
  }

  /** The fast path, or undefined when the edit is not confined to one document. */
  private updateOneDocument(text: string, alsoMove: readonly unknown[], changed: ChangedRange | undefined): FileUpdate | undefined {
    const chunks = this.chunks;
    const old = this.current.text;
    if (!chunks) return undefined;
    // A file that starts with `{` is kubectl's JSON stream once it is not one well-formed JSON value: read whole;
    // so is one where the edit made a document-starting BOM (see document-boms.ts).
    if (jsonStream(text) || hasDocumentStartBom(text)) return undefined;
    const fits = changed && fitsTexts(changed, old, text);
    const prefix = fits ? changed.prefix : commonPrefix(old, text);
    const suffix = fits ? changed.suffix : commonSuffix(old, text, Math.min(old.length, text.length) - prefix);
    const editEnd = old.length - suffix;
    // The old text has no template marker (else it has no chunks): a new one overlaps the edited text.
    if (isTemplateLike(text.slice(Math.max(0, prefix - 1), text.length - suffix + 1))) return undefined;
    // The old text has no reader stop (else it has no chunks): a new one lies on a line the edit touched.
    const lineStart = text.lastIndexOf('\n', prefix - 1) + 1;
    const lineEnd = text.indexOf('\n', text.length - suffix);
    if (mayHoldReaderStop(text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd))) return undefined;
    const k = chunkAt(chunks, prefix);
    const chunk = chunks[k];
    if (editEnd > chunk.end) return undefined;
    const delta = text.length - old.length;
    const newEnd = chunk.end + delta;
    const last = k === chunks.length - 1;
    // The document is parsed with the next document's `---` line after it, so it ends the way it does in the
    // whole stream (an unclosed quote or flow collection stops at the marker, with the same errors), and the
    // parse proves the boundary still holds: the next document must start right there, with its `---`.
    const markerEnd = last ? text.length : text.indexOf('\n', newEnd) + 1 || text.length;
    // Node ranges and error positions come out as offsets in the whole file.
    const composed = this.composeOne(text, chunk.start, newEnd, last ? undefined : chunks[k + 1]);
    const docs = composed ?? parseDocuments(text.slice(chunk.start, markerEnd), PARSE_OPTIONS, { offset: chunk.start }).docs;
    if (docs.length !== (last || composed ? 1 : 2) || hasDirectives(docs[0])) return undefined;
    if (!last && !composed && (docs[1].range[0] !== newEnd || docs[1].directives?.docStart !== true)) return undefined;
    // Later documents must still start with their own `---` at the chunk start (a `---:` is a key, not a marker).
    if (k > 0 && (docs[0].range[0] !== chunk.start || docs[0].directives?.docStart !== true)) return undefined;
    const objects: K8sObject[] = [];
    const problems: LoadProblem[] = [];
    loadDocument(docs[0], k, this.file, this.options, objects, problems);
    const replaced: Chunk = { start: chunk.start, end: newEnd, objects, problems, explicitStart: docs[0].directives?.docStart === true };
    const next = chunks.slice(0, k);
    next.push(replaced);
    // The documents after the edit keep their results; only their offsets move (in place: copying every
    // object of a 2,000-document file on each keystroke would cost more than the parse it saves).
    const after = chunks.slice(k + 1);
    if (delta !== 0) for (const c of after) c.spans ??= collectSpans([c.objects, c.problems], this.file);
    moveSpans(alsoMove, delta, this.file, chunk.end, after.map((c) => c.spans!));
    for (const c of after) next.push(delta === 0 ? c : { ...c, start: c.start + delta, end: c.end + delta });
    this.chunks = next;
    // A suppression comment the text did not hold before can only come with the edited text (or span its edges).
    const directiveMargin = 24;
    const suppressible = this.mayHoldSuppressions || mayHoldDirective(text.slice(Math.max(0, prefix - directiveMargin), text.length - suffix + directiveMargin));
    this.current = this.assemble(text, next, this.patchLines(old, text, prefix, editEnd, delta), suppressible);
    return { loaded: this.current, reparsed: 'document', parser: composed ? 'events' : 'yaml', removed: chunk.objects, added: objects, shift: { from: chunk.end, delta } };
  }

  /**
   * The edited document `[start, end)` of `text` composed from js-yaml's events, as loadFile reads a file, or
   * undefined when the event composer declines it (syntax errors among others: `yaml` then parses it, with the next
   * `---` line, see above) or `parser: 'yaml'` is set. Without an error the document cannot run past `end`: the
   * next document's `---` (unchanged text, an explicit start) stands at the start of a line there, which ends any
   * scalar or collection; the composer is told another document follows, for the comment lines `yaml` splits then.
   */
  private composeOne(text: string, start: number, end: number, next: Chunk | undefined): Document.Parsed[] | undefined {
    if ((this.options.parser ?? DEFAULT_PARSER) !== 'events') return undefined;
    if (next && (!next.explicitStart || text.charCodeAt(end - 1) !== 10)) return undefined;
    return composeFromEvents(text.slice(start, end), { offset: start, followed: !!next }).docs;
  }

  /** The new text's line index from the old one: starts before the edit kept, inside re-scanned, after moved. */
  private patchLines(old: string, text: string, editStart: number, oldEditEnd: number, delta: number): LineIndex {
    const starts = this.current.lines.lineStarts;
    // Line starts are ascending: the kept ones are found by bisection and copied at once, not one by one, into
    // an Int32Array (offsets stay below 2^31: files above 5 MiB are not loaded), which the garbage collector
    // never copies and which takes 4 bytes a line.
    const kept = firstAbove(starts, editStart);
    const moved = firstAbove(starts, oldEditEnd);
    const inside: number[] = [];
    for (let i = text.indexOf('\n', editStart); i !== -1 && i < oldEditEnd + delta; i = text.indexOf('\n', i + 1)) inside.push(i + 1);
    const out = new Int32Array(kept + inside.length + starts.length - moved);
    out.set(starts instanceof Int32Array ? starts.subarray(0, kept) : Array.prototype.slice.call(starts, 0, kept));
    out.set(inside, kept);
    for (let line = moved, j = kept + inside.length; line < starts.length; line++, j++) out[j] = starts[line] + delta;
    return LineIndex.fromLineStarts(out, text.length);
  }

  private assemble(text: string, chunks: readonly Chunk[], lines: LineIndex, mayHoldDirectives: boolean): LoadedFile {
    // Loops, not flatMap: a 2,000-document file assembles its lists on every keystroke.
    let objects: readonly K8sObject[];
    if (chunks.length === 1) objects = chunks[0].objects;
    else {
      const all: K8sObject[] = [];
      for (const c of chunks) for (const o of c.objects) all.push(o);
      objects = all;
    }
    const problems: LoadProblem[] = [];
    for (const c of chunks) for (const p of c.problems) problems.push(p);
    // Suppression comments are rare: the lexer pass runs only when the directive is in the text.
    this.mayHoldSuppressions = mayHoldDirectives && mayHoldDirective(text);
    const suppressions = this.mayHoldSuppressions ? findLineSuppressions(text, lines) : new Map();
    return { file: this.file, text, lines, objects, problems, suppressions };
  }
}

/**
 * Texts loadFile reads as templates (Go `{{ }}`, Terraform `%{ }` / `${ }`, see repo/go-template.ts and
 * repo/terraform-template.ts): always loaded whole, as loadFile decides from the whole text.
 */
function isTemplateLike(text: string): boolean {
  return text.includes('{{') || text.includes('%{') || text.includes('${');
}

function hasDirectives(doc: Document.Parsed): boolean {
  const d = doc.directives as unknown as { yaml?: { explicit?: boolean }; tags?: Record<string, string> } | undefined;
  // An unknown directive (`%FOO`) is only a warning of `yaml`'s; loadFile reports every directive.
  return (!!d && (d.yaml?.explicit === true || Object.keys(d.tags ?? {}).length > 1)) || doc.warnings.some((w) => w.code === 'BAD_DIRECTIVE');
}

/**
 * True when `changed` can describe the move from `old` to `text`: the lengths agree, the unchanged ends do not
 * overlap, and the code units next to the changed range are equal in both (a cheap check, not a proof).
 */
function fitsTexts(changed: ChangedRange, old: string, text: string): boolean {
  const { prefix, suffix, previousLength } = changed;
  if (previousLength !== old.length || prefix < 0 || suffix < 0 || prefix + suffix > Math.min(old.length, text.length)) return false;
  if (prefix > 0 && old.charCodeAt(prefix - 1) !== text.charCodeAt(prefix - 1)) return false;
  return suffix === 0 || old.charCodeAt(old.length - suffix) === text.charCodeAt(text.length - suffix);
}

/** Index of the chunk holding `offset` (binary search; chunks tile the text). */
function chunkAt(chunks: readonly Chunk[], offset: number): number {
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (chunks[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Length of the common prefix, by binary search over slice comparisons (native memcmp, no per-char loop). */
function commonPrefix(a: string, b: string): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The index of the first entry of the ascending `values` above `limit` (`values.length` when none is). */
function firstAbove(values: ArrayLike<number>, limit: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Length of the common suffix, at most `max` (so it never overlaps the common prefix). */
function commonSuffix(a: string, b: string, max: number): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
