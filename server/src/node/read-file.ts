import { readFileSync, statSync } from 'node:fs';
import { loadFile, LoadedFile, LoadOptions } from '../core/load/load-file';
import { skippedFile } from '../core/load/skipped-file';

/** Default size limit for one manifest file: 5 MiB (the largest real install manifest in our corpus, calico.yaml, is 0.7 MB). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes manifest bytes, or says why they are not manifest text. A UTF-8 BOM is dropped.
 * @returns the text, or `{skip}` with the reason
 */
export function decodeManifest(bytes: Uint8Array): { text: string } | { skip: 'binary' | 'not-utf8'; detail: string } {
  if (bytes.includes(0)) return { skip: 'binary', detail: 'not analysed: the file contains NUL bytes (binary, or UTF-16 text); manifests must be UTF-8' };
  try {
    return { text: utf8.decode(bytes).replace(/^\uFEFF/, '') };
  } catch {
    return { skip: 'not-utf8', detail: 'not analysed: the file is not valid UTF-8; save it as UTF-8' };
  }
}

/**
 * Reads and loads one file from disk. Never throws: unreadable, too large, binary or non-UTF-8 files
 * become a {@link LoadedFile} with one `file-skipped` problem.
 * @param maxBytes size limit in bytes (0 or Infinity = none)
 */
export function readManifestFile(path: string, displayName: string, options: LoadOptions & { maxBytes?: number } = {}): LoadedFile {
  const maxBytes = options.maxBytes ?? Infinity;
  try {
    const size = statSync(path).size;
    if (maxBytes > 0 && size > maxBytes) {
      return skippedFile(displayName, 'too-large', `not analysed: the file is ${(size / 1048576).toFixed(1)} MiB, above the ${(maxBytes / 1048576).toFixed(1)} MiB limit`);
    }
    const decoded = decodeManifest(readFileSync(path));
    if ('skip' in decoded) return skippedFile(displayName, decoded.skip, decoded.detail);
    return loadFile(displayName, decoded.text, options);
  } catch (err) {
    return skippedFile(displayName, 'unreadable', `not analysed: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'error');
  }
}
