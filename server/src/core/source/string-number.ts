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
  /** A chart template, not the file the value is reported in, writes the quotes or tag (see {@link TemplateWriting}). */
  readonly template?: TemplateWriting;
}

/**
 * A chart template that decides how a rendered value is written (its quotes, tag or type) though the value comes
 * from a values file. A Go template action prints a value's text, not its YAML spelling (text/template, as
 * `helm template` runs it), so `containerPort: {{ .Values.port | quote }}` renders `port: 8080` of values.yaml as
 * the string "8080", and quotes in values.yaml never reach `{{ .Values.label }}`: advice on how to write the
 * value belongs to the template, and a quick fix on the values file would change nothing in the render. Only
 * `toYaml` / `toJson` write the value as its type says (`"8080"` for a quoted values string). Sources: Masterminds
 * sprig v3 strings.go (quote, squote: the value's text in quotes), helm pkg/engine/funcs.go (toYAML: sigs.k8s.io/yaml
 * Marshal), v3.17; checked with `helm template` v3.17.
 */
export interface TemplateWriting {
  /** The template's path in its chart, as helm names it in `# Source:` without the chart (`templates/deployment.yaml`). */
  readonly template: string;
  /** How the template quotes the value, when its line shows it: `| quote`, `quote` (called), `"{{ }}"` (quotes around the action). */
  readonly quoting?: string;
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
  if (written.template) return templateUnstringHint(written.template, written.tag);
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

/**
 * The hint for a number a chart template renders as a string: ``remove `| quote` in templates/deployment.yaml``,
 * `unquote {{ }} in …`, else (the template line is not known) `unquote it in …`.
 */
export function templateUnstringHint(t: TemplateWriting, tag?: string): string {
  if (tag) return `remove the \`${tag}\` tag in ${t.template}`;
  if (!t.quoting) return `unquote it in ${t.template}`;
  return /^["']/.test(t.quoting) ? `unquote {{ }} in ${t.template}` : `remove \`${t.quoting}\` in ${t.template}`;
}

/**
 * The whole text of the file a span is in (rules pass their loaded files'); undefined when unknown. With
 * `templateWriting`, the chart template that writes a rendered value whose value comes from a values file
 * ({@link TemplateWriting}; rules get both from core/render/source-map.ts fileTextOf).
 */
export interface FileText {
  (span: Span): string | undefined;
  readonly templateWriting?: (span: Span) => TemplateWriting | undefined;
}

/** {@link stringNumber} of the scalar at `span`, reading the file through `source` (and who writes it, see {@link FileText}). */
export function stringNumberAt(source: FileText | undefined, span: Span): StringNumber | undefined {
  const written = stringNumber(source?.(span), span);
  const template = source?.templateWriting?.(span);
  return written && template ? { ...written, template } : written;
}

/** How the string is named in a lead: `a quoted number`, ``a `!!str` number``, `a number written as a string`. */
export function stringNumberWords(written: StringNumber | undefined): string {
  return written?.tag ? `a \`${written.tag}\` number` : written?.quoted ? 'a quoted number' : 'a number written as a string';
}
