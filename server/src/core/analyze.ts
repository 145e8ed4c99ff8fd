import type { CoreConfig } from './config/config';
import { compareFindings, lineSuppressed, runRules, RuleFailure } from './engine/run-rules';
import { applyRenders, remapRenderedFinding } from './render/apply';
import type { RenderOutcome } from './render/jobs';
import type { RenderNote } from './repo/layout';
import { joinNames, MESSAGE_LIST_MAX } from './rules/report/collisions';
import type { LoadedFile } from './load/load-file';
import type { K8sObject } from './model/objects';
import { buildModel, WorkspaceModel } from './model/workspace-model';
import { computeLayout, defaultRepoPath, filesOfGroup, RepoLayout, unclaimedFiles, RepoPath, withoutChartTemplates } from './repo/layout';
import { allRules } from './rules/index';
import type { Finding, Rule } from './rules/rule';

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
 * The core's entry point: layout → model(s) → rules → findings. Pure (no I/O): the CLI and the
 * language server load the files and pass them in. With several cluster groups (config `clusters:`
 * or kustomize entry points) every rule runs once per group; a finding found in only some groups
 * says which ("in cluster prod"), one found in all groups is reported once without a suffix.
 */
export function analyze(inputFiles: readonly LoadedFile[], config: CoreConfig, options: AnalyzeOptions = {}): Analysis {
  const repoPath = options.repoPath ?? defaultRepoPath;
  let layout = computeLayout(inputFiles, config, repoPath);
  let files = withoutChartTemplates(inputFiles, layout);
  const fileMap = new Map(files.map((f) => [f.file, f]));
  for (const f of options.sourceFiles ?? []) if (!fileMap.has(f.file)) fileMap.set(f.file, f);
  if (options.renders || options.helmUnavailable || options.renderNotes) {
    const applied = applyRenders(files, layout, options.renders ?? [], options.helmUnavailable, options.renderNotes);
    layout = { ...layout, groups: applied.groups, render: applied.render };
    files = [...applied.modelFiles];
    for (const f of applied.renderedFiles) fileMap.set(f.file, f);
  }
  const remap = (list: readonly Finding[]): Finding[] =>
    options.renders?.length ? list.flatMap((f) => remapRenderedFinding(f, fileMap, (g) => lineSuppressed(g, fileMap)) ?? []) : [...list];
  const rules = options.rules ?? allRules;
  const extra = options.extraObjects ?? [];
  const model = buildModel(files, config, extra);
  if (!layout.groups) {
    const { findings, failures } = runRules(rules, model, config, fileMap, layout);
    return { model, clusterModels: new Map(), layout, findings: remap(findings).sort(compareFindings), failures, files: fileMap };
  }
  const clusterModels = new Map<string, WorkspaceModel>();
  const merged = new Map<string, { finding: Finding; clusters: string[] }>();
  const failures: RuleFailure[] = [];
  const unclaimed = unclaimedFiles(files, layout.groups);
  for (const group of layout.groups) {
    const groupModel = buildModel(filesOfGroup(files, unclaimed, group), config, extra);
    clusterModels.set(group.name, groupModel);
    const run = runRules(rules, groupModel, config, fileMap, layout);
    failures.push(...run.failures.filter((f) => !failures.some((g) => g.ruleId === f.ruleId)));
    for (const f of remap(run.findings)) {
      const key = `${f.ruleId}|${f.span.file}|${f.span.start}|${f.span.end}|${f.message}`;
      const entry = merged.get(key);
      if (entry) entry.clusters.push(group.name);
      else merged.set(key, { finding: f, clusters: [group.name] });
    }
  }
  const all = layout.groups.length;
  // Cross-object findings always name their clusters; single-object ones only when not found in every cluster.
  const findings = [...merged.values()]
    .map(({ finding, clusters }) =>
      (clusters.length === all && finding.related.length === 0) || (clusters.length === 1 && finding.rendered?.label === `rendered by ${clusters[0]}`)
        ? finding
        : { ...finding, message: `${finding.message} (in cluster${clusters.length > 1 ? 's' : ''} ${clusters.length > MESSAGE_LIST_MAX ? joinNames(clusters) : clusters.join(', ')})`, clusters })
    .sort(compareFindings);
  return { model, clusterModels, layout, findings, failures, files: fileMap };
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
