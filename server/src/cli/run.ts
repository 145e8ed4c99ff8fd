import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
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
import { formatJson } from './format-json';
import { formatSarif } from './format-sarif';
import { formatText } from './format-text';
import { CliOptions, parseCliOptions, USAGE, UsageError } from './options';

export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => string | Uint8Array;
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1, hint: 0 };

/**
 * Runs the CLI; resolves to the exit code (0 clean, 1 findings at or above --fail-on, 2 usage error).
 * Files are read and parsed on worker threads (see node/parallel-load.ts).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliOptions(argv, (p) => existsSync(resolve(io.cwd, p)));
  } catch (err) {
    io.stderr(`kube-netlint: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (options.version) {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  if (options.paths.length === 0) {
    io.stderr(`kube-netlint: no paths given\n\n${USAGE}`);
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
  // One config per run, whatever the order of the paths: the one of the deepest folder holding them all, or above.
  const configPath = options.config ? absolute(options.config) : findConfigFile(commonFolder(diskPaths) ?? io.cwd);
  const fileConfig: CoreConfig = configPath ? readConfigFile(configPath) : DEFAULT_CONFIG;
  const display = (p: string): string => {
    const rel = relative(io.cwd, p);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
  };
  const configName = configPath ? display(configPath) : '';
  const config: CoreConfig = {
    ...fileConfig,
    nodePortRange: options.nodePortRange ?? fileConfig.nodePortRange,
    kubeProxyMode: options.kubeProxyMode ?? fileConfig.kubeProxyMode,
    settingSources: {
      nodePortRange: options.nodePortRange ? '--node-port-range flag' : `nodePortRange in ${configName}`,
      kubeProxyMode: options.kubeProxyMode ? '--kube-proxy-mode flag' : `kubeProxyMode in ${configName}`,
    },
  };
  const baseDir = configPath ? dirname(configPath) : io.cwd;
  const files: LoadedFile[] = [];
  const loadOptions = { defaultNamespace: config.namespace, maxBytes: options.maxFileBytes };
  if (options.paths.includes('-')) {
    const decoded = decodeManifest(toBytes(io.readStdin()));
    files.push('skip' in decoded ? skippedFile('<stdin>', decoded.skip, decoded.detail) : loadFile('<stdin>', decoded.text, loadOptions));
  }
  const onDisk = discoverFiles(diskPaths, config.exclude, baseDir).map((path) => [path, display(path)] as const);
  files.push(...(await loadFiles(onDisk, loadOptions)));
  // Cluster globs and kustomize paths are relative to the config file's folder (else the working directory).
  const repoPath = (file: string): string => (file === '<stdin>' ? file : relative(baseDir, resolve(io.cwd, file)).split(sep).join('/'));
  // --cluster: live objects join the analysis under the workspace's (issue 7).
  const extraObjects = options.cluster !== undefined ? await clusterObjectsForCli(options.cluster, files, io.stderr) : undefined;
  const analysis = analyze(files, config, { repoPath, extraObjects });
  for (const failure of analysis.failures) io.stderr(`kube-netlint: rule ${failure.ruleId} failed and was skipped: ${failure.error.split('\n')[0]}\n`);
  const findings = extraObjects ? analysis.findings.filter(keepClusterFinding) : analysis.findings;
  const resolved = resolveFindings(findings, analysis.files);
  if (options.format === 'json') io.stdout(formatJson(resolved));
  else if (options.format === 'sarif') io.stdout(formatSarif(resolved, allRules, packageVersion()));
  else io.stdout(formatText(resolved, files.length));
  const threshold = RANK[options.failOn];
  return findings.some((f) => RANK[f.severity] >= threshold) ? 1 : 0;
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
