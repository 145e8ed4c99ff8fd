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
  const { text } = file;
  if (text.length < MIN_COMPACT_LENGTH || !wellFormed(text)) return file;
  // A copy of exactly the compressed length: zlib's result can be a view into a larger output chunk (16 KiB).
  const bytes = Buffer.from(deflateRawSync(Buffer.from(text, 'utf8'), { level: 1 }));
  const { file: name, text: _text, ...rest } = file;
  const out = { file: name } as LoadedFile;
  Object.defineProperty(out, 'text', { enumerable: true, configurable: false, get: () => readBack(out, bytes) });
  return Object.assign(out, rest);
}

function readBack(owner: object, bytes: Buffer): string {
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
