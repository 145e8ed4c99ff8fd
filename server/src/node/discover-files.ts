import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { CONFIG_FILE_NAME } from './config-file';

/** Folders never searched for manifests. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** A path the user named that could not be read: a usage error (exit 2 in the CLI). */
export class PathError extends Error {}

/**
 * Finds `*.yaml` / `*.yml` files below each path (a file path is taken as given, whatever its
 * extension), skipping `node_modules`, `.git`, the `.kube-netlint.yaml` config files and files matching `exclude` globs (picomatch,
 * matched against the path relative to `baseDir`, with `/` separators; `dot: true`).
 * Results are sorted for a stable output order.
 * @throws PathError when a named path does not exist or cannot be read
 */
export function discoverFiles(paths: readonly string[], exclude: readonly string[], baseDir: string): string[] {
  const isExcluded = exclude.length ? picomatch(exclude as string[], { dot: true }) : () => false;
  const rel = (p: string): string => relative(baseDir, p).split(sep).join('/');
  const out = new Set<string>();
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      throw new PathError(`${dir}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? err})`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && !isExcluded(rel(full)) && !isExcluded(rel(full) + '/')) walk(full);
      } else if ((e.isFile() || e.isSymbolicLink()) && /\.ya?ml$/i.test(e.name) && e.name !== CONFIG_FILE_NAME && !isExcluded(rel(full))) {
        out.add(full);
      }
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      throw new PathError(`${p}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : `cannot read (${(err as NodeJS.ErrnoException).code ?? err})`}`);
    }
    if (st.isDirectory()) walk(p);
    else out.add(p);
  }
  return [...out];
}
