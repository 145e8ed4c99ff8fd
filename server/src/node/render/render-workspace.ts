import { isFile } from '../file-kind';
import { realpathSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { loadFile } from '../../core/load/load-file';
import type { CoreConfig } from '../../core/config/config';
import type { LoadedFile } from '../../core/load/load-file';
import type { RenderJob, RenderOutcome } from '../../core/render/jobs';
import { mapKustomizeOutput } from '../../core/render/kustomize-map';
import { indexKustomizations, planRenders, KustomizationIndex, RenderPlan } from '../../core/render/plan';
import { FoundLink, linksLeavingRepository } from '../../core/render/preflight';
import { kustomizeErrorText, locateKustomizeError, locateHelmError } from '../../core/render/errors';
import { computeLayout, HelmChart, RenderNote, RepoPath } from '../../core/repo/layout';
import { runHelmJob } from './helm-run';
import { runKustomize } from './kustomize-run';
import type { RenderCache } from './render-cache';
import { Sandbox } from './run-tool';
import type { Renderers } from './tools';

export interface RenderWorkspaceInput {
  readonly files: readonly LoadedFile[];
  readonly config: CoreConfig;
  readonly repoPath: RepoPath;
  /** Absolute folder repository paths are relative to (the config file's folder, or the workspace folder). */
  readonly baseDir: string;
  /** Absolute path of the repository root (symlinks may not leave it). */
  readonly repoRoot: string;
  readonly renderers: Renderers;
  /** Renders running at once (default 2). */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** `.kube-netlint.yaml` as a loaded file (its `render.helm` `set:` lines are where findings fed by them go). */
  readonly configFile?: LoadedFile;
  /** Run only these jobs (by id); the others are left out of the result. */
  readonly only?: ReadonlySet<string>;
  /** Outputs of earlier runs by their inputs (the language server keeps one across renders). */
  readonly cache?: RenderCache;
  /** Unsaved editor buffers (or standard input named by --stdin-filename) by absolute path, rendered instead of the files on disk. */
  readonly buffers?: ReadonlyMap<string, string>;
}

export interface WorkspaceRenders {
  readonly jobs: readonly RenderJob[];
  /** What GitOps objects name that cannot be rendered here (render-incomplete notes without a job). */
  readonly notes: readonly RenderNote[];
  readonly outcomes: readonly RenderOutcome[];
  /** Why charts are not rendered, when helm is missing. */
  readonly helmUnavailable?: string;
  readonly durationMs: number;
}

/** The render jobs of a workspace (pure planning, see core/render/plan.ts), given which tools were found. */
export function planWorkspace(input: Pick<RenderWorkspaceInput, 'files' | 'config' | 'repoPath' | 'renderers' | 'baseDir' | 'repoRoot' | 'configFile'>, layout = computeLayout(input.files, input.config, input.repoPath)): RenderPlan {
  // GitOps paths start at the repository root; repository paths at baseDir.
  const root = relative(input.baseDir, input.repoRoot).split(sep).join('/') || '.';
  return planRenders(input.files, layout, input.config, input.repoPath, { kustomize: !!input.renderers.kustomize, helm: !!input.renderers.helm }, root, input.configFile);
}

/**
 * Runs every render of a workspace with the real tools, at most `concurrency` at once, each in a fresh sandbox
 * (node/render/run-tool.ts). Never rejects for a failing render: failures become `render-failed` notes on the line
 * the tool names.
 */
export async function renderWorkspace(input: RenderWorkspaceInput): Promise<WorkspaceRenders> {
  const started = performance.now();
  const plan = planWorkspace(input);
  const all = plan.jobs;
  const jobs = input.only ? all.filter((j) => input.only!.has(j.id)) : all;
  const index = indexKustomizations(input.files, input.repoPath);
  const fileMap = new Map([...input.files, ...(input.configFile ? [input.configFile] : [])].map((f) => [f.file, f]));
  const charts = computeLayout(input.files, input.config, input.repoPath).charts;
  const outcomes: RenderOutcome[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      outcomes[i] = await renderOne(jobs[i], input, index, fileMap, charts);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency ?? 2) }, worker));
  const helmUnavailable = input.renderers.helm ? undefined : input.renderers.problems.find((p) => p.startsWith('helm'))?.replace(/^helm: /, '') ?? 'helm is not available';
  return { jobs: all, notes: plan.notes, outcomes, helmUnavailable, durationMs: performance.now() - started };
}

/** Runs one job; never throws. */
export async function renderOne(job: RenderJob, input: RenderWorkspaceInput, index: KustomizationIndex, files: ReadonlyMap<string, LoadedFile>, charts: readonly HelmChart[]): Promise<RenderOutcome> {
  const started = performance.now();
  const failed = (notes: RenderNote[]): RenderOutcome => ({ job, notes, durationMs: performance.now() - started });
  const escaping = symlinkProblems(job, input);
  if (escaping.length) return failed(escaping);
  const sandbox = new Sandbox();
  try {
    if (job.kind === 'kustomize') {
      const tool = input.renderers.kustomize;
      if (!tool) return failed([]);
      const sources = unloadedPatchFiles(job, index, files, input);
      if (sources.length) files = new Map([...files, ...sources.map((f) => [f.file, f] as const)]);
      const res = await runKustomize(job, { tool, helm: input.renderers.helm, baseDir: input.baseDir, sandbox, index, files, repoPath: input.repoPath, timeoutMs: input.timeoutMs, maxOutputBytes: input.maxOutputBytes, buffers: input.buffers });
      const dropped: RenderNote[] = res.droppedPatches.map((d) => ({
        ruleId: 'render-incomplete',
        severity: 'info',
        message: `patch ${d.patch} left out of the render (${job.label}): its target ${d.target} comes from a remote base that was left out`,
        span: patchSpan(index, d.kustomization, d.patch) ?? job.anchor,
      }));
      if (res.run.exitCode !== 0) return failed([...dropped, toolFailure(job, res.run, locateKustomizeError(res.run.stderr, job, index, (p) => toRepo(input.baseDir, p), files, input.repoPath), input.baseDir)]);
      const mapped = mapKustomizeOutput({ job, output: res.run.stdout, originPath: res.originPath, files, repoPath: input.repoPath, ...(res.sentinel ? { sentinel: res.sentinel } : {}) });
      return { job, file: mapped.file, notes: [...dropped, ...mapped.notes], ...(sources.length ? { sources } : {}), durationMs: performance.now() - started };
    }
    const tool = input.renderers.helm;
    if (!tool) return failed([]);
    const missing = missingValuesFiles(job, input);
    if (missing.length) return failed(missing);
    const res = await runHelmJob(job, { tool, baseDir: input.baseDir, sandbox, files, repoPath: input.repoPath, charts, timeoutMs: input.timeoutMs, maxOutputBytes: input.maxOutputBytes, cache: input.cache, buffers: input.buffers });
    if (!res.file) return failed([toolFailure(job, res.run, locateHelmError(res.run.stderr, job, files, input.repoPath), input.baseDir)]);
    return { job, file: res.file, notes: res.notes, durationMs: performance.now() - started };
  } catch (err) {
    return failed([{ ruleId: 'render-failed', severity: 'error', message: `render failed (${job.label}): ${(err as Error).message}`, span: job.anchor }]);
  } finally {
    sandbox.dispose();
  }
}

/**
 * The patch files of a build's kustomizations that the workspace did not load (a JSON 6902 patch in a `.json` file
 * holds no Kubernetes object, so discovery skips it), read from the editor buffer or the disk and loaded so the
 * fields they set map back to them. Named as the workspace names files: beside their kustomization's name.
 */
function unloadedPatchFiles(job: RenderJob & { kind: 'kustomize' }, index: KustomizationIndex, files: ReadonlyMap<string, LoadedFile>, input: RenderWorkspaceInput): LoadedFile[] {
  const loaded = new Set([...files.values()].map((f) => input.repoPath(f.file)));
  const out = new Map<string, LoadedFile>();
  for (const dir of job.reads) {
    const entry = index.get(dir);
    if (!entry) continue;
    for (const p of entry.k.patches) {
      if (!p.path || !/\.json$/i.test(p.path.value)) continue;
      const repo = posix.normalize(posix.join(dir, p.path.value));
      if (loaded.has(repo) || out.has(repo)) continue;
      const abs = resolve(input.baseDir, repo);
      let text = input.buffers?.get(abs);
      try {
        text ??= readFileSync(abs, 'utf8');
      } catch {
        continue; // kustomize reports the missing patch itself
      }
      out.set(repo, loadFile(join(dirname(entry.file), p.path.value), text));
    }
  }
  return [...out.values()];
}

/**
 * A `render-failed` note for each values file a release names that is not there (no file on disk, no editor buffer),
 * on the line that names it (`render.helm[].values` in .kube-netlint.yaml, an Argo CD or Flux values file entry):
 * helm would stop with `open <path>: no such file or directory` before rendering anything.
 */
function missingValuesFiles(job: RenderJob & { kind: 'helm' }, input: RenderWorkspaceInput): RenderNote[] {
  return job.valuesFiles.flatMap((v) => {
    const abs = resolve(input.baseDir, v.path);
    if (input.buffers?.has(abs) || isFile(abs)) return [];
    let what = 'does not exist';
    try {
      if (statSync(abs).isDirectory()) what = 'is a folder, not a file';
    } catch {
      // missing: said above
    }
    return [{
      ruleId: 'render-failed',
      severity: 'error',
      message: `values file ${v.path} ${what} (${job.label}): helm cannot render the release, so its objects are not linted; ${v.namedAt && /\.kube-netlint\.ya?ml$/.test(v.namedAt.file) ? 'correct the path (relative to the config file\'s folder)' : 'correct the path'} or create the file`,
      span: v.namedAt ?? job.anchor,
    }];
  });
}

/** Temp-copy prefixes (`/tmp/kube-netlint-render-x/work/job-copy-y`) in front of absolute repository paths. */
const SANDBOX_PREFIX = /\/[^\s'"]*kube-netlint-render-[^/\s'"]+\/work\/[^/\s'"]+(?=\/)/g;

function toRepo(baseDir: string, absolute: string): string {
  return relative(baseDir, absolute.replace(SANDBOX_PREFIX, '')).split(sep).join('/') || '.';
}

function patchSpan(index: KustomizationIndex, kustomization: string, patch: string): RenderNote['span'] | undefined {
  for (const [dir, e] of index) {
    if (`${dir}/kustomization.yaml`.replace(/^\.\//, '') !== kustomization && !kustomization.startsWith(`${dir}/`) && dir !== '.') continue;
    const p = e.k.patches.find((x) => x.path?.value === patch);
    if (p) return p.path!.span;
  }
  return undefined;
}

/** A `render-failed` note with the tool's own message (absolute temp paths shortened), on the located span. */
function toolFailure(job: RenderJob, run: { stderr: string; exitCode: number | null; stopped?: string }, span: RenderNote['span'] | undefined, baseDir: string): RenderNote {
  const tool = job.kind === 'kustomize' ? 'kustomize build' : 'helm template';
  let detail: string;
  if (run.stopped === 'timeout') detail = 'it did not finish in time and was stopped';
  else if (run.stopped === 'output-cap') detail = 'its output exceeded the size limit and it was stopped';
  else if (run.stopped === 'spawn') detail = `it could not be started (${run.stderr.trim()})`;
  else detail = cleanMessage(run.stderr, baseDir, job.kind === 'kustomize' ? (t) => kustomizeErrorText(t, (p) => toRepo(baseDir, p), job.dir) : undefined) || `it exited with code ${run.exitCode}`;
  return { ruleId: 'render-failed', severity: 'error', message: `${tool} failed (${job.label}): ${detail}`, span: span ?? job.anchor };
}

/**
 * The tool's message on one line, without temp folders, absolute repository paths or deprecation warnings.
 * @param simplify rewrites the one-line message first (kustomize's nested layers, see core/render/errors.ts)
 */
export function cleanMessage(stderr: string, baseDir: string, simplify: (text: string) => string = (t) => t): string {
  const base = baseDir.endsWith(sep) ? baseDir : baseDir + sep;
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^# Warning:|^Warning:|is deprecated/.test(l))
    // helm's advice about its own flags (`Use --debug flag to render out invalid YAML`): kube-netlint has no such flag.
    .filter((l) => !/^Use --debug flag\b/.test(l));
  // kubectl >= 1.32 logs through klog: `E1201 08:27:24.710374 1527 run.go:72] "command failed" err="…"`.
  let text = lines.map((l, i) => (i < lines.length - 1 && !/[.:;!?]$/.test(l) ? `${l}.` : l)).join(' ').replace(/^[EWI]\d{4} [\d:.]+\s+\d+ \S+\] "command failed" err="(.*)"$/, '$1').replace(/\\"/g, '"');
  text = text.replace(/^error:\s*/i, '').replace(/^Error:\s*/, '');
  text = simplify(text);
  text = text.replace(SANDBOX_PREFIX, '').replace(/\/[^\s'"]*kube-netlint-render-[^/\s'"]+\/work\/[^/\s'"]+/g, '<wrapper>');
  text = text.split(base).join('');
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Symlinks in what a job reads that resolve outside the repository: the job is refused (render-failed). */
function symlinkProblems(job: RenderJob, input: RenderWorkspaceInput): RenderNote[] {
  let root: string;
  try {
    root = realpathSync(input.repoRoot).split(sep).join('/');
  } catch {
    return [];
  }
  const links: FoundLink[] = [];
  const scan = (absPath: string, depth: number): void => {
    let st;
    try {
      st = lstatSync(absPath);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) {
      let target = '';
      try {
        target = realpathSync(absPath).split(sep).join('/');
      } catch {
        target = '';
      }
      links.push({ link: toRepo(input.baseDir, absPath), target });
      return;
    }
    // A chart is scanned whole (helm reads every file of it); a kustomization folder one level (its own files).
    if (st.isDirectory() && depth > 0) {
      let entries: string[] = [];
      try {
        entries = readdirSync(absPath);
      } catch {
        return;
      }
      for (const e of entries.slice(0, 5000)) if (e !== '.git' && e !== 'node_modules') scan(join(absPath, e), depth - 1);
    }
  };
  const paths = job.kind === 'helm' ? [job.chartDir, ...job.valuesFiles.map((v) => v.path)] : job.reads;
  for (const p of paths) scan(resolve(input.baseDir, p), job.kind === 'helm' ? 16 : 1);
  return linksLeavingRepository(links, root).map((l) => ({
    ruleId: 'render-failed',
    severity: 'error',
    message: `not rendered (${job.label}): ${l.link} is a symbolic link to ${l.target}, outside the repository; ${job.kind === 'helm' ? "helm follows it (.Files.Get would read that file)" : 'kustomize would read it'}, so kube-netlint refuses to render; replace the link with the file`,
    span: job.anchor,
  }));
}
