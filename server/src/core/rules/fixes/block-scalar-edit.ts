import type { LoadedFile } from '../../load/load-file';
import type { Fix, TextEdit } from '../rule';

/**
 * A block scalar's header at the start of an edit: optional tag and anchor (`!!str`, `&p`), then `|` or `>` with
 * chomping and indentation indicators (`|-`, `>+2`, `|1-`), an optional comment, and the header's line break.
 */
const BLOCK_HEADER = /^(?:(?:![^\s]*|&[^\s,[\]{}]+)[ \t]+)*[|>][-+1-9]*[ \t]*(?:#[^\n]*)?\r?\n/;

/**
 * `fix` with each edit that replaces a block scalar (`protocol: |-` and its lines) by one-line text ended at the
 * end of the scalar's last content line. A block scalar's node ends after its line break(s) (`yaml`'s ranges, which
 * the loader's spans follow), so replacing the whole span with `TCP` would join the next line to it
 * (`protocol: TCP      name: http`) and make a different, usually invalid, document; the line break and the next
 * line's indentation must stay. Other edits, and text that keeps line breaks, are left as they are.
 */
export function blockScalarSafeFix(fix: Fix, files: ReadonlyMap<string, LoadedFile>): Fix {
  let changed = false;
  const edits = fix.edits.map((e) => {
    const trimmed = trimmedBlockEdit(e, files.get(e.span.file)?.text);
    changed ||= trimmed !== e;
    return trimmed;
  });
  return changed ? { ...fix, edits } : fix;
}

/** `edit` ending where the content of the block scalar it replaces ends, or `edit` itself (see {@link blockScalarSafeFix}). */
function trimmedBlockEdit(edit: TextEdit, text: string | undefined): TextEdit {
  if (text === undefined || edit.newText.includes('\n')) return edit;
  const old = text.slice(edit.span.start, edit.span.end);
  if (!BLOCK_HEADER.test(old)) return edit;
  const end = edit.span.start + old.trimEnd().length;
  return end === edit.span.end ? edit : { ...edit, span: { ...edit.span, end } };
}
