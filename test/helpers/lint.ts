import { analyze, Analysis } from '../../server/out/core/analyze';
import { CoreConfig, DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import { regionOf } from '../../server/out/core/output/resolve';
import { allRules } from '../../server/out/core/rules/index';
import type { Finding } from '../../server/out/core/rules/rule';
import { recordFixInput } from './seen-fixes';
import { recordMessages } from './seen-messages';

/** A finding with 1-based positions, for exact assertions in tests. */
export interface TestFinding {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The text the finding's span covers. */
  text: string;
  object?: string;
  related: { file: string; line: number; column: number; text: string; message: string }[];
  fixes: Finding['fixes'];
  finding: Finding;
}

/**
 * Lints in-memory files (`{name: yaml}`), optionally keeping only some rules' findings.
 * Strips a common leading indentation so YAML can be written indented in test sources.
 */
export function lint(files: Record<string, string> | string, options: { config?: Partial<CoreConfig>; rules?: string[] } = {}): { findings: TestFinding[]; analysis: Analysis } {
  const map = typeof files === 'string' ? { 'test.yaml': files } : files;
  const config: CoreConfig = { ...DEFAULT_CONFIG, ...options.config };
  const texts = Object.fromEntries(Object.entries(map).map(([name, text]) => [name, dedent(text)]));
  const loaded = Object.entries(texts).map(([name, text]) => loadFile(name, text, { defaultNamespace: config.namespace }));
  const analysis = analyze(loaded, config);
  recordMessages(analysis.findings);
  if (analysis.findings.some((f) => f.fixes.length)) recordFixInput(texts, config);
  /** The text a span covers in its file ('' when the file is not one of the analysis). */
  const spanText = (span: Finding['span']): string => analysis.files.get(span.file)?.text.slice(span.start, span.end) ?? '';
  const findings = analysis.findings
    .filter((f) => !options.rules || options.rules.includes(f.ruleId))
    .map((f) => {
      const r = regionOf(f.span, analysis.files);
      return {
        ruleId: f.ruleId,
        severity: f.severity,
        message: f.message,
        file: r.file,
        line: r.line,
        column: r.column,
        endLine: r.endLine,
        endColumn: r.endColumn,
        text: spanText(f.span),
        object: f.object ? (f.object.namespace ? `${f.object.kind} ${f.object.namespace}/${f.object.name}` : `${f.object.kind} ${f.object.name}`) : undefined,
        related: f.related.map((rel) => {
          const rr = regionOf(rel.span, analysis.files);
          return { file: rr.file, line: rr.line, column: rr.column, text: spanText(rel.span), message: rel.message };
        }),
        fixes: f.fixes,
        finding: f,
      };
    });
  return { findings, analysis };
}

/** Applies a fix's edits to in-memory text of one file. */
export function applyEdits(text: string, edits: readonly { span: { start: number; end: number }; newText: string }[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

/** Removes the common leading indentation and a leading newline. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length);
  const min = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(min)).join('\n');
}

export { allRules };
