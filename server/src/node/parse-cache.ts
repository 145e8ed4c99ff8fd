import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { LoadedFile } from '../core/load/load-file';
import { deserializeLoadedFile, type SerializedLoadedFile, withNamesDropped } from './serialized-file';

/**
 * Bumped whenever what the loader produces changes shape or content for the same text (a new field of
 * the typed objects, a fixed span): old caches are then ignored, never misread.
 */
export const LOADER_FORMAT = 4;

/** The cache file name inside a cache folder (`--cache-location DIR/`, the editor's storage folder). */
export const CACHE_FILE_NAME = '.kube-netlintcache';

/** One cached file: the content hash it was loaded from, the load options, and the loaded form (v8-serialized, without its text). */
interface Entry {
  readonly hash: string;
  readonly namespace: string;
  readonly data: Uint8Array;
}

interface CacheFile {
  readonly format: number;
  readonly version: string;
  readonly entries: Map<string, Entry>;
}

/** sha1 of a file's text (content key; not a security boundary: the cache lives in the user's own folders). */
export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/**
 * The parse cache: each file's {@link LoadedFile} (objects, problems, spans, line starts) keyed by the
 * file's name, the sha1 of its text, the default namespace it was loaded with, the kube-netlint version and
 * {@link LOADER_FORMAT}. A file whose text changed is loaded again; a cache of another version is ignored.
 * Safe to delete at any time, and never changes a finding: a hit returns what loading the same text gives.
 * Reading or writing it never throws (a missing, corrupt or unwritable cache is an empty cache).
 *
 * Stored as one file (v8 serialization; each entry's bytes are deserialized only when that file is asked
 * for), written atomically (temp file + rename), only when something changed.
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
      const file = deserialize(readFileSync(path)) as CacheFile;
      if (file?.format === LOADER_FORMAT && file.version === version && file.entries instanceof Map) return new ParseCache(path, version, file.entries);
    } catch {
      // no cache yet, or not one we can read: start empty
    }
    return new ParseCache(path, version, new Map());
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached load of `file` when it was loaded from exactly `text` with `namespace`; else undefined. */
  get(file: string, text: string, namespace: string, hash = contentHash(text)): LoadedFile | undefined {
    const entry = this.entries.get(file);
    if (!entry || entry.hash !== hash || entry.namespace !== namespace) return undefined;
    try {
      const data = deserialize(entry.data) as Omit<SerializedLoadedFile, 'text'>;
      this.hits++;
      return deserializeLoadedFile({ ...data, text });
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

  /** Drops the entries of files `keep` says no (e.g. files deleted since they were cached). */
  prune(keep: (file: string) => boolean): void {
    for (const file of this.entries.keys()) {
      if (!keep(file)) {
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
      const file: CacheFile = { format: LOADER_FORMAT, version: this.version, entries: this.entries };
      writeFileSync(temp, serialize(file));
      renameSync(temp, this.path);
      this.changed = false;
      return undefined;
    } catch (err) {
      rmSync(temp, { force: true });
      return `cannot write the cache ${this.path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
  }
}

/** The bytes a {@link ParseCache} stores for a serialized loaded file (its text is not stored: the file has it). */
export function serializeForCache(file: SerializedLoadedFile): Uint8Array {
  return withNamesDropped(file, cacheEntryBytes);
}

/** {@link serializeForCache} for a file whose span names are already dropped (a load worker's, see `dropSpanNames`). */
export function cacheEntryBytes(file: SerializedLoadedFile): Uint8Array {
  const { text: _text, ...rest } = file;
  return serialize(rest);
}
