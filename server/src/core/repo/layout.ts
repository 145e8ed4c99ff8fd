import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { CoreConfig } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import { templateFile } from '../load/load-file';

/** One cluster's files (issue 6). Files that no group claims belong to every group. */
export interface ClusterGroup {
  readonly name: string;
  readonly files: ReadonlySet<string>;
}

/** A Helm chart found in the workspace and how many template files it has. */
export interface HelmChart {
  readonly file: string;
  readonly name: string;
  readonly templates: readonly string[];
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
  const paths = new Map(files.map((f) => [repoPath(f.file), f.file]));
  const charts: HelmChart[] = files
    .filter((f) => f.role?.type === 'helm-chart')
    .map((f) => {
      const dir = dirOf(repoPath(f.file));
      const prefix = dir === '.' ? 'templates/' : `${dir}/templates/`;
      const templates = files.filter((t) => repoPath(t.file).startsWith(prefix)).map((t) => t.file);
      return { file: f.file, name: f.role?.type === 'helm-chart' ? f.role.name : '', templates };
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
  if (config.clusters && Object.keys(config.clusters).length) {
    const groups = Object.entries(config.clusters).map(([name, globs]) => {
      const match = picomatch(globs as string[], { dot: true });
      return { name, files: new Set([...paths].filter(([p]) => match(p)).map(([, f]) => f)) };
    });
    return { groups, groupSource: 'config', charts, patchFiles };
  }
  const groups = kustomizeGroups(files, repoPath, paths);
  return groups.length ? { groups, groupSource: 'kustomize', charts, patchFiles } : { groupSource: 'none', charts, patchFiles };
}

function kustomizeGroups(files: readonly LoadedFile[], repoPath: RepoPath, paths: ReadonlyMap<string, string>): ClusterGroup[] {
  const kustomizations = new Map<string, { resources: string[]; patches: string[] }>(); // dir → resolved repo paths
  for (const f of files) {
    if (f.role?.type !== 'kustomization') continue;
    const dir = dirOf(repoPath(f.file));
    const resolve = (r: string): string => posix.normalize(posix.join(dir, r)).replace(/\/$/, '');
    kustomizations.set(dir, { resources: f.role.resources.map(resolve), patches: f.role.patches.map(resolve) });
  }
  if (kustomizations.size === 0) return [];
  const referenced = new Set<string>();
  for (const k of kustomizations.values()) for (const r of k.resources) if (kustomizations.has(r)) referenced.add(r);
  const groups: ClusterGroup[] = [];
  for (const entry of [...kustomizations.keys()].sort()) {
    if (referenced.has(entry)) continue;
    const members = new Set<string>();
    const seen = new Set<string>();
    const visit = (dir: string): void => {
      if (seen.has(dir)) return; // kustomize forbids cycles; don't loop on them
      seen.add(dir);
      const k = kustomizations.get(dir)!;
      for (const p of [...k.resources, ...k.patches]) {
        if (kustomizations.has(p)) visit(p);
        else if (paths.has(p)) members.add(paths.get(p)!);
      }
    };
    visit(entry);
    groups.push({ name: entry, files: members });
  }
  return groups;
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
