import type { Region, ResolvedFinding } from '../core/output/resolve';
import type { Severity } from '../core/config/config';
import { isVirtualFile } from '../core/source/span';
import { colors, Colors } from './colors';
import { escapeForTerminal } from '../core/output/escape-text';

/** `file:line:col`; objects without text (live cluster `cluster:<context>/<kind>/<ns>/<name>`, built-ins) print their name alone. */
function where(r: Region): string {
  return escapeForTerminal(isVirtualFile(r.file) ? r.file : `${r.file}:${r.line}:${r.column}`);
}

/** `1 error`, `2 errors`. */
export function plural(n: number, singular: string): string {
  return `${n} ${singular}${n === 1 ? '' : 's'}`;
}

/**
 * Compiler-style text: `file:line:col: severity rule-id: message`, related locations indented
 * beneath, then a summary line (`2 files checked: 1 error, 0 warnings, 1 note`; info and hint findings
 * are notes). `c` colours the location, the severity and the rule id (default: no colour). Control and bidi
 * characters in file names and messages are shown as escapes (see {@link escapeForTerminal}).
 * `hidden` counts the findings `--quiet` left out: the summary still counts them (they still decide
 * `--max-warnings`), marked as not shown, so the summary never contradicts the exit code.
 */
export function formatText(findings: readonly ResolvedFinding[], fileCount: number, c: Colors = colors(false), hidden: { readonly warnings: number; readonly notes: number } = { warnings: 0, notes: 0 }): string {
  const paint: Record<Severity, (s: string) => string> = { error: (s) => c.bold(c.red(s)), warning: c.yellow, info: c.cyan, hint: c.cyan };
  const lines: string[] = [];
  for (const { finding, region, related } of findings) {
    // Names, values and file names come from the workspace: escaped, so none can forge a line (or the summary).
    lines.push(`${c.bold(where(region))}: ${paint[finding.severity](finding.severity)} ${c.dim(finding.ruleId)}: ${escapeForTerminal(finding.message)}`);
    for (const r of related) lines.push(`    ${c.bold(where(r.region))}: ${escapeForTerminal(r.message)}`);
  }
  const count = (...s: Severity[]): number => findings.filter((f) => s.includes(f.finding.severity)).length;
  const [errors, warnings, notes] = [count('error'), count('warning') + hidden.warnings, count('info', 'hint') + hidden.notes];
  const notShown = hidden.warnings + hidden.notes ? ' (only errors shown: --quiet)' : '';
  const summary = `${plural(fileCount, 'file')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(notes, 'note')}${notShown}`;
  lines.push(errors ? c.red(summary) : warnings ? c.yellow(summary) : summary);
  return lines.join('\n') + '\n';
}
