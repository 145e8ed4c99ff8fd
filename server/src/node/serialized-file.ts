import type { LoadedFile } from '../core/load/load-file';
import { isSpan, PLAIN_KEYS, walkSpans } from '../core/load/shift-spans';
import type { K8sObject } from '../core/model/objects';
import { packedPathsOfFile, packPaths, type PathRange, type PathTable } from '../core/source/packed-paths';
import { LineIndex } from '../core/source/line-index';
import { StringPool } from '../core/source/string-pool';
import { deflateLineStarts, deflateText, inflateLineStarts, withDeflatedText } from './compact-text';
import { type RawJson, rawFromJson, rawToJson } from './raw-json';
import { type SpanTable, untableSpans } from './span-table';

/** An object as it crosses a thread boundary: its `paths` are entries of the file's {@link PathTable}. */
export type SerializedObject = Omit<K8sObject, 'paths'> & { readonly paths?: PathRange };

/**
 * A {@link LoadedFile} as it crosses a thread boundary (structured clone) or is stored in the parse cache:
 * plain data, with the {@link LineIndex} as its line-start offsets and every object's `paths` packed into one
 * {@link PathTable} for the file (a `paths` map is most of a loaded file's spans: sent as objects, each
 * span and each copy of its file name is cloned one by one), rebuilt on arrival.
 */
export interface SerializedLoadedFile extends Omit<LoadedFile, 'lines' | 'objects'> {
  readonly objects: readonly SerializedObject[];
  readonly pathTable: PathTable;
  /** UTF-16 offsets where lines start (first is 0). */
  readonly lineStarts: Int32Array;
  /** Set in a parse-cache entry: the spans of `objects` and `problems` are in this table (see node/span-table.ts). */
  readonly spanTable?: SpanTable;
  /** The `raw` of the objects as JSON (see node/raw-json.ts), parsed when first read; absent when every `raw` is in its object. */
  readonly rawJson?: RawJson;
}

/**
 * A batch of files for a load worker: `[path on disk, name shown in findings]`, or with a third element,
 * the file's text already read by the main thread (parse-cache misses): the worker loads that text and
 * answers with the v8 serialization of the loaded file without its text (the cache entry).
 */
export interface LoadRequest {
  readonly batch: number;
  readonly files: readonly (readonly [string, string] | readonly [string, string, string])[];
  readonly options: LoadOptionsForWorker;
  /** Post the files read from disk with their spans' file names dropped ({@link dropSpanNames}), for a receiver that walks them anyway (to pool their strings). */
  readonly dropSpanNames?: boolean;
  /** Post the texts of the files read from disk deflated ({@link PostedLoadedFile}), for a receiver that keeps them compact. */
  readonly deflateTexts?: boolean;
}

/**
 * A file a load worker read from disk, as posted: a {@link SerializedLoadedFile}, or one whose text the worker
 * deflated (`text` is `''`, `deflatedText` is the compact form of compact-text.ts, transferred, and `textLength`
 * the text's length in UTF-16 units; its line starts likewise), so the receiving thread neither receives nor
 * compresses the text itself, and holds the line starts of a file only once asked for them.
 */
export type PostedLoadedFile = SerializedLoadedFile & {
  readonly deflatedText?: Uint8Array;
  readonly textLength?: number;
  /** With `deflatedText`: the line starts in the compact form of compact-text.ts (`lineStarts` is then empty). */
  readonly deflatedLineStarts?: Uint8Array;
};

type LoadOptionsForWorker = import('../core/load/load-file').LoadOptions & { readonly maxBytes?: number };

export interface LoadResponse {
  readonly batch: number;
  readonly files: readonly (PostedLoadedFile | Uint8Array)[];
}

/**
 * `file` as plain data to post or store ({@link SerializedLoadedFile}); with `rawAsJson` (default), the objects'
 * `raw` as JSON where it gives it back exactly (see node/raw-json.ts). A receiver that walks every value on arrival
 * to pool its strings (a large workspace) gets `raw` as objects instead: parsing it there costs the receiving thread
 * more than cloning it does.
 */
export function serializeLoadedFile(file: LoadedFile, rawAsJson = true): SerializedLoadedFile {
  const { lines, objects, ...rest } = file;
  const lineStarts = new Int32Array(lines.lineCount);
  for (let line = 1; line <= lines.lineCount; line++) lineStarts[line - 1] = lines.lineStart(line);
  const { table, ranges } = packPaths(objects.map((o) => o.paths));
  // One copy per object (not a rest copy and a spread), with its path range in place of its paths (the loader
  // adds `paths` last, so it keeps its place). A copy even without paths: `raw` is moved out of it below.
  const packed = objects.map((o, i): SerializedObject => {
    const range = ranges[i];
    return (range ? { ...o, paths: range } : { ...o }) as SerializedObject;
  });
  // The objects are this function's copies: their `raw` moves into the JSON without touching the loaded file.
  const rawJson = rawAsJson ? rawToJson(packed as { raw?: unknown }[]) : undefined;
  return { ...rest, objects: packed, pathTable: table, lineStarts, ...(rawJson ? { rawJson } : {}) };
}

/** The buffers of a serialized file that can be transferred to another thread instead of copied. */
export function transferables(file: PostedLoadedFile): ArrayBuffer[] {
  const buffers = [file.pathTable.ints.buffer as ArrayBuffer, file.lineStarts.buffer as ArrayBuffer];
  if (file.deflatedText) buffers.push(file.deflatedText.buffer as ArrayBuffer);
  if (file.deflatedLineStarts) buffers.push(file.deflatedLineStarts.buffer as ArrayBuffer);
  if (file.rawJson) buffers.push(file.rawJson.ends.buffer as ArrayBuffer);
  return buffers;
}

/** `file` as posted with its text deflated ({@link deflateText}), or as it is when its text stays a string. */
export function withTextDeflated(file: SerializedLoadedFile): PostedLoadedFile {
  const deflatedText = deflateText(file.text);
  if (!deflatedText) return file;
  return { ...file, text: '', deflatedText, textLength: file.text.length, lineStarts: new Int32Array(0), deflatedLineStarts: deflateLineStarts(file.lineStarts) };
}

/**
 * Makes `file` cheap to clone or v8-serialize, IN PLACE (the loaded file it came from shares its spans: use it
 * on a file that is handed over and dropped, as the load workers do): every
 * span of the file's own objects and problems gets `''` for its file name, which the receiver sets back to one
 * shared string ({@link deserializeLoadedFile}). A clone or serialization writes and allocates every string
 * again per occurrence, so the name would otherwise be copied once per span.
 */
export function dropSpanNames(file: SerializedLoadedFile): SerializedLoadedFile {
  walkSpans([file.objects, file.problems], file.file, (span) => {
    span.file = '';
  });
  return file;
}

/**
 * Rebuilds a {@link LoadedFile} received from a worker (made by {@link dropSpanNames}) or read from the cache
 * (with a {@link SpanTable}): every span of the file's own gets the file's name back (one string for them all),
 * every string of its objects and problems (typed fields, `raw`, labels) becomes `pool`'s copy (see
 * {@link StringPool}: a copy per occurrence arrives), and `paths` become `PackedPaths` over the file's table
 * (keys decoded when first asked for).
 * A file posted with its text deflated ({@link PostedLoadedFile}) keeps it so ({@link withDeflatedText}).
 * The objects' `raw` held as JSON ({@link RawJson}) is parsed when first read, or now with a pool (to pool its strings).
 * @param pool shared by the files of one load so equal strings of different files are one string (default: one
 *   pool for this file); null: strings are left as they arrived (a small workspace, where the copies cost little)
 * @param namedSpans the spans still carry their file name (the sender did not {@link dropSpanNames}): with no
 *   pool, the file's values are then not walked at all
 * @throws Error for a span table that does not fit the values (a damaged cache entry)
 */
export function deserializeLoadedFile(file: PostedLoadedFile, pool: StringPool | null = new StringPool(), namedSpans = false): LoadedFile {
  const { lineStarts, pathTable, objects: serialized, spanTable, rawJson, deflatedText, textLength, deflatedLineStarts, ...rest } = file;
  const name = file.file;
  if (rawJson && pool) rawFromJson(serialized as SerializedObject[], rawJson, true);
  if (spanTable) untableSpans([serialized, rest.problems], spanTable, name);
  if (pool || !namedSpans) restoreStrings([serialized, rest.problems], name, pool);
  const paths = packedPathsOfFile(name, pathTable, serialized.map((o) => o.paths));
  const withPaths = serialized.map((o, i): K8sObject => {
    const own = paths[i];
    if (!own) return o as K8sObject;
    (o as { paths?: unknown }).paths = own;
    return o as unknown as K8sObject;
  });
  const objects = rawJson && !pool ? rawFromJson(withPaths, rawJson, false) : withPaths;
  if (deflatedText) {
    const { text: _text, ...others } = rest;
    const length = textLength ?? 0;
    if (!deflatedLineStarts) return withDeflatedText({ ...others, objects, lines: LineIndex.fromLineStarts(lineStarts, length) }, deflatedText);
    return withDeflatedText({ ...others, objects }, deflatedText, () => LineIndex.fromLineStarts(inflateLineStarts(deflatedLineStarts), length));
  }
  return { ...rest, objects, lines: LineIndex.fromLineStarts(lineStarts, textLength ?? file.text.length) };
}

/**
 * The arrival walk of {@link deserializeLoadedFile}, one pass over the file's objects and problems: each span of
 * the file (file name `''`, as {@link walkSpans} finds them) gets `name`, and each string value becomes `pool`'s
 * copy (with a pool). Under the keys that hold plain manifest data ({@link PLAIN_KEYS}: `raw`, labels, …) nothing is taken for a
 * span (a user's `{file: '', start: 1, end: 2}` stays as written); their strings are pooled too. Map keys are
 * left as they are (the only maps are a Service's `fieldSpans`).
 */
function restoreStrings(value: unknown, name: string, pool: StringPool | null): void {
  const walk = (v: object, plain: boolean): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') {
          if (pool) v[i] = pool.intern(item);
        } else if (item !== null && typeof item === 'object') walk(item, plain);
      }
      return;
    }
    if (v instanceof Map) {
      for (const item of v.values()) if (item !== null && typeof item === 'object') walk(item as object, plain);
      return;
    }
    if (ArrayBuffer.isView(v) || v instanceof Set) return;
    if (!plain && isSpan(v, '')) {
      (v as { file: string }).file = name;
      return;
    }
    const record = v as Record<string, unknown>;
    for (const key in record) {
      const item = record[key];
      if (typeof item === 'string') {
        if (pool) record[key] = pool.intern(item);
      } else if (item !== null && typeof item === 'object') walk(item, plain || PLAIN_KEYS.has(key));
    }
  };
  walk(value as object, false);
}
