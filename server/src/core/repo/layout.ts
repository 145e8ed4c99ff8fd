import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { Span } from '../source/span';
import type { CoreConfig } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import { templateFile } from '../load/load-file';
import type { K8sObject } from '../model/objects';
import { committedCopyGroups } from './committed-copies';
import { fileAsBuilt, isIdentityView, KustomizeView, objectsAsBuilt, viewKey } from './kustomize-view';

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
   * Raw files whose objects kustomize's namespace and prefix/suffix transformers change, in this cluster: file (as
   * loaded) → each way the entry point builds it, one copy of its objects per view (see repo/kustomize-view.ts).
   * Rendered groups need none.
   */
  readonly views?: ReadonlyMap<string, readonly KustomizeView[]>;
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
   * Members whose objects kustomize's namespace and prefix/suffix transformers change: file → one view per distinct
   * way the paths from this entry point to the file build it (the `namespace:` of the outermost kustomization that
   * sets one, the prefixes and suffixes of every level, the Service references they rewrite). A file reached along
   * two paths that build it differently (two overlays in different namespaces) has two views, two copies.
   */
  readonly views: ReadonlyMap<string, readonly KustomizeView[]>;
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
   * Files (names as loaded) that kustomizations list under `resources` (or `bases`, `components`), patches left
   * out: kustomize builds their objects, and its transformers may add what they lack (`labels` / `commonLabels` add
   * the workloads' `spec.selector`), so a field missing in the file is not missing in what is applied.
   */
  readonly resourceFiles: ReadonlySet<string>;
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
 * with every file reachable through `resources`/`bases`/`components`, its patch files, and how its namespace and
 * prefix/suffix transformers build each of them). Files no group claims are placed later, once renders are in
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
  const listed = new Set<string>();
  for (const f of files) {
    if (f.role?.type !== 'kustomization') continue;
    const dir = dirOf(repoPath(f.file));
    const collect = (refs: readonly string[], into: Set<string>): void => {
      for (const r of refs) {
        const file = paths.get(posix.normalize(posix.join(dir, r)));
        if (file !== undefined) into.add(file);
      }
    };
    collect(f.role.patches, patchFiles);
    collect(f.role.resources, listed);
  }
  const resourceFiles = new Set([...listed].filter((f) => !patchFiles.has(f)));
  const kustomizeEntries = findKustomizeEntries(files, repoPath, paths);
  if (config.clusters && Object.keys(config.clusters).length) {
    const groups = Object.entries(config.clusters).map(([name, globs]) => {
      const match = picomatch(globs as string[], { dot: true });
      return { name, files: new Set([...paths].filter(([p]) => match(p)).map(([, f]) => f)) };
    });
    return { groups, groupSource: 'config', charts, patchFiles, resourceFiles, kustomizeEntries };
  }
  const groups = kustomizeEntries.map((e): ClusterGroup => ({ name: e.dir, files: e.members, home: e.dir, ...(e.views.size ? { views: e.views } : {}) }));
  return groups.length ? { groups, groupSource: 'kustomize', charts, patchFiles, resourceFiles, kustomizeEntries } : { groupSource: 'none', charts, patchFiles, resourceFiles, kustomizeEntries };
}

/**
 * Kustomize entry points: kustomizations that no other one references. A reference cycle (a → b → a) that nothing
 * else references becomes one entry named after its first folder (so its files stay together instead of joining
 * every cluster), marked with the cycle. Components and CRD-only kustomizations are left out.
 */
function findKustomizeEntries(files: readonly LoadedFile[], repoPath: RepoPath, paths: ReadonlyMap<string, string>): KustomizeEntry[] {
  const kustomizations = new Map<string, KustomizationNode>(); // dir → resolved repo paths
  for (const f of files) {
    if (f.role?.type !== 'kustomization') continue;
    const dir = dirOf(repoPath(f.file));
    const resolve = (r: string): string => posix.normalize(posix.join(dir, r)).replace(/\/$/, '');
    const { namespace, namePrefix, nameSuffix } = f.role;
    kustomizations.set(dir, { file: f, resources: f.role.resources.map(resolve), patches: f.role.patches.map(resolve), component: !!f.role.component, namespace, namePrefix, nameSuffix });
  }
  if (kustomizations.size === 0) return [];
  const referenced = new Set<string>();
  for (const k of kustomizations.values()) for (const r of k.resources) if (kustomizations.has(r)) referenced.add(r);
  const fileOf = new Map(files.map((f) => [f.file, f]));
  const reach = (entry: string): Reach => {
    const members = new Set<string>();
    const viewsOf = new Map<string, Map<string, KustomizeView>>(); // file → view key → view
    const open = new Set<string>();
    const done = new Set<string>(); // folder and view key
    let cycle: { dir: string; file: string }[] | undefined;
    const stack: string[] = [];
    // `outer`: how the kustomizations above this one transform what it builds (the outermost namespace wins).
    const visit = (dir: string, outer: KustomizeView): void => {
      if (open.has(dir)) {
        cycle ??= [...stack.slice(stack.indexOf(dir)), dir].map((d) => ({ dir: d, file: kustomizations.get(d)!.file.file }));
        return;
      }
      const k = kustomizations.get(dir)!;
      const namespace = outer.namespace ?? k.namespace;
      const view: KustomizeView = { ...(namespace !== undefined ? { namespace } : {}), namePrefix: outer.namePrefix + (k.namePrefix ?? ''), nameSuffix: (k.nameSuffix ?? '') + outer.nameSuffix };
      const key = `${dir}\u0000${viewKey(view)}`;
      if (done.has(key)) return;
      done.add(key);
      open.add(dir);
      stack.push(dir);
      for (const p of [...k.resources, ...k.patches]) {
        if (kustomizations.has(p)) visit(p, view);
        else if (paths.has(p)) {
          const file = paths.get(p)!;
          members.add(file);
          let views = viewsOf.get(file);
          if (!views) viewsOf.set(file, (views = new Map()));
          views.set(viewKey(view), view);
        }
      }
      stack.pop();
      open.delete(dir);
    };
    visit(entry, { namePrefix: '', nameSuffix: '' });
    return { members, views: withServiceReferences(viewsOf, fileOf), cycle };
  };
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
    const { members, views, cycle } = reach(dir);
    members.forEach((m) => inEntry.add(m));
    if (crdOnly(members)) continue;
    entries.push({ dir, file: k.file.file, members, views, ...(cycle ? { cycle } : {}) });
  }
  // A cycle that nothing outside references: each of its kustomizations is "referenced", so none was an entry.
  const inCycle = new Set<string>();
  for (const e of entries) for (const c of e.cycle ?? []) inCycle.add(c.dir);
  for (const dir of dirs) {
    const k = kustomizations.get(dir)!;
    if (inCycle.has(dir) || k.component || !referenced.has(dir)) continue;
    const { members, views, cycle } = reach(dir);
    if (!cycle || [...members].some((m) => inEntry.has(m))) continue;
    cycle.forEach((c) => inCycle.add(c.dir));
    members.forEach((m) => inEntry.add(m));
    entries.push({ dir, file: k.file.file, members, views, cycle });
  }
  entries.push(...deployedAlone(files, kustomizations, referenced, inCycle, entries, reach));
  return entries.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** A kustomization as the layout follows it: resolved repository paths and its builtin transformers. */
interface KustomizationNode {
  readonly file: LoadedFile;
  readonly resources: string[];
  readonly patches: string[];
  readonly component: boolean;
  readonly namespace?: string;
  readonly namePrefix?: string;
  readonly nameSuffix?: string;
}

/** What an entry point reaches: its member files, the views that change them, and a reference cycle if any. */
interface Reach {
  readonly members: Set<string>;
  readonly views: Map<string, readonly KustomizeView[]>;
  readonly cycle?: { dir: string; file: string }[];
}

/**
 * The views of an entry point's members, with the Service references each rewrites (see {@link KustomizeView.services}):
 * a Service written `web` and built `prod-web` into namespace `shop` renames references to `web` from objects built
 * into `shop` — those of the same view first, else when no other view builds a different `web` there. Files whose
 * only view changes nothing are left out.
 */
function withServiceReferences(viewsOf: ReadonlyMap<string, ReadonlyMap<string, KustomizeView>>, fileOf: ReadonlyMap<string, LoadedFile>): Map<string, readonly KustomizeView[]> {
  const builtNs = (o: K8sObject, v: KustomizeView): string => (o.namespace === '' || v.namespace === undefined ? o.namespace : v.namespace);
  // Namespace → written name → built names (over all views), and the same per view key.
  const inNamespace = new Map<string, Map<string, Set<string>>>();
  const perView = new Map<string, Map<string, string>>(); // view key → `${namespace}\u0000${written}` → built
  for (const [file, views] of viewsOf) {
    for (const o of fileOf.get(file)?.objects ?? []) {
      if (o.kind !== 'Service' || o.group !== '' || o.name === '') continue;
      for (const [key, v] of views) {
        const built = objectsAsBuilt(o, [v])[0].name;
        const ns = builtNs(o, v);
        let names = inNamespace.get(ns);
        if (!names) inNamespace.set(ns, (names = new Map()));
        if (!names.has(o.name)) names.set(o.name, new Set());
        names.get(o.name)!.add(built);
        if (!perView.has(key)) perView.set(key, new Map());
        perView.get(key)!.set(`${ns}\u0000${o.name}`, built);
      }
    }
  }
  const out = new Map<string, readonly KustomizeView[]>();
  for (const [file, views] of viewsOf) {
    const list = [...views].map(([key, v]) => {
      const services: [string, string, string][] = [];
      for (const [ns, names] of inNamespace) {
        if (v.namespace !== undefined && ns !== v.namespace) continue; // this view builds nothing into another namespace
        for (const [written, builtSet] of names) {
          const built = perView.get(key)?.get(`${ns}\u0000${written}`) ?? (builtSet.size === 1 ? [...builtSet][0] : undefined);
          if (built !== undefined && built !== written) services.push([ns, written, built]);
        }
      }
      return services.length ? { ...v, services } : v;
    });
    if (list.length === 1 && isIdentityView(list[0]) && !list[0].services) continue;
    out.set(file, list);
  }
  return out;
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
  reach: (dir: string) => Reach,
): KustomizeEntry[] {
  const fileOf = new Map(files.map((f) => [f.file, f]));
  const builds = (members: ReadonlySet<string>, views: ReadonlyMap<string, readonly KustomizeView[]>): Set<string> => {
    const ids = new Set<string>();
    for (const m of members) for (const o of fileOf.get(m)?.objects ?? []) for (const b of objectsAsBuilt(o, views.get(m))) ids.add(b.identity);
    return ids;
  };
  const inSome = new Set<string>();
  for (const e of entries) e.members.forEach((m) => inSome.add(m));
  const main = (f: LoadedFile) => f.objects.filter((o) => o.category === 'workload' || o.category === 'service');
  const plain = files.filter((f) => !f.role && !f.template && !f.render && !inSome.has(f.file) && main(f).length);
  if (plain.length === 0) return [];
  const candidates: { dir: string; k: { file: LoadedFile }; members: Set<string>; views: Map<string, readonly KustomizeView[]>; ids: Set<string> }[] = [];
  for (const [dir, k] of kustomizations) {
    if (!referenced.has(dir) || k.component || inCycle.has(dir)) continue;
    const r = reach(dir);
    if (!r.cycle) candidates.push({ dir, k, members: r.members, views: r.views, ids: builds(r.members, r.views) });
  }
  if (candidates.length === 0) return [];
  const entryIds = entries.map((e) => builds(e.members, e.views));
  // As in committedCopyGroups: objects no kustomization here builds (from a remote base) go along with their file.
  const anyBuilds = new Set([...entryIds, ...candidates.map((c) => c.ids)].flatMap((ids) => [...ids]));
  const chosen = new Set<(typeof candidates)[number]>();
  for (const f of plain) {
    const known = main(f).filter((o) => anyBuilds.has(o.identity));
    if (known.length === 0 || entryIds.some((ids) => known.every((o) => ids.has(o.identity)))) continue;
    for (const c of candidates) if (known.every((o) => c.ids.has(o.identity))) chosen.add(c);
  }
  return [...chosen].map((c) => ({ dir: c.dir, file: c.k.file.file, members: c.members, views: c.views }));
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
    const views = group.views?.get(f.file);
    out.push(views === undefined ? f : fileAsBuilt(f, views));
  }
  return out;
}

/** An object of `group`'s files as that cluster sees it, one per view (see {@link filesOfGroup}): the same instances filesOfGroup gives. */
export function objectsInGroup(group: ClusterGroup, obj: K8sObject): K8sObject[] {
  return objectsAsBuilt(obj, group.views?.get(obj.file));
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
      if (f && (f.render || g.home !== undefined)) for (const o of f.objects) for (const b of objectsInGroup(g, o)) ids.add(b.identity);
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
