import { relative, sep } from 'node:path';
import { planRenders } from '../core/render/plan';
import { computeLayout } from '../core/repo/layout';
import type { LoadedFile } from '../core/load/load-file';
import type { ParseCache } from '../node/parse-cache';
import type { FileDigest } from '../node/parallel-load';
import { contentHash } from '../node/parse-cache';
import { findingFiles, foundKey, recallFindings, type RememberedFindings, rememberFindings } from '../node/remembered-findings';
import type { AnalysisHost, HostAnalysis } from './analysis-host';
import type { FolderConfig } from './settings';

/**
 * What a workspace folder's first scan read, for showing a reopened folder's findings before its files are loaded:
 * the key of the scan (its files' names and content hashes, the folder's settings) and each file's hash.
 */
export interface ScannedFolder {
  readonly key: string;
  readonly hashes: ReadonlyMap<string, string>;
  /**
   * Set by the first analysis after the scan, which alone may store its findings under {@link key}: checking a
   * later one (after edits) would hash every file again on each edit.
   */
  tried: boolean;
}

/** Findings stored for a scan's key, and the files they point into, taken from the parse cache (for their lines). */
export interface RecalledScan {
  readonly stored: RememberedFindings & { readonly counts: NonNullable<RememberedFindings['counts']> };
  readonly files: ReadonlyMap<string, LoadedFile>;
}

/**
 * The key of a folder's scan: {@link foundKey} over the folder's path and settings (its config, with the editor's
 * settings and `.kube-netlint.yaml` merged, and the folder names are made relative to) and every file's name and
 * content hash in the order the scan found them. Undefined when a file has no hash (the cache does not keep it).
 */
export function scanKey(folderPath: string, settings: FolderConfig, files: readonly (readonly [string, string | undefined])[]): string | undefined {
  const options = { languageServer: true, baseDir: settings.baseDir ?? null, configFile: settings.configFile ?? null };
  return foundKey({ options, config: settings.config, cwd: folderPath }, files);
}

/**
 * The findings stored under `scan.key` by {@link rememberScan}, with the files they point into taken from the cache,
 * or undefined: nothing stored for this key, stored by a run that rendered or read more than the files, or a file
 * with findings whose cache entry is missing or damaged (the folder is then loaded and analysed as usual).
 */
export function recallScan(cache: ParseCache, key: string, digests: ReadonlyMap<string, FileDigest | undefined>, namespace: string): RecalledScan | undefined {
  const stored = recallFindings(cache, key);
  if (!stored?.decidedByFiles || !stored.counts) return undefined;
  const files = new Map<string, LoadedFile>();
  for (const name of findingFiles(stored.findings)) {
    const digest = digests.get(name);
    const loaded = digest && cache.get(name, digest.text, namespace, digest.hash, null);
    if (!loaded) return undefined;
    files.set(name, loaded);
  }
  return { stored: { ...stored, counts: stored.counts }, files };
}

/**
 * Stores `run`, the first analysis after the scan, under the scan's key when it follows from the scanned files alone,
 * so that reopening the folder unchanged shows its findings at once (the caller saves the cache). That is, when:
 * - the host holds exactly the scanned files, each with the content it was scanned with (an editor buffer equal to
 *   the file on disk counts as unchanged);
 * - nothing in the folder is ever rendered, whatever renderers are installed: no kustomization, no Helm chart, no
 *   release in the config, no GitOps object, and nothing handed to the host by the renders (not even a reason helm
 *   cannot run), and no live-cluster objects;
 * - every file a finding points into is one of those files.
 * @returns true when it was stored
 */
export function rememberScan(cache: ParseCache, scan: ScannedFolder, host: AnalysisHost, run: HostAnalysis, folderPath: string, settings: FolderConfig): boolean {
  if (scan.tried) return false;
  scan.tried = true;
  if (!host.decidedByFiles) return false;
  const files = host.loadedFiles();
  if (files.length !== scan.hashes.size || host.files().length !== files.length) return false;
  if (files.some((f) => scan.hashes.get(f.file) !== contentHash(host.currentText(f.file) ?? f.text))) return false;
  const names = new Set(files.map((f) => f.file));
  if (![...findingFiles(run.analysis.findings)].every((name) => names.has(name))) return false;
  const repoPath = (file: string): string => host.repoPathOf(file);
  const layout = computeLayout(files, host.currentConfig, repoPath);
  // GitOps paths start at the repository root, as node/render/render-workspace.ts planWorkspace gives it.
  const root = relative(settings.baseDir ?? folderPath, folderPath).split(sep).join('/') || '.';
  const plan = planRenders(files, layout, host.currentConfig, repoPath, { kustomize: true, helm: true }, root);
  if (layout.charts.length || layout.kustomizeEntries.length || plan.jobs.length || plan.notes.length) return false;
  const { analysis } = run;
  rememberFindings(cache, [scan.key], {
    findings: analysis.findings, failures: analysis.failures, clusterGroups: [...analysis.clusterModels.keys()], decidedByFiles: true,
    counts: { objects: analysis.model.objects.filter((o) => o.origin.type === 'file').length, files: analysis.files.size },
  });
  return true;
}
