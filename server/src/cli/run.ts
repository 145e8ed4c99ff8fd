import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { clusterObjectsForCli, keepClusterFinding } from '../cluster/cli-cluster';
import { analyze } from '../core/analyze';
import { ConfigError, CoreConfig, DEFAULT_CONFIG, Severity } from '../core/config/config';
import { loadFile, LoadedFile } from '../core/load/load-file';
import { resolveFindings } from '../core/output/resolve';
import { allRules } from '../core/rules/index';
import { findConfigFile, readConfigFile } from '../node/config-file';
import { discoverFiles, PathError } from '../node/discover-files';
import { decodeManifest } from '../node/read-file';
import { loadFiles } from '../node/parallel-load';
import { skippedFile } from '../core/load/skipped-file';
import { packageVersion } from '../node/version';
import type { Span } from '../core/source/span';
import { colors, useColor } from './colors';
import { commandsHelp, SUBCOMMANDS } from './commands/index';
import { formatJson } from './format-json';
import { formatSarif } from './format-sarif';
import { formatText } from './format-text';
import type { CliIo } from './io';
import { CliOptions, lintUsage, parseCliOptions, UsageError } from './options';

export type { CliIo } from './io';

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1, hint: 0 };

/**
 * Runs the CLI: a subcommand when the first argument names one (commands/index.ts), else the lint
 * command. Resolves to the exit code (0 clean, 1 findings at or above --fail-on or more than
 * --max-warnings warnings, 2 usage error, bad config or unreadable path).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
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
    io.stderr(`kube-netlint: ${err.message}\n\n${usage()}`);
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
    io.stderr(`kube-netlint: no paths given\n\n${usage()}`);
    return 2;
  }
  try {
    return await lint(options, io);
  } catch (err) {
    if (err instanceof UsageError || err instanceof PathError || err instanceof ConfigError) {
      io.stderr(`kube-netlint: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

async function lint(options: CliOptions, io: CliIo): Promise<number> {
  const absolute = (p: string): string => (isAbsolute(p) ? p : resolve(io.cwd, p));
  const diskPaths = options.paths.filter((p) => p !== '-').map(absolute);
  const stdinPath = options.stdinFilename !== undefined ? absolute(options.stdinFilename) : undefined;
  // One config per run, whatever the order of the paths: the one of the deepest folder holding them all, or above.
  const lookupPaths = stdinPath ? [...diskPaths, stdinPath] : diskPaths;
  const configPath = options.config ? absolute(options.config) : findConfigFile(commonFolder(lookupPaths) ?? io.cwd);
  const fileConfig: CoreConfig = configPath ? readConfigFile(configPath) : DEFAULT_CONFIG;
  const display = (p: string): string => {
    const rel = relative(io.cwd, p);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
  };
  const configName = configPath ? display(configPath) : '';
  const baseDir = configPath ? dirname(configPath) : io.cwd;
  const config: CoreConfig = {
    ...fileConfig,
    nodePortRange: options.nodePortRange ?? fileConfig.nodePortRange,
    kubeProxyMode: options.kubeProxyMode ?? fileConfig.kubeProxyMode,
    rules: { ...fileConfig.rules, ...options.rules },
    exclude: [...fileConfig.exclude, ...options.exclude.map((g) => rebaseGlob(g, io.cwd, baseDir))],
    settingSources: {
      nodePortRange: options.nodePortRange ? '--node-port-range flag' : `nodePortRange in ${configName}`,
      kubeProxyMode: options.kubeProxyMode ? '--kube-proxy-mode flag' : `kubeProxyMode in ${configName}`,
    },
  };
  const files: LoadedFile[] = [];
  const loadOptions = { defaultNamespace: config.namespace, maxBytes: options.maxFileBytes };
  const stdinName = stdinPath ? display(stdinPath) : '<stdin>';
  if (options.paths.includes('-')) {
    const decoded = decodeManifest(toBytes(io.readStdin()));
    files.push('skip' in decoded ? skippedFile(stdinName, decoded.skip, decoded.detail) : loadFile(stdinName, decoded.text, loadOptions));
  }
  // The standard input named by --stdin-filename stands for that file (an editor's unsaved buffer): the copy on disk is not read.
  const onDisk = discoverFiles(diskPaths, config.exclude, baseDir)
    .filter((path) => path !== stdinPath)
    .map((path) => [path, display(path)] as const);
  files.push(...(await loadFiles(onDisk, loadOptions)));
  // Cluster globs and kustomize paths are relative to the config file's folder (else the working directory).
  const repoPath = (file: string): string => (file === '<stdin>' ? file : relative(baseDir, resolve(io.cwd, file)).split(sep).join('/'));
  // --cluster: live objects join the analysis under the workspace's.
  const extraObjects = options.cluster !== undefined ? await clusterObjectsForCli(options.cluster, files, io.stderr) : undefined;
  const analysis = analyze(files, config, { repoPath, extraObjects });
  for (const failure of analysis.failures) io.stderr(`kube-netlint: rule ${failure.ruleId} failed and was skipped: ${failure.error.split('\n')[0]}\n`);
  const findings = extraObjects ? analysis.findings.filter(keepClusterFinding) : analysis.findings;
  const reported = options.quiet ? findings.filter((f) => f.severity === 'error') : findings;
  const resolved = resolveFindings(reported, analysis.files);
  let report: string;
  if (options.format === 'json') report = formatJson(resolved);
  else if (options.format === 'sarif') {
    const textOf = (span: Span): string => analysis.files.get(span.file)?.text.slice(span.start, span.end) ?? '';
    report = formatSarif(resolved, { rules: allRules, version: packageVersion(), srcRoot: io.cwd, failures: analysis.failures, textOf });
  }
  else report = formatText(resolved, files.length, colors(useColor(options.color, io.env ?? {}, !options.output && (io.stdoutIsTTY ?? false))));
  if (options.output) writeReport(absolute(options.output), report);
  else io.stdout(report);
  const threshold = RANK[options.failOn];
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const tooManyWarnings = options.maxWarnings !== undefined && warnings > options.maxWarnings;
  if (tooManyWarnings) io.stderr(`kube-netlint: ${warnings} warnings found, more than --max-warnings ${options.maxWarnings}\n`);
  return tooManyWarnings || findings.some((f) => RANK[f.severity] >= threshold) ? 1 : 0;
}

/**
 * Writes the report to `--output FILE`, creating its folder.
 * @throws PathError when the file cannot be written (exit 2)
 */
function writeReport(file: string, report: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, report);
  } catch (err) {
    throw new PathError(`${file}: cannot write the report (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
}

/**
 * A glob given relative to `from` (the working directory), rewritten relative to `to` (the folder exclude
 * globs are matched against), with `/` separators: `vendor/**` run in `<to>/apps` becomes `apps/vendor/**`.
 * A leading `!` stays in front.
 */
export function rebaseGlob(glob: string, from: string, to: string): string {
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  const prefix = relative(to, from).split(sep).join('/');
  const rebased = isAbsolute(body) ? relative(to, body).split(sep).join('/') : prefix ? posix.join(prefix, body) : body;
  return (negated ? '!' : '') + rebased;
}

function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}

/** Reads all of standard input (fd 0) synchronously. */
export function readStdinSync(): Uint8Array {
  return readFileSync(0);
}

/** The deepest folder that contains every path (a file counts as its folder); undefined for no paths. */
export function commonFolder(paths: readonly string[]): string | undefined {
  if (paths.length === 0) return undefined;
  const folders = paths.map((p) => {
    try {
      return statSync(p).isDirectory() ? p : dirname(p);
    } catch {
      return dirname(p);
    }
  });
  let common = folders[0];
  for (const f of folders.slice(1)) {
    while (common !== dirname(common) && !(f === common || f.startsWith(common.endsWith(sep) ? common : common + sep))) common = dirname(common);
  }
  return common;
}
