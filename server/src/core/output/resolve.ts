import type { LoadedFile } from '../load/load-file';
import { mayHoldLostBytes } from '../load/manifest-bytes';
import type { Finding, Fix } from '../rules/rule';
import { isVirtualFile, Span } from '../source/span';

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

/**
 * One edit of a quick fix: the text in `region` (the same range as `start`/`end`, 0-based UTF-16 offsets into the
 * file's text, after any byte order mark) becomes `newText`.
 */
export interface ResolvedEdit {
  readonly region: Region;
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** A quick fix with its edits resolved, in the order the fix lists them (they never overlap). */
export interface ResolvedFix {
  readonly title: string;
  /** The clearly right fix of the finding (the editor's preferred quick fix). */
  readonly preferred: boolean;
  readonly edits: readonly ResolvedEdit[];
}

/**
 * The fix with its edits placed in the files they change, or undefined when an edit cannot be written as the
 * language server would write it (see lsp/code-actions.ts): its file is not one the analysis loaded (a virtual
 * `builtin:`, `cluster:` or `render:` file), or it holds U+FFFD, bytes that were not UTF-8, which writing the text
 * back would replace. Which fixes a finding has, and that each is safe, is the core's decision (rules, then
 * run-rules.ts and render/apply.ts); this only places them.
 */
export function resolveFix(fix: Fix, files: ReadonlyMap<string, LoadedFile>): ResolvedFix | undefined {
  const edits: ResolvedEdit[] = [];
  for (const e of fix.edits) {
    const file = files.get(e.span.file);
    if (!file || isVirtualFile(e.span.file) || mayHoldLostBytes(file.text)) return undefined;
    edits.push({ region: regionOf(e.span, files), start: e.span.start, end: e.span.end, newText: e.newText });
  }
  return edits.length ? { title: fix.title, preferred: fix.preferred === true, edits } : undefined;
}

/** A finding with resolved positions, ready for an output format. */
export interface ResolvedFinding {
  readonly finding: Finding;
  readonly region: Region;
  readonly related: readonly { readonly region: Region; readonly message: string }[];
  /** The finding's quick fixes that {@link resolveFix} can place, in the order of `finding.fixes`. */
  readonly fixes: readonly ResolvedFix[];
  /** Where a finding on a rendered object is in the rendered manifest (virtual `render:` file), and which render. */
  readonly rendered?: { readonly region: Region; readonly label: string };
}

/** Resolves findings' spans, related locations, rendered places and quick-fix edits against the loaded files. */
export function resolveFindings(findings: readonly Finding[], files: ReadonlyMap<string, LoadedFile>): ResolvedFinding[] {
  return findings.map((finding) => ({
    finding,
    region: regionOf(finding.span, files),
    related: finding.related.map((r) => ({ region: regionOf(r.span, files), message: r.message })),
    fixes: finding.fixes.flatMap((fix) => resolveFix(fix, files) ?? []),
    ...(finding.rendered ? { rendered: { region: regionOf(finding.rendered.span, files), label: finding.rendered.label } } : {}),
  }));
}
