import type { LoadProblem } from './load-file';

/**
 * How kubectl turns a manifest file's bytes (or standard input) into text, and what it does with bytes that are
 * not UTF-8.
 *
 * cli-runtime's FileVisitor reads every file and stdin through `unicode.BOMOverride(unicode.UTF8.NewDecoder())`
 * (k8s.io/cli-runtime pkg/resource/visitor.go, v1.31; golang.org/x/text/encoding/unicode): a UTF-8, UTF-16BE or
 * UTF-16LE byte order mark switches to that encoding and is dropped; without one the bytes are read as UTF-8, and
 * every byte sequence that is not UTF-8 becomes U+FFFD. No other encoding is recognised: a UTF-32 file (its BOM
 * `FF FE 00 00` reads as UTF-16LE) or UTF-16 without a BOM comes out full of U+0000, which go-yaml then refuses
 * ("control characters are not allowed", see control-characters.ts). Checked with kubectl 1.31.9
 * (`kubectl label --local -f FILE a=b -o yaml`): UTF-16LE/BE with a BOM read as UTF-8 does; a Latin-1 `café`
 * is applied as `caf\uFFFD`; UTF-32 and BOM-less UTF-16 are refused. kustomize (kyaml) refuses the Latin-1 file
 * instead ("MalformedYAMLError: yaml: invalid trailing UTF-8 octet").
 */

/** The encoding a manifest's bytes were read in. */
export type ManifestEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** A manifest's bytes decoded as kubectl decodes them. */
export interface DecodedManifest {
  /** The text, without its byte order mark; bytes that are not UTF-8 (UTF-8 files only) are U+FFFD. */
  readonly text: string;
  readonly encoding: ManifestEncoding;
  /** The bytes started with a byte order mark (dropped from `text`). */
  readonly bom: boolean;
  /**
   * Where the first byte sequence that is not UTF-8 was: its byte `value` and its `offset` in `text` (UTF-16
   * units: the U+FFFD that stands for it). Absent when every byte was UTF-8 (or for UTF-16).
   */
  readonly notUtf8?: { readonly offset: number; readonly value: number };
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const utf16le = new TextDecoder('utf-16le', { ignoreBOM: true });
const utf16be = new TextDecoder('utf-16be', { ignoreBOM: true });
const encoder = new TextEncoder();

/** The encoding the byte order mark at the start of `bytes` names (UTF-16LE `FF FE`, UTF-16BE `FE FF`, UTF-8 `EF BB BF`), if any. */
export function byteOrderMark(bytes: Uint8Array): ManifestEncoding | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 'utf-8' : undefined;
}

/** Decodes manifest bytes as kubectl does (see the module comment). Never throws. */
export function decodeManifestBytes(bytes: Uint8Array): DecodedManifest {
  const mark = byteOrderMark(bytes);
  if (mark === 'utf-16le') return { text: utf16le.decode(bytes.subarray(2)), encoding: 'utf-16le', bom: true };
  if (mark === 'utf-16be') return { text: utf16be.decode(bytes.subarray(2)), encoding: 'utf-16be', bom: true };
  const bom = mark === 'utf-8';
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8Strict.decode(body), encoding: 'utf-8', bom };
  } catch {
    // Not UTF-8: decoded with U+FFFD as kubectl does (WHATWG's replacement and Go's agree for a stray byte).
    const text = utf8Lenient.decode(body);
    return { text, encoding: 'utf-8', bom, notUtf8: firstReplaced(text, body) };
  }
}

/**
 * The first U+FFFD of `text` that stands for bytes of `body` that are not UTF-8 (not a U+FFFD written as its
 * UTF-8 bytes `EF BF BD`): its offset in `text` and the byte there. Every code unit before it came from valid
 * UTF-8, so its byte offset is the UTF-8 length of the text before it.
 */
function firstReplaced(text: string, body: Uint8Array): { offset: number; value: number } | undefined {
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
    const byte = encoder.encode(text.slice(0, at)).length;
    if (body[byte] !== 0xef || body[byte + 1] !== 0xbf || body[byte + 2] !== 0xbd) return { offset: at, value: body[byte] };
  }
  return undefined;
}

/**
 * True for a text with U+FFFD: almost always bytes that were not UTF-8 (kubectl, the loader and the editor all read
 * each as U+FFFD), which writing any edit back would turn into U+FFFD. Such a file gets no fix and no ignore edit.
 * (UTF-16 files with a byte order mark are not affected: the editor saves them in their own encoding.)
 */
export function mayHoldLostBytes(text: string): boolean {
  return text.includes('\uFFFD');
}

/** The problem code of bytes that are not UTF-8 (reported by yaml-syntax, a warning). */
export const NOT_UTF8_CODE = 'TEXT_NOT_UTF8';

/**
 * The warning for a file with bytes that are not UTF-8, at the U+FFFD of the first one: kubectl reads U+FFFD in
 * their place (a value there is applied changed; a comment does not matter), kustomize refuses the file.
 */
export function notUtf8Problem(file: string, at: { readonly offset: number; readonly value: number }): LoadProblem {
  const hex = at.value.toString(16).toUpperCase().padStart(2, '0');
  return {
    span: { file, start: at.offset, end: at.offset + 1 },
    code: NOT_UTF8_CODE,
    severity: 'warning',
    message: `byte 0x${hex} is not UTF-8 (the file is in another encoding, e.g. Latin-1): kubectl reads U+FFFD (\uFFFD) in its place and kustomize refuses the file; save the file as UTF-8`,
  };
}
