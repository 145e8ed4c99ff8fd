import { posix } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { LoadedFile } from '../load/load-file';
import type { RepoPath } from '../repo/layout';
import type { Span } from '../source/span';
import type { HelmJob, KustomizeJob } from './jobs';
import type { KustomizationIndex } from './plan';
import { at, identityOf, keyNode, parsedDocuments, spanOf } from './tree-walk';
import { QUIET } from '../load/parse-options';

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
  // The innermost entry first, in the kustomization of the last recursed folder (or the entry point); when that
  // kustomization is not in the workspace (a base outside the linted paths), the entry that leads to it.
  const dirs = [...new Set([...recursed.map(toRepo).reverse(), job.dir])];
  for (const entry of [...from].reverse()) {
    for (const dir of dirs) {
      const k = index.get(dir);
      const r = k && [...k.k.resources, ...k.k.components].find((x) => x.value === entry);
      if (r) return r.span;
    }
  }
  const smp = /no resource matches strategic merge patch \\?"([^"\\]+)\\?"/.exec(stderr);
  if (smp) {
    const m = /^([^.]+)\.[^/]*\/(.+)\.([^.]*)$/.exec(smp[1]);
    const names = (roots: readonly unknown[]): boolean => !!m && roots.some((r) => identityOf(r).kind === m[1] && identityOf(r).name === m[2]);
    // The innermost kustomization the message names first, then the others of the build.
    const dirs = [...new Set([dirOfMessage, ...job.reads])];
    for (const dir of dirs) {
      const k = index.get(dir);
      for (const x of k?.k.patches ?? []) {
        const f = x.path ? byPath.get(posix.normalize(posix.join(dir, x.path.value))) : undefined;
        if (f && names(parsedDocuments(f).map((d) => d.contents))) return x.path!.span;
        if (x.inline && names(inlineDocuments(x.inline.text))) return x.span;
      }
    }
  }
  // `invalid Kustomization: json: cannot unmarshal … into Go struct field Kustomization.namePrefix of type string`.
  const field = /Go struct field Kustomization\.(\w+)/.exec(stderr);
  if (field) {
    const k = index.get(dirOfMessage) ?? index.get(job.dir);
    const f = k ? files.get(k.file) : undefined;
    const node = f ? at(parsedDocuments(f)[0]?.contents, [field[1]]) : undefined;
    const key = f ? keyNode(parsedDocuments(f)[0]?.contents, field[1]) : undefined;
    const span = f ? spanOf(f.file, key ?? node) : undefined;
    if (span) return span;
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

/** The documents of an inline patch (empty when it does not parse). */
function inlineDocuments(text: string): unknown[] {
  try {
    return parseAllDocuments(text, QUIET).flatMap((d) => ('contents' in d && d.errors.length === 0 ? [d.contents] : []));
  } catch {
    return [];
  }
}

/**
 * kustomize's own message for a failed build, without the layers its resource loader adds (kustomize v5.4,
 * api/internal/target/kusttarget.go): each folder on the way is reported as `accumulating resources: accumulation
 * err='accumulating resources from '<entry>': '<dir>' must resolve to a file': recursed accumulation of path
 * '<dir>': <the error inside>` (first tried as a file, then as a folder), and a missing resource repeats its
 * `evalsymlink failure` twice. The outer layer is kube-netlint's own wrapper kustomization; the others become
 * `in <folder>: `. Paths are given to `toRepo` (absolute, possibly inside a temporary copy) and come back as the
 * repository paths the user knows.
 * @param entryDir repository path of the built entry point (its own folder is not named again)
 */
export function kustomizeErrorText(message: string, toRepo: (absolute: string) => string, entryDir: string): string {
  const layer = /^accumulating resources: accumulation err='accumulating resources from '[^']*': '([^']*)' must resolve to a file': (?:recursed accumulation of path|couldn't make target for path) '[^']*': /;
  let text = message.trim();
  const dirs: string[] = [];
  for (let m = layer.exec(text); m; m = layer.exec(text)) {
    dirs.push(m[1]);
    text = text.slice(m[0].length);
  }
  text = text.replace(
    /^accumulating resources: accumulation err='accumulating resources from '([^']*)': evalsymlink failure on '[^']*' : (.*?)': must build at directory: not a valid directory: evalsymlink failure on .*$/,
    "accumulating resources from '$1': $2",
  );
  const inner = dirs.length > 1 ? toRepo(dirs[dirs.length - 1]) : entryDir;
  // Absolute paths (not the relative entries kustomize quotes) become repository paths.
  text = text.replace(/(^|[\s'"(])(\/[^\s'":;,)]+)/g, (_all, before: string, abs: string) => `${before}${toRepo(abs)}`);
  return inner !== entryDir ? `in ${inner}: ${text}` : text;
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
  // `YAML parse error on <chart>/templates/<f>: … yaml: line N: …`: N counts lines of that template's rendered
  // document, the template's own line when the template is one document; otherwise its first line.
  const yamlError = /YAML parse error on ([^:\s]+\/templates\/[^:\s]+): .*?yaml: line (\d+)/.exec(stderr);
  if (yamlError) {
    const rel = yamlError[1].split('/').slice(1).join('/');
    const f = byPath.get(posix.normalize(posix.join(job.chartDir, rel)));
    if (f) {
      const line = Number(yamlError[2]);
      const oneDocument = !/^---/m.test(f.text.replace(/^---[^\n]*\n/, ''));
      const start = oneDocument && line <= f.lines.lineCount ? f.lines.lineStart(line) : 0;
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

