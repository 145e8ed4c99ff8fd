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
      const worker = new Worker(join(__dirname, 'load-worker.js'), { resourceLimits: { maxYoungGenerationSizeMb: 64 } });
      let inFlight = 0;
      const send = (): void => {
        // Two batches in flight per worker, so a worker never waits for the next one.
        while (inFlight < 2 && next < batches.length) {
          const request: LoadRequest = { batch: next, files: batches[next++], options: loadOptions };
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
        results[response.batch] = response.files.map(deserializeLoadedFile);
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
  return results.flat();
}
