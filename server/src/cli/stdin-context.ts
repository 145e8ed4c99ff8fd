import { isDirectory, isFile } from '../node/file-kind';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { discoverFiles } from '../node/discover-files';
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
  return kustomizeContextOf(stdinPath, stdinText);
}

/**
 * The files on disk that the kustomize build of the overlay holding `path` reads, as for {@link kustomizeContextOfStdin},
 * with `text` standing for that file: for a file named alone on the command line (a pre-commit hook passes only the
 * changed files), so that a patch or a resource of an overlay is judged as part of it.
 * @returns absolute paths of existing files, `path` left out; empty when its folder holds no kustomization
 */
export function kustomizeContextOf(stdinPath: string, stdinText: string): string[] {
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

/**
 * The files on disk that the Helm releases reading `stdinPath` read: standard input named by `--stdin-filename` is an
 * editor buffer of a chart (values.yaml, a template, Chart.yaml) or a values file a configured release names, and
 * helm renders it in place of that file with the rest of the chart from disk. The chart is the outermost one that
 * vendors the chart holding the file (`<parent>/charts/<name>/`), or each `render.helm` chart whose `values:` list it.
 * @param releases the configured releases (`render.helm`), paths absolute
 * @returns absolute paths of the charts' manifest files and the releases' other values files, `stdinPath` left out
 */
export function helmContextOfStdin(stdinPath: string, releases: readonly { readonly chart: string; readonly values: readonly string[] }[] = []): string[] {
  const charts = new Set<string>();
  const values = new Set<string>();
  let chart: string | undefined;
  for (let dir = dirname(stdinPath); ; dir = dirname(dir)) {
    if (isFile(join(dir, 'Chart.yaml'))) {
      chart = dir;
      break;
    }
    if (dirname(dir) === dir || existsSync(join(dir, '.git'))) break;
  }
  // A subchart renders through the chart that vendors it.
  while (chart && basename(dirname(chart)) === 'charts' && isFile(join(dirname(dirname(chart)), 'Chart.yaml'))) chart = dirname(dirname(chart));
  if (chart) charts.add(chart);
  for (const r of releases) {
    if (!r.values.includes(stdinPath) && !(chart !== undefined && r.chart === chart) && !stdinPath.startsWith(r.chart + sep)) continue;
    charts.add(r.chart);
    r.values.forEach((v) => values.add(v));
  }
  const out = new Set<string>();
  for (const dir of charts) {
    try {
      for (const f of discoverFiles([dir], [])) out.add(f);
    } catch {
      // an unreadable chart folder: helm reports it when it runs
    }
  }
  for (const v of values) if (isFile(v)) out.add(v);
  out.delete(stdinPath);
  return [...out].slice(0, MAX_CONTEXT_FILES);
}
