import { deserialize, serialize } from 'node:v8';
import type { CoreConfig } from '../core/config/config';
import type { RuleFailure } from '../core/engine/run-rules';
import type { LoadedFile } from '../core/load/load-file';
import type { RenderOutcome } from '../core/render/jobs';
import type { RenderNote } from '../core/repo/layout';
import type { Finding } from '../core/rules/rule';
import { contentHash, type ParseCache } from './parse-cache';

/** What a run's analysis gave that a later run with the same inputs can show again without analysing. */
export interface RememberedFindings {
  readonly findings: readonly Finding[];
  readonly failures: readonly RuleFailure[];
  /** The cluster groups the rules ran in, when there are several. */
  readonly clusterGroups: readonly string[];
  /** True when the findings follow from the run's files alone (it rendered nothing; see cli/workspace.ts). */
  readonly decidedByFiles: boolean;
  /**
   * What the language server's status shows besides the findings (lsp/status.ts): the objects read from files and
   * the files analysed. Stored by the language server only.
   */
  readonly counts?: { readonly objects: number; readonly files: number };
}

/**
 * Everything a command-line analysis depends on besides the files' texts: the configuration it ran with (config
 * file and flags), the folders names are made relative to, and what the renderers gave.
 */
export interface AnalysisSettings {
  readonly config: CoreConfig;
  /** The working directory (file names are shown relative to it) and the workspace root (repository paths). */
  readonly cwd: string;
  readonly rootDir: string;
  /** The render outcomes, in order (each job, its rendered text and source map, its notes and the sources it read). */
  readonly renders?: readonly RenderOutcome[];
  readonly helmUnavailable?: string;
  readonly renderNotes?: readonly RenderNote[];
  /** Files findings may point into that are not analysed (`.kube-netlint.yaml`). */
  readonly sourceFiles?: readonly LoadedFile[];
}

/**
 * Bumped when what {@link rememberFindings} stores, or what its key covers, changes shape. The parse cache's
 * kube-netlint version is part of the key too (ParseCache.open ignores a cache of another version): another build
 * never reads this one's findings.
 */
const FORMAT = 'findings-2';

/** A file's name and the content hash it was loaded from (undefined: the cache does not keep the file). */
export type FileHash = readonly [name: string, hash: string | undefined];

/**
 * The key of a whole analysis: a sha1 over the {@link AnalysisSettings} and every loaded file's name and content
 * hash, in load order. Undefined when the run cannot be keyed: a file without a hash (not UTF-8, too large,
 * unreadable), or settings that do not serialize. Two runs with the same key analyse the same loaded files with
 * the same settings, so they give the same findings (the analysis is pure: core/analyze.ts).
 */
export function analysisKey(files: readonly FileHash[], settings: AnalysisSettings): string | undefined {
  return keyOf(files, () => [settings.config, settings.cwd, settings.rootDir,
    settings.renders?.map((o) => ({
      job: o.job,
      file: o.file && { file: o.file.file, text: o.file.text, render: o.file.render, problems: o.file.problems },
      notes: o.notes,
      sources: o.sources?.map((s) => [s.file, s.text]),
      // durationMs is left out: it differs from run to run and no finding depends on it.
    })),
    settings.helmUnavailable, settings.renderNotes, settings.sourceFiles?.map((f) => [f.file, f.text])]);
}

/**
 * The sha1 of {@link FORMAT}, `settings()` and `files` as JSON ({@link exactValue}), or undefined when a file has no
 * hash or the settings do not serialize.
 */
function keyOf(files: readonly FileHash[], settings: () => unknown): string | undefined {
  if (files.some(([, hash]) => hash === undefined)) return undefined;
  try {
    return contentHash(JSON.stringify([FORMAT, settings(), files], exactValue));
  } catch {
    return undefined;
  }
}

/**
 * What a command-line run's analysis depends on that is known before any manifest is read: the options as given,
 * the config they found, the working directory, and the nearest folder with a `.git` (the workspace root, see
 * cli/workspace.ts workspaceRoot).
 */
export interface FoundSettings {
  readonly options: unknown;
  readonly config: CoreConfig;
  readonly cwd: string;
  readonly gitDir?: string;
}

/**
 * The key of a run before its manifests are loaded: a sha1 over the {@link FoundSettings} and each file's name and
 * content hash, in order (undefined when a file has none: the cache does not keep it). A run keyed so may show the
 * findings stored under it only if they were stored by a run that rendered nothing and read nothing but these
 * files (see cli/workspace.ts lintWorkspace): then the files alone decide the analysis.
 */
export function foundKey(settings: FoundSettings, files: readonly FileHash[]): string | undefined {
  return keyOf(files, () => ['found', settings.options, settings.config, settings.cwd, settings.gitDir ?? null]);
}

/**
 * `JSON.stringify`'s replacer for {@link analysisKey}: Maps and Sets by their entries (plain JSON drops them as `{}`),
 * and a function or symbol, which JSON would leave out silently, refused (the run is then not keyed).
 */
function exactValue(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof Map) return { map: [...value] };
  if (value instanceof Set) return { set: [...value] };
  if (typeof value === 'function' || typeof value === 'symbol') throw new Error('not keyable');
  return value;
}

/** The findings stored under `key` by {@link rememberFindings}, or undefined (none, another key, damaged bytes). */
export function recallFindings(cache: ParseCache, key: string): RememberedFindings | undefined {
  const data = cache.recall(key);
  if (!data) return undefined;
  try {
    const stored = deserialize(data) as Partial<RememberedFindings>;
    return Array.isArray(stored?.findings) && Array.isArray(stored.failures) && Array.isArray(stored.clusterGroups)
      ? { findings: stored.findings, failures: stored.failures, clusterGroups: stored.clusterGroups, decidedByFiles: stored.decidedByFiles === true, ...countsOf(stored.counts) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** `{counts}` when `counts` holds two integers, else nothing (a result stored by the command line has none). */
function countsOf(counts: unknown): { counts?: RememberedFindings['counts'] } {
  const c = counts as { objects?: unknown; files?: unknown } | undefined;
  return Number.isInteger(c?.objects) && Number.isInteger(c?.files) ? { counts: { objects: c!.objects as number, files: c!.files as number } } : {};
}

/** Stores a run's findings under each of `keys` in the cache (the caller saves it); one result is kept, the last. */
export function rememberFindings(cache: ParseCache, keys: readonly string[], result: RememberedFindings): void {
  try {
    const { findings, failures, clusterGroups, decidedByFiles, counts } = result;
    cache.remember(keys, serialize({ findings, failures, clusterGroups, decidedByFiles, ...(counts ? { counts } : {}) }));
  } catch {
    // a finding that does not serialize: nothing is remembered, the next run analyses again
  }
}

/**
 * The names of the files findings point into: their spans, related locations, rendered spans and the files their
 * quick fixes edit (the JSON and SARIF outputs place those edits, the editor checks their text).
 */
export function findingFiles(findings: readonly Finding[]): Set<string> {
  const names = new Set<string>();
  for (const f of findings) {
    names.add(f.span.file);
    for (const r of f.related) names.add(r.span.file);
    if (f.rendered) names.add(f.rendered.span.file);
    for (const fix of f.fixes) for (const e of fix.edits) names.add(e.span.file);
  }
  return names;
}

/**
 * True when an analysis given these render inputs reads nothing but its own files: no render outcome, note or other
 * source file (`.kube-netlint.yaml`), and no reason helm cannot run other than `allowed` (the command line's
 * `--no-render`, under which no run ever renders).
 */
export function rendersNothing(inputs: Pick<AnalysisSettings, 'renders' | 'renderNotes' | 'sourceFiles' | 'helmUnavailable'> | undefined, allowed?: string): boolean {
  if (!inputs) return true;
  const { renders, renderNotes, sourceFiles, helmUnavailable } = inputs;
  return !renders?.length && !renderNotes?.length && !sourceFiles?.length && (helmUnavailable === undefined || helmUnavailable === allowed);
}
