import { isDirectory, isFile } from '../node/file-kind';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { clusterObjectsForCli } from '../cluster/cli-cluster';
import { analysisInputs, analyze, Analysis, type AnalyzeOptions } from '../core/analyze';
import { CoreConfig, DEFAULT_CONFIG } from '../core/config/config';
import { holdsNoDocument } from '../core/load/empty-stream';
import { loadFile, LoadedFile } from '../core/load/load-file';
import { skippedFile } from '../core/load/skipped-file';
import type { RuleFailure } from '../core/engine/run-rules';
import type { K8sObject } from '../core/model/objects';
import type { Finding } from '../core/rules/rule';
import { isRemoteReference } from '../core/render/remote';
import { findConfigFile, readConfigFile } from '../node/config-file';
import { discoverFiles, PathError } from '../node/discover-files';
import { excludeGlobs } from '../node/exclude-globs';
import { digestFiles, type FileDigest, type FileToLoad, LEAN_WORKSPACE_BYTES, loadFiles } from '../node/parallel-load';
import { CACHE_FILE_NAME, ParseCache } from '../node/parse-cache';
import { DEFAULT_CLI_MAX_FILE_BYTES, loadManifestBytes, tooLargeDetail } from '../node/read-file';
import { analysisKey, type FileHash, findingFiles, foundKey, type FoundSettings, recallFindings, type RememberedFindings, rememberFindings, rendersNothing } from '../node/remembered-findings';
import { packageVersion } from '../node/version';
import type { CliIo } from './io';
import type { CliOptions } from './options';
import { renderForCli } from './render';
import { helmContextOfStdin, kustomizeContextOf, kustomizeContextOfStdin } from './stdin-context';

/** The options that say what to analyse, shared by every command that reads a workspace (lint, ports). */
export type WorkspaceOptions = Pick<CliOptions, 'paths' | 'config' | 'nodePortRange' | 'kubeProxyMode' | 'rules' | 'exclude' | 'stdinFilename' | 'maxFileBytes' | 'cluster'>
  & Partial<Pick<CliOptions, 'cache' | 'cacheLocation' | 'helm' | 'kustomize' | 'noRender' | 'requireCluster'>>;

/** A workspace read and analysed for a command. */
export interface AnalysedWorkspace {
  readonly analysis: Analysis;
  /** The configuration the analysis ran with (config file, then flags). */
  readonly config: CoreConfig;
  readonly files: readonly LoadedFile[];
  /** Objects read with `--cluster` (undefined without it). */
  readonly extraObjects?: readonly K8sObject[];
}

/** What the lint command reports of a workspace: the analysis's findings, or those a cache kept for the same inputs. */
export interface LintedWorkspace {
  readonly findings: readonly Finding[];
  /** Rules that threw (their findings are missing). */
  readonly failures: readonly RuleFailure[];
  /** Every file a finding may point into, by name (what Analysis.files holds). */
  readonly fileMap: ReadonlyMap<string, LoadedFile>;
  /** The cluster groups the rules ran in, when there are several (Analysis.clusterModels' keys). */
  readonly clusterGroups: readonly string[];
  /** The files the run linted (those of standard input's render context left out). */
  readonly files: readonly { readonly file: string }[];
  readonly extraObjects?: readonly K8sObject[];
  /**
   * Set when the findings came from the cache (`--cache`, nothing changed since the run that stored them): `before
   * loading` when the files' content hashes alone keyed them, `after loading` when the loaded files and what the
   * renderers gave did (see {@link lintWorkspace}).
   */
  readonly recalled?: 'before loading' | 'after loading';
}

/**
 * Finds the config, reads the paths (standard input for `-`; files on worker threads, see node/parallel-load.ts),
 * reads the live cluster with `--cluster`, renders kustomize overlays and Helm charts, and analyses everything.
 * @throws PathError for unreadable paths, ConfigError for a bad config file (the commands exit 2)
 */
export async function analyzeWorkspace(options: WorkspaceOptions, io: CliIo): Promise<AnalysedWorkspace> {
  const read = await readWorkspace(findWorkspace(options, io), options, io);
  const analysis = analyzeRead(read);
  saveCache(read.cache, io);
  return { analysis, config: read.config, files: read.reported, extraObjects: read.extraObjects };
}

/**
 * {@link analyzeWorkspace} for the lint command: with `--cache`, a run whose inputs are all unchanged since the
 * last run that stored its findings (every file's text, the configuration and flags, what the renderers gave;
 * see node/remembered-findings.ts) shows those findings instead of analysing again. When that run rendered nothing
 * and its findings lie in its own files, the check comes before any manifest is loaded: the files are only read
 * and hashed, and only those with findings are taken from the cache (for their lines). Live-cluster runs and
 * standard input are always analysed.
 * @throws as analyzeWorkspace
 */
export async function lintWorkspace(options: WorkspaceOptions, io: CliIo): Promise<LintedWorkspace> {
  const found = findWorkspace(options, io);
  const { cache } = found;
  const keyable = cache !== undefined && options.cluster === undefined && !options.paths.includes('-');
  // Read (and hashed) here for the early key, and handed to the loader so that a miss does not read them again.
  const digests = keyable ? await digestFiles([...found.onDisk.map(([path]) => path), ...found.namedContext], found.loadOptions.maxBytes) : undefined;
  // Without standard input the loaded files are these, in this order, loaded from the texts digested (then the context).
  const hashes = digests && [...found.onDisk, ...found.namedContext.map((path) => [path, found.display(path)] as const)].map(([path, name]): FileHash => [name, digests.get(path)?.hash]);
  const early = hashes && foundKey(foundSettings(found, options, io), hashes);
  const earlyHit = early !== undefined ? recallFindings(cache!, early) : undefined;
  const replayed = earlyHit && replayFound(found, earlyHit, digests!);
  if (replayed) return replayed;
  const read = await readWorkspace(found, options, io, digests);
  const key = hashes && analysisKey(hashes, { ...read.analyzeOptions, config: read.config, cwd: io.cwd, rootDir: read.rootDir });
  const recalled = key !== undefined ? recallFindings(cache!, key) : undefined;
  if (recalled) {
    // The rules do not run; the files findings refer to are placed as the analysis places them.
    const inputs = analysisInputs(read.files, read.config, read.analyzeOptions);
    // Stored by a run decided by its files alone under other output flags, say: this run's early key joins.
    if (early !== undefined && recalled.decidedByFiles) rememberFindings(cache!, [key!, early], recalled);
    saveCache(cache, io);
    return { findings: recalled.findings, failures: recalled.failures, clusterGroups: recalled.clusterGroups, fileMap: inputs.fileMap, files: read.reported, recalled: 'after loading' };
  }
  const analysis = analyzeRead(read);
  const linted: LintedWorkspace = {
    findings: analysis.findings, failures: analysis.failures, fileMap: analysis.files, clusterGroups: [...analysis.clusterModels.keys()],
    files: read.reported, extraObjects: read.extraObjects,
  };
  if (key !== undefined) {
    const byFiles = decidedByFiles(read, analysis);
    rememberFindings(cache!, early !== undefined && byFiles ? [key, early] : [key], { ...linted, decidedByFiles: byFiles });
  }
  saveCache(cache, io);
  return linted;
}

/** The {@link FoundSettings} of a run: the options that say what to analyse and how, as given. */
function foundSettings(found: FoundWorkspace, options: WorkspaceOptions, io: CliIo): FoundSettings {
  const { paths, config, nodePortRange, kubeProxyMode, rules, exclude, stdinFilename, maxFileBytes, helm, kustomize, noRender } = options;
  const analysing = { paths, config, nodePortRange, kubeProxyMode, rules, exclude, stdinFilename, maxFileBytes, helm, kustomize, noRender };
  return { options: analysing, config: found.config, cwd: io.cwd, gitDir: gitFolderAbove(commonFolder(found.diskPaths) ?? io.cwd) };
}

/**
 * True when a run's findings follow from its files alone, so an early key (before loading) may stand for it: it
 * rendered nothing (no render, no note, no reason helm is missing, or rendering turned off) and loaded no config file
 * as a source, and every file a finding points into is one of the files it loaded, as loaded (not a rendered manifest
 * or a chart template placed as an empty file).
 */
function decidedByFiles(read: ReadWorkspace, analysis: Analysis): boolean {
  if (!rendersNothing(read.analyzeOptions, NO_RENDER_REASON)) return false;
  const loaded = new Map(read.files.map((f) => [f.file, f]));
  return [...findingFiles(analysis.findings)].every((name) => loaded.get(name) !== undefined && analysis.files.get(name) === loaded.get(name));
}

/**
 * The lint result of findings stored under an early key: the files with findings taken from the cache (their
 * lines place the findings; their texts are read when a format quotes them). Undefined when one of them cannot be
 * (a damaged entry): the run then loads and analyses as usual.
 */
function replayFound(found: FoundWorkspace, stored: RememberedFindings, digests: ReadonlyMap<string, FileDigest | undefined>): LintedWorkspace | undefined {
  const byName = new Map(found.onDisk.map(([path, name]) => [name, digests.get(path)]));
  const fileMap = new Map<string, LoadedFile>();
  for (const name of findingFiles(stored.findings)) {
    const digest = byName.get(name);
    const loaded = digest && found.cache!.get(name, digest.text, found.loadOptions.defaultNamespace ?? '', digest.hash, null);
    if (!loaded) return undefined;
    fileMap.set(name, loaded);
  }
  return { findings: stored.findings, failures: stored.failures, clusterGroups: stored.clusterGroups, fileMap, files: found.onDisk.map(([, name]) => ({ file: name })), recalled: 'before loading' };
}

/** The nearest folder at or above `dir` holding a `.git`, or undefined. */
function gitFolderAbove(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** A workspace read for analysis: its files (rendered too) and what analyze() is to be given. */
interface ReadWorkspace {
  readonly config: CoreConfig;
  /** Every loaded file, in load order (with the files standard input's render context added). */
  readonly files: readonly LoadedFile[];
  /** The files the command reports on (without those context files). */
  readonly reported: readonly LoadedFile[];
  /** Names of the context files: their findings are left out. */
  readonly contextNames: ReadonlySet<string>;
  readonly analyzeOptions: AnalyzeOptions;
  readonly rootDir: string;
  readonly extraObjects?: readonly K8sObject[];
  /** The parse cache, with `--cache`. */
  readonly cache?: ParseCache;
}

/** Writes the parse cache when it changed; a cache that cannot be written is a warning, never a failed run. */
function saveCache(cache: ParseCache | undefined, io: CliIo): void {
  const problem = cache?.save();
  if (problem) io.stderr(`kube-netlint: warning: ${problem}\n`);
}

function analyzeRead(read: ReadWorkspace): Analysis {
  const analyzed = analyze(read.files, read.config, read.analyzeOptions);
  const { contextNames } = read;
  return contextNames.size ? { ...analyzed, findings: analyzed.findings.filter((f) => !contextNames.has(f.span.file)) } : analyzed;
}

/**
 * The first part of reading a workspace, before any manifest is read: the config (file and flags), standard input,
 * and the files the paths name.
 */
interface FoundWorkspace {
  readonly config: CoreConfig;
  readonly fileConfig: CoreConfig;
  readonly configPath?: string;
  readonly configName: string;
  readonly baseDir: string;
  readonly diskPaths: readonly string[];
  readonly stdinPath?: string;
  /** Standard input as a loaded file, and its text (when it was not too large). */
  readonly stdinFile?: LoadedFile;
  readonly stdinText?: string;
  /** The files to load: path on disk and the name findings show. */
  readonly onDisk: readonly FileToLoad[];
  readonly loadOptions: { readonly defaultNamespace?: string; readonly maxBytes: number };
  readonly cache?: ParseCache;
  readonly display: (path: string) => string;
  /**
   * The other files of the kustomize overlays holding the files named one by one (see namedOverlayContext): loaded as
   * context (their findings left out), and part of the findings cache's key.
   */
  readonly namedContext: readonly string[];
}

function findWorkspace(options: WorkspaceOptions, io: CliIo): FoundWorkspace {
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
    exclude: fileConfig.exclude,
    settingSources: {
      nodePortRange: options.nodePortRange ? '--node-port-range flag' : `nodePortRange in ${configName}`,
      kubeProxyMode: options.kubeProxyMode ? '--kube-proxy-mode flag' : `kubeProxyMode in ${configName}`,
    },
  };
  const maxBytes = options.maxFileBytes ?? DEFAULT_CLI_MAX_FILE_BYTES;
  const loadOptions = { defaultNamespace: config.namespace, maxBytes };
  const stdinName = stdinPath ? display(stdinPath) : '<stdin>';
  let stdinText: string | undefined;
  let stdinFile: LoadedFile | undefined;
  if (options.paths.includes('-')) {
    const input = toBytes(io.readStdin(maxBytes));
    const tooLarge = input.length > maxBytes;
    const loaded = tooLarge ? skippedFile(stdinName, 'too-large', `${tooLargeDetail('standard input', undefined, maxBytes)} (--max-file-size)`) : loadManifestBytes(stdinName, input, loadOptions);
    // Plain `-` is a pipe (`helm template … | kube-netlint -`): nothing in it means the producer failed. With
    // --stdin-filename it is an editor's buffer, and an empty buffer is simply clean.
    if (!stdinPath && !tooLarge && holdsNoDocument(loaded.text)) {
      throw new PathError(`standard input: no manifests found (${input.length ? 'it holds only comments or empty documents' : 'it is empty'})`);
    }
    if (!tooLarge) stdinText = loaded.text;
    stdinFile = loaded;
  }
  // The standard input named by --stdin-filename stands for that file (an editor's unsaved buffer): the copy on disk is not read.
  // The config's globs are relative to its folder, the flag's to the working directory (README, --exclude).
  const exclude = [...excludeGlobs(config.exclude, baseDir), ...excludeGlobs(options.exclude, io.cwd)];
  const onDisk = discoverFiles(diskPaths, exclude, { failWhenEmpty: true })
    .filter((path) => path !== stdinPath)
    .map((path) => [path, display(path)] as const);
  const cache = options.cache ? ParseCache.open(cacheFile(options.cacheLocation, io.cwd), packageVersion()) : undefined;
  const namedContext = namedOverlayContext(diskPaths, new Set(onDisk.map(([path]) => path)), stdinPath);
  return { config, fileConfig, configPath, configName, baseDir, diskPaths, stdinPath, stdinFile, stdinText, onDisk, loadOptions, cache, display, namedContext };
}

/** Most files named one by one whose overlays are looked up (a hook passing thousands of files lints them alone). */
const MAX_NAMED_FOR_CONTEXT = 200;

/**
 * The files of the kustomize overlays holding the files named one by one among `diskPaths` (not folders, not globs),
 * see kustomizeContextOf; each folder is looked up once, and files already among `onDisk` are left out.
 * @returns absolute paths, in the order found
 */
function namedOverlayContext(diskPaths: readonly string[], onDisk: ReadonlySet<string>, stdinPath: string | undefined): string[] {
  const out = new Set<string>();
  const folders = new Set<string>();
  for (const path of diskPaths.filter(isFile).slice(0, MAX_NAMED_FOR_CONTEXT)) {
    if (folders.has(dirname(path)) && !KUSTOMIZATION_FILE.test(path)) continue;
    folders.add(dirname(path));
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue; // loading the file reports why it cannot be read
    }
    for (const p of kustomizeContextOf(path, text)) if (!onDisk.has(p) && p !== stdinPath) out.add(p);
  }
  return [...out];
}

const KUSTOMIZATION_FILE = /(?:^|[\\/])(?:kustomization\.ya?ml|Kustomization)$/;

/**
 * Loads a found workspace's files (the parse cache answering what it holds; `digests`, the files already read for
 * a cache lookup), reads the live cluster with `--cluster` and renders what is to be rendered: what analyze() is given.
 */
async function readWorkspace(found: FoundWorkspace, options: WorkspaceOptions, io: CliIo, digests?: ReadonlyMap<string, FileDigest | undefined>): Promise<ReadWorkspace> {
  const { config, fileConfig, configPath, configName, baseDir, diskPaths, stdinPath, stdinText, onDisk, loadOptions, cache, display } = found;
  const files: LoadedFile[] = found.stdinFile ? [found.stdinFile] : [];
  const lean = { compactTexts: true, leanFromBytes: LEAN_WORKSPACE_BYTES };
  for (const f of await loadFiles(onDisk, { ...loadOptions, cache, digests, ...lean })) files.push(f); // no spread: a workspace may hold 100,000s of files
  // Standard input named as a file of a kustomize overlay or a chart: the files its build or release reads join the run
  // (rendered with the buffer in place of the file, see cli/stdin-context.ts), and only the buffer's own findings are
  // reported. The overlay's files join with --no-render too, as for named files: they say whether the buffer is a patch
  // or a resource of a kustomization (whose build may add what it lacks); a chart's only matter to its render.
  const onDiskPaths = new Set(onDisk.map(([path]) => path));
  const releases = (fileConfig.render?.helm ?? []).map((r) => ({ chart: resolve(baseDir, r.chart), values: (r.values ?? []).map((v) => resolve(baseDir, v)) }));
  const context = stdinPath && stdinText !== undefined
    ? [...new Set([...kustomizeContextOfStdin(stdinPath, stdinText), ...(options.noRender ? [] : helmContextOfStdin(stdinPath, releases))])].filter((p) => !onDiskPaths.has(p))
    : [];
  // Files named one by one (a pre-commit hook passes the changed files): a patch or resource of a kustomize overlay is
  // judged as part of that overlay, whose other files join the run as context (with --no-render too: they say which
  // files are patches); only the named files' findings are reported, as for standard input.
  for (const path of found.namedContext) if (!context.includes(path)) context.push(path);
  const contextNames = new Set<string>();
  for (const f of context.length ? await loadFiles(context.map((path) => [path, display(path)] as const), loadOptions) : []) {
    contextNames.add(f.file);
    files.push(f);
  }
  // As for a pipe: named files that are all empty (or only comments and empty documents) mean a wrong path or a
  // failed generator, not a clean workspace (kubectl apply says "no objects passed to apply").
  if (!options.paths.includes('-') && files.length && files.every(holdsNothing)) {
    throw new PathError(`no manifests found: ${files.length === 1 ? `${files[0].file} is empty or holds only comments` : `the ${files.length} YAML files named are all empty or hold only comments`}`);
  }
  cache?.prune((file) => existsSync(resolve(io.cwd, file)));
  // Cluster globs and kustomize paths are relative to the config file's folder, else to the workspace the paths
  // belong to (whatever the working directory): group and render names read `overlays/prod`.
  const rootDir = configPath ? baseDir : workspaceRoot(diskPaths, io.cwd, files.map((f) => ({ file: resolve(io.cwd, f.file), role: f.role })));
  const repoPath = (file: string): string => (file === '<stdin>' ? file : relative(rootDir, resolve(io.cwd, file)).split(sep).join('/'));
  // --cluster: live objects join the analysis under the workspace's.
  const extraObjects = options.cluster !== undefined ? await clusterObjectsForCli(options.cluster, files, io.stderr, undefined, options.requireCluster === true) : undefined;
  // Kustomize entry points and Helm releases are rendered with the real tools when they are found (cli/render.ts).
  // The config file as a source of lines: findings fed by a `render.helm` `set:` value point at it.
  const configFile = configPath && fileConfig.render?.helm ? loadFile(configName, readFileSync(configPath, 'utf8')) : undefined;
  const buffers = stdinPath && stdinText !== undefined ? new Map([[stdinPath, stdinText]]) : undefined;
  const rendered = options.noRender ? undefined : await renderForCli(options, io, files, config, repoPath, rootDir, configPath, configFile, buffers);
  const analyzeOptions: AnalyzeOptions = {
    repoPath, extraObjects, renders: rendered?.outcomes, helmUnavailable: options.noRender ? NO_RENDER_REASON : rendered?.helmUnavailable, renderNotes: rendered?.notes, ...(configFile ? { sourceFiles: [configFile] } : {}),
  };
  return {
    config, files, reported: contextNames.size ? files.filter((f) => !contextNames.has(f.file)) : files, contextNames, analyzeOptions, rootDir,
    extraObjects, cache,
  };
}

/** Why charts are not rendered under `--no-render` (helm-chart-not-rendered then says to drop the flag, not to install helm). */
export const NO_RENDER_REASON = 'rendering is turned off by --no-render';

/**
 * The cache file of `--cache-location` (eslint's convention): a path ending in a separator, or naming an
 * existing folder, holds {@link CACHE_FILE_NAME}; any other path is the file itself. Default: that file in `cwd`.
 */
export function cacheFile(location: string | undefined, cwd: string): string {
  if (!location) return join(cwd, CACHE_FILE_NAME);
  const path = resolve(cwd, location);
  return /[\\/]$/.test(location) || isDirectory(path) ? join(path, CACHE_FILE_NAME) : path;
}

function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}

/**
 * The root of the workspace that a run's paths belong to, when no config file fixes it: the nearest folder at or
 * above the paths' common folder with a `.git`; else the working directory when the paths are below it and are
 * several, or one kustomization or chart folder (`kube-netlint overlays/prod` names it `overlays/prod`); else the
 * one folder given, as a workspace opened in the editor — `cd /tmp && kube-netlint repo` names groups
 * `overlays/prod`, not `repo/overlays/prod`. Widened until it holds every local path its kustomizations name (an
 * overlay's `../../base`).
 * @param paths absolute paths given on the command line (standard input left out)
 * @param files absolute file names, with their kustomization roles
 */
export function workspaceRoot(paths: readonly string[], cwd: string, files: readonly { readonly file: string; readonly role?: LoadedFile['role'] }[]): string {
  const folder = commonFolder(paths) ?? cwd;
  const git = gitFolderAbove(folder);
  if (git !== undefined) return git;
  const under = (p: string, root: string): boolean => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
  const isUnit = files.some((f) => dirname(f.file) === folder && (f.role?.type === 'kustomization' || f.role?.type === 'helm-chart'));
  let root = (isUnit || paths.length > 1) && under(folder, cwd) ? cwd : folder;
  for (const f of files) {
    if (f.role?.type !== 'kustomization') continue;
    for (const r of [...f.role.resources, ...f.role.patches]) {
      if (isRemoteReference(r)) continue; // not a folder here
      const target = resolve(dirname(f.file), r);
      while (!under(target, root) && dirname(root) !== root) root = dirname(root);
    }
  }
  return root;
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

/** A file with no document at all: no object, no problem, no repository role, and only comments or empty documents. */
function holdsNothing(f: LoadedFile): boolean {
  return f.objects.length === 0 && f.problems.length === 0 && !f.role && !f.template && holdsNoDocument(f.text);
}
