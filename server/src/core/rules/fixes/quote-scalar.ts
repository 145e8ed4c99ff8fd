import type { Span } from '../../source/span';
import type { Fix, TextEdit } from '../rule';
import { stringNumber } from '../../source/string-number';
import { misreadKey, QUOTABLE_PLAIN } from '../../kubernetes/api-server/string-advice';

/**
 * The quick fix that makes the value at `span` a string where YAML 1.1 reads a boolean or a number (`yes`, `80`,
 * `1.10`), as {@link ScalarWriting} explains: a plain value is double-quoted as written (`"yes"`); a tagged one
 * (`!!int 4`, `!!int "3"`) loses its tag, which decides the type whatever the quotes, and is quoted (`"4"`, `"3"`).
 * With `keySpan` and `key` (the JSON key the loader read), a plain key YAML 1.1 reads otherwise (`on`, read as
 * `true`) is quoted too (`"on"`), as the author wrote it; nothing else of the line changes (comments stay). Quoting
 * such a key changes the label: the callers pair, withhold or narrow the fix to the value where selectors read the key as `true`
 * (kubernetes/api-server/pod-spec.ts keyQuotedTogether, string-maps.ts rawMapValueProblems, rules/object-invalid.ts).
 * None for an alias, a block scalar, text with escapes or YAML indicators, a tagged value that also carries an
 * anchor (the anchor's other uses would change), or unknown text (objects of a live cluster). An anchored plain
 * value is left to the engine's local-edit step, which keeps the anchor's other uses as they are.
 */
export function quoteScalarFix(text: string | undefined, span: Span, keySpan?: Span, key?: string): Fix[] {
  if (text === undefined) return [];
  const value = text.slice(span.start, span.end);
  const spelled = stringNumber(text, span)!;
  let edit: TextEdit;
  if (spelled.tag) {
    if (spelled.anchored) return [];
    const quoted = spelled.quoted && value.length >= 2 && value[value.length - 1] === value[0] && !value.includes('\n');
    if (!quoted && !QUOTABLE_PLAIN.test(value)) return [];
    edit = { span: { file: span.file, start: spelled.start, end: span.end }, newText: quoted ? value : `"${value}"` };
  } else {
    if (!QUOTABLE_PLAIN.test(value)) return [];
    edit = { span, newText: `"${value}"` };
  }
  const writtenKey = misreadKey(text, keySpan, key);
  const keyEdit: TextEdit | undefined = writtenKey !== undefined && keySpan!.end <= span.start ? { span: keySpan!, newText: `"${writtenKey}"` } : undefined;
  const quoteKey = keyEdit ? `Quote "${writtenKey}"` : '';
  const title = !spelled.tag
    ? keyEdit ? `${quoteKey} and "${value}"` : `Quote "${value}"`
    : spelled.quoted
      ? keyEdit ? `${quoteKey} and remove the ${spelled.tag} tag` : `Remove the ${spelled.tag} tag`
      : `${keyEdit ? `${quoteKey}, remove` : 'Remove'} the ${spelled.tag} tag and quote "${value}"`;
  return [{ title, edits: keyEdit ? [keyEdit, edit] : [edit], preferred: true }];
}
