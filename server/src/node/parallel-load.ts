import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LoadedFile, LoadOptions } from '../core/load/load-file';
import { readManifestFile } from './read-file';
import { deserializeLoadedFile, type LoadRequest, type LoadResponse } from './serialized-file';

/** A file to load: its path on disk and the name findings show for it. */
export type FileToLoad = readonly [path: string, displayName: string];

export interface ParallelLoadOptions extends LoadOptions {
  /** Size limit in bytes, as for {@link readManifestFile}. */
  readonly maxBytes?: number;
  /** Worker threads to use (default: available cores, at most 4). 0 = load on this thread. */
  readonly workers?: number;
}

/** Below this many files, starting workers (~30 ms each) costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 24;
/** Files per message: small enough to balance uneven files, large enough to amortise messaging. */
const BATCH_SIZE = 8;

/**
 * Reads and parses files on worker threads (YAML parsing is CPU-bound, one file never depends on
 * another), returning {@link LoadedFile}s in input order, identical to `readManifestFile` on each.
 * Falls back to this thread for small inputs or when a worker cannot start.
 * Never rejects for bad files (they become `file-skipped` problems); rejects only if a worker crashes.
 */
export async function loadFiles(files: readonly FileToLoad[], options: ParallelLoadOptions = {}): Promise<LoadedFile[]> {
  const { workers: requested, ...loadOptions } = options;
  const count = Math.min(requested ?? Math.min(availableParallelism(), 4), Math.ceil(files.length / BATCH_SIZE));
  if (count < 1 || files.length < MIN_FILES_FOR_WORKERS) return files.map(([path, display]) => readManifestFile(path, display, loadOptions));
  const batches: FileToLoad[][] = [];
  for (let i = 0; i < files.length; i += BATCH_SIZE) batches.push(files.slice(i, i + BATCH_SIZE));
  const results: LoadedFile[][] = new Array(batches.length);
  let next = 0;
  const runWorker = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // A bigger young generation means fewer scavenges: parsing allocates many short-lived CST tokens.
      const worker = new Worker(join(__dirname, 'load-worker.js'), { resourceLimits: { maxYoungGenerationSizeMb: 48 } });
      let busy = false;
      const send = (): void => {
        busy = next < batches.length;
        if (!busy) {
          void worker.terminate();
          resolve();
          return;
        }
        const request: LoadRequest = { batch: next, files: batches[next++], options: loadOptions };
        worker.postMessage(request);
      };
      worker.on('message', (response: LoadResponse) => {
        results[response.batch] = response.files.map(deserializeLoadedFile);
        send();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (busy) reject(new Error(`load worker stopped (exit code ${code}) before finishing`));
      });
      send();
    });
  await Promise.all(Array.from({ length: count }, runWorker));
  return results.flat();
}
