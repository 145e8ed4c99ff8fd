import { posix } from 'node:path';
import type { CoreConfig } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import type { RenderNote, RepoLayout, RepoPath } from '../repo/layout';
import type { HelmJob, KustomizeJob, RenderJob } from './jobs';
import { Kustomization, readKustomization } from './kustomization';
import { isRemoteReference } from './remote';
import { gitopsJobs } from './gitops';
import type { Span } from '../source/span';
import { at, parsedDocuments, spanOf } from './tree-walk';

/** What may run (tools found, settings) — decided at the edge. */
export interface RenderAvailability {
  /** kustomize (or kubectl kustomize) can run and `render.kustomize` is not false. */
  readonly kustomize: boolean;
  /** helm can run. */
  readonly helm: boolean;
}

/** The kustomizations of a workspace by folder (repository path), read for rendering. */
export type KustomizationIndex = ReadonlyMap<string, { readonly file: string; readonly k: Kustomization }>;

export function indexKustomizations(files: readonly LoadedFile[], repoPath: RepoPath): KustomizationIndex {
  const out = new Map<string, { file: string; k: Kustomization }>();
  for (const f of files) if (f.role?.type === 'kustomization') out.set(posix.dirname(repoPath(f.file)), { file: f.file, k: readKustomization(f.file, f.text) });
  return out;
}

/** The folders and files one kustomize build reads, and its remote entries. */
export interface KustomizeClosure {
  readonly dirs: readonly string[];
  /** Repository paths of the files it names (resources, patches, generator and config files). */
  readonly files: readonly string[];
  readonly remote: readonly { readonly kustomization: string; readonly kustomizationDir: string; readonly entry: string; readonly span: RenderNote['span'] }[];
  /**
   * `helmCharts` entries: vendored (rendered with `--enable-helm`; `chartDir` is the repository path of the chart
   * folder kustomize inflates) or not (left out).
   */
  readonly helmCharts: readonly {
    readonly kustomization: string; readonly kustomizationDir: string; readonly name: string; readonly vendored: boolean; readonly chartDir?: string; readonly span: RenderNote['span'];
    /**
     * Repository paths of the values files kustomize hands `helm template` for the entry, in merge order: `valuesFile`
     * or else the vendored chart's values.yaml, then `additionalValuesFiles` (api/internal/builtins/HelmChartInflationGenerator.go, v5.4).
     */
    readonly valuesFiles: readonly string[];
  }[];
}

/** Follows resources/bases/components from `entryDir` (local paths only), by kustomize's rules. */
export function kustomizeClosure(entryDir: string, index: KustomizationIndex, fileExists: (repoPath: string) => boolean): KustomizeClosure {
  const dirs: string[] = [];
  const files = new Set<string>();
  const remote: KustomizeClosure['remote'][number][] = [];
  const helmCharts: KustomizeClosure['helmCharts'][number][] = [];
  const queue = [entryDir];
  const seen = new Set(queue);
  while (queue.length) {
    const dir = queue.shift()!;
    const entry = index.get(dir);
    if (!entry) continue;
    dirs.push(dir);
    const { k, file } = entry;
    const join = (p: string): string => posix.normalize(posix.join(dir, p)).replace(/\/$/, '');
    for (const r of [...k.resources, ...k.components]) {
      if (isRemoteReference(r.value)) {
        remote.push({ kustomization: file, kustomizationDir: dir, entry: r.value, span: r.span });
        continue;
      }
      const target = join(r.value);
      if (index.has(target)) {
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      } else files.add(target);
    }
    for (const p of k.patches) if (p.path) files.add(join(p.path.value));
    for (const f of k.otherFiles) files.add(join(f));
    const home = k.helmChartHome ?? 'charts';
    for (const c of k.helmCharts) {
      // kustomize (verified with v5.4.2) inflates <chartHome>/<name>-<version>/<name>
      // for an entry with repo and version, <chartHome>/<name> otherwise, and pulls when repo is set and that is missing.
      const local = join(c.repo && c.version ? `${home}/${c.name}-${c.version}/${c.name}` : `${home}/${c.name}`);
      const chartDir = fileExists(`${local}/Chart.yaml`) ? local : undefined;
      const own = c.valuesFile !== undefined ? [join(c.valuesFile)] : chartDir !== undefined ? [`${chartDir}/values.yaml`] : [];
      const valuesFiles = [...own, ...c.additionalValuesFiles.map(join)].filter(fileExists);
      helmCharts.push({ kustomization: file, kustomizationDir: dir, name: c.name, vendored: chartDir !== undefined, ...(chartDir !== undefined ? { chartDir } : {}), span: c.span, valuesFiles });
    }
  }
  return { dirs, files: [...files], remote, helmCharts };
}

/**
 * The renders of a workspace, without configuration: every kustomize entry point (not part of a cycle), and one
 * release per application chart (a Chart.yaml with templates, not a library, not vendored under another chart's
 * `charts/`) named after the chart, with its own values.yaml, in the config's namespace. `render.helm` in the
 * config replaces the default releases; Argo CD Applications and Flux HelmReleases / Kustomizations in the
 * workspace add releases, and a chart or folder they render is not rendered a second time with the defaults.
 */
export function planRenders(files: readonly LoadedFile[], layout: RepoLayout, config: CoreConfig, repoPath: RepoPath, can: RenderAvailability, root = '.', configFile?: LoadedFile): RenderPlan {
  const index = indexKustomizations(files, repoPath);
  const byPath = new Map(files.map((f) => [repoPath(f.file), f]));
  const exists = (p: string): boolean => byPath.has(p);
  const jobs: RenderJob[] = [];
  const { jobs: gitops, notes } = gitopsJobs(files, layout, config, repoPath, can, index, exists, root);
  const taken = new Set(gitops.flatMap((j) => (j.kind === 'helm' ? [j.chartDir] : [j.dir])));
  // A chart vendored for a kustomization's `helmCharts` entry is installed through that kustomization (with its
  // valuesInline / valuesFile), never as a release of its own with just the chart's values.yaml.
  for (const dir of inflatedCharts(index, exists)) taken.add(dir);
  if (can.kustomize && config.render?.kustomize !== false) {
    for (const entry of layout.kustomizeEntries) {
      if (entry.cycle || taken.has(entry.dir)) continue;
      // The root's kustomization is named by its file: "rendered by ." says nothing.
      const label = `rendered by ${entry.dir === '.' ? `./${posix.basename(repoPath(entry.file))}` : entry.dir}`;
      jobs.push(kustomizeJob(entry.dir, entry.file, index, exists, byPath, config.namespace, label, { type: 'of-file', file: entry.file }));
    }
  }
  if (can.helm) {
    const configured = config.render?.helm;
    if (configured) jobs.push(...configured.map((r, i) => configuredHelmJob(r, i, layout, config, repoPath, byPath, configFile)).filter((j): j is HelmJob => !!j));
    else {
      for (const chart of layout.charts) {
        if (chart.library || chart.parent || chart.templates.length === 0 || taken.has(chart.dir)) continue;
        jobs.push(helmJob({ chartDir: chart.dir, chartFile: chart.file, chartName: chart.name, release: chart.name || posix.basename(chart.dir), namespace: config.namespace, valuesFiles: [], set: [], clusters: { type: 'own', file: chart.file, name: chart.dir } }, files, repoPath));
      }
    }
  }
  for (const j of gitops) if (j.kind === 'helm' ? can.helm : can.kustomize) jobs.push(j); // one per GitOps object: no spread
  return { jobs, notes };
}

/** Repository paths of the chart folders that some kustomization's `helmCharts` entries inflate (vendored charts). */
export function inflatedCharts(index: KustomizationIndex, fileExists: (repoPath: string) => boolean): Set<string> {
  const out = new Set<string>();
  for (const dir of index.keys()) {
    for (const c of kustomizeClosure(dir, new Map([[dir, index.get(dir)!]]), fileExists).helmCharts) if (c.chartDir !== undefined) out.add(c.chartDir);
  }
  return out;
}

/** The renders of a workspace, and what its GitOps objects name that cannot be rendered here. */
export interface RenderPlan {
  readonly jobs: readonly RenderJob[];
  readonly notes: readonly RenderNote[];
}

/** A kustomize job for a folder: what it reads and consumes, its remote entries left out (with an info finding each). */
export function kustomizeJob(
  dir: string, kustomizationFile: string, index: KustomizationIndex, exists: (p: string) => boolean, byPath: ReadonlyMap<string, LoadedFile>,
  namespace: string, label: string, clusters: KustomizeJob['clusters'], extra: Partial<Pick<KustomizeJob, 'overlay' | 'overlayFields' | 'notes' | 'id'>> = {},
): KustomizeJob {
  const closure = kustomizeClosure(dir, index, exists);
  const drop = new Map<string, string[]>();
  const notes: RenderNote[] = [...(extra.notes ?? [])];
  for (const r of closure.remote) {
    const key = posix.join(r.kustomizationDir, posix.basename(r.kustomization.split('\\').join('/')));
    drop.set(key, [...(drop.get(key) ?? []), r.entry]);
    notes.push({
      ruleId: 'render-incomplete',
      severity: 'info',
      message: `remote base ${r.entry} left out of the render (${label}): kustomize would fetch it over the network, which kube-netlint never does, so its objects are not linted; vendor it to lint them`,
      span: r.span,
    });
  }
  const dropHelmCharts = new Map<string, string[]>();
  for (const c of closure.helmCharts) {
    if (c.vendored) continue;
    const key = posix.join(c.kustomizationDir, posix.basename(c.kustomization.split('\\').join('/')));
    dropHelmCharts.set(key, [...(dropHelmCharts.get(key) ?? []), c.name]);
    notes.push({
      ruleId: 'render-incomplete',
      severity: 'info',
      message: `helmCharts entry ${c.name} left out of the render (${label}): the chart is not vendored in the chart home, and kustomize would pull it over the network; run "kustomize build --enable-helm" once to vendor it`,
      span: c.span,
    });
  }
  const members = new Set<string>();
  for (const d of closure.dirs) {
    const k = index.get(d);
    if (k) members.add(k.file);
  }
  for (const p of closure.files) {
    const f = byPath.get(p);
    if (f) members.add(f.file);
  }
  // The vendored charts kustomize inflates: their files are read (and consumed) by this build.
  const chartDirs = [...new Set(closure.helmCharts.flatMap((c) => (c.chartDir !== undefined ? [c.chartDir] : [])))];
  const helmValuesFiles = [...new Set(closure.helmCharts.flatMap((c) => (c.vendored ? c.valuesFiles : [])))];
  const helmChartFiles: string[] = [];
  for (const [p, f] of byPath) {
    if (!chartDirs.some((d) => p.startsWith(`${d}/`))) continue;
    members.add(f.file);
    if (chartDirs.some((d) => p === `${d}/Chart.yaml`)) helmChartFiles.push(f.file);
  }
  return {
    kind: 'kustomize',
    id: extra.id ?? `kustomize:${dir}`,
    label,
    anchor: { file: kustomizationFile, start: 0, end: 0 },
    namespace,
    clusters,
    consumes: [...members],
    reads: [...closure.dirs, ...closure.files, ...chartDirs],
    notes,
    dir,
    drop,
    dropHelmCharts,
    chartDirs,
    helmChartFiles,
    helmValuesFiles,
    ...(extra.overlay ? { overlay: extra.overlay } : {}),
    ...(extra.overlayFields ? { overlayFields: extra.overlayFields } : {}),
    enableHelm: closure.helmCharts.some((c) => c.vendored),
  };
}

/** A helm job: the chart's files are what it reads and consumes. */
export function helmJob(
  spec: Pick<HelmJob, 'chartDir' | 'chartFile' | 'chartName' | 'release' | 'namespace' | 'valuesFiles' | 'set' | 'clusters'> & Partial<Pick<HelmJob, 'inlineValues' | 'replaceChartValues' | 'notes' | 'anchor' | 'id'>>,
  files: readonly LoadedFile[],
  repoPath: RepoPath,
): HelmJob {
  const prefix = spec.chartDir === '.' ? '' : `${spec.chartDir}/`;
  const consumes = files.filter((f) => repoPath(f.file).startsWith(prefix) && f.file !== spec.chartFile).map((f) => f.file);
  const valueNames = spec.valuesFiles.map((v) => posix.basename(v.path));
  return {
    kind: 'helm',
    id: spec.id ?? `helm:${spec.release}@${spec.chartDir}${spec.valuesFiles.length ? `+${spec.valuesFiles.map((v) => v.path).join(',')}` : ''}`,
    label: `Helm release ${spec.release}${valueNames.length ? `, ${valueNames.join(', ')}` : ''}`,
    anchor: spec.anchor ?? { file: spec.chartFile, start: 0, end: 0 },
    namespace: spec.namespace,
    clusters: spec.clusters,
    consumes,
    reads: [spec.chartDir, ...spec.valuesFiles.map((v) => v.path)],
    notes: spec.notes ?? [],
    chartDir: spec.chartDir,
    chartFile: spec.chartFile,
    chartName: spec.chartName,
    release: spec.release,
    valuesFiles: spec.valuesFiles,
    set: spec.set,
    replaceChartValues: spec.replaceChartValues ?? false,
    ...(spec.inlineValues ? { inlineValues: spec.inlineValues } : {}),
  };
}

function configuredHelmJob(
  r: NonNullable<NonNullable<CoreConfig['render']>['helm']>[number], i: number, layout: RepoLayout, config: CoreConfig, repoPath: RepoPath, byPath: ReadonlyMap<string, LoadedFile>, configFile?: LoadedFile,
): HelmJob | undefined {
  // Where each `set:` value is written in `.kube-netlint.yaml` (findings fed by it point there).
  const entry = configFile ? at(parsedDocuments(configFile)[0]?.contents, ['render', 'helm', i]) : undefined;
  const setSpan = (key: string): Span | undefined => (configFile ? spanOf(configFile.file, at(entry, ['set', key])) : undefined);
  const valuesSpan = (n: number): Span | undefined => (configFile ? spanOf(configFile.file, at(entry, ['values', n])) : undefined);
  const chart = layout.charts.find((c) => c.dir === r.chart);
  if (!chart) return undefined; // the config check reports a chart folder without Chart.yaml
  return helmJob(
    {
      id: `helm:${i}:${r.release ?? chart.name}@${chart.dir}`,
      chartDir: chart.dir, chartFile: chart.file, chartName: chart.name, release: r.release ?? chart.name, namespace: r.namespace ?? config.namespace,
      valuesFiles: (r.values ?? []).map((path, n) => ({ path, namedAt: valuesSpan(n) })),
      set: Object.entries(r.set ?? {}).map(([key, value]) => ({ key, value: String(value), span: setSpan(key) })),
      clusters: r.cluster ? { type: 'named', names: [r.cluster] } : { type: 'all' },
    },
    [...byPath.values()],
    repoPath,
  );
}
