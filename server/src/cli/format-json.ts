import type { ResolvedFinding } from '../core/output/resolve';

/**
 * JSON output, version 1:
 * `{"version":1,"findings":[{"ruleId","severity","message","file","line","column","endLine","endColumn",
 * "object":{"kind","namespace","name"},"related":[{"file","line","column","message"}]}]}`; lines and
 * columns are 1-based. `fixes` lists each quick fix's title (edits are an editor feature). A finding on a rendered
 * object (kustomize / Helm output) points at the source line and adds `"rendered":{"source","line","column","render"}`:
 * its place in the rendered manifest (`source` names the render, e.g. `render:kustomize:overlays/prod`).
 */
export function formatJson(findings: readonly ResolvedFinding[]): string {
  return JSON.stringify(
    {
      version: 1,
      findings: findings.map(({ finding, region, related, rendered }) => ({
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
      })),
    },
    null,
    2,
  ) + '\n';
}
