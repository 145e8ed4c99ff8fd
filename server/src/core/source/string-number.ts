import { Lexer } from 'yaml';
import type { Span } from './span';

/**
 * How a YAML value that reads as a number was made a string, for the hint of a finding on an integer field
 * (`nodePort: "30556"`, `nodePort: !!str 30556`): kubectl sends it as a JSON string, which the API server's
 * decoder refuses for an int32 field (`json: cannot unmarshal string into Go struct field … of type int32`) and
 * validation reads as a port name in an IntOrString one. Quotes and an explicit tag are both ways YAML makes a
 * string: `!!str` (tag:yaml.org,2002:str) forces a scalar to a string whatever its text (YAML 1.1 and 1.2 core
 * schema; go-yaml v2, which kubectl's sigs.k8s.io/yaml uses, honours it the same way — yaml.v2 resolve.go).
 */
export interface StringNumber {
  /** The value is written in single or double quotes. */
  readonly quoted: boolean;
  /** The tag written before the value on its line (`!!str`, `!<tag:yaml.org,2002:str>`), if any. */
  readonly tag?: string;
  /** Offset where the written value starts, its tag included (the span start when untagged). */
  readonly start: number;
  /** An anchor (`&name`) is written with the value: rewriting it would change its aliases too. */
  readonly anchored?: boolean;
}

/**
 * Reads how the scalar at `span` of `text` (the whole file) is written: quoted, tagged, both or neither. The
 * tag is found with `yaml`'s own lexer over the scalar's line up to the value (properties — tag and anchor —
 * precede a scalar on its line); a tag on an earlier line is not seen (the value then reads as untagged).
 * @returns undefined when the file text is unknown (objects of a live cluster)
 */
export function stringNumber(text: string | undefined, span: Span): StringNumber | undefined {
  if (text === undefined) return undefined;
  const quoted = text[span.start] === '"' || text[span.start] === "'";
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  const prefix = text.slice(lineStart, span.start);
  // Lexer tokens: one-character control markers (below ' '), whitespace, indicators, scalars, and properties
  // (`!tag`, `&anchor`). Walk back over the properties right before the value.
  const tokens = [...new Lexer().lex(prefix)];
  let end = prefix.length;
  let tag: string | undefined;
  let start = span.start;
  let anchored = false;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t.length === 1 && t < ' ') continue;
    end -= t.length;
    if (/^\s+$/.test(t)) continue;
    if (t.startsWith('&')) {
      anchored = true;
      continue;
    }
    if (t.startsWith('!') && !(i > 0 && tokens[i - 1] === '\u001f') && tag === undefined) {
      tag = t;
      start = lineStart + end;
      continue;
    }
    break;
  }
  return { quoted, start, ...(tag ? { tag } : {}), ...(anchored ? { anchored } : {}) };
}

/**
 * The hint telling how to write a number that YAML reads as a string: `remove the quotes`, ``remove the `!!str`
 * tag`` or ``remove the `!!str` tag and the quotes``; `write it as a plain number` when neither shows (a block
 * scalar, a tag on another line) or the text is unknown.
 */
export function unstringHint(written: StringNumber | undefined): string {
  if (!written) return 'write it as a plain number';
  if (written.tag) return `remove the \`${written.tag}\` tag${written.quoted ? ' and the quotes' : ''}`;
  return written.quoted ? 'remove the quotes' : 'write it as a plain number';
}

/**
 * The span a fix replaces to write the number plain: the value with its tag (so `!!str 30556` becomes `30556`,
 * not `!!str 30556` again). Unknown text: the value's span.
 */
export function unstringSpan(written: StringNumber | undefined, span: Span): Span {
  return written && written.start < span.start ? { file: span.file, start: written.start, end: span.end } : span;
}

/** The whole text of the file a span is in (rules pass their loaded files'); undefined when unknown. */
export type FileText = (span: Span) => string | undefined;

/** {@link stringNumber} of the scalar at `span`, reading the file through `source`. */
export function stringNumberAt(source: FileText | undefined, span: Span): StringNumber | undefined {
  return stringNumber(source?.(span), span);
}

/** How the string is named in a lead: `a quoted number`, ``a `!!str` number``, `a number written as a string`. */
export function stringNumberWords(written: StringNumber | undefined): string {
  return written?.tag ? `a \`${written.tag}\` number` : written?.quoted ? 'a quoted number' : 'a number written as a string';
}
