import { Analysis, AnalysisInputs, analysisInputs, analysisUnits, AnalyzeOptions, finishFindings, hasRenderInputs } from '../analyze';
import { ClusterGroup, computeLayout, defaultRepoPath, objectsInGroup, RepoLayout } from '../repo/layout';
import type { CoreConfig } from '../config/config';
import { compareFindings, RuleFailure, runRules } from '../engine/run-rules';
import { ChangedRange, IncrementalFile } from '../load/incremental-file';
import type { LoadedFile } from '../load/load-file';
import { contributionOf, ModelIndexes, patchIndexes } from '../model/model-indexes';
import type { K8sObject } from '../model/objects';
import { buildModel, indexesOf, modelFromIndexes, WorkspaceModel } from '../model/workspace-model';
import { componentEvidenceOf, rememberComponentEvidence } from '../kubernetes/node/components';
import { rememberRejectionContext } from '../kubernetes/api-server/rejection';
import { carryClaimedPorts, claimedPorts, shareNodeClaims } from '../port-map/node-claims';
import { allRules } from '../rules/index';
import type { Finding, Rule } from '../rules/rule';
import { affectedObjects, isEnvironment } from './affected';

/** How the last {@link IncrementalWorkspace.analyze} ran, for logs and the benchmark. */
export interface RunInfo {
  readonly mode: 'full' | 'incremental' | 'cached';
  /** Objects whose rules ran again (incremental, summed over the cluster groups re-checked), or all objects (full). */
  readonly checkedObjects: number;
  readonly durationMs: number;
}

type RenderInputs = Pick<AnalyzeOptions, 'renders' | 'helmUnavailable' | 'renderNotes' | 'sourceFiles'>;

/** One rule run kept across edits: its model, the model's indexes, and the rules' findings before {@link finishFindings}. */
interface UnitState {
  readonly group?: string;
  readonly model: WorkspaceModel;
  readonly indexes: ModelIndexes;
  /** Sorted; findings on rendered objects still point into the rendered manifests. */
  readonly findings: readonly Finding[];
}

/** What one file's changes since the last analysis took away and brought (net: an object that came and went again is in neither). */
interface FileChange {
  /** The file as the last analysis saw it; undefined for a file new since then. */
  readonly before: LoadedFile | undefined;
  readonly removed: K8sObject[];
  readonly added: Set<K8sObject>;
  /** Re-parsed whole: the earlier findings on it were not moved with the edit. */
  whole: boolean;
}

/**
 * A workspace kept analysed across edits (language server). Pure core: text in, findings out.
 *
 * - `setText` re-parses only the edited document of a multi-document file ({@link IncrementalFile}).
 * - Rendered manifests (kustomize / Helm output, `setRenders`) are inputs like files: a render whose output changed
 *   is a file whose objects changed; a render that fails or succeeds anew, or a change in what renders consume
 *   (their plan, notes, cluster placement), runs in full.
 * - `analyze` re-checks only what the changes can affect: the changed objects and the objects that share a
 *   port number or a selector with them or are variants of them ({@link affectedObjects}), in every rule run the
 *   change is part of (the one run of a one-cluster workspace, else each cluster group that holds the changed
 *   file; see {@link analysisUnits}). Each run's model indexes are patched, not rebuilt; every rule runs over a
 *   model whose `services` / `workloads` are those objects (plus the "environment" objects: Nodes, ConfigMaps,
 *   cluster components — see {@link isEnvironment}), with complete port indexes and selector lookups; their
 *   findings replace that run's previous findings of those objects, the rest are kept (moved when an edit shifted
 *   their offsets). The runs' findings are then finished as {@link analyze} does (rendered findings moved to the
 *   source lines as they are now, groups merged).
 * - A change to an environment object, the configuration, the repository layout (cluster groups, kustomize entry
 *   points, charts — recomputed when a kustomization, Chart.yaml or the set of files changes), or a rule failure
 *   triggers a full run.
 *
 * The findings are always those `analyze(files, config, renders)` returns for the same inputs (tests check this on
 * random edits, with and without renders and cluster groups); only the work differs.
 */
export class IncrementalWorkspace {
  private readonly files = new Map<string, LoadedFile>();
  private readonly editable = new Map<string, IncrementalFile>();
  private changes = new Map<string, FileChange>();
  /** Rendered manifests (`render:` names) whose render gave new output since the last analysis. */
  private renderedChanged = new Set<string>();
  private needsFull = true;
  /** A file came or went, or a file's repository role (kustomization, Chart.yaml) changed: the layout is recomputed. */
  private layoutChanged = true;
  private last: Analysis | undefined;
  /** What the last analysis ran over, and how: the layout before renders, the inputs, the model files by name, the rule runs. */
  private lastBaseLayout: RepoLayout | undefined;
  private lastInputs: AnalysisInputs | undefined;
  private lastModelFiles = new Map<string, LoadedFile>();
  private units: UnitState[] = [];
  /** The model of every file together (hovers, status); the only unit's when there are no cluster groups. */
  private union: { model: WorkspaceModel; indexes: ModelIndexes } | undefined;
  private info: RunInfo = { mode: 'full', checkedObjects: 0, durationMs: 0 };

  private readonly rules: readonly Rule[];

  /** `options.rules` defaults to every rule; `options.repoPath` as for {@link analyze}. */
  constructor(private config: CoreConfig, private readonly options: Pick<AnalyzeOptions, 'rules' | 'repoPath'> = {}) {
    this.rules = options.rules ?? allRules;
  }

  /** Render results (kustomize / Helm output with source maps) the analysis uses; undefined = none. */
  private renders: RenderInputs | undefined;

  /**
   * Replaces the render results. Outcomes of the same jobs as before (same plan, same success, same notes) whose
   * output changed count as changed files; anything else makes the next analysis full.
   */
  setRenders(renders: RenderInputs | undefined): void {
    const before = this.renders;
    this.renders = renders;
    if (renderFrame(before) !== renderFrame(renders)) {
      this.needsFull = true;
      return;
    }
    const old = before?.renders ?? [];
    (renders?.renders ?? []).forEach((o, i) => {
      if (o.file && old[i] !== o && old[i].file !== o.file) this.renderedChanged.add(o.file.file);
    });
  }

  /** Replaces the configuration (next analysis is full). Files already loaded keep their objects. */
  setConfig(config: CoreConfig): void {
    this.config = config;
    this.needsFull = true;
  }

  /**
   * Sets a file from text (an editor buffer); an edit confined to one document re-parses that document only.
   * `changed`: where the text differs from the one set before, as the editor said (else the texts are compared).
   */
  setText(file: string, text: string, changed?: ChangedRange): LoadedFile {
    const existing = this.editable.get(file);
    if (existing && this.files.get(file) === existing.loaded) {
      // The kept findings about this file move with the documents after the edit (same pass, in place).
      const touches = (f: Finding): boolean => f.span.file === file || f.related.some((r) => r.span.file === file);
      const findings = this.units.flatMap((u) => u.findings.filter(touches));
      const update = existing.update(text, findings, changed);
      if (update.reparsed === 'none') return update.loaded;
      this.record(file, update.removed, update.added, update.loaded);
      if (update.reparsed === 'file') this.changes.get(file)!.whole = true; // the kept findings of this file were not moved
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
    this.change(file, old);
    this.note(file, old.objects, []);
    this.files.delete(file);
    this.layoutChanged = true;
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
    if (this.last && !this.needsFull && this.changes.size === 0 && this.renderedChanged.size === 0) {
      this.info = { mode: 'cached', checkedObjects: 0, durationMs: 0 };
      return this.last;
    }
    const result = (!this.needsFull && this.tryIncremental()) || this.full();
    this.changes = new Map();
    this.renderedChanged = new Set();
    this.needsFull = false;
    this.layoutChanged = false;
    this.last = result.analysis;
    this.info = { mode: result.mode, checkedObjects: result.checked, durationMs: performance.now() - started };
    return result.analysis;
  }

  private change(file: string, before: LoadedFile | undefined): FileChange {
    let change = this.changes.get(file);
    if (!change) this.changes.set(file, (change = { before, removed: [], added: new Set(), whole: false }));
    return change;
  }

  private note(file: string, removed: readonly K8sObject[], added: readonly K8sObject[]): void {
    const change = this.changes.get(file)!;
    // No spread: one file may hold 100,000s of objects.
    for (const o of removed) if (!change.added.delete(o)) change.removed.push(o);
    for (const o of added) change.added.add(o);
  }

  private record(file: string, removed: readonly K8sObject[], added: readonly K8sObject[], loaded: LoadedFile): void {
    const old = this.files.get(file);
    if (!old || roleKey(old) !== roleKey(loaded)) this.layoutChanged = true;
    this.change(file, old);
    this.note(file, removed, added);
    this.files.set(file, loaded);
  }

  private renderOptions(): AnalyzeOptions {
    return { rules: this.rules, repoPath: this.options.repoPath, ...this.renders };
  }

  private remember(baseLayout: RepoLayout, inputs: AnalysisInputs, units: UnitState[], union: { model: WorkspaceModel; indexes: ModelIndexes }): void {
    this.lastBaseLayout = baseLayout;
    this.lastInputs = inputs;
    this.lastModelFiles = new Map(inputs.modelFiles.map((f) => [f.file, f]));
    this.units = units;
    this.union = union;
  }

  private analysisOf(inputs: AnalysisInputs, failures: Analysis['failures']): Analysis {
    const clusterModels = new Map<string, WorkspaceModel>();
    for (const u of this.units) if (u.group !== undefined) clusterModels.set(u.group, u.model);
    return { model: this.union!.model, clusterModels, layout: inputs.layout, findings: finishFindings(inputs, this.units), failures, files: inputs.fileMap };
  }

  /** The whole analysis, as {@link analyze} runs it, keeping each rule run's model and findings. */
  private full(): { analysis: Analysis; mode: 'full'; checked: number } {
    const files = [...this.files.values()];
    const baseLayout = computeLayout(files, this.config, this.options.repoPath ?? defaultRepoPath);
    const inputs = analysisInputs(files, this.config, this.renderOptions(), baseLayout);
    const model = buildModel(inputs.modelFiles, this.config);
    const failures: RuleFailure[] = [];
    const units = analysisUnits(inputs).map((unit): UnitState => {
      const unitModel = unit.group === undefined ? model : buildModel(unit.files, this.config);
      const run = runRules(this.rules, unitModel, this.config, inputs.fileMap, inputs.layout);
      failures.push(...run.failures.filter((f) => !failures.some((g) => g.ruleId === f.ruleId)));
      return { group: unit.group, model: unitModel, indexes: indexesOf(unitModel)!, findings: run.findings };
    });
    this.remember(baseLayout, inputs, units, { model, indexes: indexesOf(model)! });
    return { analysis: this.analysisOf(inputs, failures), mode: 'full', checked: model.objects.length };
  }

  private tryIncremental(): { analysis: Analysis; mode: 'incremental'; checked: number } | undefined {
    const lastInputs = this.lastInputs;
    const union = this.union;
    let baseLayout = this.lastBaseLayout;
    if (!this.last || !lastInputs || !union || !baseLayout) return undefined;
    const config = this.config;
    const files = [...this.files.values()];
    // Kustomize entry points also depend on what their files hold (a kustomization of CRDs only is none).
    if (this.layoutChanged || files.some((f) => f.role?.type === 'kustomization')) {
      const layout = computeLayout(files, config, this.options.repoPath ?? defaultRepoPath);
      if (!sameLayout(layout, baseLayout)) return undefined;
      baseLayout = layout;
    }
    const inputs = analysisInputs(files, config, this.renderOptions(), baseLayout);
    if (!sameGroups(inputs.layout.groups, lastInputs.layout.groups)) return undefined;

    // What changed in the files the models are built from: a source a render consumed or a chart template has no
    // objects there, a rendered manifest changes when its render gave new output.
    const modelFiles = new Map(inputs.modelFiles.map((f) => [f.file, f]));
    const changed = new Map<string, { removed: readonly K8sObject[]; added: readonly K8sObject[] }>();
    for (const name of new Set([...this.changes.keys(), ...this.renderedChanged])) {
      const before = this.lastModelFiles.get(name);
      const after = modelFiles.get(name);
      const change = this.changes.get(name);
      const asLoaded = !!change && before === change.before && after === this.files.get(name);
      const removed = asLoaded ? change.removed : before?.objects ?? [];
      const added = asLoaded ? [...change.added] : after?.objects ?? [];
      // Findings on a file re-read whole were not moved with the edit: only a file without objects in the model is safe.
      if (change?.whole && ((before?.objects.length ?? 0) > 0 || (after?.objects.length ?? 0) > 0)) return undefined;
      changed.set(name, { removed, added });
    }
    const allRemoved: K8sObject[] = [];
    const allAdded: K8sObject[] = [];
    for (const c of changed.values()) {
      for (const o of c.removed) allRemoved.push(o);
      for (const o of c.added) allAdded.push(o);
    }
    if (!sameEnvironment(allRemoved, allAdded, config)) return undefined;

    const gone = [...changed.keys()].filter((name) => !modelFiles.has(name));
    let checked = 0;
    const units: UnitState[] = [];
    const plan = analysisUnits(inputs);
    for (let i = 0; i < plan.length; i++) {
      const prev = this.units[i];
      const unit = plan[i];
      if (!prev || prev.group !== unit.group) return undefined;
      // A file that is gone was in every group (a file a group claims changes the groups when it goes).
      const inUnit = new Set([...unit.files.filter((f) => changed.has(f.file)).map((f) => f.file), ...gone]);
      if (inUnit.size === 0) {
        units.push(prev);
        continue;
      }
      const removed: K8sObject[] = [];
      const added: K8sObject[] = [];
      // As the unit's model holds them: a raw kustomize member as its entry point builds it, one copy per view (filesOfGroup).
      const group = inputs.layout.groups?.[i];
      const view = (o: K8sObject): K8sObject[] => (group ? objectsInGroup(group, o) : [o]);
      for (const name of inUnit) {
        const c = changed.get(name)!;
        for (const o of c.removed) removed.push(...view(o));
        for (const o of c.added) added.push(...view(o));
      }
      const step = recheck(prev, unit.files, removed, added, inUnit, { rules: this.rules, config, inputs });
      if (!step) return undefined;
      checked += step.checked;
      units.push(step.unit);
    }
    const nextUnion = inputs.layout.groups ? patchedModel(union, inputs.modelFiles, allRemoved, allAdded) : { model: units[0].model, indexes: units[0].indexes };
    this.remember(baseLayout, inputs, units, nextUnion);
    return { analysis: this.analysisOf(inputs, []), mode: 'incremental', checked };
  }
}

/** The model of `files` from the previous one, its indexes patched with what was removed and added. */
function patchedModel(prev: { model: WorkspaceModel; indexes: ModelIndexes }, files: readonly LoadedFile[], removed: readonly K8sObject[], added: readonly K8sObject[]): { model: WorkspaceModel; indexes: ModelIndexes } {
  // The same objects order as buildModel (files in order, then the implicit default/kubernetes when no file has it:
  // a change to that Service is an environment change, which runs in full).
  const objects: K8sObject[] = [];
  const evidence: K8sObject[] = [];
  const problems = [];
  for (const f of files) {
    for (const o of f.objects) objects.push(o);
    for (const o of componentEvidenceOf(f.objects)) evidence.push(o);
    for (const p of f.problems) problems.push(p);
  }
  // buildModel and this function put the implicit Service last, when there is one.
  const last = prev.model.objects[prev.model.objects.length - 1];
  const builtin = last?.origin.type === 'builtin' ? last : undefined;
  if (builtin) objects.push(builtin); // a Service: no component evidence
  rememberComponentEvidence(objects, evidence);
  const order = new Map<K8sObject, number>();
  objects.forEach((o, i) => order.set(o, i));
  const indexes = patchIndexes(prev.indexes, removed, added, order);
  return { model: modelFromIndexes(objects, problems, prev.model.settings, indexes, true), indexes };
}

/**
 * A model of `objects` (a subset of `whole.objects`, in its order) and `problems` that keeps `whole`'s complete
 * lookups: port indexes, selector matches, Services and workloads by namespace. What the rules of an incremental
 * re-check run over; `indexes` are `whole`'s.
 */
export function partialModel(whole: WorkspaceModel, indexes: ModelIndexes, objects: readonly K8sObject[], problems: WorkspaceModel['problems']): WorkspaceModel {
  return {
    ...modelFromIndexes(objects, problems, whole.settings, indexes),
    selectedWorkloads: whole.selectedWorkloads,
    selectingServices: whole.selectingServices,
    servicesIn: whole.servicesIn,
    workloadsIn: whole.workloadsIn,
    namespaces: whole.namespaces,
  };
}

/**
 * One rule run brought up to date: its model patched, the objects the change affects re-checked over a model that
 * still sees the whole environment, their findings replacing the previous ones. Undefined when a rule failed.
 */
function recheck(
  prev: UnitState, files: readonly LoadedFile[], removed: readonly K8sObject[], added: readonly K8sObject[], changedFiles: ReadonlySet<string>,
  ctx: { rules: readonly Rule[]; config: CoreConfig; inputs: AnalysisInputs },
): { unit: UnitState; checked: number } | undefined {
  const { model, indexes } = patchedModel(prev, files, removed, added);
  // The rule runs below judge rejected objects with these files and layout; the carried ports must agree.
  rememberRejectionContext(model, ctx.inputs.fileMap, ctx.inputs.layout);
  carryClaimedPorts(prev.model, model, removed, added, ctx.config);
  const affected = affectedObjects(removed, added, prev.model, model, indexes);
  // Rules that judge each object on its own see the re-checked objects alone; the others also the environment.
  const subObjects: K8sObject[] = [];
  const checkedObjects: K8sObject[] = [];
  for (const o of model.objects) {
    const hit = affected.has(o);
    if (hit) checkedObjects.push(o);
    if (hit || isEnvironment(o, ctx.config)) subObjects.push(o);
  }
  const subProblems = model.problems.filter((p) => changedFiles.has(p.span.file));
  const sub = partialModel(model, indexes, subObjects, subProblems);
  // It holds every environment object: its component evidence and node-level claims are the whole model's.
  rememberComponentEvidence(subObjects, componentEvidenceOf(model.objects));
  shareNodeClaims(sub, model);
  const run = runRules(ctx.rules.filter((r) => !r.judgesEachObject), sub, ctx.config, ctx.inputs.fileMap, ctx.inputs.layout);
  const each = runRules(ctx.rules.filter((r) => r.judgesEachObject && !r.judgesObjectAlone), partialModel(model, indexes, checkedObjects, subProblems), ctx.config, ctx.inputs.fileMap, ctx.inputs.layout);
  // Rules that read an object alone: only the changed objects can have other findings than before.
  const aloneRules = ctx.rules.filter((r) => r.judgesObjectAlone);
  const changedUids = new Set<string>();
  for (const o of added) changedUids.add(o.uid);
  for (const o of removed) changedUids.add(o.uid);
  const alone = runRules(aloneRules, partialModel(model, indexes, checkedObjects.filter((o) => changedUids.has(o.uid)), subProblems), ctx.config, ctx.inputs.fileMap, ctx.inputs.layout);
  if (run.failures.length || each.failures.length || alone.failures.length) return undefined;
  for (const f of each.findings) run.findings.push(f);
  for (const f of alone.findings) run.findings.push(f);
  const uids = new Set<string>();
  for (const o of affected) uids.add(o.uid);
  for (const o of removed) uids.add(o.uid);
  const aloneIds = new Set(aloneRules.map((r) => r.id));
  const owned = (f: Finding): boolean => (f.object ? (aloneIds.has(f.ruleId) ? changedUids : uids).has(f.object.uid) : changedFiles.has(f.span.file));
  let findings = prev.findings.filter((f) => !owned(f)).concat(run.findings.filter(owned));
  const whole = wholeModelRules(ctx.rules, prev, run.findings.filter(owned), owned, () => takenPortsChanged(prev, { model, indexes }, removed, added, ctx.config));
  if (whole.length) {
    const again = runRules(whole, model, ctx.config, ctx.inputs.fileMap, ctx.inputs.layout);
    if (again.failures.length) return undefined;
    const ids = new Set(whole.map((r) => r.id));
    findings = findings.filter((f) => !ids.has(f.ruleId)).concat(again.findings);
  }
  findings.sort(compareFindings);
  return { unit: { group: prev.group, model, indexes, findings }, checked: affected.size };
}

/**
 * The rules with free-port quick fixes ({@link Rule.freePortFixes}) whose fixes the change can alter, to run again
 * over the whole model: a fix is the first port that no claim takes and that the rule's earlier fixes in the same
 * run did not propose, so when a re-checked object's finding has or had a fix, the fixes after it move; and when
 * the taken ports changed, every fix can. A rule none of whose findings has a fix is left alone.
 */
function wholeModelRules(rules: readonly Rule[], prev: UnitState, fresh: readonly Finding[], owned: (f: Finding) => boolean, takenChanged: () => boolean): Rule[] {
  const out: Rule[] = [];
  let changed: boolean | undefined;
  for (const rule of rules) {
    if (!rule.freePortFixes) continue;
    const withFix = (f: Finding): boolean => f.ruleId === rule.id && f.fixes.length > 0;
    const ownedFix = fresh.some(withFix) || prev.findings.some((f) => withFix(f) && owned(f));
    if (ownedFix || (prev.findings.some(withFix) && (changed ??= takenChanged()))) out.push(rule);
  }
  return out;
}

/**
 * True when the change made a port number taken or free for the free-port choice: a port of the node-port map
 * (claimedPorts: nodePorts, healthCheckNodePorts, running hostPorts and hostNetwork ports, externalIP ports,
 * component ports) or a Service `port` (a hostPort moved below the NodePort range avoids those). Only the changed
 * objects' numbers can change status (component ports come from environment objects, whose change runs in full);
 * the sizes are compared as well, as a guard.
 */
function takenPortsChanged(
  prev: { model: WorkspaceModel; indexes: ModelIndexes }, next: { model: WorkspaceModel; indexes: ModelIndexes },
  removed: readonly K8sObject[], added: readonly K8sObject[], config: CoreConfig,
): boolean {
  const before = claimedPorts(prev.model, config);
  const after = claimedPorts(next.model, config);
  if (before.size !== after.size || prev.indexes.servicePorts.size !== next.indexes.servicePorts.size) return true;
  const moved = (o: K8sObject): boolean => {
    const c = contributionOf(o);
    for (const list of [c.nodePorts, c.hostPorts, c.servicePorts, c.externalIPs]) {
      for (const { port } of list) {
        if (before.has(port) !== after.has(port) || prev.indexes.servicePorts.has(port) !== next.indexes.servicePorts.has(port)) return true;
      }
    }
    return false;
  };
  return removed.some(moved) || added.some(moved);
}

/** A file's repository role as a comparable string (a kustomization's resources and patches, a chart's name and dependencies). */
function roleKey(f: LoadedFile): string {
  return f.role ? JSON.stringify(f.role) : '';
}

/** True when two layouts (before renders) give the same charts, kustomize entry points, patch files and cluster groups. */
function sameLayout(a: RepoLayout, b: RepoLayout): boolean {
  const entries = (l: RepoLayout): string =>
    JSON.stringify(l.kustomizeEntries.map((e) => [e.dir, e.file, [...e.members], [...e.views], e.cycle ?? null]));
  return (
    a.groupSource === b.groupSource &&
    sameGroups(a.groups, b.groups) &&
    sameSet(a.patchFiles, b.patchFiles) &&
    sameSet(a.resourceFiles, b.resourceFiles) &&
    JSON.stringify(a.charts) === JSON.stringify(b.charts) &&
    entries(a) === entries(b)
  );
}

function sameGroups(a: RepoLayout['groups'], b: RepoLayout['groups']): boolean {
  if (!a || !b) return a === b;
  const views = (g: ClusterGroup): string => JSON.stringify([...(g.views ?? [])]);
  return a.length === b.length && a.every((g, i) => g.name === b[i].name && g.home === b[i].home && sameSet(g.files, b[i].files) && views(g) === views(b[i]));
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/**
 * What of the render results decides the analysis beyond the rendered objects, as a comparable string: which jobs
 * (in order), what each consumes and where its objects go, whether it rendered, its notes; the notes without a
 * job, why helm cannot run, and the texts of the extra source files.
 */
function renderFrame(r: RenderInputs | undefined): string {
  // A workspace with nothing to render (no kustomization, no chart) gets an empty set of renders from the
  // language server's first render plan: it analyses as no renders at all (analysisInputs), so it is the same frame
  // and the first plan does not make the analysis after it a full one.
  if (!r || (!hasRenderInputs(r) && !r.sourceFiles?.length)) return '';
  const jobs = (r.renders ?? []).map((o) => {
    const j = o.job;
    return [j.id, j.kind, j.label, j.consumes, j.clusters, j.kind === 'kustomize' ? j.dir : j.chartFile, j.notes, o.notes, o.file ? o.file.file : null];
  });
  return JSON.stringify([jobs, r.helmUnavailable ?? null, r.renderNotes ?? [], (r.sourceFiles ?? []).map((f) => [f.file, f.text])]);
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
