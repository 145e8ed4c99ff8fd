import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, Stats } from 'node:fs';
import { loadFile, LoadedFile, LoadOptions } from '../core/load/load-file';
import { skippedFile } from '../core/load/skipped-file';

/** Default size limit for one manifest file in the editor: 5 MiB (the largest real install manifest in our corpus, calico.yaml, is 0.7 MB). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Default size limit for one manifest file (and standard input) in the CLI: 16 MiB; `--max-file-size` changes it. */
export const DEFAULT_CLI_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** What a path is when it is not a regular file, for messages: `a FIFO (named pipe)`. */
export function fileTypeOf(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why {@link readRegularFile} read nothing: not a regular file, or larger than the limit. */
export type NotRead = { readonly notRegular: string } | { readonly tooLarge: number; readonly stoppedAt?: boolean };

/**
 * Reads a regular file, at most `maxBytes` bytes (0 or Infinity: no limit). Opens without blocking
 * (`O_NONBLOCK`), so a FIFO without a writer or a device never hangs the read, checks the opened file
 * (no race between a check and the read), and stops at the limit even when the file grows while read.
 * @returns the bytes, or why they were not read
 * @throws the system error (ENOENT, EACCES, …) when the file cannot be opened or read
 */
export function readRegularFile(path: string, maxBytes = Infinity): { readonly bytes: Uint8Array } | NotRead {
  const limit = maxBytes > 0 ? maxBytes : Infinity;
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const st = fstatSync(fd);
    const type = fileTypeOf(st);
    if (type) return { notRegular: type };
    if (st.size > limit) return { tooLarge: st.size };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(st.size - total, 64 * 1024), 16 * 1024 * 1024));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > limit) return { tooLarge: total, stoppedAt: true }; // it grew, or its size is not known (/proc)
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total) };
  } finally {
    closeSync(fd);
  }
}

/** `12.3 MiB` */
export const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

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
 * Reads and loads one file from disk. Never throws: unreadable, too large, binary or non-UTF-8 files, and paths
 * that are not regular files (a FIFO, a device, a socket: reading one could block forever or never end) become a
 * {@link LoadedFile} with one `file-skipped` problem.
 * @param maxBytes size limit in bytes (0 or Infinity = none)
 */
export function readManifestFile(path: string, displayName: string, options: LoadOptions & { maxBytes?: number } = {}): LoadedFile {
  const maxBytes = options.maxBytes ?? Infinity;
  try {
    const read = readRegularFile(path, maxBytes);
    if ('notRegular' in read) return skippedFile(displayName, 'not-regular', `not analysed: the path is ${read.notRegular}, not a regular file; only regular files are read (pipe a stream in with -)`, 'error');
    if ('tooLarge' in read) return skippedFile(displayName, 'too-large', `not analysed: the file is ${read.stoppedAt ? `more than ${mib(maxBytes)}` : mib(read.tooLarge)}, above the ${mib(maxBytes)} limit`);
    const decoded = decodeManifest(read.bytes);
    if ('skip' in decoded) return skippedFile(displayName, decoded.skip, decoded.detail);
    return loadFile(displayName, decoded.text, options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const link = code === 'ENOENT' || code === 'ELOOP' ? linkTarget(path) : undefined;
    // A symlink to nothing is a leftover, not broken input: say so without failing the run.
    if (link !== undefined) return skippedFile(displayName, 'dangling-link', `not analysed: the file is a symbolic link to ${JSON.stringify(link)}, which ${code === 'ELOOP' ? 'loops back on itself' : 'does not exist'}`);
    return skippedFile(displayName, 'unreadable', `not analysed: cannot read the file (${code ?? (err as Error).message})`, 'error');
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
