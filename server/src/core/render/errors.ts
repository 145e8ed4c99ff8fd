import { posix } from 'node:path';
import type { LoadedFile } from '../load/load-file';
import type { RepoPath } from '../repo/layout';
import type { Span } from '../source/span';
import type { HelmJob, KustomizeJob } from './jobs';
import type { KustomizationIndex } from './plan';
import { identityOf, parsedDocuments } from './tree-walk';

/**
 * The kustomization line a `kustomize build` error names (kustomize v5.4 messages): the innermost
 * `accumulating resources from '<entry>'` in the innermost `recursed accumulation of path '<dir>'` (a missing
 * file, a cycle, a bad base), a `no resource matches strategic merge patch "<id>"` patch, or a file named in
 * `evalsymlink failure on '<path>'` / `open <path>:`. Undefined when none is found (the caller uses the entry
 * point's kustomization).
 * @param toRepo maps an absolute path in the message to a repository path
 */
export function locateKustomizeError(stderr: string, job: KustomizeJob, index: KustomizationIndex, toRepo: (absolute: string) => string, files: ReadonlyMap<string, LoadedFile>, repoPath: RepoPath): Span | undefined {
  const byPath = new Map([...files.values()].map((f) => [repoPath(f.file), f]));
  const recursed = [...stderr.matchAll(/recursed accumulation of path '([^']+)'/g)].map((m) => m[1]);
  const from = [...stderr.matchAll(/accumulating resources from '([^']+)'/g)].map((m) => m[1]);
  const dirOfMessage = recursed.length ? toRepo(recursed[recursed.length - 1]) : job.dir;
  if (from.length) {
    const entry = from[from.length - 1];
    // The entry belongs to the kustomization of the last recursed folder, or to the entry point itself.
    for (const dir of [dirOfMessage, job.dir]) {
      const k = index.get(dir);
      const r = k && [...k.k.resources, ...k.k.components].find((x) => x.value === entry);
      if (r) return r.span;
    }
  }
  const smp = /no resource matches strategic merge patch \\?"([^"\\]+)\\?"/.exec(stderr);
  if (smp) {
    const m = /^([^.]+)\.[^/]*\/(.+)\.([^.]*)$/.exec(smp[1]);
    for (const dir of job.reads) {
      const k = index.get(dir);
      const p = k?.k.patches.find((x) => {
        const f = x.path && m ? byPath.get(posix.normalize(posix.join(dir, x.path.value))) : undefined;
        return !!f && parsedDocuments(f).some((d) => identityOf(d.contents).kind === m![1] && identityOf(d.contents).name === m![2]);
      });
      if (p) return p.path!.span;
    }
  }
  const file = /evalsymlink failure on '([^']+)'|open ([^\s:]+): no such file/.exec(stderr);
  if (file) {
    const missing = toRepo(file[1] ?? file[2]);
    for (const dir of job.reads) {
      const k = index.get(dir);
      if (!k) continue;
      const all = [...k.k.resources, ...k.k.components, ...k.k.patches.flatMap((p) => (p.path ? [p.path] : []))];
      const hit = all.find((x) => posix.normalize(posix.join(dir, x.value)) === missing);
      if (hit) return hit.span;
    }
  }
  return undefined;
}

/**
 * The line a `helm template` error names (helm v3.17 messages): `template: <chart>/templates/<f>:<line>:<col>` and
 * `execution error at (<chart>/templates/<f>:<line>:<col>)` → the template line; `found in Chart.yaml, but missing in
 * charts/ directory: <names>` → the `dependencies` entry of Chart.yaml; `failed to parse <values file>: … line N` →
 * that values file line.
 */
export function locateHelmError(stderr: string, job: HelmJob, files: ReadonlyMap<string, LoadedFile>, repoPath: RepoPath): Span | undefined {
  const byPath = new Map([...files.values()].map((f) => [repoPath(f.file), f]));
  const template = /(?:template: |execution error at \(|parse error at \()([^:()\s]+\/templates\/[^:()\s]+):(\d+)(?::(\d+))?/.exec(stderr);
  if (template) {
    const rel = template[1].split('/').slice(1).join('/'); // drop the chart name
    const sub = /^charts\/([^/]+)\/(.*)$/.exec(rel);
    const path = posix.normalize(posix.join(job.chartDir, sub ? `charts/${sub[1]}/${sub[2]}` : rel));
    const f = byPath.get(path);
    if (f) {
      const start = f.lines.lineStart(Number(template[2])) + Math.max(0, Number(template[3] ?? 1) - 1);
      const nl = f.text.indexOf('\n', start);
      return { file: f.file, start, end: nl < 0 ? f.text.length : nl };
    }
  }
  const missing = /found in Chart\.yaml, but missing in charts\/ directory: ([^\n]+)/.exec(stderr);
  if (missing) {
    const chart = files.get(job.chartFile);
    const first = missing[1].split(',')[0].trim();
    const at = chart ? dependencyLine(chart, first) : undefined;
    if (at) return at;
  }
  const values = /failed to parse ([^:\s]+): error converting YAML to JSON: yaml: line (\d+)/.exec(stderr);
  if (values) {
    const f = [...files.values()].find((x) => x.file.endsWith(values[1]) || repoPath(x.file).endsWith(posix.basename(values[1])));
    if (f) {
      const start = f.lines.lineStart(Number(values[2]));
      return { file: f.file, start, end: start };
    }
  }
  return undefined;
}

/** The `name` of a Chart.yaml `dependencies` entry (by name or alias). */
export function dependencyLine(chart: LoadedFile, name: string): Span | undefined {
  for (const doc of parsedDocuments(chart)) {
    const deps = (doc.contents as { get?: (k: string, keep: boolean) => unknown } | null)?.get?.('dependencies', true) as { items?: unknown[] } | undefined;
    for (const item of deps?.items ?? []) {
      const id = item as { get?: (k: string, keep: boolean) => { value?: unknown; range?: [number, number, number] } | undefined };
      const n = id.get?.('name', true);
      const alias = id.get?.('alias', true);
      if ((n?.value === name || alias?.value === name) && n?.range) return { file: chart.file, start: n.range[0], end: n.range[1] };
    }
  }
  return undefined;
}

