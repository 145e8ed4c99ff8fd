import * as crypto from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import * as zlib from 'node:zlib';
import type { LoadedFile } from '../core/load/load-file';
import { withLazyText } from './compact-text';
import { deserializeLoadedFile, type SerializedLoadedFile } from './serialized-file';
import { tableSpans } from './span-table';
import { StringPool } from '../core/source/string-pool';

/**
 * Bumped whenever what the loader produces changes shape or content for the same text (a new field of
 * the typed objects, a fixed span), or the form of a cache entry changes: old caches are then ignored, never misread.
 */
export const LOADER_FORMAT = 28;

/** The cache file name inside a cache folder (`--cache-location DIR/`, the editor's storage folder). */
export const CACHE_FILE_NAME = '.kube-netlintcache';

/**
 * The name of the entry that holds a whole run's findings ({@link ParseCache.remember}): a NUL is in no file name,
 * so no file's entry can take it.
 */
const FINDINGS_ENTRY = '\u0000findings';

/** First bytes of a cache file (a file without them is not one: an empty cache). */
const MAGIC = Buffer.from('kube-netlint cache\n', 'latin1');
/** The header's length in bytes, after {@link MAGIC}: a 32-bit little-endian unsigned integer. */
const LENGTH_BYTES = 4;

/**
 * One cached file: the content hash it was loaded from, the load options, the loaded form (v8-serialized, without
 * its text) and the {@link checksum} of those bytes as written (undefined: made in this process, not yet written).
 */
interface Entry {
  readonly hash: string;
  readonly namespace: string;
  readonly data: Uint8Array;
  readonly checksum?: string;
}

/**
 * The JSON header of a cache file: which kube-netlint made it and how its entries are checked ({@link CHECKSUM}),
 * then per entry `[file, hash, namespace, byte length, checksum]`; the entries' bytes follow the header back to
 * back, in that order.
 */
interface Header {
  readonly format: number;
  readonly version: string;
  readonly checksum: string;
  readonly entries: readonly (readonly [string, string, string, number, string])[];
}

// zlib.crc32 is in Node 20.15+ and 22.2+ (https://nodejs.org/api/zlib.html#zlibcrc32data-value); before, sha1.
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
/** How entries are checked: a cache file written with another algorithm is an empty cache. */
const CHECKSUM = crc32 ? 'crc32' : 'sha1';

/**
 * The checksum of an entry's bytes, stored beside it and compared before the entry is read: a cache file damaged
 * on disk (a flipped bit, a torn write) would otherwise deserialize into a loaded file with another port or span,
 * and move a finding. CRC-32 finds every error burst of up to 32 bits; it is not a defence against a hostile
 * writer (the cache lives in the user's own folders, as the files it stands for).
 */
function checksum(data: Uint8Array): string {
  return crc32 ? crc32(data).toString(36) : contentHash(data);
}

// One call for the whole digest where Node has it (20.12+): no Hash object per file.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'base64') => string }).hash;

/**
 * sha1 of a file's text, as its UTF-8 bytes (content key; not a security boundary: the cache lives in the user's
 * own folders). Given the file's bytes instead of its decoded text, the same digest when the bytes are the text's
 * UTF-8 (no byte order mark), without encoding the text again.
 */
export function contentHash(content: string | Uint8Array): string {
  return oneShot ? oneShot('sha1', content, 'base64') : crypto.createHash('sha1').update(content).digest('base64');
}

/**
 * The parse cache: each file's {@link LoadedFile} (objects, problems, spans, line starts) keyed by the
 * file's name, the sha1 of its text, the default namespace it was loaded with, the kube-netlint version and
 * {@link LOADER_FORMAT}. A file whose text changed is loaded again; a cache of another version is ignored.
 * Safe to delete at any time, and never changes a finding: a hit returns what loading the same text gives.
 * Reading or writing it never throws (a missing, corrupt or unwritable cache is an empty cache).
 *
 * Stored as one file: a JSON header naming each entry with its checksum, then the entries' v8-serialized bytes,
 * which stay views into the one buffer read (no copy per entry) and are checked and deserialized only when that
 * file is asked for. Written atomically (temp file + rename), only when something changed.
 */
export class ParseCache {
  private changed = false;
  /** How many {@link get} calls were answered from the cache. */
  hits = 0;
  private readonly entries: Map<string, Entry>;

  private constructor(readonly path: string, readonly version: string, entries: Map<string, Entry>) {
    this.entries = entries;
  }

  /** Opens the cache file at `path` (missing, unreadable, corrupt or of another version: empty). */
  static open(path: string, version: string): ParseCache {
    try {
      const entries = readEntries(readFileSync(path), version);
      if (entries) return new ParseCache(path, version, entries);
    } catch {
      // no cache yet, or not one we can read: start empty
    }
    return new ParseCache(path, version, new Map());
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached load of `file` when it was loaded from exactly `text` with `namespace` and its entry's bytes are
   * intact; else undefined (a damaged entry is dropped, and the file loaded again). `text` and `pool` as for
   * {@link cacheEntryToFile}.
   */
  get(file: string, text: string | (() => string), namespace: string, hash = contentHash(typeof text === 'string' ? text : text()), pool?: StringPool | null): LoadedFile | undefined {
    const entry = this.entries.get(file);
    if (!entry || entry.hash !== hash || entry.namespace !== namespace) return undefined;
    try {
      // An entry read from disk is trusted only when its bytes are the ones written (else it is loaded again).
      if (entry.checksum !== undefined && checksum(entry.data) !== entry.checksum) throw new Error('damaged cache entry');
      const loaded = cacheEntryToFile(entry.data, text, pool);
      this.hits++;
      return loaded;
    } catch {
      this.entries.delete(file);
      this.changed = true;
      return undefined;
    }
  }

  /**
   * Records `file`'s load from `text`. `data` is the v8 serialization of its {@link SerializedLoadedFile}
   * without `text` (see {@link serializeForCache}); the parallel loader's workers produce it.
   */
  set(file: string, text: string, namespace: string, data: Uint8Array, hash = contentHash(text)): void {
    this.entries.set(file, { hash, namespace, data });
    this.changed = true;
  }

  /**
   * The bytes {@link remember} stored under `key` (one of its keys), when they are intact; else undefined. One
   * result is kept: the last one remembered.
   */
  recall(key: string): Uint8Array | undefined {
    const entry = this.entries.get(FINDINGS_ENTRY);
    if (!entry || !entry.hash.split(' ').includes(key)) return undefined;
    if (entry.checksum !== undefined && checksum(entry.data) !== entry.checksum) return undefined;
    return entry.data;
  }

  /**
   * Keeps `data` (a whole run's result, see node/remembered-findings.ts) under each of `keys` (strings without a
   * space: they are stored joined by spaces in the entry's hash), in place of the last one.
   */
  remember(keys: readonly string[], data: Uint8Array): void {
    this.entries.set(FINDINGS_ENTRY, { hash: keys.join(' '), namespace: '', data });
    this.changed = true;
  }

  /** Drops the entries of files `keep` says no (e.g. files deleted since they were cached). */
  prune(keep: (file: string) => boolean): void {
    for (const file of this.entries.keys()) {
      if (file !== FINDINGS_ENTRY && !keep(file)) {
        this.entries.delete(file);
        this.changed = true;
      }
    }
  }

  /**
   * Writes the cache when it changed. Returns an error message instead of throwing (the run's result does
   * not depend on the cache; the caller may warn).
   */
  save(): string | undefined {
    if (!this.changed) return undefined;
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      writeFileSync(temp, cacheFileBytes(this.version, this.entries));
      renameSync(temp, this.path);
      this.changed = false;
      return undefined;
    } catch (err) {
      rmSync(temp, { force: true });
      return `cannot write the cache ${this.path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
  }
}

/** The bytes of a cache file holding `entries` (see {@link Header}). */
function cacheFileBytes(version: string, entries: ReadonlyMap<string, Entry>): Buffer {
  const list: [string, string, string, number, string][] = [];
  const parts: Uint8Array[] = [];
  for (const [file, entry] of entries) {
    list.push([file, entry.hash, entry.namespace, entry.data.byteLength, entry.checksum ?? checksum(entry.data)]);
    parts.push(entry.data);
  }
  const header: Header = { format: LOADER_FORMAT, version, checksum: CHECKSUM, entries: list };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32LE(json.length);
  return Buffer.concat([MAGIC, length, json, ...parts]);
}

/** The entries of a cache file's bytes, or undefined when they are not a whole cache file of this format and `version`. */
function readEntries(bytes: Buffer, version: string): Map<string, Entry> | undefined {
  const start = MAGIC.length + LENGTH_BYTES;
  if (bytes.length < start || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const headerEnd = start + bytes.readUInt32LE(MAGIC.length);
  if (headerEnd > bytes.length) return undefined;
  const header = JSON.parse(bytes.toString('utf8', start, headerEnd)) as Partial<Header>;
  if (header?.format !== LOADER_FORMAT || header.version !== version || header.checksum !== CHECKSUM || !Array.isArray(header.entries)) return undefined;
  const entries = new Map<string, Entry>();
  let at = headerEnd;
  for (const item of header.entries) {
    const [file, hash, namespace, length, sum] = Array.isArray(item) ? item : [];
    if (typeof file !== 'string' || typeof hash !== 'string' || typeof namespace !== 'string' || !Number.isInteger(length) || length < 0 || typeof sum !== 'string') return undefined;
    if (at + length > bytes.length) return undefined;
    entries.set(file, { hash, namespace, data: bytes.subarray(at, at + length), checksum: sum });
    at += length;
  }
  return at === bytes.length ? entries : undefined;
}

/**
 * The loaded file of a cache entry's bytes and the text it was loaded from (its strings `pool`'s, see
 * deserializeLoadedFile; default: a pool for this file; null: strings left as they are read, and the values not
 * walked beyond the span table, which names every span). `text` may be a function giving it: the file's `text`
 * is then read from it when first asked for (most files of a run never are: their findings, suppressions and
 * line starts are in the entry), with the length the entry records.
 * @throws Error when the bytes are not an entry (the caller loads the file again)
 */
export function cacheEntryToFile(data: Uint8Array, text: string | (() => string), pool?: StringPool | null): LoadedFile {
  const stored = deserialize(data) as Omit<SerializedLoadedFile, 'text'> & { readonly textLength?: unknown };
  if (!stored || typeof stored !== 'object' || !Array.isArray(stored.objects)) throw new Error('not a cache entry');
  if (!stored.spanTable && pool === null) throw new Error('not a cache entry');
  const { textLength, ...entry } = stored;
  const pooled = pool === undefined ? new StringPool() : pool;
  if (typeof text === 'string' || typeof textLength !== 'number') {
    return deserializeLoadedFile({ ...entry, text: typeof text === 'string' ? text : text() }, pooled, pool === null);
  }
  const { text: _none, ...loaded } = deserializeLoadedFile({ ...entry, text: '', textLength }, pooled, pool === null);
  return withLazyText(loaded, text);
}

/**
 * The bytes a {@link ParseCache} stores for a serialized loaded file: its v8 serialization without the text (the
 * file on disk has it), the spans in a {@link SpanTable}. `file` is left as it was.
 */
export function serializeForCache(file: SerializedLoadedFile): Uint8Array {
  return cacheEntryBytes(file, file.file);
}

/**
 * {@link serializeForCache} for a file whose spans are named `spanName`: `''` for a load worker's (see
 * `dropSpanNames`), which it hands over and drops.
 */
export function cacheEntryBytes(file: SerializedLoadedFile, spanName = ''): Uint8Array {
  const { text: _text, ...rest } = file;
  const { table, restore } = tableSpans([rest.objects, rest.problems], spanName);
  try {
    // The text's length, for a file whose text is read only when asked for (see cacheEntryToFile).
    return serialize({ ...rest, textLength: file.text.length, spanTable: table });
  } finally {
    restore();
  }
}
