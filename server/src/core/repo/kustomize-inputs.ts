import type { CoreConfig } from '../config/config';
import { loadFile, LoadedFile } from '../load/load-file';
import { JSON_STREAM_CODE } from '../load/json-stream';
import type { RepoLayout } from './layout';

/**
 * The files as kustomize reads them: a file that kustomize alone reads (a member of a kustomize entry point:
 * `resources:`, bases, components, patches) and that the loader decoded as kubectl's JSON stream and refused (it
 * starts with `{` but is not JSON: a YAML flow mapping, single quotes, a comment) is read again as YAML, because
 * kustomize reads its inputs with a YAML decoder whatever their first character (kyaml kio.ByteReader); kubectl's
 * JSON refusal does not apply to it. Checked with `kubectl kustomize` (kustomize v5.4.2): a one-line flow mapping,
 * single-quoted keys and a trailing comma build; they fail only under `kubectl apply -f` of the file itself.
 * @returns the files with those re-read (same order), or undefined when there is none (the usual case: no copy)
 */
export function asKustomizeInputs(files: readonly LoadedFile[], layout: RepoLayout, config: Pick<CoreConfig, 'namespace'>): LoadedFile[] | undefined {
  const refused = files.filter((f) => f.problems.some((p) => p.code === JSON_STREAM_CODE));
  if (refused.length === 0) return undefined;
  const members = new Set<string>();
  for (const e of layout.kustomizeEntries) e.members.forEach((m) => members.add(m));
  const reread = new Map<string, LoadedFile>();
  for (const f of refused) {
    if (members.has(f.file)) reread.set(f.file, loadFile(f.file, f.text, { defaultNamespace: config.namespace, kustomizeInput: true }));
  }
  return reread.size ? files.map((f) => reread.get(f.file) ?? f) : undefined;
}
