/**
 * Worker-thread entry of the parallel loader ({@link ./parallel-load}): reads and parses the files it is
 * sent and posts back their {@link SerializedLoadedFile}s. Runs the same `readManifestFile` as the
 * single-threaded path, so results are identical.
 */
import { parentPort } from 'node:worker_threads';
import { readManifestFile } from './read-file';
import { serializeLoadedFile, type LoadRequest, type LoadResponse } from './serialized-file';

parentPort?.on('message', (request: LoadRequest) => {
  const files = request.files.map(([path, display]) => serializeLoadedFile(readManifestFile(path, display, request.options)));
  const response: LoadResponse = { batch: request.batch, files };
  parentPort?.postMessage(response);
});
