/**
 * Byte order marks that start a document of a stream, as kubectl reads them. A file made by concatenating files
 * saved with a BOM (`cat a.yaml b.yaml`) has one at the start of a line after a `---`, and kubectl applies it as
 * if the BOM were not there: kubectl v1.31.9 (`kubectl label --local -f`, and `kubectl kustomize`) drops a BOM
 * that starts the first line of a document with content, when only blank lines and comment lines stand between
 * the document's start (a `---` separator line, or the start of the file) and it; before a comment on its line only
 * when it directly follows a separator that ends a document (else a syntax error), and a BOM anywhere later in a document is text (`\uFEFFkind`
 * is another key). go-yaml drops a BOM before a stream's first token (gopkg.in/yaml.v2 scannerc.go,
 * yaml_parser_scan_to_next_token, "Allow the BOM"), and kubectl decodes each document of a stream on its own
 * (k8s.io/apimachinery/pkg/util/yaml/decoder.go, YAMLReader). `yaml` and js-yaml accept a BOM only before the
 * first document of a stream: after `---` it would be the first character of the first key (`\uFEFFapiVersion`),
 * and the object would have no apiVersion.
 */

/** True when `text` holds a BOM that {@link withoutDocumentStartBoms} moves. */
export function hasDocumentStartBom(text: string): boolean {
  return documentStartBoms(text).length > 0;
}

/**
 * `text` with each document-starting BOM turned into a space at the end of the line before it (a separator, blank
 * or comment line, where a trailing space changes nothing): `---\n\uFEFFapiVersion` becomes `--- \napiVersion`.
 * Every character after that line keeps its UTF-16 offset, so what the parser makes of the result (node ranges,
 * error positions) is in offsets of `text` itself: the caller keeps `text` for lines, spans and quick fixes.
 * Returns `text` itself when there is no such BOM.
 */
export function withoutDocumentStartBoms(text: string): string {
  const boms = documentStartBoms(text);
  if (!boms.length) return text;
  let out = '';
  let from = 0;
  for (const { bom, lineEnd } of boms) {
    out += text.slice(from, lineEnd) + ' ' + text.slice(lineEnd, bom);
    from = bom + 1;
  }
  return out + text.slice(from);
}

/** Offsets of the document-starting BOMs of `text`, and where the line before each ends (before its `\r\n` or `\n`). */
function documentStartBoms(text: string): { readonly bom: number; readonly lineEnd: number }[] {
  const out: { bom: number; lineEnd: number }[] = [];
  for (let bom = text.indexOf('\uFEFF', 1); bom !== -1; bom = text.indexOf('\uFEFF', bom + 1)) {
    if (text.charCodeAt(bom - 1) !== 10) continue; // a line start
    const lineEnd = bom >= 2 && text.charCodeAt(bom - 2) === 13 ? bom - 2 : bom - 1;
    // Before a comment, only a BOM that is the first byte kubectl hands go-yaml is dropped: right after a separator
    // line that ends a document (a stream's leading `---` starts kubectl's first document instead).
    if (text.charCodeAt(bom + 1) === 35 && !startsChunk(text, lineEnd)) continue;
    if (startsDocument(text, lineEnd)) out.push({ bom, lineEnd });
  }
  return out;
}

/**
 * Whether the line after the one ending at `lineEnd` is the first with content of its document: the lines up to
 * the previous separator line (or the start of the text) are blank or comments.
 */
function startsDocument(text: string, lineEnd: number): boolean {
  for (let end = lineEnd; ; ) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    const trimmed = line.trim();
    if (isSeparatorLine(line)) return true;
    if (trimmed !== '' && !trimmed.startsWith('#')) return false;
    if (start === 0) return true;
    end = start >= 2 && text.charCodeAt(start - 2) === 13 ? start - 2 : start - 1;
  }
}

/** Whether the line ending at `lineEnd` is a separator line that is not the first line of the text. */
function startsChunk(text: string, lineEnd: number): boolean {
  const start = text.lastIndexOf('\n', lineEnd - 1) + 1;
  return start > 0 && isSeparatorLine(text.slice(start, lineEnd));
}

/** kubectl's document separator: `---`, then nothing but white space, or white space and a comment. */
function isSeparatorLine(line: string): boolean {
  if (!line.startsWith('---')) return false;
  const rest = line.slice(3).trim();
  // YAML needs white space before a comment; kubectl's splitter does not, but `---#` is no marker to the parsers.
  return rest === '' || (rest.startsWith('#') && /^[ \t]/.test(line.slice(3)));
}
