import { LineCounter } from 'yaml';
import type { LoadedFile, LoadOptions } from '../core/load/load-file';
import { LineIndex } from '../core/source/line-index';

/**
 * A {@link LoadedFile} as it crosses a thread boundary (structured clone): everything is plain data
 * except the {@link LineIndex}, which travels as its line-start offsets and is rebuilt on arrival.
 */
export interface SerializedLoadedFile extends Omit<LoadedFile, 'lines'> {
  /** UTF-16 offsets where lines start (first is 0). */
  readonly lineStarts: readonly number[];
}

/** A batch of files for a load worker: `[path on disk, name shown in findings]`. */
export interface LoadRequest {
  readonly batch: number;
  readonly files: readonly (readonly [string, string])[];
  readonly options: LoadOptions & { readonly maxBytes?: number };
}

export interface LoadResponse {
  readonly batch: number;
  readonly files: readonly SerializedLoadedFile[];
}

export function serializeLoadedFile(file: LoadedFile): SerializedLoadedFile {
  const { lines, ...rest } = file;
  const lineStarts: number[] = [];
  for (let line = 1; line <= lines.lineCount; line++) lineStarts.push(lines.lineStart(line));
  return { ...rest, lineStarts };
}

export function deserializeLoadedFile(file: SerializedLoadedFile): LoadedFile {
  const { lineStarts, ...rest } = file;
  const counter = new LineCounter();
  for (const start of lineStarts) counter.addNewLine(start);
  return { ...rest, lines: new LineIndex(counter, file.text.length) };
}
