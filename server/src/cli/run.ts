import { existsSync, readSync } from 'node:fs';
import { escapeKeepingNewlines } from '../core/output/escape-text';
import { resolve } from 'node:path';
import { keepClusterFinding } from '../cluster/cli-cluster';
import type { Severity } from '../core/config/config';
import { resolveFindings } from '../core/output/resolve';
import { allRules } from '../core/rules/index';
import { packageVersion } from '../node/version';
import type { Span } from '../core/source/span';
import { colors, useColor } from './colors';
import { commandsHelp, SUBCOMMANDS } from './commands/index';
import { formatJson } from './format-json';
import { formatText } from './format-text';
import type { CliIo } from './io';
import { lintWorkspace } from './workspace';
import { deliverReport } from './report-file';
import { exitTwoOnUserErrors } from './user-errors';
import { CliOptions, lintUsage, parseCliOptions, UsageError } from './options';
import { usageErrorText } from './flags';
import { joinNames } from '../core/rules/report/collisions';

export type { CliIo } from './io';

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1, hint: 0 };

/**
 * Runs the CLI: a subcommand when the first argument names one (commands/index.ts), else the lint
 * command. Resolves to the exit code (0 clean, 1 findings at or above --fail-on or more than
 * --max-warnings warnings, 2 usage error, bad config, a path that does not exist or cannot be listed, or a rule that
 * crashed).
 */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  // Messages on stderr quote paths and values from the workspace: no control or bidi character gets through.
  const io: CliIo = { ...rawIo, stderr: (t) => rawIo.stderr(escapeKeepingNewlines(t)) };
  const command = SUBCOMMANDS.find((c) => c.name === argv[0]);
  return command ? command.run(argv.slice(1), io) : runLint(argv, io);
}

/** The lint command. Files are read and parsed on worker threads (see node/parallel-load.ts). */
async function runLint(argv: readonly string[], io: CliIo): Promise<number> {
  const usage = (): string => lintUsage(commandsHelp());
  let options: CliOptions;
  try {
    options = parseCliOptions(argv, (p) => existsSync(resolve(io.cwd, p)));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(usageErrorText('kube-netlint', err.message));
    return 2;
  }
  if (options.help) {
    io.stdout(usage());
    return 0;
  }
  if (options.version) {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  if (options.paths.length === 0) {
    io.stderr(usageErrorText('kube-netlint', 'no paths given'));
    return 2;
  }
  return exitTwoOnUserErrors('kube-netlint', io, () => lint(options, io));
}

async function lint(options: CliOptions, io: CliIo): Promise<number> {
  const linted = await lintWorkspace(options, io);
  const { files, extraObjects } = linted;
  for (const failure of linted.failures) io.stderr(`kube-netlint: rule ${failure.ruleId} failed and was skipped: ${failure.error.split('\n')[0]}\n`);
  const findings = extraObjects ? linted.findings.filter(keepClusterFinding) : linted.findings;
  const reported = options.quiet ? findings.filter((f) => f.severity === 'error') : findings;
  const resolved = resolveFindings(reported, linted.fileMap);
  let report: string;
  if (options.format === 'json') report = formatJson(resolved);
  else if (options.format === 'sarif') {
    const textOf = (span: Span): string => linted.fileMap.get(span.file)?.text.slice(span.start, span.end) ?? '';
    // Loaded only for SARIF: it brings markdown-it and its entity tables, whose start-up every other run would pay.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { formatSarif } = require('./format-sarif') as typeof import('./format-sarif');
    report = formatSarif(resolved, { rules: allRules, version: packageVersion(), srcRoot: io.cwd, failures: linted.failures, textOf });
  }
  else {
    const hidden = { warnings: 0, notes: 0 }; // what --quiet left out of the report
    if (options.quiet) for (const f of findings) if (f.severity !== 'error') hidden[f.severity === 'warning' ? 'warnings' : 'notes']++;
    report = formatText(resolved, files.length, colors(useColor(options.color, io.env ?? {}, !options.output && (io.stdoutIsTTY ?? false))), hidden);
    const groups = linted.clusterGroups;
    if (groups.length > 1) io.stderr(separateClustersNote(groups));
  }
  deliverReport(report, options.output, files, io);
  const threshold = RANK[options.failOn];
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const tooManyWarnings = options.maxWarnings !== undefined && warnings > options.maxWarnings;
  if (tooManyWarnings) io.stderr(`kube-netlint: ${warnings === 1 ? '1 warning' : `${warnings} warnings`} found, more than --max-warnings ${options.maxWarnings}\n`);
  // A rule that crashed checked nothing: the run is incomplete, so it fails whatever it found (eslint exits 2 too).
  if (linted.failures.length) return 2;
  return tooManyWarnings || findings.some((f) => RANK[f.severity] >= threshold) ? 1 : 0;
}

/**
 * The stderr line that says a workspace was linted as several clusters (each kustomize entry point, Helm release
 * and `clusters:` group is one, see core/repo/layout.ts): a nodePort shared by two of them is not a collision, and
 * a user who deploys them together needs to know how to say so.
 */
export function separateClustersNote(groups: readonly string[]): string {
  return `kube-netlint: linted as ${groups.length} separate clusters (${joinNames(groups)}): objects of different clusters are never compared; to lint some together, list them under clusters: in .kube-netlint.yaml\n`;
}

/**
 * Reads standard input (fd 0) synchronously, at most `maxBytes` + 1 bytes: `kube-netlint - < /dev/zero` stops at
 * the limit instead of filling memory (the caller reports the input as too large).
 */
export function readStdinSync(maxBytes = Infinity): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); continue; } // a non-blocking pipe: wait for data
      if (code === 'EOF') break;
      throw err;
    }
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) break;
  }
  return Buffer.concat(chunks, total);
}

export { commonFolder } from './workspace';
