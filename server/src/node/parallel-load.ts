import { isUtf8 } from 'node:buffer';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadFile, type LoadedFile, type LoadOptions } from '../core/load/load-file';
import { cacheEntryToFile, contentHash, type ParseCache, serializeForCache } from './parse-cache';
import { readManifestFile, readRegularFile } from './read-file';
import { byteOrderMark, decodeManifestBytes } from '../core/load/manifest-bytes';
import { StringPool } from '../core/source/string-pool';
import { withCompactText } from './compact-text';
import { deserializeLoadedFile, serializeLoadedFile, type LoadRequest, type LoadResponse, type SerializedLoadedFile } from './serialized-file';

/**
 * A file read for a parse-cache lookup: its text (or a function decoding it, see {@link fileDigest}), the
 * {@link contentHash} of its text and its size in bytes.
 */
export interface FileDigest {
  readonly text: string | (() => string);
  readonly hash: string;
  readonly length: number;
}

/** A file to load: its path on disk and the name findings show for it. */
export type FileToLoad = readonly [path: string, displayName: string];

export interface ParallelLoadOptions extends LoadOptions {
  /** Size limit in bytes, as for {@link readManifestFile}. */
  readonly maxBytes?: number;
  /** Worker threads to use (default: available cores, at most 4). 0 = load on this thread. */
  readonly workers?: number;
  /**
   * The parse cache: files whose text is unchanged are taken from it, the others are loaded and stored
   * in it (the caller saves it). Results are the same with or without it.
   */
  readonly cache?: ParseCache;
  /**
   * Keep the texts of the files the workers load deflated, read back when asked for ({@link withCompactText}):
   * for a command-line run, where few readers need a text; a language server reads them on every edit.
   */
  readonly compactTexts?: boolean;
  /**
   * Give every equal string of the files the workers load one shared copy ({@link StringPool}; default true): the
   * strings that cross from a worker are a copy per occurrence.
   */
  readonly poolStrings?: boolean;
  /**
   * With `compactTexts` or `poolStrings`: do either only when the files to load total at least this many bytes on
   * disk (the memory they save matters for large workspaces; a smaller one loads faster without). Default 0.
   */
  readonly leanFromBytes?: number;
  /**
   * With `cache`: the files already read for a lookup ({@link fileDigest} of each path; a path mapped to undefined
   * is one the cache does not keep): they are not read again. Paths not in the map are read as usual.
   */
  readonly digests?: ReadonlyMap<string, FileDigest | undefined>;
  /** Called as files finish loading (cached files count at once), with how many of `files` are done. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * From this many bytes of files to load, a command-line run keeps their texts deflated and their strings pooled, and
 * the language server pools their strings (peak memory of a 10,000-file workspace); below it, the main thread
 * skips that work (see docs/performance.md). For {@link ParallelLoadOptions.leanFromBytes}.
 */
export const LEAN_WORKSPACE_BYTES = 32 * 1024 * 1024;

/** Below this many files, starting workers (~30 ms each) costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 24;
/** Files per message: small enough to balance uneven files, large enough to amortise messaging. */
const BATCH_SIZE = 8;
/** Cache lookups (read, hash, deserialize) between two turns of the event loop. */
const LOOKUPS_PER_TURN = 64;

/** A file still to be loaded: its index in the input, and its text when it was already read (for the cache). */
interface Miss {
  readonly index: number;
  readonly file: FileToLoad;
  readonly text?: string;
  readonly hash?: string;
}

/**
 * Reads and parses files on worker threads (YAML parsing is CPU-bound, one file never depends on
 * another), returning {@link LoadedFile}s in input order, identical to `readManifestFile` on each.
 * Falls back to this thread for small inputs or when a worker cannot start.
 * With a cache, every file is read (and hashed) here first; only files the cache does not hold go to
 * the workers, with their text, so what is stored is keyed by exactly the text that was parsed.
 * Never rejects for bad files (they become `file-skipped` problems); rejects only if a worker crashes.
 */
export async function loadFiles(files: readonly FileToLoad[], options: ParallelLoadOptions = {}): Promise<LoadedFile[]> {
  const { workers: requested, cache, digests, onProgress, compactTexts: compactAsked, poolStrings: poolAsked = true, leanFromBytes = 0, ...loadOptions } = options;
  const namespace = loadOptions.defaultNamespace ?? '';
  const results: LoadedFile[] = new Array(files.length);
  let done = 0;
  const progress = (n: number): void => {
    done += n;
    onProgress?.(done, files.length);
  };
  const misses: Miss[] = [];
  // Cache hits are pooled as the workers' files are (one pool for them all), once the texts read so far reach
  // `leanFromBytes`; below it, an entry is not walked beyond its span table (the warm start of a small workspace).
  let hitPool: StringPool | null = null;
  let bytesRead = 0;
  for (let index = 0; index < files.length; index++) {
    const file = files[index];
    const hit = cache && (digests?.has(file[0]) ? digests.get(file[0]) : fileDigest(file[0], loadOptions.maxBytes));
    if (!hit) {
      misses.push({ index, file });
      continue;
    }
    bytesRead += hit.length;
    if (!hitPool && poolAsked && bytesRead >= leanFromBytes) hitPool = new StringPool();
    const loaded = cache.get(file[1], hit.text, namespace, hit.hash, hitPool);
    if (loaded) results[index] = loaded;
    else misses.push({ index, file, text: typeof hit.text === 'string' ? hit.text : hit.text(), hash: hit.hash });
    // Reading and hashing thousands of files takes a while: let the event loop breathe (a language server
    // answers its editor meanwhile), and report the cached files as they come.
    if (index % LOOKUPS_PER_TURN === LOOKUPS_PER_TURN - 1) {
      progress(index + 1 - done - misses.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  progress(files.length - done - misses.length);
  const store = (miss: Miss, serialized: SerializedLoadedFile | Uint8Array): void => {
    if (cache && miss.text !== undefined) cache.set(miss.file[1], miss.text, namespace, serialized instanceof Uint8Array ? serialized : serializeForCache(serialized), miss.hash);
  };
  const count = Math.min(requested ?? Math.min(availableParallelism(), 4), Math.ceil(misses.length / BATCH_SIZE));
  if (count < 1 || misses.length < MIN_FILES_FOR_WORKERS) {
    for (const miss of misses) {
      const loaded = miss.text !== undefined ? loadFile(miss.file[1], miss.text, loadOptions) : readManifestFile(miss.file[0], miss.file[1], loadOptions);
      results[miss.index] = loaded;
      if (miss.text !== undefined) store(miss, serializeLoadedFile(loaded));
      progress(1);
    }
    return results;
  }
  const lean = (compactAsked || poolAsked) && (leanFromBytes <= 0 || bytesOf(misses, leanFromBytes) >= leanFromBytes);
  const compactTexts = lean && compactAsked === true;
  // One pool for the whole load: most repeated strings (`TCP`, label keys, env var names) repeat across files.
  const pool = lean && poolAsked ? new StringPool() : null;
  const batches: Miss[][] = [];
  for (let i = 0; i < misses.length; i += BATCH_SIZE) batches.push(misses.slice(i, i + BATCH_SIZE));
  let next = 0;
  const runWorker = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // The young generation is sized for peak memory: 16 MB per worker instead of 64 MB took ~95 MB off the peak RSS
      // of a 10,000-file workspace at no measurable CPU cost (the parse garbage of one file dies young either way).
      const worker = new Worker(join(__dirname, 'load-worker.js'), { resourceLimits: { maxYoungGenerationSizeMb: 16 } });
      let inFlight = 0;
      const send = (): void => {
        // Two batches in flight per worker, so a worker never waits for the next one.
        while (inFlight < 2 && next < batches.length) {
          const batch = next++;
          const files = batches[batch].map((m): LoadRequest['files'][number] => (m.text !== undefined ? [m.file[0], m.file[1], m.text] : m.file));
          // Without a pool the main thread does not walk a file's values, so its spans keep their file name.
          const request: LoadRequest = { batch, files, options: loadOptions, dropSpanNames: pool !== null, deflateTexts: compactTexts };
          worker.postMessage(request);
          inFlight++;
        }
        if (inFlight === 0) {
          void worker.terminate();
          resolve();
        }
      };
      worker.on('message', (response: LoadResponse) => {
        inFlight--;
        const batch = batches[response.batch];
        response.files.forEach((file, i) => {
          const miss = batch[i];
          if (file instanceof Uint8Array) {
            // Loaded from the text sent (cache misses): the bytes are both the answer and the cache entry.
            results[miss.index] = cacheEntryToFile(file, miss.text!, pool);
            store(miss, file);
            // The text was read here (to look the file up): compacted here.
            if (compactTexts) results[miss.index] = withCompactText(results[miss.index]);
          } else results[miss.index] = deserializeLoadedFile(file, pool, pool === null);
        });
        progress(batch.length);
        send();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (inFlight > 0) reject(new Error(`load worker stopped (exit code ${code}) before finishing`));
      });
      send();
    });
  // This thread does not parse too: measured on 2 vCPUs, a third parsing thread made runs slower (it delays
  // handing out batches and competes with the workers), see docs/performance.md.
  await Promise.all(Array.from({ length: count }, runWorker));
  return results;
}

/**
 * How many bytes `misses` hold (their texts' lengths, or their sizes on disk), counted up to `enough`: an
 * unreadable file counts 0 (loading it reports why).
 */
function bytesOf(misses: readonly Miss[], enough: number): number {
  let total = 0;
  for (const miss of misses) {
    if (total >= enough) break;
    if (miss.text !== undefined) total += miss.text.length;
    else {
      try {
        total += statSync(miss.file[0]).size;
      } catch {
        // counted by the load, which reports the file
      }
    }
  }
  return total;
}

/**
 * {@link fileDigest} of each path, by path, letting the event loop run between every {@link LOOKUPS_PER_TURN} files
 * (a language server answers its editor meanwhile: reading and hashing 10,000 files takes about a second).
 */
export async function digestFiles(paths: readonly string[], maxBytes = Infinity): Promise<Map<string, FileDigest | undefined>> {
  const digests = new Map<string, FileDigest | undefined>();
  for (let i = 0; i < paths.length; i++) {
    digests.set(paths[i], fileDigest(paths[i], maxBytes));
    if (i % LOOKUPS_PER_TURN === LOOKUPS_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return digests;
}

/**
 * The text of a file for a cache lookup, its {@link contentHash} and its size in bytes, or undefined when it is not
 * a regular file within the size limit, or has bytes that are not UTF-8 (those files are loaded as usual, which
 * reports why: the warning on bytes that are not UTF-8 is not part of what the cache keeps for a text). The text
 * of a UTF-8 file without a byte order mark (the usual file) is a function that decodes it when called: a cache
 * hit keeps only its bytes until its text is asked for (most never are), a miss decodes it at once.
 */
export function fileDigest(path: string, maxBytes = Infinity): FileDigest | undefined {
  try {
    const read = readRegularFile(path, maxBytes);
    if (!('bytes' in read)) return undefined;
    const { bytes } = read;
    if (!byteOrderMark(bytes) && isUtf8(bytes)) {
      // A copy of exactly its length: the bytes read can be a view into a larger chunk (64 KiB at least), and a
      // Buffer's `slice` is a view too.
      const own = new Uint8Array(bytes);
      return { text: () => decodeManifestBytes(own).text, hash: contentHash(own), length: own.length };
    }
    const decoded = decodeManifestBytes(bytes);
    if (decoded.notUtf8) return undefined;
    // The hash of the text's UTF-8 is the hash of the bytes read, unless they were UTF-16 or had a byte order mark.
    const asRead = decoded.encoding === 'utf-8' && !decoded.bom;
    return { text: decoded.text, hash: contentHash(asRead ? bytes : decoded.text), length: bytes.length };
  } catch {
    return undefined;
  }
}
