import { analyze, Analysis, AnalyzeOptions } from '../analyze';
import { computeLayout, defaultRepoPath, withoutChartTemplates } from '../repo/layout';
import type { CoreConfig } from '../config/config';
import { compareFindings, runRules } from '../engine/run-rules';
import { IncrementalFile } from '../load/incremental-file';
import type { LoadedFile } from '../load/load-file';
import { ModelIndexes, patchIndexes } from '../model/model-indexes';
import type { K8sObject } from '../model/objects';
import { builtinKubernetesService, indexesOf, modelFromIndexes, WorkspaceModel } from '../model/workspace-model';
import { allRules } from '../rules/index';
import type { Finding, Rule } from '../rules/rule';
import { affectedObjects, isEnvironment } from './affected';

/** How the last {@link IncrementalWorkspace.analyze} ran, for logs and the benchmark. */
export interface RunInfo {
  readonly mode: 'full' | 'incremental' | 'cached';
  /** Objects whose rules ran again (incremental), or all objects (full). */
  readonly checkedObjects: number;
  readonly durationMs: number;
}

/**
 * A workspace kept analysed across edits (language server). Pure core: text in, findings out.
 *
 * - `setText` re-parses only the edited document of a multi-document file ({@link IncrementalFile}).
 * - `analyze` re-checks only what the changes can affect: the changed objects and the objects that share a
 *   port number or a selector with them or are variants of them ({@link affectedObjects}). The model's
 *   indexes are patched, not rebuilt; every rule runs over a model whose `services` / `workloads` are those
 *   objects (plus the "environment" objects: Nodes, ConfigMaps, cluster components — see
 *   {@link isEnvironment}), with complete port indexes and selector lookups; their findings replace the
 *   previous findings of those objects, the rest are kept (moved when an edit shifted their offsets).
 * - A change to an environment object, the configuration, or a rule failure triggers a full run.
 *
 * The findings are always those `analyze(files, config)` returns for the same files (a test checks this on
 * random edits); only the work differs.
 */
export class IncrementalWorkspace {
  private readonly files = new Map<string, LoadedFile>();
  private readonly editable = new Map<string, IncrementalFile>();
  private removed: K8sObject[] = [];
  private added: K8sObject[] = [];
  private changedFiles = new Set<string>();
  private needsFull = true;
  /** A file came or went, or a kustomization / Chart.yaml / template changed: the repository layout is recomputed. */
  private layoutChanged = true;
  private last: Analysis | undefined;
  private lastIndexes: ModelIndexes | undefined;
  private info: RunInfo = { mode: 'full', checkedObjects: 0, durationMs: 0 };

  private readonly rules: readonly Rule[];

  /** `options.rules` defaults to every rule; `options.repoPath` as for {@link analyze}. */
  constructor(private config: CoreConfig, private readonly options: Pick<AnalyzeOptions, 'rules' | 'repoPath'> = {}) {
    this.rules = options.rules ?? allRules;
  }

  /** Render results (kustomize / Helm output with source maps) the analysis uses; undefined = none. */
  private renders: Pick<AnalyzeOptions, 'renders' | 'helmUnavailable' | 'renderNotes' | 'sourceFiles'> | undefined;

  /** Replaces the render results (next analysis is full: rendered objects replace their sources). */
  setRenders(renders: Pick<AnalyzeOptions, 'renders' | 'helmUnavailable' | 'renderNotes' | 'sourceFiles'> | undefined): void {
    this.renders = renders;
    this.needsFull = true;
  }

  /** Replaces the configuration (next analysis is full). Files already loaded keep their objects. */
  setConfig(config: CoreConfig): void {
    this.config = config;
    this.needsFull = true;
  }

  /** Sets a file from text (an editor buffer); an edit confined to one document re-parses that document only. */
  setText(file: string, text: string): LoadedFile {
    const existing = this.editable.get(file);
    if (existing && this.files.get(file) === existing.loaded) {
      // The last findings about this file move with the documents after the edit (same pass, in place).
      const findings = this.last?.findings.filter((f) => f.span.file === file || f.related.some((r) => r.span.file === file)) ?? [];
      const update = existing.update(text, findings);
      if (update.reparsed === 'none') return update.loaded;
      this.record(file, update.removed, update.added, update.loaded);
      if (update.reparsed === 'file') this.needsFull = true; // the kept findings of this file were not moved
      return update.loaded;
    }
    const inc = new IncrementalFile(file, text, { defaultNamespace: this.config.namespace });
    this.editable.set(file, inc);
    this.setLoaded(file, inc.loaded);
    return inc.loaded;
  }

  /** Sets a file loaded elsewhere (read from disk, skipped, from a worker). */
  setLoaded(file: string, loaded: LoadedFile): void {
    if (this.editable.get(file)?.loaded !== loaded) this.editable.delete(file);
    this.record(file, this.files.get(file)?.objects ?? [], loaded.objects, loaded);
  }

  remove(file: string): void {
    const old = this.files.get(file);
    if (!old) return;
    this.editable.delete(file);
    this.files.delete(file);
    this.layoutChanged = true;
    for (const o of old.objects) this.removed.push(o); // no spread: one file may hold 100,000s of objects
    this.changedFiles.add(file);
  }

  get(file: string): LoadedFile | undefined {
    return this.files.get(file);
  }

  fileNames(): string[] {
    return [...this.files.keys()];
  }

  /** How the last analysis ran. */
  get lastRun(): RunInfo {
    return this.info;
  }

  /** Findings for the current files (cached when nothing changed since the last call). */
  analyze(): Analysis {
    const started = performance.now();
    if (this.last && !this.needsFull && this.changedFiles.size === 0) {
      this.info = { mode: 'cached', checkedObjects: 0, durationMs: 0 };
      return this.last;
    }
    const result = (!this.needsFull && this.tryIncremental()) || this.full();
    this.removed = [];
    this.added = [];
    this.changedFiles = new Set();
    this.needsFull = false;
    this.layoutChanged = false;
    this.last = result.analysis;
    this.lastIndexes = indexesOf(result.analysis.model);
    this.info = { mode: result.mode, checkedObjects: result.checked, durationMs: performance.now() - started };
    return result.analysis;
  }

  private record(file: string, removed: readonly K8sObject[], added: readonly K8sObject[], loaded: LoadedFile): void {
    const old = this.files.get(file);
    if (!old || old.role || old.template || loaded.role || loaded.template) this.layoutChanged = true;
    this.files.set(file, loaded);
    for (const o of removed) this.removed.push(o);
    for (const o of added) this.added.push(o);
    this.changedFiles.add(file);
  }

  private full(): { analysis: Analysis; mode: 'full'; checked: number } {
    const analysis = analyze([...this.files.values()], this.config, { rules: this.rules, repoPath: this.options.repoPath, ...this.renders });
    return { analysis, mode: 'full', checked: analysis.model.objects.length };
  }

  private tryIncremental(): { analysis: Analysis; mode: 'incremental'; checked: number } | undefined {
    const last = this.last;
    const prevIndexes = this.lastIndexes;
    if (!last || !prevIndexes) return undefined;
    const config = this.config;
    if (!sameEnvironment(this.removed, this.added, config)) return undefined;
    // Rendered objects stand in for their sources: such workspaces run in full.
    if (this.renders?.renders?.length) return undefined;
    // Cluster groups and Helm charts change which files are analysed together: those workspaces run in full.
    const repoPath = this.options.repoPath ?? defaultRepoPath;
    const layout = this.layoutChanged ? computeLayout([...this.files.values()], config, repoPath) : last.layout;
    if (layout.groups || last.layout.groups || layout.charts.length || last.layout.charts.length) return undefined;
    if ([...this.changedFiles].some((f) => this.files.get(f)?.role || this.files.get(f)?.template)) return undefined;

    // The new model: same objects order as buildModel (files in order, then the implicit default/kubernetes).
    const objects: K8sObject[] = [];
    const problems = [];
    for (const f of this.files.values()) {
      for (const o of f.objects) objects.push(o);
      for (const p of f.problems) problems.push(p);
    }
    const builtin = last.model.objects.find((o) => o.origin.type === 'builtin') ?? builtinKubernetesService();
    objects.push(builtin);
    const order = new Map<K8sObject, number>();
    objects.forEach((o, i) => order.set(o, i));
    const indexes = patchIndexes(prevIndexes, this.removed, this.added, order);
    const model = modelFromIndexes(objects, problems, last.model.settings, indexes, true);

    // Re-check the affected objects over a model that still sees the whole environment.
    const affected = affectedObjects(this.removed, this.added, last.model, model, indexes);
    const subObjects = objects.filter((o) => affected.has(o) || isEnvironment(o, config));
    const subProblems = problems.filter((p) => this.changedFiles.has(p.span.file));
    const sub: WorkspaceModel = {
      ...modelFromIndexes(subObjects, subProblems, last.model.settings, indexes),
      selectedWorkloads: model.selectedWorkloads,
      selectingServices: model.selectingServices,
      servicesIn: model.servicesIn,
      workloadsIn: model.workloadsIn,
      namespaces: model.namespaces,
    };
    const files = new Map(withoutChartTemplates([...this.files.values()], layout).map((f) => [f.file, f]));
    const run = runRules(this.rules, sub, config, files, layout);
    if (run.failures.length) return undefined;

    const uids = new Set<string>();
    for (const o of affected) uids.add(o.uid);
    for (const o of this.removed) uids.add(o.uid);
    const owned = (f: Finding): boolean => (f.object ? uids.has(f.object.uid) : this.changedFiles.has(f.span.file));
    const kept = last.findings.filter((f) => !owned(f));
    const findings = kept.concat(run.findings.filter(owned)).sort(compareFindings);
    return { analysis: { model, clusterModels: new Map(), layout, findings, failures: [], files }, mode: 'incremental', checked: affected.size };
  }
}

/**
 * True when the change leaves every environment object's content as it was: an edit that only moved an
 * environment object (a newline above it) or touched its comments re-checks it without a full run.
 */
function sameEnvironment(removed: readonly K8sObject[], added: readonly K8sObject[], config: CoreConfig): boolean {
  const before = new Map(removed.map((o) => [o.uid, o]));
  const after = new Map(added.map((o) => [o.uid, o]));
  const same = (a: K8sObject | undefined, b: K8sObject | undefined): boolean =>
    !!a && !!b && a.identity === b.identity && a.apiVersion === b.apiVersion && JSON.stringify(a.raw) === JSON.stringify(b.raw);
  return removed.every((o) => !isEnvironment(o, config) || same(o, after.get(o.uid))) && added.every((o) => !isEnvironment(o, config) || same(before.get(o.uid), o));
}
