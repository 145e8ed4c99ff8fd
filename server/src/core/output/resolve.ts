import type { LoadedFile } from '../load/load-file';
import type { Finding } from '../rules/rule';
import type { Span } from '../source/span';

/** 1-based start and end of a span (end exclusive column), as output formats print them. */
export interface Region {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** Resolves a span to 1-based lines/columns; spans in virtual files (built-in, cluster) resolve to 1:1. */
export function regionOf(span: Span, files: ReadonlyMap<string, LoadedFile>): Region {
  const file = files.get(span.file);
  if (!file) return { file: span.file, line: 1, column: 1, endLine: 1, endColumn: 1 };
  const start = file.lines.position(span.start);
  const end = file.lines.position(span.end);
  return { file: span.file, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
}

/** A finding with resolved positions, ready for an output format. */
export interface ResolvedFinding {
  readonly finding: Finding;
  readonly region: Region;
  readonly related: readonly { readonly region: Region; readonly message: string }[];
  /** Where a finding on a rendered object is in the rendered manifest (virtual `render:` file), and which render. */
  readonly rendered?: { readonly region: Region; readonly label: string };
}

export function resolveFindings(findings: readonly Finding[], files: ReadonlyMap<string, LoadedFile>): ResolvedFinding[] {
  return findings.map((finding) => ({
    finding,
    region: regionOf(finding.span, files),
    related: finding.related.map((r) => ({ region: regionOf(r.span, files), message: r.message })),
    ...(finding.rendered ? { rendered: { region: regionOf(finding.rendered.span, files), label: finding.rendered.label } } : {}),
  }));
}
