import type { LoadedFile } from '../load/load-file';
import type { ClusterGroup } from './layout';

/**
 * Plain files that are committed copies of what a deployable unit produces (`make manifests` output kept next to its
 * kustomize sources, as metallb's `config/manifests/*.yaml`) join only the groups whose produced objects include every
 * object of the file that any group produces (same API group, kind, namespace and name), instead of every group: a
 * copy of the native overlay's install must not collide with a Helm chart's or another overlay's objects. Objects no
 * group produces (the part a render left out, e.g. a remote base) go along with the rest of their file. A file that
 * shares no workload or Service with a group's output is not a copy of one and stays unclaimed. Files a group
 * already claims and rendered files are left where they are. Pure; O(objects).
 * @param produced for each group (in `groups` order), the identities of the objects it produces: its rendered
 *   manifests' objects, or, unrendered, its kustomize entry point's files as the namespace transformer leaves them
 * @returns the groups, those that gain copies with the copies' file names added
 */
export function committedCopyGroups(files: readonly LoadedFile[], groups: readonly ClusterGroup[], produced: readonly ReadonlySet<string>[]): ClusterGroup[] {
  const anyGroup = new Set<string>();
  for (const ids of produced) for (const id of ids) anyGroup.add(id);
  if (anyGroup.size === 0) return [...groups];
  const added = groups.map(() => new Set<string>());
  for (const f of files) {
    if (f.render || !f.objects.length || groups.some((g) => g.files.has(f.file))) continue;
    const known = f.objects.filter((o) => anyGroup.has(o.identity));
    if (!known.some((o) => o.category === 'workload' || o.category === 'service')) continue;
    const holders = produced.flatMap((ids, i) => (known.every((o) => ids.has(o.identity)) ? [i] : []));
    for (const i of holders) added[i].add(f.file);
  }
  if (added.every((a) => a.size === 0)) return [...groups];
  // Files that join some group are no longer unclaimed, so they leave every other group.
  return groups.map((g, i) => (added[i].size ? { ...g, files: new Set([...g.files, ...added[i]]) } : g));
}
