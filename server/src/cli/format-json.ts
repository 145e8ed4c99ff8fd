import type { ResolvedFinding, ResolvedFix } from '../core/output/resolve';

/**
 * JSON output, version 1:
 * `{"version":1,"findings":[{"ruleId","severity","message","file","line","column","endLine","endColumn",
 * "object":{"kind","namespace","name"},"related":[{"file","line","column","message"}],"fixes":["title"],
 * "rendered"?,"quickFixes":[{"title","preferred","edits":[{"file","line","column","endLine","endColumn","offset","endOffset","newText"}]}]}]}`;
 * lines and columns are 1-based (UTF-16 code units, end column exclusive). `fixes` lists each quick fix's title;
 * `quickFixes` gives the same fixes with the edits the editor's quick fix writes: the text from `line:column` to
 * `endLine:endColumn` (also `offset` to `endOffset`, 0-based UTF-16 offsets into the file's text after any byte order
 * mark) becomes `newText`. A fix's edits never overlap and all apply together; a fix on a file with bytes that are not
 * UTF-8 is in `fixes` only, as the editor offers none there. A finding on a rendered object (kustomize / Helm
 * output) points at the source line, its fixes edit the source files, and it adds
 * `"rendered":{"source","line","column","render"}`: its place in the rendered manifest (`source` names the render,
 * e.g. `render:kustomize:overlays/prod`). Fields are only ever added to this shape, never renamed or removed.
 */
export function formatJson(findings: readonly ResolvedFinding[]): string {
  return JSON.stringify(
    {
      version: 1,
      findings: findings.map(({ finding, region, related, fixes, rendered }) => ({
        ruleId: finding.ruleId,
        severity: finding.severity,
        message: finding.message,
        file: region.file,
        line: region.line,
        column: region.column,
        endLine: region.endLine,
        endColumn: region.endColumn,
        object: finding.object ? { kind: finding.object.kind, namespace: finding.object.namespace, name: finding.object.name } : null,
        related: related.map((r) => ({ file: r.region.file, line: r.region.line, column: r.region.column, message: r.message })),
        fixes: finding.fixes.map((f) => f.title),
        ...(rendered ? { rendered: { source: rendered.region.file, line: rendered.region.line, column: rendered.region.column, render: rendered.label } } : {}),
        quickFixes: fixes.map(quickFix),
      })),
    },
    null,
    2,
  ) + '\n';
}

function quickFix(fix: ResolvedFix): object {
  return {
    title: fix.title,
    preferred: fix.preferred,
    edits: fix.edits.map(({ region: r, start, end, newText }) => ({ file: r.file, line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn, offset: start, endOffset: end, newText })),
  };
}
