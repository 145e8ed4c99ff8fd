import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
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
import { renderWorkspace } from '../node/render/render-workspace';
import { findRenderers } from '../node/render/tools';
import { formatJson } from './format-json';
import { formatSarif } from './format-sarif';
import { formatText } from './format-text';
import { CliOptions, parseCliOptions, USAGE, UsageError } from './options';

export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => string | Uint8Array;
  /** Environment (PATH, KUBE_NETLINT_HELM, KUBE_NETLINT_KUSTOMIZE); default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
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
  const rendered = options.noRender ? undefined : await renderForCli(options, io, files, config, repoPath, baseDir, configPath);
  const analysis = analyze(files, config, { repoPath, extraObjects, renders: rendered?.outcomes, helmUnavailable: rendered?.helmUnavailable });
  for (const failure of analysis.failures) io.stderr(`kube-netlint: rule ${failure.ruleId} failed and was skipped: ${failure.error.split('\n')[0]}\n`);
  const findings = extraObjects ? analysis.findings.filter(keepClusterFinding) : analysis.findings;
  const resolved = resolveFindings(findings, analysis.files);
  if (options.format === 'json') io.stdout(formatJson(resolved));
  else if (options.format === 'sarif') io.stdout(formatSarif(resolved, allRules, packageVersion()));
  else io.stdout(formatText(resolved, files.length));
  const threshold = RANK[options.failOn];
  return findings.some((f) => RANK[f.severity] >= threshold) ? 1 : 0;
}

/**
 * Renders the workspace's kustomize entry points and Helm releases with the real tools (when it has any), and says
 * on stderr which renders ran (`rendered 3 kustomizations, 2 Helm releases in 1.4 s`) and which tool is missing.
 */
async function renderForCli(options: CliOptions, io: CliIo, files: readonly LoadedFile[], config: CoreConfig, repoPath: (f: string) => string, baseDir: string, configPath: string | undefined) {
  if (!files.some((f) => f.role) && !files.some((f) => f.objects.some((o) => GITOPS_KINDS.has(o.kind)))) return undefined;
  const env = io.env ?? process.env;
  const renderers = await findRenderers(
    { path: options.helm ?? env.KUBE_NETLINT_HELM, source: options.helm ? '--helm flag' : 'KUBE_NETLINT_HELM' },
    { path: options.kustomize ?? env.KUBE_NETLINT_KUSTOMIZE, source: options.kustomize ? '--kustomize flag' : 'KUBE_NETLINT_KUSTOMIZE' },
    env.PATH,
    io.cwd,
  );
  const result = await renderWorkspace({ files, config, repoPath, baseDir, repoRoot: repositoryRoot(baseDir, configPath), renderers });
  const kustomizations = result.outcomes.filter((o) => o.job.kind === 'kustomize').length;
  const releases = result.outcomes.length - kustomizations;
  const failed = result.outcomes.filter((o) => !o.file).length;
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  if (result.outcomes.length) {
    io.stderr(`kube-netlint: rendered ${plural(kustomizations, 'kustomization', 'kustomizations')}, ${plural(releases, 'Helm release', 'Helm releases')} in ${(result.durationMs / 1000).toFixed(1)} s${failed ? ` (${failed} failed, see render-failed)` : ''}\n`);
  }
  const needs = { helm: files.some((f) => f.role?.type === 'helm-chart'), kustomize: files.some((f) => f.role?.type === 'kustomization') };
  for (const p of renderers.problems) {
    if ((p.startsWith('helm') && needs.helm) || (p.startsWith('kustomize') && needs.kustomize)) io.stderr(`kube-netlint: ${p}: ${p.startsWith('helm') ? 'Helm charts are not rendered' : 'kustomize overlays are linted as written'}\n`);
  }
  return result;
}

/** Kinds of GitOps objects that name releases (Argo CD Application, Flux HelmRelease / Kustomization). */
const GITOPS_KINDS = new Set(['Application', 'HelmRelease', 'Kustomization']);

/** The repository root: the nearest folder above `baseDir` with a `.git`, else the config file's folder, else `baseDir`. */
function repositoryRoot(baseDir: string, configPath: string | undefined): string {
  for (let dir = baseDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) break;
  }
  return configPath ? dirname(configPath) : baseDir;
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
