import type { Document } from 'yaml';
import type { LoadProblem } from './load-file';

/**
 * Where kubectl stops reading a YAML file before any YAML parser sees it (a file that kubectl reads as a JSON
 * stream, its first character `{`, is decoded by Go's JSON decoder instead: see json-stream.ts).
 *
 * kubectl splits a file into documents line by line (k8s.io/apimachinery pkg/util/yaml/decoder.go, YAMLReader.Read,
 * v1.31): a line that starts with `---` ends a document when the rest of the line, trimmed, is empty or starts with
 * `#`; any other content after `---` (`--- {apiVersion: v1, …}`, `--- !!map`, `----`) is the error "invalid Yaml
 * document separator: …", returned before the document being collected is handed on. Each document then goes to
 * go-yaml v2 (sigs.k8s.io/yaml), whose reader refuses any character outside YAML's printable set — C0 controls but
 * tab, line feed and carriage return, DEL, C1 controls but NEL, U+FFFE and U+FFFF — anywhere, comments included:
 * "yaml: control characters are not allowed" (yaml_parser_update_buffer in readerc.go). Either error stops kubectl:
 * the documents it split off before are applied, nothing from that document on. kustomize (kyaml) refuses the
 * whole file for both ("invalid document separator", "MalformedYAMLError: yaml: control characters are not
 * allowed"). Checked with kubectl 1.31.9 (`kubectl label --local -f FILE a=b -o name`, `kubectl kustomize`).
 */

/** The first place kubectl's YAML reading stops in a text. */
export interface ReaderStop {
  /** Offset of the refused character, or of the start of the separator line. */
  readonly offset: number;
  readonly end: number;
  /** `character`: a control character (its code point in `codePoint`); `separator`: content after `---`. */
  readonly kind: 'character' | 'separator';
  readonly codePoint?: number;
  /** For `separator`: the line. */
  readonly line?: string;
}

/** Characters go-yaml v2's reader refuses (YAML 1.1 c-printable's complement, within the BMP). */
const REFUSED_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffe\uffff]/;

/** Go's strings.TrimSpace (unicode.IsSpace): not JavaScript's trim, which also drops U+FEFF and keeps U+0085. */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*';
const GO_TRIM = new RegExp(`^${GO_SPACE}|${GO_SPACE}$`, 'g');

/** The content after a `---` at the start of the line at `start`, trimmed as kubectl trims it. */
function separatorContent(text: string, start: number): string {
  const eol = text.indexOf('\n', start);
  return text.slice(start + 3, eol === -1 ? text.length : eol).replace(GO_TRIM, '');
}

/** Offsets of the lines of `text` that start with `---` (YAMLReader's lines end at `\n` only). */
function* dashLines(text: string): Generator<number> {
  if (text.startsWith('---')) yield 0;
  for (let i = text.indexOf('\n---'); i !== -1; i = text.indexOf('\n---', i + 1)) yield i + 1;
}

/** The first separator line with content after `---`, or undefined. */
function invalidSeparator(text: string): ReaderStop | undefined {
  for (const start of dashLines(text)) {
    const content = separatorContent(text, start);
    if (content && content[0] !== '#') {
      const eol = text.indexOf('\n', start);
      const end = eol === -1 ? text.length : eol;
      return { offset: start, end, kind: 'separator', line: text.slice(start, end).replace(GO_TRIM, '') };
    }
  }
  return undefined;
}

/**
 * Where kubectl stops reading `text` as YAML: the first refused character or invalid separator, whichever comes
 * first, else undefined. A cheap test first: most texts have neither.
 */
export function readerStop(text: string): ReaderStop | undefined {
  const char = REFUSED_CHARACTER.exec(text);
  const sep = text.includes('---') ? invalidSeparator(text) : undefined;
  const at = char ? char.index : -1;
  if (at !== -1 && (!sep || at < sep.offset)) return { offset: at, end: at + 1, kind: 'character', codePoint: text.charCodeAt(at) };
  return sep;
}

/**
 * True when `slice` (the lines an edit touched, each whole) may hold a reader stop: a refused character or a line
 * starting with `---` and something else that is not a comment.
 */
export function mayHoldReaderStop(slice: string): boolean {
  return REFUSED_CHARACTER.test(slice) || (slice.includes('---') && invalidSeparator(slice) !== undefined);
}

/**
 * How many of `docs` (as `yaml` composes `text`) kubectl applies before it stops at `stop`: those whose content
 * starts before the last valid separator line before the stop (the document being collected there is lost).
 */
export function documentsBeforeStop(text: string, docs: readonly Document.Parsed[], stop: ReaderStop): number {
  let lastSeparator = -1;
  for (const start of dashLines(text)) {
    if (start >= stop.offset) break;
    const content = separatorContent(text, start);
    if (!content || content[0] === '#') lastSeparator = start;
  }
  let n = 0;
  while (n < docs.length && contentStart(docs[n]) < lastSeparator) n++;
  return n;
}

function contentStart(doc: Document.Parsed): number {
  const contents = doc.contents as { range?: [number, number, number] } | null;
  return contents?.range ? contents.range[0] : doc.range[1];
}

/** The problem code of a control character kubectl refuses. */
export const CONTROL_CHARACTER_CODE = 'YAML_CONTROL_CHARACTER';

/** The error reported at a reader stop (reported by yaml-syntax). `before`: documents kubectl applies first. */
export function readerStopProblem(file: string, stop: ReaderStop, before: number): LoadProblem {
  const reads = before === 0 ? 'kubectl applies none of this file' : `kubectl applies only the ${before} document${before === 1 ? '' : 's'} before it`;
  if (stop.kind === 'character') {
    const cp = stop.codePoint!;
    const name = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    const why = cp === 0 ? ' (binary data, or text in an encoding kubectl does not read: UTF-16 without a byte order mark, UTF-32)' : '';
    return {
      span: { file, start: stop.offset, end: stop.end },
      code: CONTROL_CHARACTER_CODE,
      severity: 'error',
      message: `control character ${name}${why}: kubectl and kustomize refuse it ("yaml: control characters are not allowed"), so ${reads}; delete it${cp === 0 ? ', or save the file as UTF-8' : ', or write it as an escape in double quotes'}`,
    };
  }
  const line = stop.line!.length > 30 ? `${stop.line!.slice(0, 29)}…` : stop.line!;
  return {
    span: { file, start: stop.offset, end: stop.end },
    code: 'YAML_SEPARATOR',
    severity: 'error',
    message: `"${line}": kubectl and kustomize split documents only at a "---" line with nothing but a comment after it, so they stop here ("invalid Yaml document separator") and ${reads}; move what follows "---" to the next line`,
  };
}
