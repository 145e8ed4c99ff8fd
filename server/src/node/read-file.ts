import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, Stats } from 'node:fs';
import { loadFile, LoadedFile, LoadOptions } from '../core/load/load-file';
import { skippedFile } from '../core/load/skipped-file';
import { decodeManifestBytes, notUtf8Problem } from '../core/load/manifest-bytes';
import { CONTROL_CHARACTER_CODE } from '../core/load/reader-stops';

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

/**
 * A size for messages: `152 bytes`, `12.5 KiB`, `3.2 MiB`, with `decimals` places in KiB and MiB; the unit is the
 * one `scale` (default: the size itself) is shown in. A fractional size in bytes is shown rounded down.
 */
export function byteSize(bytes: number, decimals = 1, scale = bytes): string {
  if (scale < 1024) return `${Math.floor(bytes)} byte${Math.floor(bytes) === 1 ? '' : 's'}`;
  if (scale < 1048576) return `${(bytes / 1024).toFixed(decimals)} KiB`;
  return `${(bytes / 1048576).toFixed(decimals)} MiB`;
}

/** `12.3 MiB` (the size-limit flags are in MiB). */
export const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

/**
 * A size and the limit it is above, in one unit (the smaller's) and precise enough that the two never read the
 * same: `['152 bytes', '10 bytes']`, `['16.05 MiB', '16.00 MiB']`; exact byte counts when nothing shorter differs.
 */
export function sizeAndLimit(size: number, limit: number): [string, string] {
  const scale = Math.min(size, limit);
  for (let decimals = 1; decimals <= 3; decimals++) {
    const pair: [string, string] = [byteSize(size, decimals, scale), byteSize(limit, decimals, scale)];
    if (pair[0] !== pair[1]) return pair;
  }
  return [`${size} bytes`, `${Math.floor(limit)} bytes`];
}

/**
 * Why a file (or standard input) is not loaded: `not analysed: the file is 17.0 MiB, above the limit of 16.0 MiB`.
 * @param size undefined when it is not known (reading stopped at the limit)
 */
export function tooLargeDetail(what: string, size: number | undefined, limit: number): string {
  if (size === undefined) return `not analysed: ${what} is larger than the limit of ${byteSize(limit)}`;
  const [s, l] = sizeAndLimit(size, limit);
  return `not analysed: ${what} is ${s}, above the limit of ${l}`;
}

/**
 * The text of a manifest file as kubectl decodes it (by its byte order mark, else UTF-8; see
 * core/load/manifest-bytes.ts), for the few places that read a file whole without loading it.
 * @throws the system error when the file cannot be read
 */
export function readManifestText(path: string): string {
  return decodeManifestBytes(readFileSync(path)).text;
}

/**
 * Loads manifest bytes (a file's or standard input's) as kubectl reads them: decoded by their byte order mark, else
 * as UTF-8 with U+FFFD for what is not (see core/load/manifest-bytes.ts), which gets a warning at the first such byte
 * unless kubectl refuses the file anyway (a NUL byte or another control character).
 */
export function loadManifestBytes(displayName: string, bytes: Uint8Array, options: LoadOptions = {}): LoadedFile {
  const decoded = decodeManifestBytes(bytes);
  const loaded = loadFile(displayName, decoded.text, options);
  if (!decoded.notUtf8 || loaded.problems.some((p) => p.code === CONTROL_CHARACTER_CODE)) return loaded;
  return { ...loaded, problems: [notUtf8Problem(displayName, decoded.notUtf8), ...loaded.problems] };
}

/**
 * Reads and loads one file from disk ({@link loadManifestBytes}). Never throws: unreadable or too large files, and paths
 * that are not regular files (a FIFO, a device, a socket: reading one could block forever or never end) become a
 * {@link LoadedFile} with one `file-skipped` problem.
 * @param maxBytes size limit in bytes (0 or Infinity = none)
 */
export function readManifestFile(path: string, displayName: string, options: LoadOptions & { maxBytes?: number } = {}): LoadedFile {
  const maxBytes = options.maxBytes ?? Infinity;
  try {
    const read = readRegularFile(path, maxBytes);
    if ('notRegular' in read) return skippedFile(displayName, 'not-regular', `not analysed: the path is ${read.notRegular}, not a regular file; only regular files are read (pipe a stream in with -)`, 'error');
    if ('tooLarge' in read) return skippedFile(displayName, 'too-large', tooLargeDetail('the file', read.stoppedAt ? undefined : read.tooLarge, maxBytes));
    return loadManifestBytes(displayName, read.bytes, options);
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
