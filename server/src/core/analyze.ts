import type { CoreConfig } from './config/config';
import { compareFindings, lineSuppressed, runRules, RuleFailure } from './engine/run-rules';
import { applyRenders, remapRenderedFinding } from './render/apply';
import type { RenderOutcome } from './render/jobs';
import type { RenderNote } from './repo/layout';
import { MESSAGE_LIST_MAX, MESSAGE_MAX } from './rules/report/collisions';
import type { LoadedFile } from './load/load-file';
import type { K8sObject } from './model/objects';
import { buildModel, WorkspaceModel } from './model/workspace-model';
import { computeLayout, defaultRepoPath, filesOfGroup, placePlainFiles, RepoLayout, unclaimedFiles, RepoPath, withoutChartTemplates } from './repo/layout';
import { allRules } from './rules/index';
import { asKustomizeInputs } from './repo/kustomize-inputs';
import type { Finding, Rule } from './rules/rule';
import { firstOf } from './output/first-of';

/** The result of analysing a set of loaded files. */
export interface Analysis {
  /** The model of all files together (for hovers and status; rules ran per cluster group). */
  readonly model: WorkspaceModel;
  /** One model per cluster group, when the workspace has several clusters. */
  readonly clusterModels: ReadonlyMap<string, WorkspaceModel>;
  readonly layout: RepoLayout;
  readonly findings: readonly Finding[];
  /** Rules that threw (their findings are missing from this run). */
  readonly failures: readonly RuleFailure[];
  readonly files: ReadonlyMap<string, LoadedFile>;
}

export interface AnalyzeOptions {
  readonly rules?: readonly Rule[];
  /** Objects that are not in files (e.g. from a live cluster). */
  readonly extraObjects?: readonly K8sObject[];
  /** Maps loaded file names to repository-relative `/` paths (for `clusters:` globs and kustomize); default: the name itself. */
  readonly repoPath?: RepoPath;
  /**
   * Results of kustomize / Helm renders (run at the edge, see node/render/): rendered manifests replace the files
   * they were made from, and findings on them move to the source lines (core/render/apply.ts).
   */
  readonly renders?: readonly RenderOutcome[];
  /** Why Helm charts were not rendered, when helm could not run (said in `helm-chart-not-rendered`). */
  readonly helmUnavailable?: string;
  /** Files findings may point into that are not analysed themselves (`.kube-netlint.yaml`, whose `set:` lines feed renders). */
  readonly sourceFiles?: readonly LoadedFile[];
  /** Render findings that belong to no render (a GitOps object naming a source outside the workspace). */
  readonly renderNotes?: readonly RenderNote[];
}

/**
 * What the rules run over once the layout is known and renders are in: the layout (with the render state and the
 * cluster groups renders adjusted), the files the models are built from, in load order (chart templates as empty
 * template files, sources a render consumed without objects, rendered manifests last), and every file a finding
 * may point into (also the `.kube-netlint.yaml` whose `set:` lines feed renders).
 */
export interface AnalysisInputs {
  readonly layout: RepoLayout;
  readonly modelFiles: readonly LoadedFile[];
  readonly fileMap: ReadonlyMap<string, LoadedFile>;
  /** Findings on rendered objects move to source lines (some render results were given). */
  readonly remapsRendered: boolean;
}

/**
 * True when `options` carry renders, notes on renders, or the reason helm is unavailable: what makes
 * {@link analysisInputs} place rendered output. Empty lists count as none (the same analysis).
 */
export function hasRenderInputs(options: Pick<AnalyzeOptions, 'renders' | 'helmUnavailable' | 'renderNotes'>): boolean {
  return !!(options.renders?.length || options.helmUnavailable || options.renderNotes?.length);
}

/**
 * The {@link AnalysisInputs} of a set of loaded files. Pure, O(files + rendered objects).
 * @param baseLayout the layout of `inputFiles` (computeLayout), when the caller has it already
 */
export function analysisInputs(inputFiles: readonly LoadedFile[], config: CoreConfig, options: AnalyzeOptions = {}, baseLayout?: RepoLayout): AnalysisInputs {
  const repoPath = options.repoPath ?? defaultRepoPath;
  let layout = baseLayout ?? computeLayout(inputFiles, config, repoPath);
  // Files only kustomize reads are read as kustomize reads them (YAML, also when they start with `{`).
  const asInputs = asKustomizeInputs(inputFiles, layout, config);
  if (asInputs) {
    inputFiles = asInputs;
    layout = computeLayout(inputFiles, config, repoPath);
  }
  let files = withoutChartTemplates(inputFiles, layout);
  const fileMap = new Map(files.map((f) => [f.file, f]));
  for (const f of options.sourceFiles ?? []) if (!fileMap.has(f.file)) fileMap.set(f.file, f);
  if (hasRenderInputs(options)) {
    const applied = applyRenders(files, layout, options.renders ?? [], options.helmUnavailable, options.renderNotes, repoPath);
    layout = { ...layout, groups: applied.groups, render: applied.render };
    files = [...applied.modelFiles];
    for (const f of applied.renderedFiles) fileMap.set(f.file, f);
    // Files only a render read (a JSON 6902 patch): findings on the fields they set point into them.
    for (const o of options.renders ?? []) for (const f of o.sources ?? []) if (!fileMap.has(f.file)) fileMap.set(f.file, f);
  }
  // Committed copies join their unit's groups, other plain files the nearest groups (rendered or not).
  if (layout.groups) layout = { ...layout, groups: placePlainFiles(files, layout.groups, repoPath) };
  return { layout, modelFiles: files, fileMap, remapsRendered: !!options.renders?.length };
}

/** One rule run: all model files without cluster groups (`group` undefined), else the files of one group. */
export interface AnalysisUnit {
  readonly group?: string;
  readonly files: readonly LoadedFile[];
}

/** The rule runs of an analysis: one over every model file, or one per cluster group (its files and the unclaimed ones). */
export function analysisUnits(inputs: AnalysisInputs): AnalysisUnit[] {
  const groups = inputs.layout.groups;
  if (!groups) return [{ files: inputs.modelFiles }];
  const unclaimed = unclaimedFiles(inputs.modelFiles, groups);
  return groups.map((g) => ({ group: g.name, files: filesOfGroup(inputs.modelFiles, unclaimed, g) }));
}

/**
 * The findings of an analysis from each unit's rule findings (in {@link analysisUnits} order): findings on rendered
 * objects move to the source lines (core/render/apply.ts), and with cluster groups a finding found in several groups
 * is reported once — single-object findings found in every group without a suffix, the others naming their
 * clusters ("(in clusters dev, prod)"). Sorted by {@link compareFindings}.
 */
export function finishFindings(inputs: AnalysisInputs, units: readonly { readonly group?: string; readonly findings: readonly Finding[] }[]): Finding[] {
  const { fileMap } = inputs;
  const remap = (list: readonly Finding[]): Finding[] =>
    inputs.remapsRendered ? list.flatMap((f) => remapRenderedFinding(f, fileMap, (g) => lineSuppressed(g, fileMap)) ?? []) : [...list];
  const groups = inputs.layout.groups;
  if (!groups) return units.flatMap((u) => remap(u.findings)).sort(compareFindings);
  const merged = new Map<string, { finding: Finding; clusters: string[] }>();
  for (const unit of units) {
    for (const f of remap(unit.findings)) {
      const key = `${f.ruleId}|${f.span.file}|${f.span.start}|${f.span.end}|${f.message}`;
      const entry = merged.get(key);
      if (entry) entry.clusters.push(unit.group!);
      else merged.set(key, { finding: f, clusters: [unit.group!] });
    }
  }
  const all = groups.length;
  // Cross-object findings always name their clusters; single-object ones only when not found in every cluster.
  return [...merged.values()]
    .map(({ finding, clusters }) =>
      (clusters.length === all && finding.related.length === 0) || (clusters.length === 1 && namesEntryPoint(finding.rendered?.label, clusters[0]))
        ? finding
        : { ...finding, message: `${finding.message} ${clusterSuffix(finding.message, clusters)}`, clusters })
    .sort(compareFindings);
}

/**
 * Whether a rendered finding's label already names the kustomize entry point that is its only cluster group: the
 * group of folder `dir` is "rendered by dir", and the root's is named by its file ("rendered by ./kustomization.yaml",
 * core/render/plan.ts), so "(in cluster .)" would say it again, worse.
 */
function namesEntryPoint(label: string | undefined, group: string): boolean {
  if (label === undefined) return false;
  if (label === `rendered by ${group}`) return true;
  return group === '.' && /^rendered by \.\/[^/]+$/.test(label);
}

/**
 * `(in cluster prod)`, `(in clusters dev, prod)` (up to five names; beyond, the first five and "and N more"); when
 * that would take the message past {@link MESSAGE_MAX}, fewer names (`(in clusters dev and 3 more)`) or only their
 * number (`(in 4 clusters)`). The finding's `clusters` lists them all.
 */
function clusterSuffix(message: string, clusters: readonly string[]): string {
  if (clusters.length === 1) return `(in cluster ${clusters[0]})`;
    for (const max of [MESSAGE_LIST_MAX, 2, 1]) {
    const suffix = `(in clusters ${firstOf(clusters, max)})`;
    if (message.length + 1 + suffix.length <= MESSAGE_MAX) return suffix;
  }
  return `(in ${clusters.length} clusters)`;
}

/**
 * The core's entry point: layout → model(s) → rules → findings. Pure (no I/O): the CLI and the
 * language server load the files and pass them in. With several cluster groups (config `clusters:`
 * or kustomize entry points) every rule runs once per group; a finding found in only some groups
 * says which ("in cluster prod"), one found in all groups is reported once without a suffix.
 * The language server gets the same result edit by edit from core/workspace/incremental.ts.
 */
export function analyze(inputFiles: readonly LoadedFile[], config: CoreConfig, options: AnalyzeOptions = {}): Analysis {
  const inputs = analysisInputs(inputFiles, config, options);
  const { layout, fileMap } = inputs;
  const rules = options.rules ?? allRules;
  const extra = options.extraObjects ?? [];
  const model = buildModel(inputs.modelFiles, config, extra);
  const clusterModels = new Map<string, WorkspaceModel>();
  const failures: RuleFailure[] = [];
  const runs = analysisUnits(inputs).map((unit) => {
    const unitModel = unit.group === undefined ? model : buildModel(unit.files, config, extra);
    if (unit.group !== undefined) clusterModels.set(unit.group, unitModel);
    const run = runRules(rules, unitModel, config, fileMap, layout);
    failures.push(...run.failures.filter((f) => !failures.some((g) => g.ruleId === f.ruleId)));
    return { group: unit.group, findings: run.findings };
  });
  return { model, clusterModels, layout, findings: finishFindings(inputs, runs), failures, files: fileMap };
}

/**
 * The models a file takes part in: the union model for a one-cluster workspace, else the model of every
 * cluster group that holds the file (every group when none claims it). Used where a feature must stay
 * within the file's cluster(s), e.g. the hover's "also used by" lines.
 */
export function modelsForFile(analysis: Analysis, file: string): WorkspaceModel[] {
  const groups = analysis.layout.groups;
  if (!groups || analysis.clusterModels.size === 0) return [analysis.model];
  const holding = groups.filter((g) => g.files.has(file));
  return (holding.length ? holding : groups).map((g) => analysis.clusterModels.get(g.name)).filter((m): m is WorkspaceModel => m !== undefined);
}
