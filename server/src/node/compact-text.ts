import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { LoadedFile } from '../core/load/load-file';

/** Texts shorter than this stay strings: the compressed form's own objects would cost about as much. */
const MIN_COMPACT_LENGTH = 1024;
/** Texts recently read back, kept as strings so a reader that asks again and again inflates once. */
const RECENT_TEXTS = 16;

const recent = new Map<object, string>();

/**
 * `file` with its text held deflated (zlib level 1, about a quarter of the size on manifests) and inflated again
 * each time a reader asks for `text` (the last {@link RECENT_TEXTS} texts read are kept as strings). The text is
 * the largest part of what a loaded file holds after loading and few readers need it (quick fixes and span
 * narrowing for files with findings, suppression comments, kustomizations and charts for rendering), so a
 * command-line run over a large workspace keeps them compact. Every read gives back exactly the text: `text` is
 * an own enumerable getter, so a spread copy (`{ ...file, objects }`) gets the text as a string; texts that are
 * short, or not well-formed UTF-16 (which UTF-8 would not give back unchanged), are left as they are.
 */
export function withCompactText(file: LoadedFile): LoadedFile {
  const bytes = deflateText(file.text);
  if (!bytes) return file;
  const { text: _text, ...rest } = file;
  return withDeflatedText(rest, bytes);
}

/**
 * The compact form of `text` that {@link withDeflatedText} reads back: its UTF-8 deflated (zlib level 1), in a
 * buffer of its own (so it can be transferred to another thread), or undefined for a text left as a string
 * (shorter than 1 KiB, or with a lone surrogate). A load worker calls it, so the main thread never holds the text.
 */
export function deflateText(text: string): Uint8Array | undefined {
  if (text.length < MIN_COMPACT_LENGTH || !wellFormed(text)) return undefined;
  const deflated = deflateRawSync(Buffer.from(text, 'utf8'), { level: 1 });
  // A copy of exactly the compressed length: zlib's result can be a view into a larger output chunk (16 KiB).
  const bytes = new Uint8Array(deflated.length);
  bytes.set(deflated);
  return bytes;
}

/**
 * A loaded file whose `text` is `bytes` ({@link deflateText} of the text) inflated when read, as
 * {@link withCompactText} makes: `text` an own enumerable getter, right after `file`. With `lines` (a function
 * making the file's line index), `lines` is an own enumerable getter too, which calls it on first use and keeps
 * what it gives (the line index of a file without findings is seldom asked for).
 */
export function withDeflatedText(file: Omit<LoadedFile, 'text'> | Omit<LoadedFile, 'text' | 'lines'>, bytes: Uint8Array, lines?: () => LoadedFile['lines']): LoadedFile {
  const { file: name, ...rest } = file;
  const out = { file: name } as LoadedFile;
  Object.defineProperty(out, 'text', { enumerable: true, configurable: false, get: () => readBack(out, bytes) });
  if (lines) {
    let made: LoadedFile['lines'] | undefined;
    Object.defineProperty(out, 'lines', { enumerable: true, configurable: false, get: () => (made ??= lines()) });
  }
  return Object.assign(out, rest);
}

/**
 * A loaded file whose `text` is made by `read` when first asked for and then kept (`read` is called at most once,
 * and dropped after): `text` an own enumerable getter right after `file`, as {@link withDeflatedText} makes it.
 * For a file taken from the parse cache, whose bytes were read to look it up but whose text few readers need.
 */
export function withLazyText(file: Omit<LoadedFile, 'text'>, read: () => string): LoadedFile {
  const { file: name, ...rest } = file;
  const out = { file: name } as LoadedFile;
  let made: string | undefined;
  let reader: (() => string) | undefined = read;
  const text = (): string => {
    if (made === undefined) {
      made = reader!();
      reader = undefined;
    }
    return made;
  };
  Object.defineProperty(out, 'text', { enumerable: true, configurable: false, get: text });
  return Object.assign(out, rest);
}

/**
 * Line starts (UTF-16 offsets, ascending, the first 0) in a compact form: the differences between successive
 * starts (line lengths), deflated (zlib level 1), in a buffer of their own. Read back by {@link inflateLineStarts}.
 */
export function deflateLineStarts(starts: ArrayLike<number>): Uint8Array {
  const lengths = new Int32Array(starts.length);
  for (let i = 0; i < starts.length; i++) lengths[i] = starts[i] - (i ? starts[i - 1] : 0);
  const deflated = deflateRawSync(new Uint8Array(lengths.buffer), { level: 1 });
  const bytes = new Uint8Array(deflated.length);
  bytes.set(deflated);
  return bytes;
}

/** The line starts {@link deflateLineStarts} made `bytes` of. */
export function inflateLineStarts(bytes: Uint8Array): Int32Array {
  const raw = inflateRawSync(bytes);
  const starts = new Int32Array(raw.length / 4);
  new Uint8Array(starts.buffer).set(raw);
  for (let i = 1; i < starts.length; i++) starts[i] += starts[i - 1];
  return starts;
}

function readBack(owner: object, bytes: Uint8Array): string {
  const cached = recent.get(owner);
  if (cached !== undefined) return cached;
  const text = inflateRawSync(bytes).toString('utf8');
  if (recent.size >= RECENT_TEXTS) recent.delete(recent.keys().next().value!);
  recent.set(owner, text);
  return text;
}

/** No lone surrogate (every string decoded from UTF-8 is; ASCII is checked first, it is the common case). */
function wellFormed(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(text)) return true;
  const check = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return check ? check.call(text) : false;
}
