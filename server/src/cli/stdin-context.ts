import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readKustomization } from '../core/render/kustomization';
import { isRemoteReference } from '../core/render/remote';

/** The names kustomize looks for in a folder (api/konfig/general.go RecognizedKustomizationFileNames, v5.4). */
const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
/** At most this many files are read for the build of standard input (a runaway tree stays bounded). */
const MAX_CONTEXT_FILES = 5000;

/**
 * The files on disk that the kustomize build of the overlay holding `stdinPath` reads: standard input named by
 * `--stdin-filename` is an editor buffer of that overlay (its kustomization.yaml, a patch or a resource in its
 * folder), and what is rendered must be the buffer in place of the file, with the rest of the tree as on disk. Follows
 * the local `resources`, `components`, patches, replacement and generator files from that kustomization, by
 * kustomize's rules (a folder entry is another kustomization). Empty when the folder holds no kustomization.
 * @param stdinPath absolute path standard input stands for
 * @param stdinText its text
 * @returns absolute paths of existing files, `stdinPath` left out
 */
export function kustomizeContextOfStdin(stdinPath: string, stdinText: string): string[] {
  const textOf = (file: string): string | undefined => {
    if (file === stdinPath) return stdinText;
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  const kustomizationIn = (dir: string): string | undefined => KUSTOMIZATION_NAMES.map((n) => join(dir, n)).find((f) => f === stdinPath || isFile(f));
  const out = new Set<string>();
  const start = KUSTOMIZATION_NAMES.includes(basename(stdinPath)) ? stdinPath : kustomizationIn(dirname(stdinPath));
  if (!start) return [];
  const queue = [start];
  const seen = new Set(queue);
  while (queue.length && out.size < MAX_CONTEXT_FILES) {
    const file = queue.shift()!;
    out.add(file);
    const text = textOf(file);
    if (text === undefined) continue;
    const dir = dirname(file);
    const k = readKustomization(file, text);
    const entries = [...k.resources, ...k.components].map((r) => r.value).filter((v) => !isRemoteReference(v));
    for (const entry of entries) {
      const target = resolve(dir, entry);
      const nested = isDirectory(target) ? kustomizationIn(target) : undefined;
      if (nested) {
        if (!seen.has(nested)) {
          seen.add(nested);
          queue.push(nested);
        }
      } else if (isFile(target) || target === stdinPath) out.add(target);
    }
    const named = [...k.patches.flatMap((p) => (p.path ? [p.path.value] : [])), ...k.replacementFiles.map((r) => r.value), ...k.otherFiles];
    for (const p of named) {
      const target = resolve(dir, p);
      if (isFile(target)) out.add(target);
    }
  }
  out.delete(stdinPath);
  return [...out];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
