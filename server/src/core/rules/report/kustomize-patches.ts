import type { WorkloadObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { RepoLayout } from '../../repo/layout';

/**
 * Workloads in kustomize patch files are partial (a strategic-merge patch lists only what it changes) and
 * are merged into their base when kustomize renders: they are not pods of their own, but they may add
 * containers and ports to the base. Rules that ask "does this pod template declare port X" ask it of the
 * base together with its patches ({@link withPatches}) and never judge a patch on its own ({@link isPatch}).
 */
export interface PatchLookup {
  isPatch(w: WorkloadObject): boolean;
  /** `w` and the patches kustomize merges into it (same group, kind and name; a patch without its own namespace matches any). */
  withPatches(w: WorkloadObject): readonly WorkloadObject[];
}

export function patchLookup(model: WorkspaceModel, layout: RepoLayout | undefined): PatchLookup {
  const files: ReadonlySet<string> = layout?.patchFiles ?? new Set();
  const isPatch = (w: WorkloadObject): boolean => files.has(w.file);
  let byName: Map<string, WorkloadObject[]> | undefined;
  return {
    isPatch,
    withPatches(w) {
      if (files.size === 0 || isPatch(w)) return [w];
      if (!byName) {
        byName = new Map();
        for (const p of model.namespaces().flatMap((ns) => model.workloadsIn(ns))) {
          if (!isPatch(p)) continue;
          const key = `${p.group}/${p.kind}/${p.name}`;
          byName.set(key, [...(byName.get(key) ?? []), p]);
        }
      }
      const patches = (byName.get(`${w.group}/${w.kind}/${w.name}`) ?? []).filter((p) => p.namespace === w.namespace || !writesNamespace(p));
      return patches.length ? [w, ...patches] : [w];
    },
  };
}

function writesNamespace(w: WorkloadObject): boolean {
  const metadata = w.raw.metadata;
  return typeof metadata === 'object' && metadata !== null && typeof (metadata as Record<string, unknown>).namespace === 'string';
}
