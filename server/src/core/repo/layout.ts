import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { Span } from '../source/span';
import type { CoreConfig } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import { templateFile } from '../load/load-file';

/** One cluster's files (issue 6). Files that no group claims belong to every group. */
export interface ClusterGroup {
  readonly name: string;
  readonly files: ReadonlySet<string>;
}

/** A Helm chart found in the workspace and its template files. */
export interface HelmChart {
  /** Its Chart.yaml, as loaded. */
  readonly file: string;
  readonly name: string;
  /** Repository path of the chart's folder. */
  readonly dir: string;
  readonly templates: readonly string[];
  /** `type: library` (renders nothing on its own). */
  readonly library: boolean;
  /** The Chart.yaml of the chart whose `charts/` folder holds this one (a vendored subchart), if any. */
  readonly parent?: string;
}

/** A kustomize entry point: a kustomization no other one references (a deployable overlay). */
export interface KustomizeEntry {
  /** Repository path of its folder (`overlays/prod`, `.` for the root). */
  readonly dir: string;
  /** Its kustomization file, as loaded. */
  readonly file: string;
  /** Files reachable through resources/bases/components and patches, as loaded (what it reads, recursively). */
  readonly members: ReadonlySet<string>;
  /**
   * Set when the entry reaches a reference cycle (kustomize refuses to build it): the kustomizations of the cycle in
   * reference order, the first repeated at the end (`a → b → a`).
   */
  readonly cycle?: readonly { readonly dir: string; readonly file: string }[];
}

export interface RepoLayout {
  /** undefined when the workspace is one cluster. */
  readonly groups?: readonly ClusterGroup[];
  readonly groupSource: 'config' | 'kustomize' | 'none';
  readonly charts: readonly HelmChart[];
  /**
   * Files (names as loaded) that kustomizations use as patches (`patchesStrategicMerge`, `patches`,
   * `patchesJson6902`): their objects are partial on purpose (a patch Service may carry only a
   * `nodePort`), so rules about fields that must be present skip them.
   */
  readonly patchFiles: ReadonlySet<string>;
  /**
   * Kustomize entry points, whatever `clusters:` says. `kind: Component` folders and kustomizations that only
   * hold CustomResourceDefinitions are not entry points (nothing deploys them on their own).
   */
  readonly kustomizeEntries: readonly KustomizeEntry[];
  /** What happened to renders (filled by analyze() when renders were given; see core/render/). */
  readonly render?: RenderState;
}

/** Render results the rules report on (render failures, what was left out, charts that were not rendered and why). */
export interface RenderState {
  readonly notes: readonly RenderNote[];
  /** Chart.yaml files (as loaded) of charts that at least one release rendered or tried to (a failure is a render-failed finding). */
  readonly renderedCharts: ReadonlySet<string>;
  /** Why charts are not rendered at all (`helm was not found on PATH`), when that is the case. */
  readonly helmUnavailable?: string;
}

/** A finding produced by rendering (the render-* rules report them). */
export interface RenderNote {
  readonly ruleId: string;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly span: Span;
  readonly related?: readonly { readonly span: Span; readonly message: string }[];
}

/** Maps a file name as loaded to a `/`-separated path relative to the repository root (for globs and kustomize paths). */
export type RepoPath = (file: string) => string;

/** The {@link RepoPath} used when the caller gives none: the name as loaded, with `/` separators. */
export const defaultRepoPath: RepoPath = (file) => file.split('\\').join('/');

const dirOf = (p: string): string => posix.dirname(p);

/**
 * Works out the repository layout: Helm charts (a `Chart.yaml` and the files under its `templates/`),
 * and cluster groups — from `clusters:` in the config (picomatch globs against repo paths), else from
 * kustomize entry points (kustomizations that no other kustomization references; each becomes a group
 * named after its directory with every file reachable through `resources`/`bases`/`components`, and
 * its patch files). Pure: works on file names and parsed kustomizations only.
 */
export function computeLayout(files: readonly LoadedFile[], config: CoreConfig, repoPath: RepoPath): RepoLayout {
  // Each file's repository path once (repoPath may be path.relative, which costs).
  const pathOf = new Map(files.map((f) => [f.file, repoPath(f.file)]));
  const cachedRepoPath: RepoPath = (file) => pathOf.get(file) ?? repoPath(file);
  repoPath = cachedRepoPath;
  const paths = new Map(files.map((f) => [repoPath(f.file), f.file]));
  const chartFiles = files.filter((f) => f.role?.type === 'helm-chart');
  const chartDirs = new Map(chartFiles.map((f) => [dirOf(repoPath(f.file)), f.file]));
  const charts: HelmChart[] = chartFiles.map((f) => {
    const dir = dirOf(repoPath(f.file));
    const prefix = dir === '.' ? 'templates/' : `${dir}/templates/`;
    const templates: string[] = [];
    for (const [p, file] of paths) if (p.startsWith(prefix)) templates.push(file);
    // A chart in `<parent>/charts/<name>/` is a vendored subchart of the nearest chart above it.
    let parent: string | undefined;
    for (let d = dir; d !== '.' && d !== '/' && !parent; ) {
      const up = dirOf(d);
      if (posix.basename(d) !== '' && posix.basename(up) === 'charts') parent = chartDirs.get(dirOf(up));
      d = up;
    }
    const role = f.role?.type === 'helm-chart' ? f.role : undefined;
    return { file: f.file, name: role?.name ?? '', dir, templates, library: !!role?.library, ...(parent ? { parent } : {}) };
  });
  const patchFiles = new Set<string>();
  for (const f of files) {
    if (f.role?.type !== 'kustomization') continue;
    const dir = dirOf(repoPath(f.file));
    for (const p of f.role.patches) {
      const file = paths.get(posix.normalize(posix.join(dir, p)));
      if (file !== undefined) patchFiles.add(file);
    }
  }
  const kustomizeEntries = findKustomizeEntries(files, repoPath, paths);
  if (config.clusters && Object.keys(config.clusters).length) {
    const groups = Object.entries(config.clusters).map(([name, globs]) => {
      const match = picomatch(globs as string[], { dot: true });
      return { name, files: new Set([...paths].filter(([p]) => match(p)).map(([, f]) => f)) };
    });
    return { groups, groupSource: 'config', charts, patchFiles, kustomizeEntries };
  }
  const groups = kustomizeEntries.map((e) => ({ name: e.dir, files: e.members }));
  return groups.length ? { groups, groupSource: 'kustomize', charts, patchFiles, kustomizeEntries } : { groupSource: 'none', charts, patchFiles, kustomizeEntries };
}

/**
 * Kustomize entry points: kustomizations that no other one references. A reference cycle (a → b → a) that nothing
 * else references becomes one entry named after its first folder (so its files stay together instead of joining
 * every cluster), marked with the cycle. Components and CRD-only kustomizations are left out.
 */
function findKustomizeEntries(files: readonly LoadedFile[], repoPath: RepoPath, paths: ReadonlyMap<string, string>): KustomizeEntry[] {
  const kustomizations = new Map<string, { file: LoadedFile; resources: string[]; patches: string[]; component: boolean }>(); // dir → resolved repo paths
  for (const f of files) {
    if (f.role?.type !== 'kustomization') continue;
    const dir = dirOf(repoPath(f.file));
    const resolve = (r: string): string => posix.normalize(posix.join(dir, r)).replace(/\/$/, '');
    kustomizations.set(dir, { file: f, resources: f.role.resources.map(resolve), patches: f.role.patches.map(resolve), component: !!f.role.component });
  }
  if (kustomizations.size === 0) return [];
  const referenced = new Set<string>();
  for (const k of kustomizations.values()) for (const r of k.resources) if (kustomizations.has(r)) referenced.add(r);
  const reach = (entry: string): { members: Set<string>; cycle?: { dir: string; file: string }[] } => {
    const members = new Set<string>();
    const state = new Map<string, 'open' | 'done'>();
    let cycle: { dir: string; file: string }[] | undefined;
    const stack: string[] = [];
    const visit = (dir: string): void => {
      if (state.get(dir) === 'open') {
        cycle ??= [...stack.slice(stack.indexOf(dir)), dir].map((d) => ({ dir: d, file: kustomizations.get(d)!.file.file }));
        return;
      }
      if (state.has(dir)) return;
      state.set(dir, 'open');
      stack.push(dir);
      const k = kustomizations.get(dir)!;
      for (const p of [...k.resources, ...k.patches]) {
        if (kustomizations.has(p)) visit(p);
        else if (paths.has(p)) members.add(paths.get(p)!);
      }
      stack.pop();
      state.set(dir, 'done');
    };
    visit(entry);
    return { members, cycle };
  };
  const fileOf = new Map(files.map((f) => [f.file, f]));
  const crdOnly = (members: ReadonlySet<string>): boolean => {
    const objects = [...members].flatMap((m) => fileOf.get(m)?.objects ?? []);
    return objects.length > 0 && objects.every((o) => o.kind === 'CustomResourceDefinition');
  };
  const entries: KustomizeEntry[] = [];
  const inEntry = new Set<string>();
  const dirs = [...kustomizations.keys()].sort();
  for (const dir of dirs) {
    const k = kustomizations.get(dir)!;
    if (referenced.has(dir) || k.component) continue;
    const { members, cycle } = reach(dir);
    members.forEach((m) => inEntry.add(m));
    if (crdOnly(members)) continue;
    entries.push({ dir, file: k.file.file, members, ...(cycle ? { cycle } : {}) });
  }
  // A cycle that nothing outside references: each of its kustomizations is "referenced", so none was an entry.
  const inCycle = new Set<string>();
  for (const e of entries) for (const c of e.cycle ?? []) inCycle.add(c.dir);
  for (const dir of dirs) {
    const k = kustomizations.get(dir)!;
    if (inCycle.has(dir) || k.component || !referenced.has(dir)) continue;
    const { members, cycle } = reach(dir);
    if (!cycle || [...members].some((m) => inEntry.has(m))) continue;
    cycle.forEach((c) => inCycle.add(c.dir));
    members.forEach((m) => inEntry.add(m));
    entries.push({ dir, file: k.file.file, members, cycle });
  }
  return entries.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/**
 * The files to analyse: Helm chart templates are replaced by empty template files (no objects, no
 * YAML errors, no finding), whatever their content.
 */
export function withoutChartTemplates(files: readonly LoadedFile[], layout: RepoLayout): LoadedFile[] {
  const templates = new Set(layout.charts.flatMap((c) => c.templates));
  if (templates.size === 0) return [...files];
  // A chart's templates get no finding of their own: the chart's Chart.yaml has one.
  return files.map((f) => (templates.has(f.file) ? templateFile(f.file, f.text, f.lines, f.role) : f));
}

/** Names of the files that no group claims (they belong to every group). */
export function unclaimedFiles(files: readonly LoadedFile[], groups: readonly ClusterGroup[]): ReadonlySet<string> {
  return new Set(files.filter((f) => !groups.some((g) => g.files.has(f.file))).map((f) => f.file));
}

/** Files of one group, in load order: its own plus the {@link unclaimedFiles}. */
export function filesOfGroup(files: readonly LoadedFile[], unclaimed: ReadonlySet<string>, group: ClusterGroup): LoadedFile[] {
  return files.filter((f) => group.files.has(f.file) || unclaimed.has(f.file));
}
