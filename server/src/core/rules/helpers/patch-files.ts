import { posix } from 'node:path';
import type { LoadedFile } from '../../load/load-file';

/**
 * Names (as loaded) of the files that kustomizations in the workspace use as patches
 * (`patchesStrategicMerge`, `patches`, `patchesJson6902`). Their objects are partial on purpose —
 * a patch Service may carry only `nodePort` without `port` or `type` — so rules about fields that
 * must be present skip them. Patch paths are resolved against the kustomization's folder; names are
 * compared with `/` separators.
 */
export function patchFileNames(files: ReadonlyMap<string, LoadedFile> | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const f of files?.values() ?? []) {
    if (f.role?.type !== 'kustomization') continue;
    const dir = posix.dirname(f.file.split('\\').join('/'));
    for (const p of f.role.patches) out.add(posix.normalize(posix.join(dir, p)));
  }
  return out;
}

/** True when `file` is one of {@link patchFileNames}. */
export function isPatchFile(patches: ReadonlySet<string>, file: string): boolean {
  return patches.size > 0 && patches.has(posix.normalize(file.split('\\').join('/')));
}
