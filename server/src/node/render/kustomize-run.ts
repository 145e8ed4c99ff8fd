import { copyFileSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, stringify } from 'yaml';
import type { KustomizeJob } from '../../core/render/jobs';
import { kustomizeSentinelPlan, KustomizeSentinelPlan } from '../../core/render/kustomize-sentinels';
import type { KustomizationIndex } from '../../core/render/plan';
import { identityOf, parsedDocuments } from '../../core/render/tree-walk';
import type { LoadedFile } from '../../core/load/load-file';
import { runTool, Sandbox, ToolRun } from './run-tool';
import type { Renderer } from './tools';
import { QUIET } from '../../core/load/parse-options';

export interface KustomizeRunContext {
  readonly tool: Renderer;
  readonly helm?: Renderer;
  /** Absolute folder that repository paths are relative to. */
  readonly baseDir: string;
  readonly sandbox: Sandbox;
  readonly index: KustomizationIndex;
  /** Source files by name as loaded (for patch documents), and their repository paths. */
  readonly files: ReadonlyMap<string, LoadedFile>;
  readonly repoPath: (file: string) => string;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Unsaved editor buffers (or standard input named by --stdin-filename) by absolute path: built instead of the files on disk. */
  readonly buffers?: ReadonlyMap<string, string>;
}

export interface KustomizeRunResult {
  readonly run: ToolRun;
  /** Origin `path` (as kustomize wrote it, relative to the wrapper) → repository path. */
  readonly originPath: (path: string) => string | undefined;
  /** Patches left out because their target came from a left-out remote base. */
  readonly droppedPatches: readonly { readonly kustomization: string; readonly patch: string; readonly target: string }[];
  /** The sentinel build (valuesInline and values-file numbers replaced, see core/render/kustomize-sentinels.ts), when it ran and succeeded. */
  readonly sentinel?: { readonly output: string; readonly plan: KustomizeSentinelPlan };
}

const WRAPPER = '.kube-netlint-wrapper';

/**
 * Runs `kustomize build` (or `kubectl kustomize`) on a wrapper kustomization that lists the entry point by
 * relative path and asks for `buildMetadata: [originAnnotations]` (the default load restrictor, which keeps
 * files inside each kustomization root). Never `--enable-exec`, `--enable-alpha-plugins`, `--network`,
 * `--mount`; `--enable-helm` only with the resolved helm as `--helm-command`.
 *
 * When the job leaves entries out (remote bases), the kustomizations it reads are copied to a temporary tree
 * without them; a strategic-merge patch whose target only the remote base had then fails (`no resource matches
 * strategic merge patch "<id>"`): that patch is left out too and the build retried (at most 5 times).
 *
 * With vendored `helmCharts` whose valuesInline or values files hold numbers, a second build runs on a temporary
 * copy whose kustomizations and values files have those numbers replaced by sentinels (never the user's files): it
 * proves which values key feeds each field. When it fails, the build is still mapped, by unique valuesInline values only.
 */
export async function runKustomize(job: KustomizeJob, ctx: KustomizeRunContext): Promise<KustomizeRunResult> {
  const abs = (p: string): string => resolve(ctx.baseDir, p);
  const toRepo = (absolute: string): string => relative(ctx.baseDir, absolute).split(sep).join('/') || '.';
  const argvFor = (dir: string): string[] => {
    const argv = ctx.tool.flavour === 'kubectl' ? ['kustomize', dir] : ['build', dir];
    if (job.enableHelm && ctx.helm) argv.push('--enable-helm', '--helm-command', ctx.helm.path);
    return argv;
  };
  const wrapperText = (resource: string): string =>
    stringify({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [resource], buildMetadata: ['originAnnotations'], ...(job.overlay ?? {}) });
  const run = (wrapperDir: string): Promise<ToolRun> =>
    runTool(ctx.tool.path, argvFor(wrapperDir), ctx.sandbox.env, { cwd: ctx.sandbox.dir, timeoutMs: ctx.timeoutMs, maxOutputBytes: ctx.maxOutputBytes });
  const slug = job.id.replace(/[^\w.-]+/g, '_').slice(0, 80);

  const dropCharts = job.dropHelmCharts ?? new Map<string, readonly string[]>();
  const dropEntries = new Map(job.drop);
  for (const kFile of dropCharts.keys()) if (!dropEntries.has(kFile)) dropEntries.set(kFile, []);
  const dropPatchPaths = new Map<string, Set<string>>(); // kustomization repo path → patch values to leave out
  const plan = job.enableHelm ? sentinelPlanOf(job, ctx) : undefined;
  // Buffers of files the build reads: it runs on a copy that holds them (kustomize reads only the disk).
  const buffered = [...(ctx.buffers ?? [])].filter(([path]) => readsFile(job, toRepo(path)));

  /**
   * A copy of what the build reads, at the same absolute layout below a temp root, with the dropped entries left
   * out and (for the sentinel build) the sentinel kustomization and values texts; the wrapper inside it.
   */
  const copyTree = (tag: string): { root: string; wrapperDir: string; write: (texts?: ReadonlyMap<string, string>) => void } => {
    const root = ctx.sandbox.folder(`${slug}-${tag}-${Math.random().toString(36).slice(2, 8)}`);
    const mirror = (p: string): string => join(root, abs(p));
    const chartDirs = new Set(job.chartDirs ?? []);
    for (const p of job.reads) copyPath(abs(p), mirror(p), chartDirs.has(p));
    if (job.plainFiles) {
      // A folder without kustomization.yaml: like Flux, build one that lists every manifest below it.
      const resources = job.plainFiles.map((f) => posix.relative(job.dir === '.' ? '' : job.dir, f));
      writeFileSync(join(mirror(job.dir), 'kustomization.yaml'), stringify({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources }));
    }
    for (const [path, text] of buffered) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const wrapperDir = join(root, WRAPPER);
    mkdirSync(wrapperDir, { recursive: true });
    writeFileSync(join(wrapperDir, 'kustomization.yaml'), wrapperText(relative(wrapperDir, mirror(job.dir)).split(sep).join('/') || '.'));
    const write = (texts?: ReadonlyMap<string, string>): void => {
      const text = (kFile: string): string => texts?.get(kFile) ?? readText(ctx, kFile);
      for (const [kFile, entries] of dropEntries) writeFileSync(mirror(kFile), withoutEntries(text(kFile), entries, dropPatchPaths.get(kFile), dropCharts.get(kFile)));
      for (const [kFile, patches] of dropPatchPaths) if (!dropEntries.has(kFile)) writeFileSync(mirror(kFile), withoutEntries(text(kFile), [], patches));
      for (const [kFile, t] of texts ?? []) if (!dropEntries.has(kFile) && !dropPatchPaths.has(kFile)) writeFileSync(mirror(kFile), t);
    };
    return { root, wrapperDir, write };
  };
  const sentinelBuild = async (): Promise<KustomizeRunResult['sentinel']> => {
    if (!plan) return undefined;
    const copy = copyTree('sentinel');
    copy.write(plan.texts);
    const probe = await run(copy.wrapperDir);
    return probe.exitCode === 0 ? { output: probe.stdout, plan } : undefined;
  };

  if (job.drop.size === 0 && dropCharts.size === 0 && !job.plainFiles && !buffered.length) {
    const wrapperDir = ctx.sandbox.folder(`${slug}-${Math.random().toString(36).slice(2, 8)}`);
    writeFileSync(join(wrapperDir, 'kustomization.yaml'), wrapperText(relative(wrapperDir, abs(job.dir)).split(sep).join('/') || '.'));
    const [main, sentinel] = await Promise.all([run(wrapperDir), sentinelBuild()]);
    return { run: main, originPath: (p) => toRepo(resolve(wrapperDir, p)), droppedPatches: [], ...(sentinel && main.exitCode === 0 ? { sentinel } : {}) };
  }

  const { root, wrapperDir, write } = copyTree('copy');
  const droppedPatches: { kustomization: string; patch: string; target: string }[] = [];
  let result: ToolRun | undefined;
  for (let attempt = 0; attempt < 6; attempt++) {
    write();
    result = await run(wrapperDir);
    const m = /no resource matches strategic merge patch \\?"([^"\\]+)\\?"/.exec(result.stderr);
    if (result.exitCode === 0 || !m) break;
    const found = patchTargeting(m[1], job, ctx);
    if (!found || dropPatchPaths.get(found.kustomization)?.has(found.patch)) break;
    dropPatchPaths.set(found.kustomization, new Set([...(dropPatchPaths.get(found.kustomization) ?? []), found.patch]));
    droppedPatches.push({ ...found, target: m[1] });
  }
  const originPath = (p: string): string | undefined => {
    const inCopy = resolve(wrapperDir, p);
    const r = relative(root, inCopy);
    return r.startsWith('..') ? undefined : toRepo(sep + r);
  };
  const sentinel = result!.exitCode === 0 ? await sentinelBuild() : undefined;
  return { run: result!, originPath, droppedPatches, ...(sentinel ? { sentinel } : {}) };
}

/** True when a build reads the file at a repository path: one it names, one in a kustomization folder it reads, or one of a chart it inflates. */
function readsFile(job: KustomizeJob, repoPath: string): boolean {
  const dir = posix.dirname(repoPath);
  return job.reads.includes(repoPath) || job.reads.includes(dir) || (job.chartDirs ?? []).some((d) => repoPath.startsWith(`${d}/`));
}

/**
 * The sentinel plan of a build's kustomizations (those it reads that have `helmCharts`) and of the values files its
 * charts are inflated with, avoiding every number written in the files the build reads.
 */
function sentinelPlanOf(job: KustomizeJob, ctx: KustomizeRunContext): KustomizeSentinelPlan | undefined {
  const kustomizations: { path: string; file: string; text: string }[] = [];
  for (const dir of job.reads) {
    const entry = ctx.index.get(dir);
    if (!entry?.k.helmCharts.some((c) => c.inlineValues.length)) continue;
    const path = ctx.repoPath(entry.file);
    kustomizations.push({ path, file: entry.file, text: readText(ctx, path) });
  }
  const valuesFiles = (job.helmValuesFiles ?? []).flatMap((path) => {
    const f = loadedAt(ctx, path);
    return f ? [{ path, file: f.file, text: f.text }] : [];
  });
  if (!kustomizations.length && !valuesFiles.length) return undefined;
  const reads = job.reads.map((p) => (p === '.' ? '' : p));
  const read = (p: string): boolean => reads.some((r) => r === '' || p === r || p.startsWith(`${r}/`));
  const avoid = [...ctx.files.values()].filter((f) => read(ctx.repoPath(f.file))).map((f) => f.text).join('\n');
  return kustomizeSentinelPlan(kustomizations, avoid, valuesFiles);
}

function loadedAt(ctx: KustomizeRunContext, repoPath: string): LoadedFile | undefined {
  for (const f of ctx.files.values()) if (ctx.repoPath(f.file) === repoPath) return f;
  return undefined;
}

function readText(ctx: KustomizeRunContext, kustomizationRepoPath: string): string {
  return loadedAt(ctx, kustomizationRepoPath)?.text ?? '';
}

/**
 * The kustomization text without the given resources/bases/components entries, patches and `helmCharts` entries (by
 * chart name), edited with `yaml` (comments kept). A `helmCharts:` list left empty is removed (kustomize asks for
 * `--enable-helm` whenever the field is there).
 */
function withoutEntries(text: string, entries: readonly string[], patches: ReadonlySet<string> | undefined, charts: readonly string[] = []): string {
  const doc = parseDocument(text, QUIET);
  const root = doc.contents;
  if (!isMap(root)) return text;
  if (charts.length) {
    const seq = root.get('helmCharts', true);
    if (isSeq(seq)) {
      seq.items = seq.items.filter((item) => !(isMap(item) && charts.includes(String((item.get('name', true) as { value?: unknown } | undefined)?.value ?? ''))));
      if (seq.items.length === 0) root.delete('helmCharts');
    }
  }
  for (const key of ['resources', 'bases', 'components']) {
    const seq = root.get(key, true);
    if (isSeq(seq)) seq.items = seq.items.filter((item) => !(isScalar(item) && entries.includes(String(item.value))));
  }
  if (patches?.size) {
    for (const key of ['patchesStrategicMerge', 'patches']) {
      const seq = root.get(key, true);
      if (!isSeq(seq)) continue;
      seq.items = seq.items.filter((item) => {
        const path = isScalar(item) ? String(item.value) : isMap(item) ? String((item.get('path', true) as { value?: unknown } | undefined)?.value ?? '') : '';
        return !patches.has(path);
      });
    }
  }
  return doc.toString();
}

/**
 * The strategic-merge patch (kustomization repo path and entry as written) whose document targets a resource id
 * as kustomize prints it: `DaemonSet.v1.apps/speaker.[noNs]` (kind.version.group/name.namespace).
 */
function patchTargeting(resourceId: string, job: KustomizeJob, ctx: KustomizeRunContext): { kustomization: string; patch: string } | undefined {
  const m = /^([^.]+)\.[^/]*\/(.+)\.([^.]*)$/.exec(resourceId);
  if (!m) return undefined;
  const [, kind, name] = m;
  for (const dir of job.reads) {
    const entry = ctx.index.get(dir);
    if (!entry) continue;
    for (const p of entry.k.patches) {
      if (!p.path || p.target) continue;
      const fileRepo = posix.normalize(posix.join(dir, p.path.value));
      const file = [...ctx.files.values()].find((f) => ctx.repoPath(f.file) === fileRepo);
      if (!file) continue;
      if (parsedDocuments(file).some((d) => identityOf(d.contents).kind === kind && identityOf(d.contents).name === name)) {
        return { kustomization: ctx.repoPath(entry.file), patch: p.path.value };
      }
    }
  }
  return undefined;
}

/** Copies a kustomization folder (its regular files, not subfolders; everything with `deep`, for a chart) or a file into the mirror tree. */
function copyPath(from: string, to: string, deep = false): void {
  let st;
  try {
    st = lstatSync(from);
  } catch {
    return; // kustomize reports the missing file itself
  }
  if (st.isFile()) {
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  } else if (st.isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (e.isFile()) copyFileSync(join(from, e.name), join(to, e.name));
      else if (deep && e.isDirectory()) copyPath(join(from, e.name), join(to, e.name), true);
    }
  }
}
