import type { ResolvedFinding } from '../core/output/resolve';

/**
 * Compiler-style text: `file:line:col: severity rule-id: message`, related locations indented
 * beneath, then a summary line.
 */
export function formatText(findings: readonly ResolvedFinding[], fileCount: number): string {
  const lines: string[] = [];
  for (const { finding, region, related } of findings) {
    lines.push(`${region.file}:${region.line}:${region.column}: ${finding.severity} ${finding.ruleId}: ${finding.message}`);
    for (const r of related) lines.push(`    ${r.region.file}:${r.region.line}:${r.region.column}: ${r.message}`);
  }
  const count = (s: string): number => findings.filter((f) => f.finding.severity === s).length;
  lines.push(`${fileCount} file${fileCount === 1 ? '' : 's'} checked: ${count('error')} errors, ${count('warning')} warnings, ${count('info') + count('hint')} notes`);
  return lines.join('\n') + '\n';
}
