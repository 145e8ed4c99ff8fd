import type { Span } from '../../source/span';
import { FileText, stringNumber, TemplateWriting } from '../../source/string-number';

/**
 * How a map entry or field whose value must be a string, but that YAML reads as a boolean or a number, is written,
 * as far as the reading goes. kubectl converts YAML to JSON with sigs.k8s.io/yaml on go-yaml v2 (YAML 1.1):
 * - an explicit tag decides the type whatever the quotes (`!!int "3"` is the number 3, `!!bool "yes"` true;
 *   go-yaml v2 resolve.go resolves a tagged scalar by its tag), so quoting a tagged value does not make it a string:
 *   the tag must go;
 * - a map key is read as YAML 1.1 reads any plain scalar (`on`, `yes`, `y` are true; `0x10` is 16) and written as a
 *   JSON key in Go's spelling (sigs.k8s.io/yaml yaml.go convertToJSONableObject: `"true"`, `"16"`), so `on: 80` in
 *   a label map is the label `true`, not `on`.
 */
export interface ScalarWriting {
  /** The value's explicit tag as written (`!!int`, `!<tag:yaml.org,2002:bool>`). */
  readonly tag?: string;
  /** The value is written in single or double quotes. */
  readonly quoted?: boolean;
  /** A plain key YAML 1.1 reads as a boolean or a number: as written (`on`) and as kubectl sends it (`true`). */
  readonly key?: { readonly written: string; readonly read: string };
  /** A chart template, not the file the value is reported in, writes the value (see {@link TemplateWriting}). */
  readonly template?: TemplateWriting;
}

/** Text of a plain scalar that double quotes make the same string (no escapes, no YAML indicators). */
export const QUOTABLE_PLAIN = /^[A-Za-z0-9_.+-]+$/;

/** `!!int` for `tag:yaml.org,2002:int`, the tag as `yaml` names it on a node; other tags as `!<…>` (local ones as written). */
export function shownTag(tag: string): string {
  const core = 'tag:yaml.org,2002:';
  return tag.startsWith(core) ? `!!${tag.slice(core.length)}` : tag.startsWith('!') ? tag : `!<${tag}>`;
}

/**
 * The {@link ScalarWriting} of the value at `span`, read from the file text (a tag on the value's line, quotes) and,
 * with `keySpan` and `key` (the JSON key the loader read), of its key. Undefined when the text is unknown.
 */
export function writingAt(source: FileText | undefined, span: Span, keySpan?: Span, key?: string): ScalarWriting | undefined {
  const text = source?.(span);
  const spelled = stringNumber(text, span);
  if (text === undefined || !spelled) return undefined;
  const misread = misreadKey(text, keySpan, key);
  const template = source?.templateWriting?.(span);
  return {
    ...(spelled.tag ? { tag: spelled.tag } : {}),
    ...(spelled.quoted ? { quoted: true } : {}),
    ...(misread !== undefined ? { key: { written: misread, read: key! } } : {}),
    ...(template ? { template } : {}),
  };
}

/**
 * The key at `keySpan` of `text` as written, when it is a plain scalar YAML 1.1 reads as another JSON key than its
 * text (`on`, read as `key` `true`); undefined for a key read as written, a quoted one, or no key.
 */
export function misreadKey(text: string, keySpan: Span | undefined, key: string | undefined): string | undefined {
  if (!keySpan || key === undefined) return undefined;
  const written = text.slice(keySpan.start, keySpan.end);
  return QUOTABLE_PLAIN.test(written) && written !== key ? written : undefined;
}

/**
 * The reading and the advice of a message on a value that must be a string but is read as `found` (`value`), e.g.
 * read: ` (YAML 1.1 reads the unquoted value as the number 80)`, fix: `; quote it`; for a tagged value
 * ` (the `!!int` tag makes it the number 3)` / `; remove the `!!int` tag`; with a misread key
 * ` (YAML 1.1 reads the unquoted key on as true and the unquoted value as the number 80)` / `; quote the key and the value`.
 * `json`: a JSON manifest, which says what it means (no reading explained, no tag or key to speak of).
 */
export function stringAdvice(found: 'bool' | 'number', value: unknown, writing: ScalarWriting | undefined, json = false): { read: string; fix: string } {
  if (json) return { read: '', fix: '; quote it' };
  const as = found === 'bool' ? String(value) : `the number ${String(value)}`;
  const tag = writing?.tag;
  const key = writing?.key;
  const keyRead = key ? `YAML 1.1 reads the unquoted key ${key.written} as ${key.read}` : '';
  let read: string;
  let fix: string;
  if (writing?.template) {
    read = tag ? ` (the \`${tag}\` tag makes it ${as})` : ` (YAML 1.1 reads the unquoted value as ${as})`;
    fix = templateQuoteAdvice(writing.template, tag);
  } else if (tag) {
    read = key ? ` (${keyRead}; the \`${tag}\` tag makes the value ${as})` : ` (the \`${tag}\` tag makes it ${as})`;
    const untag = `remove the \`${tag}\` tag${writing?.quoted ? '' : ` and quote ${key ? 'the value' : 'it'}`}`;
    fix = key ? `; quote the key, ${untag}` : `; ${untag}`;
  } else {
    read = key ? ` (${keyRead} and the unquoted value as ${as})` : ` (YAML 1.1 reads the unquoted value as ${as})`;
    fix = key ? '; quote the key and the value' : '; quote it';
  }
  return { read, fix };
}

/**
 * The advice for a value given where a string is needed, as read from the file: `; quote it`, or for a value with
 * an explicit tag ``; remove the `!!int` tag`` (and quote it): quotes alone keep a tagged value what its tag says.
 */
export function quoteAdvice(source: FileText | undefined, span: Span | undefined): string {
  const writing = span ? writingAt(source, span) : undefined;
  if (writing?.template) return templateQuoteAdvice(writing.template, writing.tag);
  return writing?.tag ? `; remove the \`${writing.tag}\` tag${writing.quoted ? '' : ' and quote it'}` : '; quote it';
}

/**
 * The advice for a value a chart template renders as a number or boolean where a string belongs: quoting it in the
 * values file would not reach the render (the action prints the value's text), so the template must quote it:
 * ``; quote it in templates/deployment.yaml (`| quote`)``.
 */
export function templateQuoteAdvice(t: TemplateWriting, tag?: string): string {
  return tag ? `; remove the \`${tag}\` tag in ${t.template} and quote it there` : `; quote it in ${t.template} (\`| quote\`)`;
}

/** {@link quoteAdvice} for a value a chart template writes ({@link templateQuoteAdvice}), else undefined. */
export function templateQuoteAdviceAt(source: FileText | undefined, span: Span | undefined): string | undefined {
  const t = span ? source?.templateWriting?.(span) : undefined;
  return t ? templateQuoteAdvice(t) : undefined;
}
