import type { Region, ResolvedFinding } from '../core/output/resolve';
import { isVirtualFile } from '../core/source/span';

/** `file:line:col`; objects without text (live cluster `cluster:<context>/<kind>/<ns>/<name>`, built-ins) print their name alone. */
function where(r: Region): string {
  return isVirtualFile(r.file) ? r.file : `${r.file}:${r.line}:${r.column}`;
}

/**
 * Compiler-style text: `file:line:col: severity rule-id: message`, related locations indented
 * beneath, then a summary line.
 */
export function formatText(findings: readonly ResolvedFinding[], fileCount: number): string {
  const lines: string[] = [];
  for (const { finding, region, related } of findings) {
    lines.push(`${where(region)}: ${finding.severity} ${finding.ruleId}: ${finding.message}`);
    for (const r of related) lines.push(`    ${where(r.region)}: ${r.message}`);
  }
  const count = (s: string): number => findings.filter((f) => f.finding.severity === s).length;
  lines.push(`${fileCount} file${fileCount === 1 ? '' : 's'} checked: ${count('error')} errors, ${count('warning')} warnings, ${count('info') + count('hint')} notes`);
  return lines.join('\n') + '\n';
}
