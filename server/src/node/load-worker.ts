/**
 * Worker-thread entry of the parallel loader ({@link ./parallel-load}): reads and parses the files it is
 * sent and posts back their {@link PostedLoadedFile}s (their typed arrays transferred, not copied; their texts deflated
 * and their spans' file names dropped when the request asks; or, for files sent with their text, the cache
 * bytes, transferred without a copy). Runs the same `readManifestFile` / `loadFile` as the single-threaded
 * path, so results are identical.
 */
import { parentPort } from 'node:worker_threads';
import { loadFile } from '../core/load/load-file';
import { cacheEntryBytes } from './parse-cache';
import { readManifestFile } from './read-file';
import { dropSpanNames, serializeLoadedFile, transferables, withTextDeflated, type LoadRequest, type LoadResponse } from './serialized-file';

parentPort?.on('message', (request: LoadRequest) => {
  const transfer: ArrayBuffer[] = [];
  // The objects' paths are written packed, as they are posted (see LoadOptions.packedPaths).
  const options = { ...request.options, packedPaths: true };
  const files = request.files.map(([path, display, text]) => {
    if (text === undefined) {
      // A receiver that pools strings walks every value anyway: it gets `raw` as objects (see serializeLoadedFile).
      let serialized = serializeLoadedFile(readManifestFile(path, display, options), !request.dropSpanNames);
      if (request.dropSpanNames) serialized = dropSpanNames(serialized);
      const posted = request.deflateTexts ? withTextDeflated(serialized) : serialized;
      transfer.push(...transferables(posted));
      return posted;
    }
    const bytes = cacheEntryBytes(dropSpanNames(serializeLoadedFile(loadFile(display, text, options))));
    // Transferred (no copy) when the bytes own their buffer; a view into a shared pool is copied instead.
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) transfer.push(bytes.buffer as ArrayBuffer);
    return bytes;
  });
  const response: LoadResponse = { batch: request.batch, files };
  parentPort?.postMessage(response, transfer);
});
