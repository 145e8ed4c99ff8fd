import { Document, YAMLParseError } from 'yaml';
import { LineIndex } from '../source/line-index';
import { parseDocuments } from './parse-documents';
import { PARSE_OPTIONS } from './parse-options';
import { decodeGoJsonStream, GoJsonStop } from './go-json-decoder';

/** The problem code of a JSON stream's stop (lower case: the finding shows the message alone, no parser code). */
export const JSON_STREAM_CODE = 'json-stream';

/** A stream of concatenated JSON values, as kubectl reads a file (or stdin) whose first non-space character is `{`. */
export interface JsonStream {
  /** Offsets `[start, end)` of each top-level value, in order (objects, and any other value kubectl would meet). */
  readonly values: readonly (readonly [number, number])[];
  /** Where kubectl's JSON decoder fails, when it does before the end of the text: nothing from there on is read. */
  readonly stop?: { readonly offset: number; readonly message: string };
}

/**
 * An optional byte order mark (kubectl's file and stdin visitors drop it: cli-runtime visitor.go, BOMOverride), then
 * Go's unicode.IsSpace characters, then `{`.
 */
const LEADING_SPACE_THEN_BRACE = /^\uFEFF?[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*\{/;

/** kubectl decodes `text` with Go's JSON decoder, not line by line as YAML: its first non-space character is `{`. */
export function startsAsJson(text: string): boolean {
  return LEADING_SPACE_THEN_BRACE.test(text);
}

/**
 * The top-level values of `text` when kubectl reads it as a JSON stream, else undefined. kubectl's
 * YAMLOrJSONDecoder takes the JSON path when the first non-space character is `{` and then decodes successive
 * values with Go's json.Decoder (`{…}{…}` and `{…}\n{…}` alike), stopping at the first error: a file that is not
 * JSON from its first `{` on (a YAML flow mapping `{apiVersion: v1, …}`, single quotes, a comment, a trailing
 * comma) is refused whole, and the stop says where and why, in Go's words ({@link decodeGoJsonStream}).
 *
 * Returns undefined — the text is read as YAML, which gives the same objects — for one well-formed JSON value
 * and nothing after it (an ordinary one-document JSON file), and for text that does not start with `{`.
 * Sources: kubernetes staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go (NewYAMLOrJSONDecoder,
 * GuessJSONStream, hasJSONPrefix: `{` after unicode.IsSpace) and staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go
 * (FileVisitor: a UTF-8 BOM is dropped), v1.33; checked with kubectl 1.31 (`kubectl create --dry-run=client
 * --validate=false -o name -f FILE` prints the parse error before it needs a server).
 */
export function jsonStream(text: string): JsonStream | undefined {
  if (!startsAsJson(text)) return undefined;
  const { values, stop } = decodeGoJsonStream(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (values.length === 1 && !stop) return undefined;
  return { values, ...(stop ? { stop: { offset: stop.offset, message: notJson(stop, values.length === 0) } } : {}) };
}

/**
 * The documents of a JSON stream: each value parsed on its own by the loader's YAML parser (JSON is YAML's flow
 * syntax), with ranges in file offsets, so spans and lines are exact; the stop, if any, as a stream error.
 */
export function parseJsonStream(text: string, stream: JsonStream): { docs: Document.Parsed[]; streamErrors: readonly YAMLParseError[]; lines: LineIndex } {
  const docs = stream.values.flatMap(([start, end]) => parseDocuments(text.slice(start, end), PARSE_OPTIONS, { offset: start }).docs);
  const stop = stream.stop;
  const streamErrors = stop ? [new YAMLParseError([stop.offset, stop.offset + 1], JSON_STREAM_CODE as never, stop.message)] : [];
  return { docs, streamErrors, lines: LineIndex.of(text) };
}

/**
 * The finding's message: Go's error as kubectl prints it, what kubectl does not read because of it (the whole file
 * when the first object fails), and the two ways out.
 */
function notJson(stop: GoJsonStop, first: boolean): string {
  if (stop.reason === 'unexpected EOF') return `this JSON object is not closed before the end of the file: kubectl fails with "unexpected EOF" and ${first ? 'refuses the whole file' : 'does not read it'}; close its braces and brackets`;
  const lost = first ? 'kubectl refuses the whole file' : 'kubectl applies the objects before this one and refuses the rest';
  return `not JSON (${stop.message}): a file whose first character is "{" is read as a stream of JSON objects, so ${lost}; write it as JSON, or as YAML that does not start with "{" (e.g. a "---" line first)`;
}
