import { LineCounter } from 'yaml';

/** A 1-based line and column, as compilers and the CLI print them. */
export interface LineColumn {
  readonly line: number;
  readonly column: number;
}

/**
 * Converts UTF-16 offsets of one text to positions. Wraps `yaml`'s {@link LineCounter}, which the
 * loader fills while parsing, so no second pass over the text is needed.
 */
export class LineIndex {
  constructor(private readonly counter: LineCounter, private readonly textLength: number) {}

  /** Builds an index for a text that was not parsed with a LineCounter (e.g. a skipped file). */
  static of(text: string): LineIndex {
    const counter = new LineCounter();
    counter.addNewLine(0);
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) counter.addNewLine(i + 1);
    return new LineIndex(counter, text.length);
  }

  /**
   * An index over known line starts (UTF-16 offsets, first 0), e.g. an `Int32Array` received from a load worker:
   * kept as given (4 bytes a line instead of a JS array's 8), never copied. The index is read-only afterwards.
   */
  static fromLineStarts(starts: ArrayLike<number>, textLength: number): LineIndex {
    const counter = new LineCounter();
    // LineCounter's linePos reads `this.lineStarts` by index and length only, so any array-like serves.
    (counter as unknown as { lineStarts: ArrayLike<number> }).lineStarts = starts;
    return new LineIndex(counter, textLength);
  }

  /** 1-based line and column of `offset` (clamped to the text). */
  position(offset: number): LineColumn {
    const clamped = Math.max(0, Math.min(offset, this.textLength));
    const pos = this.counter.linePos(clamped);
    // linePos answers line 0 for offsets before the first recorded line start (see design notes).
    return { line: Math.max(1, pos.line), column: Math.max(1, pos.col) };
  }

  /** 0-based line and character (LSP `Position`). */
  lspPosition(offset: number): { line: number; character: number } {
    const p = this.position(offset);
    return { line: p.line - 1, character: p.column - 1 };
  }

  /** Offset of a 0-based LSP position (clamped to the line's start for out-of-range lines). */
  offsetAt(line: number, character: number): number {
    const starts = this.counter.lineStarts;
    if (line < 0) return 0;
    if (line >= starts.length) return this.textLength;
    const lineEnd = line + 1 < starts.length ? starts[line + 1] : this.textLength;
    return Math.min(starts[line] + Math.max(0, character), lineEnd);
  }

  /** Offset where the 1-based `line` starts, or the text's end. */
  lineStart(line: number): number {
    const starts = this.counter.lineStarts;
    return line - 1 < starts.length ? starts[Math.max(0, line - 1)] : this.textLength;
  }

  /** Offsets where lines start (the first is 0), ascending; read-only (an array or, from a load worker, an Int32Array). */
  get lineStarts(): ArrayLike<number> {
    return this.counter.lineStarts;
  }

  get lineCount(): number {
    return this.counter.lineStarts.length;
  }
}
