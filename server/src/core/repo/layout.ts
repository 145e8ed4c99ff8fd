import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { Span } from '../source/span';
import type { CoreConfig } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import { templateFile } from '../load/load-file';
import type { K8sObject } from '../model/objects';
import { committedCopyGroups } from './committed-copies';
import { fileInNamespace, inNamespace } from './kustomize-namespace';

/** One cluster's files. Files that no group claims belong to every group (see {@link placePlainFiles}). */
export interface ClusterGroup {
  readonly name: string;
  readonly files: ReadonlySet<string>;
  /**
   * Repository folder of the deployable unit the group stands for (a kustomize entry point's folder, a chart's
   * folder): plain files nearest to it join it (see {@link placePlainFiles}). Unset for `clusters:` groups.
   */
  readonly home?: string;
  /**
   * Raw files whose objects kustomize's namespace transformer moves, in this cluster: file (as loaded) → the
   * namespace its namespaced objects get (see repo/kustomize-namespace.ts). Rendered groups need none.
   */
  readonly namespaces?: ReadonlyMap<string, string>;
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

/**
 * A kustomize entry point (a deployable overlay): a kustomization no other one references, or one that others
 * reference but whose output is committed in the repository (deployed on its own too, see deployedAlone).
 */
export interface KustomizeEntry {
  /** Repository path of its folder (`overlays/prod`, `.` for the root). */
  readonly dir: string;
  /** Its kustomization file, as loaded. */
  readonly file: string;
  /** Files reachable through resources/bases/components and patches, as loaded (what it reads, recursively). */
  readonly members: ReadonlySet<string>;
  /**
   * Members whose namespaced objects kustomize moves to another namespace: file → the `namespace:` of the outermost
   * kustomization on the way from this entry point to the file that sets one (each level's namespace transformer
   * rewrites everything below it). A file reached along several paths takes the first one's, in `resources` order.
   */
  readonly namespaces: ReadonlyMap<string, string>;
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
 * kustomize entry points (kustomizations that no other kustomization references, and referenced ones whose
 * output is committed as a plain file; each becomes a group named after its directory, its {@link ClusterGroup.home},
 * with every file reachable through `resources`/`bases`/`components`, its patch files, and the namespace its
 * namespace transformer gives each of them). Files no group claims are placed later, once renders are in
 * ({@link placePlainFiles}: committed copies to their entry point, the rest to the nearest groups). Pure: works on
 * file names, parsed kustomizations and the files' objects only.
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
  const groups = kustomizeEntries.map((e): ClusterGroup => ({ name: e.dir, files: e.members, home: e.dir, ...(e.namespaces.size ? { namespaces: e.namespaces } : {}) }));
  return groups.length ? { groups, groupSource: 'kustomize', charts, patchFiles, kustomizeEntries } : { groupSource: 'none', charts, patchFiles, kustomizeEntries };
}

/**
 * Kustomize entry points: kustomizations that no other one references. A reference cycle (a → b → a) that nothing
 * else references becomes one entry named after its first folder (so its files stay together instead of joining
 * every cluster), marked with the cycle. Components and CRD-only kustomizations are left out.
 */
function findKustomizeEntries(files: readonly LoadedFile[], repoPath: RepoPath, paths: ReadonlyMap<string, string>): KustomizeEntry[] {
  const kustomizations = new Map<string, { file: LoadedFile; resources: string[]; patches: string[]; component: boolean; namespace?: string }>(); // dir → resolved repo paths
  for (const f of files) {
    if (f.role?.type !== 'kustomization') continue;
    const dir = dirOf(repoPath(f.file));
    const resolve = (r: string): string => posix.normalize(posix.join(dir, r)).replace(/\/$/, '');
    kustomizations.set(dir, { file: f, resources: f.role.resources.map(resolve), patches: f.role.patches.map(resolve), component: !!f.role.component, namespace: f.role.namespace });
  }
  if (kustomizations.size === 0) return [];
  const referenced = new Set<string>();
  for (const k of kustomizations.values()) for (const r of k.resources) if (kustomizations.has(r)) referenced.add(r);
  const reach = (entry: string): { members: Set<string>; namespaces: Map<string, string>; cycle?: { dir: string; file: string }[] } => {
    const members = new Set<string>();
    const namespaces = new Map<string, string>();
    const state = new Map<string, 'open' | 'done'>();
    let cycle: { dir: string; file: string }[] | undefined;
    const stack: string[] = [];
    // `outer`: the namespace a kustomization above this one sets (it overrides this one's).
    const visit = (dir: string, outer: string | undefined): void => {
      if (state.get(dir) === 'open') {
        cycle ??= [...stack.slice(stack.indexOf(dir)), dir].map((d) => ({ dir: d, file: kustomizations.get(d)!.file.file }));
        return;
      }
      if (state.has(dir)) return;
      state.set(dir, 'open');
      stack.push(dir);
      const k = kustomizations.get(dir)!;
      const namespace = outer ?? k.namespace;
      for (const p of [...k.resources, ...k.patches]) {
        if (kustomizations.has(p)) visit(p, namespace);
        else if (paths.has(p) && !members.has(paths.get(p)!)) {
          members.add(paths.get(p)!);
          if (namespace) namespaces.set(paths.get(p)!, namespace);
        }
      }
      stack.pop();
      state.set(dir, 'done');
    };
    visit(entry, undefined);
    return { members, namespaces, cycle };
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
    const { members, namespaces, cycle } = reach(dir);
    members.forEach((m) => inEntry.add(m));
    if (crdOnly(members)) continue;
    entries.push({ dir, file: k.file.file, members, namespaces, ...(cycle ? { cycle } : {}) });
  }
  // A cycle that nothing outside references: each of its kustomizations is "referenced", so none was an entry.
  const inCycle = new Set<string>();
  for (const e of entries) for (const c of e.cycle ?? []) inCycle.add(c.dir);
  for (const dir of dirs) {
    const k = kustomizations.get(dir)!;
    if (inCycle.has(dir) || k.component || !referenced.has(dir)) continue;
    const { members, namespaces, cycle } = reach(dir);
    if (!cycle || [...members].some((m) => inEntry.has(m))) continue;
    cycle.forEach((c) => inCycle.add(c.dir));
    members.forEach((m) => inEntry.add(m));
    entries.push({ dir, file: k.file.file, members, namespaces, cycle });
  }
  entries.push(...deployedAlone(files, kustomizations, referenced, inCycle, entries, reach));
  return entries.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/**
 * Kustomizations that other ones reference but that are deployed on their own too, as entry points: those whose
 * output is committed in the repository (a plain file, in no kustomization, whose workloads and Services are
 * objects this kustomization builds, as `make manifests` writes metallb's config/manifests/metallb-native.yaml from
 * config/native, which config/frr builds on) when no entry point builds that file's objects as they are (in another
 * namespace, say). Without it the copy would land in the other entry point's cluster and collide with the objects
 * it copies, moved to that entry point's namespace.
 */
function deployedAlone(
  files: readonly LoadedFile[], kustomizations: ReadonlyMap<string, { file: LoadedFile; resources: string[]; patches: string[]; component: boolean }>,
  referenced: ReadonlySet<string>, inCycle: ReadonlySet<string>, entries: readonly KustomizeEntry[],
  reach: (dir: string) => { members: Set<string>; namespaces: Map<string, string>; cycle?: unknown },
): KustomizeEntry[] {
  const fileOf = new Map(files.map((f) => [f.file, f]));
  const builds = (members: ReadonlySet<string>, namespaces: ReadonlyMap<string, string>): Set<string> => {
    const ids = new Set<string>();
    for (const m of members) {
      const ns = namespaces.get(m);
      for (const o of fileOf.get(m)?.objects ?? []) ids.add(ns === undefined ? o.identity : inNamespace(o, ns).identity);
    }
    return ids;
  };
  const inSome = new Set<string>();
  for (const e of entries) e.members.forEach((m) => inSome.add(m));
  const main = (f: LoadedFile) => f.objects.filter((o) => o.category === 'workload' || o.category === 'service');
  const plain = files.filter((f) => !f.role && !f.template && !f.render && !inSome.has(f.file) && main(f).length);
  if (plain.length === 0) return [];
  const candidates: { dir: string; k: { file: LoadedFile }; members: Set<string>; namespaces: Map<string, string>; ids: Set<string> }[] = [];
  for (const [dir, k] of kustomizations) {
    if (!referenced.has(dir) || k.component || inCycle.has(dir)) continue;
    const r = reach(dir);
    if (!r.cycle) candidates.push({ dir, k, members: r.members, namespaces: r.namespaces, ids: builds(r.members, r.namespaces) });
  }
  if (candidates.length === 0) return [];
  const entryIds = entries.map((e) => builds(e.members, e.namespaces));
  // As in committedCopyGroups: objects no kustomization here builds (from a remote base) go along with their file.
  const anyBuilds = new Set([...entryIds, ...candidates.map((c) => c.ids)].flatMap((ids) => [...ids]));
  const chosen = new Set<(typeof candidates)[number]>();
  for (const f of plain) {
    const known = main(f).filter((o) => anyBuilds.has(o.identity));
    if (known.length === 0 || entryIds.some((ids) => known.every((o) => ids.has(o.identity)))) continue;
    for (const c of candidates) if (known.every((o) => c.ids.has(o.identity))) chosen.add(c);
  }
  return [...chosen].map((c) => ({ dir: c.dir, file: c.k.file.file, members: c.members, namespaces: c.namespaces }));
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

/**
 * Files of one group, in load order: its own plus the {@link unclaimedFiles}, each as this cluster sees it (a raw
 * kustomize member with the namespace the entry point's namespace transformer gives it, see {@link ClusterGroup}).
 */
export function filesOfGroup(files: readonly LoadedFile[], unclaimed: ReadonlySet<string>, group: ClusterGroup): LoadedFile[] {
  const out: LoadedFile[] = [];
  for (const f of files) {
    if (!group.files.has(f.file) && !unclaimed.has(f.file)) continue;
    const namespace = group.namespaces?.get(f.file);
    out.push(namespace === undefined ? f : fileInNamespace(f, namespace));
  }
  return out;
}

/** An object of `group`'s files as that cluster sees it (see {@link filesOfGroup}): the same instance filesOfGroup gives. */
export function objectInGroup(group: ClusterGroup, obj: K8sObject): K8sObject {
  const namespace = group.namespaces?.get(obj.file);
  return namespace === undefined ? obj : inNamespace(obj, namespace);
}

/**
 * Where plain files go, once the groups are known (after renders, if any): the last step of the cluster grouping.
 * 1. A committed copy of a unit's output joins that unit's groups ({@link committedCopyGroups}): the objects a group
 *    produces are those of its rendered manifests, and, unrendered, its kustomize members as the namespace
 *    transformer leaves them — so `--no-render`, a missing kustomize and a failed render group the same way as a render.
 * 2. Any other file no group claims joins the nearest groups: those whose {@link ClusterGroup.home} shares the
 *    deepest common ancestor folder with the file's folder (a plain file of one project joins that project's overlays,
 *    not a sibling project's). A file no home is nearer to than the root, and every file when the groups come from
 *    `clusters:` (no homes), stays unclaimed: it belongs to every group. Rendered files and files without objects
 *    are not moved.
 * Pure; O(files × groups) path comparisons (one per folder and group).
 * @param repoPath as for {@link computeLayout}: `/` paths relative to the repository root (the config file's folder,
 *   else the git root), so nearness never reaches above that root
 */
export function placePlainFiles(files: readonly LoadedFile[], groups: readonly ClusterGroup[], repoPath: RepoPath): ClusterGroup[] {
  const byName = new Map(files.map((f) => [f.file, f]));
  const produced = groups.map((g) => {
    const ids = new Set<string>();
    for (const name of g.files) {
      const f = byName.get(name);
      // A group's raw files are what its unit produces only when it is a unit (a kustomize entry point), not a glob.
      if (f && (f.render || g.home !== undefined)) for (const o of f.objects) ids.add(objectInGroup(g, o).identity);
    }
    return ids;
  });
  const placed = committedCopyGroups(files, groups, produced);
  const nearest = nearestGroups(placed);
  const added = placed.map(() => new Set<string>());
  for (const f of files) {
    // A file without objects (a kustomization, a broken file) takes part in no cluster's model: its problems are the same everywhere.
    if (f.render || !f.objects.length || placed.some((g) => g.files.has(f.file))) continue;
    for (const i of nearest(repoPath(f.file))) added[i].add(f.file);
  }
  return placed.map((g, i) => (added[i].size ? { ...g, files: new Set([...g.files, ...added[i]]) } : g));
}

/**
 * The nearest-groups lookup of {@link placePlainFiles}: for a file's repository path, the indexes (into `groups`) of
 * the groups whose {@link ClusterGroup.home} shares the deepest common ancestor folder with the file's folder; empty
 * (the file belongs to every group) when that ancestor is the root for every home, or when a group has no home.
 * Memoised per folder.
 */
export function nearestGroups(groups: readonly ClusterGroup[]): (path: string) => readonly number[] {
  if (groups.some((g) => g.home === undefined)) return () => [];
  const split = (dir: string): string[] => (dir === '.' || dir === '' ? [] : dir.split('/'));
  const homes = groups.map((g) => split(g.home!));
  const byFolder = new Map<string, number[]>();
  return (path) => {
    const dir = dirOf(path);
    let found = byFolder.get(dir);
    if (found) return found;
    const parts = split(dir);
    let best = 0;
    found = [];
    homes.forEach((home, i) => {
      let depth = 0;
      while (depth < home.length && depth < parts.length && home[depth] === parts[depth]) depth++;
      if (depth > best) {
        best = depth;
        found = [i];
      } else if (depth === best && depth > 0) found!.push(i);
    });
    byFolder.set(dir, found);
    return found;
  };
}
