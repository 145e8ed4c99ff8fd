import { TextDocumentContentChangeEvent, type TextDocumentsConfiguration } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ChangedRange } from '../core/load/incremental-file';

/** A changed range being merged (see {@link ChangedRange}). */
interface Open {
  prefix: number;
  suffix: number;
  readonly previousLength: number;
}

/**
 * Remembers where each open document's buffer changed since its text was last handed to the analysis, from the
 * ranges of its incremental `textDocument/didChange` events (the server asks for incremental sync; VS Code and
 * Neovim send ranges then), so that a keystroke in a 3.5 MB file does not compare the old and the new buffers to find
 * the edit. Several changes (in one `didChange` or in several before the analysis runs) merge into the smallest range
 * holding them all. A full-text change, an open or a close forgets the document: its next text is compared whole.
 *
 * Used as the `TextDocuments` configuration: `vscode-languageserver-textdocument` applies the changes as usual.
 */
export class ChangedRanges implements TextDocumentsConfiguration<TextDocument> {
  private readonly open = new Map<string, Open>();

  create(uri: string, languageId: string, version: number, content: string): TextDocument {
    this.open.delete(uri);
    return TextDocument.create(uri, languageId, version, content);
  }

  update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    // One change at a time: each range is given in the buffer as the changes before it left it.
    for (const change of changes) {
      if (TextDocumentContentChangeEvent.isIncremental(change)) this.note(document, change);
      else this.open.delete(document.uri);
      TextDocument.update(document, [change], version);
    }
    return document;
  }

  /** The range changed since the last call for this document (undefined: unknown, compare the texts), then forgets it. */
  take(uri: string): ChangedRange | undefined {
    const range = this.open.get(uri);
    this.open.delete(uri);
    return range && { prefix: range.prefix, suffix: range.suffix, previousLength: range.previousLength };
  }

  /** Forgets a document (closed). */
  forget(uri: string): void {
    this.open.delete(uri);
  }

  private note(document: TextDocument, change: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string }): void {
    const length = document.getText().length;
    // offsetAt clamps positions past a line's or the text's end, as the update does; a reversed range is ordered.
    const a = document.offsetAt(change.range.start);
    const b = document.offsetAt(change.range.end);
    const [start, end] = a <= b ? [a, b] : [b, a];
    const range = this.open.get(document.uri);
    if (!range) {
      this.open.set(document.uri, { prefix: start, suffix: length - end, previousLength: length });
      return;
    }
    range.prefix = Math.min(range.prefix, start);
    range.suffix = Math.min(range.suffix, length - end);
  }
}
