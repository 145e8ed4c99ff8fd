/**
 * Source locations used throughout the core.
 *
 * Offsets are UTF-16 code units into the file text (the unit `yaml` and LSP both use), so a span
 * converts to an LSP range without re-reading the file. Lines and columns are computed only at the
 * edges (CLI formatters, language server) through a {@link LineIndex}.
 */

/** A half-open range `[start, end)` of UTF-16 offsets in one file. */
export interface Span {
  /** The file's path (CLI: as given on the command line, relative or absolute; LSP: fs path), or a virtual `builtin:` / `cluster:` name. */
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

/** A value read from a manifest together with the span of the scalar that holds it. */
export interface Located<T> {
  readonly value: T;
  readonly span: Span;
}

/** True for spans that do not point into a workspace file (built-in objects, live-cluster objects, rendered manifests). */
export function isVirtualFile(file: string): boolean {
  return file.startsWith('builtin:') || file.startsWith('cluster:') || file.startsWith('render:');
}
