import { createScanner, ScanError, SyntaxKind } from 'jsonc-parser';
import { Document, YAMLParseError } from 'yaml';
import { LineIndex } from '../source/line-index';
import { parseDocuments } from './parse-documents';
import { PARSE_OPTIONS } from './parse-options';

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
const LEADING_SPACE_THEN_BRACE = /^\uFEFF?[\t\n\v\f\r \u0085\u00a0]*\{/;

/**
 * The top-level values of `text` when kubectl reads it as a JSON stream, else undefined. kubectl's
 * YAMLOrJSONDecoder takes the JSON path when the first non-space character is `{` and then decodes successive
 * values with Go's json.Decoder (`{…}{…}` and `{…}\n{…}` alike), stopping at the first error. Tokens come from
 * jsonc-parser's scanner (strings, escapes and numbers as JSON defines them); only bracket depth is counted here.
 *
 * Returns undefined — the text is read as YAML, as before — unless the first value is well-formed JSON tokens and
 * something follows it: a single JSON object is an ordinary one-document file, and text that is not JSON from the
 * start (a YAML flow mapping `{apiVersion: v1, …}`) is left to the YAML reader. Comments are not JSON (kubectl's
 * decoder refuses them) and stop the stream. Sources: kubernetes
 * staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go (NewYAMLOrJSONDecoder, GuessJSONStream, jsonPrefix
 * `{`) and staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go (FileVisitor: a UTF-8 BOM is dropped), v1.33;
 * checked with kubectl 1.31 (`kubectl label --local -f stream.json x=y -o name`, also with a BOM and on stdin).
 */
export function jsonStream(text: string): JsonStream | undefined {
  if (!LEADING_SPACE_THEN_BRACE.test(text)) return undefined;
  const scanner = createScanner(text, false);
  if (text.charCodeAt(0) === 0xfeff) scanner.setPosition(1);
  const values: [number, number][] = [];
  let depth = 0;
  let start = -1;
  let stop: JsonStream['stop'];
  for (;;) {
    const kind = scanner.scan();
    if (kind === SyntaxKind.EOF) break;
    if (kind === SyntaxKind.Trivia || kind === SyntaxKind.LineBreakTrivia) continue;
    const offset = scanner.getTokenOffset();
    const end = offset + scanner.getTokenLength();
    const comment = kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia;
    const invalid = comment || kind === SyntaxKind.Unknown || scanner.getTokenError() !== ScanError.None;
    if (invalid || (depth === 0 && isPunctuation(kind))) {
      // What is there, as far as the next space (a token of its own may be a single character of it: `-` of `---`).
      const shown = comment ? text.slice(offset, Math.min(end, offset + 24)) : /^\S{1,24}/.exec(text.slice(offset, offset + 24))?.[0] ?? '';
      stop = { offset, message: notJson(shown, comment, depth > 0) };
      break;
    }
    if (depth === 0) {
      start = offset;
      if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) depth = 1;
      else values.push([offset, end]);
      continue;
    }
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) depth++;
    else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) {
      depth--;
      if (depth === 0) values.push([start, end]);
    }
  }
  if (!stop && depth > 0) {
    stop = { offset: start, message: 'this JSON object is not closed before the end of the file: kubectl fails with "unexpected EOF" and does not read it; close its braces and brackets' };
  }
  // Only a stream whose first object is JSON, and that goes on after it, reads differently from one YAML document.
  if (values.length === 0 || (values.length === 1 && !stop)) return undefined;
  return { values, ...(stop ? { stop } : {}) };
}

/**
 * The documents of a JSON stream: each value parsed on its own by the loader's YAML parser (JSON is YAML's flow
 * syntax), with ranges in file offsets, so spans and lines are exact; the stop, if any, as a stream error.
 */
export function parseJsonStream(text: string, stream: JsonStream): { docs: Document.Parsed[]; streamErrors: readonly YAMLParseError[]; lines: LineIndex } {
  const docs = stream.values.flatMap(([start, end]) => parseDocuments(text.slice(start, end), PARSE_OPTIONS, { offset: start }).docs);
  const stop = stream.stop;
  // A lower-case code: the finding shows the message alone (yaml-syntax appends upper-case parser codes).
  const streamErrors = stop ? [new YAMLParseError([stop.offset, stop.offset + 1], 'json-stream' as never, stop.message)] : [];
  return { docs, streamErrors, lines: LineIndex.of(text) };
}

const isPunctuation = (kind: SyntaxKind): boolean =>
  kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken || kind === SyntaxKind.CommaToken || kind === SyntaxKind.ColonToken;

function notJson(token: string, comment: boolean, inValue: boolean): string {
  const shown = JSON.stringify(token.split(/[\r\n]/)[0]);
  const what = comment ? 'a comment, which JSON does not allow' : 'not JSON';
  return `${shown} is ${what}: kubectl reads a file that starts with "{" as a stream of JSON objects and fails here, so ${inValue ? 'this object and the rest are not read' : 'nothing from here on is read'}; write the rest as JSON, or the whole file as YAML`;
}
