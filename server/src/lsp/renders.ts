import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { loadFile, LoadedFile } from '../core/load/load-file';
import type { RenderJob, RenderOutcome } from '../core/render/jobs';
import { indexKustomizations } from '../core/render/plan';
import { computeLayout } from '../core/repo/layout';
import type { Finding } from '../core/rules/rule';
import { planWorkspace, renderOne, RenderWorkspaceInput } from '../node/render/render-workspace';
import { RenderCache } from '../node/render/render-cache';
import { findRenderers, Renderers } from '../node/render/tools';
import type { RenderSettings } from '../protocol/render-messages';
import type { Folder } from './workspace';

/** Quiet time after a change before renders run again (a save of several files, a branch switch). */
export const RENDER_DELAY_MS = 50;
/** Quiet time after an edit of an unsaved buffer a render reads before that render runs again (typing pauses). */
export const BUFFER_RENDER_DELAY_MS = 300;
/** Renders running at once, over all workspace folders. */
export const MAX_PARALLEL_RENDERS = 2;

interface FolderRenders {
  /** Last finished outcome of each job, by job id. */
  readonly outcomes: Map<string, RenderOutcome>;
  /** The plan the outcomes belong to: job id → a key of what the job does (a changed key re-runs it). */
  readonly keys: Map<string, string>;
  /** Jobs to run again: a file they read changed. */
  readonly stale: Set<string>;
  readonly running: Set<string>;
  timer?: NodeJS.Timeout;
  /** A run is waiting for the renderers to be found (it reads them, and what to render, once they are). */
  awaiting?: boolean;
  all: boolean;
  /** The plan may have changed (a kustomization, Chart.yaml or GitOps object changed, a file came or went): make it again. */
  replan: boolean;
  notes: RenderWorkspaceInputNotes;
  /** The last plan's jobs, and what their renders need (kept while only files they read change). */
  jobs: Map<string, RenderJob>;
  /** What the analysis host was last given, besides the outcomes (published again only when it changes). */
  published?: string;
  context?: { index: ReturnType<typeof indexKustomizations>; charts: ReturnType<typeof computeLayout>['charts'] };
}
type RenderWorkspaceInputNotes = ReturnType<typeof planWorkspace>['notes'];

/**
 * Renders in the language server, beside the analysis and never in its way: a change to a file a render reads
 * (saved to disk, or typed into an editor buffer: see {@link bufferChanged}) marks that render stale; after {@link RENDER_DELAY_MS} of quiet
 * the folder's plan is made again and only new, changed or stale renders run, at most {@link MAX_PARALLEL_RENDERS}
 * at once; each finished render goes to its folder's analysis host and asks for a new analysis. Until then the
 * analysis uses the last outcomes (hovers and edits never wait for a render).
 *
 * Nothing runs in an untrusted workspace (Restricted Mode), and the binaries come only from the user's settings
 * ({@link RENDER_SETTINGS_NOTIFICATION}) or PATH.
 */
export class RenderManager {
  private renderers: Renderers | undefined;
  private resolving: Promise<void> | undefined;
  private readonly folders = new Map<Folder, FolderRenders>();
  private readonly queue: (() => Promise<void>)[] = [];
  /** helm outputs by their inputs: a save that changes nothing, or only numbers a sentinel render overrides, runs helm once or not at all. */
  private readonly cache = new RenderCache();
  private active = 0;
  private disposed = false;

  constructor(
    private readonly trusted: boolean,
    private readonly changed: () => void,
    private readonly log: (line: string) => void,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Brings the folders' editor buffers up to date before a render reads them. */
    private readonly beforeRender: () => void = () => undefined,
  ) {}

  /** Finds the binaries (user settings, else PATH) and renders every folder again. */
  configure(settings: RenderSettings | undefined): void {
    if (!this.trusted) return;
    const s = settings ?? {};
    this.resolving = findRenderers(
      { path: s.helmPath || undefined, source: 'kubeNetlint.render.helmPath' },
      { path: s.kustomizePath || undefined, source: 'kubeNetlint.render.kustomizePath' },
      this.env.PATH,
      process.cwd(),
    ).then((r) => {
      this.renderers = r;
      for (const p of r.problems) this.log(`kube-netlint: ${p}`);
      for (const [folder, state] of this.folders) {
        // A run waiting for these renderers renders everything with them: starting another would render it all twice.
        if (state.awaiting) {
          state.all = true;
          state.replan = true;
        } else this.schedule(folder);
      }
    });
  }

  /** One line for the language status: what renders ran, or why none can. */
  status(): string {
    if (!this.trusted) return 'helm and kustomize are not run in Restricted Mode (untrusted workspace)';
    if (!this.renderers) return 'looking for helm and kustomize';
    let kustomize = 0;
    let helm = 0;
    let failed = 0;
    for (const state of this.folders.values()) {
      for (const o of state.outcomes.values()) {
        if (!o.file) failed++;
        else if (o.job.kind === 'kustomize') kustomize++;
        else helm++;
      }
    }
    const missing = this.renderers.problems.length ? `; ${this.renderers.problems.join('; ')}` : '';
    return `rendered ${kustomize} kustomization${kustomize === 1 ? '' : 's'}, ${helm} Helm release${helm === 1 ? '' : 's'}${failed ? ` (${failed} failed)` : ''}${missing}`;
  }

  /**
   * Renders a folder's jobs again (all of them when `paths` is undefined, else those that read a changed path).
   * @returns true when every changed path is read by a render that will run again (its end brings the new analysis)
   */
  schedule(folder: Folder, paths?: readonly string[], delayMs = RENDER_DELAY_MS): boolean {
    if (!this.trusted || !folder.path) {
      if (!this.trusted && folder.path) folder.host.setRenders({ helmUnavailable: 'the workspace is not trusted (Restricted Mode): helm is not run' });
      return false;
    }
    let covered = false;
    let state = this.folders.get(folder);
    if (!state) {
      state = { outcomes: new Map(), keys: new Map(), stale: new Set(), running: new Set(), all: true, replan: true, notes: [], jobs: new Map() };
      this.folders.set(folder, state);
    }
    if (!paths) {
      state.all = true;
      state.replan = true;
    } else {
      const base = folder.settings.baseDir ?? folder.path;
      const repoPaths = paths.map((p) => relative(base, p).split(sep).join('/'));
      const readers = [...state.keys].map(([id, key]) => ({ id, job: JSON.parse(key) as { reads: string[]; kind: string } }));
      for (const { id, job } of readers) if (readsAny(job, repoPaths)) state.stale.add(id);
      covered = repoPaths.length > 0 && repoPaths.every((p) => readers.some(({ job }) => readsAny(job, [p])));
      // A file no render reads (new, deleted, a GitOps object) or one that shapes renders: the plan is made again.
      if (!covered || repoPaths.some((p) => PLAN_FILES.test(p))) state.replan = true;
    }
    if (state.timer) clearTimeout(state.timer);
    state.timer = setTimeout(() => void this.run(folder, state!), delayMs);
    return covered;
  }

  /**
   * An editor buffer changed, or closed (its text is the disk's again): the renders that read the file (Helm
   * releases, kustomize builds: a kustomization.yaml, a patch, a resource of an overlay) render again from the
   * buffers after {@link BUFFER_RENDER_DELAY_MS} of quiet — kustomize on a temporary copy of the tree with the
   * buffers in place. Nothing happens for a file no render reads (a plain manifest: the analysis alone handles it).
   */
  bufferChanged(folder: Folder, path: string): void {
    const state = this.folders.get(folder);
    if (!this.trusted || !folder.path || !state) return;
    const repoPath = relative(folder.settings.baseDir ?? folder.path, path).split(sep).join('/');
    const read = [...state.keys.values()].some((key) => readsAny(JSON.parse(key) as { reads: string[]; kind: string }, [repoPath]));
    if (read) this.schedule(folder, [path], BUFFER_RENDER_DELAY_MS);
  }

  /** Forgets a removed folder. */
  remove(folder: Folder): void {
    const state = this.folders.get(folder);
    if (state?.timer) clearTimeout(state.timer);
    this.folders.delete(folder);
  }

  /** The rendered manifest of a `render:` file, from any folder's last analysis. */
  renderedText(file: string): string | undefined {
    for (const folder of this.folders.keys()) {
      const f = folder.host.last?.analysis.files.get(file);
      if (f?.render) return f.text;
    }
    return undefined;
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.folders.values()) if (s.timer) clearTimeout(s.timer);
  }

  private async run(folder: Folder, state: FolderRenders): Promise<void> {
    state.timer = undefined;
    if (this.disposed || folder.host.busy) {
      if (!this.disposed) state.timer = setTimeout(() => void this.run(folder, state), RENDER_DELAY_MS);
      return;
    }
    state.awaiting = true;
    await this.resolving;
    state.awaiting = false;
    const renderers = this.renderers;
    if (!renderers) return;
    this.beforeRender();
    const input = this.inputOf(folder, renderers);
    let plan: { jobs: readonly RenderJob[]; notes: RenderWorkspaceInputNotes } = { jobs: [...state.jobs.values()], notes: state.notes };
    if (state.replan || !state.context) {
      try {
        const layout = computeLayout(input.files, input.config, input.repoPath);
        plan = planWorkspace(input, layout);
        state.context = { index: indexKustomizations(input.files, input.repoPath), charts: layout.charts };
      } catch (err) {
        this.log(`kube-netlint: planning renders failed: ${(err as Error).stack ?? err}`);
        return;
      }
      state.replan = false;
      state.jobs = new Map(plan.jobs.map((j) => [j.id, j]));
    }
    state.notes = plan.notes;
    const wanted = new Map(plan.jobs.map((j) => [j.id, j]));
    const outcomesBefore = state.outcomes.size;
    for (const id of [...state.outcomes.keys()]) if (!wanted.has(id)) state.outcomes.delete(id);
    for (const id of [...state.keys.keys()]) if (!wanted.has(id)) state.keys.delete(id);
    const toRun: RenderJob[] = [];
    for (const job of plan.jobs) {
      const key = jobKey(job);
      if (state.all || state.stale.has(job.id) || state.keys.get(job.id) !== key || !state.outcomes.has(job.id)) toRun.push(job);
      state.keys.set(job.id, key);
    }
    state.all = false;
    state.stale.clear();
    // Until the renders end the analysis keeps the last outcomes: it only needs telling when a render went away or
    // the notes changed (an analysis now would only delay the one the renders' end brings).
    if (state.outcomes.size !== outcomesBefore || !toRun.length || state.published !== this.frameOf(folder, state, renderers)) this.publish(folder, state, renderers);
    if (!toRun.length) return;
    const { index, charts } = state.context;
    const files = new Map(input.files.map((f) => [f.file, f]));
    for (const job of toRun) {
      if (state.running.has(job.id)) {
        state.stale.add(job.id); // running on older files: run again when it ends
        continue;
      }
      state.running.add(job.id);
      this.enqueue(async () => {
        const started = performance.now();
        const outcome = await renderOne(job, input, index, files, charts);
        state.running.delete(job.id);
        if (this.disposed || this.folders.get(folder) !== state) return;
        if (state.keys.has(job.id)) state.outcomes.set(job.id, outcome);
        this.log(`kube-netlint: ${job.label}: ${outcome.file ? `rendered ${outcome.file.objects.length} objects` : 'failed'} in ${Math.round(performance.now() - started)} ms`);
        this.publish(folder, state, renderers);
        if (state.stale.has(job.id)) this.schedule(folder, []);
      });
    }
  }

  /** Hands the folder's current outcomes to its analysis host and asks for an analysis. */
  private publish(folder: Folder, state: FolderRenders, renderers: Renderers): void {
    // With the current plan's job: the same render, with what it consumes and its notes as of the last plan.
    const outcomes = [...state.outcomes.values()].map((o) => {
      const job = state.jobs.get(o.job.id);
      return job && job !== o.job ? { ...o, job } : o;
    });
    const helmUnavailable = this.helmUnavailable(state, renderers);
    const configFile = this.configFileOf(folder);
    state.published = this.frameOf(folder, state, renderers, configFile);
    folder.host.setRenders({ renders: outcomes, ...(helmUnavailable ? { helmUnavailable } : {}), renderNotes: state.notes, ...(configFile ? { sourceFiles: [configFile] } : {}) });
    this.changed();
  }

  /**
   * Why helm cannot render this folder's charts, when it has charts (only helm-chart-not-rendered reads it): a
   * folder without a chart analyses the same either way, and handing it over anyway made the analysis after the
   * first render plan a full one.
   */
  private helmUnavailable(state: FolderRenders, renderers: Renderers): string | undefined {
    if (renderers.helm || !state.context?.charts.length) return undefined;
    return renderers.problems.find((p) => p.startsWith('helm'))?.replace(/^helm: /, '');
  }

  /** What a publish hands over besides the outcomes, as a comparable string. */
  private frameOf(folder: Folder, state: FolderRenders, renderers: Renderers, configFile = this.configFileOf(folder)): string {
    return JSON.stringify([this.helmUnavailable(state, renderers) ?? null, state.notes, configFile?.text ?? null]);
  }

  private inputOf(folder: Folder, renderers: Renderers): RenderWorkspaceInput {
    const base = folder.settings.baseDir ?? folder.path!;
    return {
      files: folder.host.loadedFiles(),
      config: folder.host.currentConfig,
      repoPath: (f) => folder.host.repoPathOf(f),
      baseDir: base,
      repoRoot: resolve(folder.path!),
      renderers,
      configFile: this.configFileOf(folder),
      cache: this.cache,
      buffers: folder.host.unsavedBuffers(),
    };
  }

  /** The folder's `.kube-netlint.yaml` as a loaded file when it lists Helm releases (their `set:` lines feed renders). */
  private configFileOf(folder: Folder): LoadedFile | undefined {
    const path = folder.settings.configFile;
    if (!path || !folder.host.currentConfig.render?.helm) return undefined;
    try {
      return loadFile(path, readFileSync(path, 'utf8'));
    } catch {
      return undefined;
    }
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue.push(task);
    this.pump();
  }

  private pump(): void {
    while (this.active < MAX_PARALLEL_RENDERS && this.queue.length) {
      const task = this.queue.shift()!;
      this.active++;
      void task()
        .catch((err) => this.log(`kube-netlint: render failed: ${(err as Error).stack ?? err}`))
        .finally(() => {
          this.active--;
          this.pump();
        });
    }
  }
}

/** Files whose change can change the plan itself (not only the output of a render). */
const PLAN_FILES = /(^|\/)(kustomization\.ya?ml|Kustomization|Chart\.yaml|\.kube-netlint\.yaml)$/;

/** What a job does, as a comparable string (spans left out: a moved line re-renders nothing). */
function jobKey(job: RenderJob): string {
  // What a render consumes (the files its output replaces) follows from what it reads: a file created in a chart
  // folder it reads re-runs it once (as a read file), not again when the plan is next made.
  const { anchor: _anchor, notes: _notes, consumes: _consumes, ...rest } = job as RenderJob & { overlayFields?: unknown };
  void _anchor;
  void _notes;
  void _consumes;
  const plain = { ...rest, overlayFields: undefined, drop: job.kind === 'kustomize' ? [...job.drop] : undefined, valuesFiles: job.kind === 'helm' ? job.valuesFiles.map((v) => v.path) : undefined, set: job.kind === 'helm' ? job.set.map((s) => [s.key, s.value]) : undefined, inlineValues: job.kind === 'helm' ? job.inlineValues?.text : undefined };
  return JSON.stringify(plain);
}

/** True when a changed repository path is something the job reads (a file it names, or a file in a folder it reads). */
function readsAny(job: { reads: string[]; kind: string }, paths: readonly string[]): boolean {
  return paths.some((p) => job.reads.some((r) => p === r || (r === '.' ? !p.startsWith('..') : p.startsWith(`${r}/`))));
}

/** Findings of a folder's last analysis that lie on rendered objects, placed on the rendered manifest (for its read-only view). */
export function findingsOnRendered(findings: readonly Finding[]): Map<string, Finding[]> {
  const out = new Map<string, Finding[]>();
  for (const f of findings) {
    if (!f.rendered) continue;
    const list = out.get(f.rendered.span.file) ?? [];
    list.push({ ...f, span: f.rendered.span, related: [], fixes: [], rendered: undefined });
    out.set(f.rendered.span.file, list);
  }
  return out;
}
