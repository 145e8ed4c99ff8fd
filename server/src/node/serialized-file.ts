import { LineCounter } from 'yaml';
import type { LoadedFile, LoadOptions } from '../core/load/load-file';
import { walkSpans } from '../core/load/shift-spans';
import { LineIndex } from '../core/source/line-index';

/**
 * A {@link LoadedFile} as it crosses a thread boundary (structured clone): everything is plain data
 * except the {@link LineIndex}, which travels as its line-start offsets and is rebuilt on arrival.
 */
export interface SerializedLoadedFile extends Omit<LoadedFile, 'lines'> {
  /** UTF-16 offsets where lines start (first is 0). */
  readonly lineStarts: readonly number[];
}

/**
 * A batch of files for a load worker: `[path on disk, name shown in findings]`, or with a third element,
 * the file's text already read by the main thread (parse-cache misses): the worker loads that text and
 * answers with the v8 serialization of the loaded file without its text (the cache entry).
 */
export interface LoadRequest {
  readonly batch: number;
  readonly files: readonly (readonly [string, string] | readonly [string, string, string])[];
  readonly options: LoadOptions & { readonly maxBytes?: number };
}

export interface LoadResponse {
  readonly batch: number;
  readonly files: readonly (SerializedLoadedFile | Uint8Array)[];
}

export function serializeLoadedFile(file: LoadedFile): SerializedLoadedFile {
  const { lines, ...rest } = file;
  const lineStarts: number[] = [];
  for (let line = 1; line <= lines.lineCount; line++) lineStarts.push(lines.lineStart(line));
  return { ...rest, lineStarts };
}

/**
 * Rebuilds a {@link LoadedFile} received from a worker. Every span arrives with its own copy of the file
 * name (structured clone copies strings per occurrence): pointing them all at one string saves about a
 * tenth of the memory of a 10,000-file workspace.
 */
export function deserializeLoadedFile(file: SerializedLoadedFile): LoadedFile {
  const { lineStarts, ...rest } = file;
  const name = file.file;
  walkSpans([rest.objects, rest.problems], name, (span) => {
    span.file = name;
  });
  const counter = new LineCounter();
  for (const start of lineStarts) counter.addNewLine(start);
  return { ...rest, lines: new LineIndex(counter, file.text.length) };
}
