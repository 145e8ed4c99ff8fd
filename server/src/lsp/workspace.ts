import { isDirectory } from '../node/file-kind';
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { compileExclude, excludeGlobs } from '../node/exclude-globs';
import { discoverFiles, isManifestFile, MANIFEST_FILE, SKIPPED_DIRS } from '../node/discover-files';
import { CONFIG_FILE_NAME } from '../node/config-file';
import { CACHE_FILE_NAME, ParseCache } from '../node/parse-cache';
import { packageVersion } from '../node/version';
import { AnalysisHost, type HostAnalysis } from './analysis-host';
import { digestFiles } from '../node/parallel-load';
import { DEFAULT_MAX_FILE_BYTES } from '../node/read-file';
import { type RecalledScan, recallScan, rememberScan, type ScannedFolder, scanKey } from './remembered-scan';
import type { ChangedRange } from '../core/load/incremental-file';
import { FolderConfig, resolveFolderConfig } from './settings';
import { pathOfUri } from './uris';
import { defaultRepoPath } from '../core/repo/layout';

/** A workspace folder (or the "loose files" pseudo-folder, `path` undefined) with its own config and analysis. */
export interface Folder {
  readonly uri: string;
  readonly path: string | undefined;
  readonly host: AnalysisHost;
  settings: FolderConfig;
  isExcluded: (file: string) => boolean;
  /** What the folder's first scan read, while its findings may still be stored for a reopen (lsp/remembered-scan.ts). */
  scanned?: ScannedFolder;
}

/** Where a folder scan goes (see {@link Workspace}'s constructor). */
export interface Scanning {
  readonly cacheFolder?: string;
  readonly progress?: () => (done: number, total: number) => void;
  readonly onFolderAdded?: () => void;
  /**
   * A folder's first scan found every file as an earlier analysis read them, and that analysis followed from them
   * alone: its findings, before the files are loaded (they load right after, and the next analysis stands).
   */
  readonly onRecalled?: (folder: Folder, recalled: RecalledScan) => void;
}


/**
 * The workspace folders and which file belongs to which: a file is analysed with the innermost
 * folder that contains it (each folder is one analysis with its own settings — multi-root workspaces
 * may hold different clusters). Open documents outside every folder form a "loose" folder of their own.
 * Open documents are analysed from memory; all other YAML files from disk.
 */
export class Workspace {
  private readonly folders: Folder[] = [];
  private readonly caches = new Map<string, ParseCache>();
  readonly loose: Folder;

  /**
   * @param log progress lines for the client's output
   * @param warn problems the user must fix (bad settings, broken `.kube-netlint.yaml`)
   * @param scanning where folder scans go: `cacheFolder` (the editor's storage folder) keeps one parse cache
   *   per workspace folder, so a reopened workspace loads unchanged files from it, and the findings of the first
   *   analysis after a folder's first scan when they follow from its files alone, so a reopened folder whose
   *   files are unchanged shows them before loading (`onRecalled`); `progress` makes, for each scan, a callback
   *   told how many of its files are loaded; `onFolderAdded` runs when a folder's settings are known, before its scan
   */
  constructor(
    private readonly log: (message: string) => void,
    private readonly warn: (message: string) => void = log,
    private readonly scanning: Scanning = {},
  ) {
    this.loose = makeFolder('', undefined, resolveFolderConfig(undefined, undefined));
  }

  all(): Folder[] {
    return [...this.folders, this.loose];
  }

  /** Adds a folder and loads every YAML file below it (skipping `exclude` globs, node_modules, .git). */
  async addFolder(uri: string, settings: unknown): Promise<Folder> {
    const folder = makeFolder(uri, pathOfUri(uri), resolveFolderConfig(pathOfUri(uri), settings));
    this.folders.push(folder);
    this.folders.sort((a, b) => (b.path?.length ?? 0) - (a.path?.length ?? 0));
    // A folder nested in another one (or holding loose documents) takes its files over.
    for (const other of this.all()) {
      if (other !== folder) for (const file of other.host.files()) if (this.folderOf(file) !== other) other.host.remove(file);
    }
    this.reportProblems(folder);
    this.scanning.onFolderAdded?.();
    await this.scan(folder);
    return folder;
  }

  /** Removes a folder; an enclosing folder takes its files back. */
  async removeFolder(uri: string): Promise<void> {
    const i = this.folders.findIndex((f) => f.uri === uri);
    if (i < 0) return;
    const [removed] = this.folders.splice(i, 1);
    for (const other of this.folders) if (removed.path && other.path && isInside(removed.path, other.path)) await this.scan(other);
  }

  /** Re-reads a folder's settings and `.kube-netlint.yaml`, then rescans it (exclude globs may have changed). */
  async reconfigure(folder: Folder, settings: unknown, openFiles: ReadonlySet<string>): Promise<void> {
    folder.settings = resolveFolderConfig(folder.path, settings);
    folder.isExcluded = excluder(folder.settings);
    folder.host.setConfig(folder.settings.config);
    this.reportProblems(folder);
    for (const file of folder.host.files()) if (folder.isExcluded(file)) folder.host.remove(file);
    await this.scan(folder, openFiles);
  }

  /** The folder a file is analysed with. */
  folderOf(file: string): Folder {
    if (!isAbsolute(file)) return this.loose; // untitled: and other non-file documents
    return this.folders.find((f) => f.path && isInside(file, f.path)) ?? this.loose;
  }

  /**
   * Editor buffer opened or changed (`changed`: where it differs from the buffer set before, if the editor said).
   * Returns false when the file is excluded (not analysed).
   */
  setText(file: string, text: string, changed?: ChangedRange): boolean {
    const folder = this.folderOf(file);
    if (folder.isExcluded(file)) return false;
    folder.host.update(file, text, changed);
    return true;
  }

  /**
   * Document closed: back to the on-disk content. Files outside every folder are dropped, and so is a buffer
   * with nothing on disk behind it (never saved, or deleted while open): closing it ends its diagnostics
   * instead of leaving a "cannot read the file" error on a file that does not exist.
   */
  closed(file: string): void {
    const folder = this.folderOf(file);
    if (folder.path && isAbsolute(file) && isManifestFile(file) && !folder.isExcluded(file) && onDisk(file)) folder.host.updateFromDisk(file);
    else folder.host.remove(file);
  }

  /**
   * A file or folder changed on disk (workspace/didChangeWatchedFiles). Open documents keep their buffer.
   * Watchers report a deleted or created folder once, not each file in it: a deleted path drops every
   * known file below it, a created folder is searched for YAML files.
   * @returns true when a `.kube-netlint.yaml` changed (the caller re-reads folder settings)
   */
  diskChanged(path: string, deleted: boolean, openFiles: ReadonlySet<string>): boolean {
    if (path.endsWith(sep + CONFIG_FILE_NAME)) return true;
    if (deleted) {
      for (const folder of this.folders) {
        for (const file of folder.host.files()) if ((file === path || file.startsWith(path + sep)) && !openFiles.has(file)) folder.host.remove(file);
      }
      return false;
    }
    // A JSON file is a manifest while it holds Kubernetes objects (as discovery decides): one edited into other JSON leaves.
    const files = MANIFEST_FILE.test(path) ? [path] : isDirectory(path) ? this.yamlFilesBelow(path) : [];
    for (const file of files) {
      const folder = this.folderOf(file);
      if (!folder.path || openFiles.has(file)) continue;
      if (folder.isExcluded(file) || !isManifestFile(file)) folder.host.remove(file);
      else folder.host.updateFromDisk(file);
    }
    return false;
  }

  private yamlFilesBelow(dir: string): string[] {
    try {
      return discoverFiles([dir], []);
    } catch (err) {
      this.log(`kube-netlint: cannot list ${dir}: ${(err as Error).message}`);
      return [];
    }
  }

  private async scan(folder: Folder, openFiles: ReadonlySet<string> = new Set()): Promise<void> {
    if (!folder.path) return;
    const started = performance.now();
    let files: string[] = [];
    try {
      files = discoverFiles([folder.path], excludeGlobs(folder.settings.config.exclude, folder.settings.baseDir ?? folder.path));
    } catch (err) {
      this.log(`kube-netlint: cannot list ${folder.path}: ${(err as Error).message}`);
    }
    // Files of a nested workspace folder belong to that folder; open and known files are up to date.
    const added = files.filter((file) => this.folderOf(file) === folder && !openFiles.has(file) && !folder.host.has(file));
    const cache = this.cacheOf(folder.path);
    const hitsBefore = cache?.hits ?? 0;
    // A folder's first scan (it holds no file yet) is keyed by its files' hashes: read and hashed here, and handed
    // to the loader so that nothing is read twice.
    const first = cache !== undefined && folder.host.files().length === 0;
    const digests = first ? await digestFiles(added, DEFAULT_MAX_FILE_BYTES) : undefined;
    folder.scanned = undefined;
    let recalled = '';
    if (digests) {
      const hashes = added.map((file) => [file, digests.get(file)?.hash] as const);
      const key = scanKey(folder.path, folder.settings, hashes);
      if (key !== undefined) {
        folder.scanned = { key, hashes: new Map(hashes as (readonly [string, string])[]), tried: false };
        const found = this.scanning.onRecalled && recallScan(cache!, key, digests, folder.host.currentConfig.namespace ?? '');
        if (found) {
          this.scanning.onRecalled!(folder, found);
          recalled = `; unchanged since the last analysis: its ${found.stored.findings.length} findings shown before loading`;
        }
      }
    }
    await folder.host.updateManyFromDisk(added, { cache, digests, onProgress: this.scanning.progress?.() });
    const cached = cache ? ` (${cache.hits - hitsBefore} from the cache${recalled})` : '';
    this.log(`kube-netlint: ${folder.path}: ${files.length} YAML files (${added.length} loaded${cached}) in ${Math.round(performance.now() - started)} ms`);
    if (cache) {
      cache.prune((file) => folder.host.has(file));
      const problem = cache.save();
      if (problem) this.log(`kube-netlint: ${problem}`);
    }
  }

  /**
   * After an analysis of `folder`: the first one after its first scan stores its findings for a reopen when they
   * follow from the scanned files alone (see lsp/remembered-scan.ts rememberScan), and saves the cache.
   */
  rememberAnalysis(folder: Folder, run: HostAnalysis): void {
    const scan = folder.scanned;
    const cache = folder.path ? this.cacheOf(folder.path) : undefined;
    if (!scan || !cache || scan.tried) return;
    if (!rememberScan(cache, scan, folder.host, run, folder.path!, folder.settings)) return;
    const problem = cache.save();
    if (problem) this.log(`kube-netlint: ${problem}`);
  }

  /** The parse cache of a workspace folder in the storage folder (one file per folder path), if there is one. */
  private cacheOf(folderPath: string): ParseCache | undefined {
    const dir = this.scanning.cacheFolder;
    if (!dir) return undefined;
    let cache = this.caches.get(folderPath);
    if (!cache) {
      const name = `${createHash('sha1').update(folderPath).digest('hex').slice(0, 16)}${CACHE_FILE_NAME}`;
      cache = ParseCache.open(join(dir, name), packageVersion());
      this.caches.set(folderPath, cache);
    }
    return cache;
  }

  private reportProblems(folder: Folder): void {
    for (const p of folder.settings.problems) this.warn(`kube-netlint: configuration problem: ${p}`);
  }
}

function makeFolder(uri: string, path: string | undefined, settings: FolderConfig): Folder {
  // Cluster globs and kustomize paths are relative to the folder's config file (else the folder), as in the
  // CLI; read at each use, since the settings (and the config file) of a folder change in place.
  const repoPath = (file: string): string => {
    const base = folder.settings.baseDir ?? path;
    return base && isAbsolute(file) ? relative(base, file).split(sep).join('/') : defaultRepoPath(file);
  };
  const folder: Folder = { uri, path, host: new AnalysisHost(settings.config, undefined, repoPath), settings, isExcluded: excluder(settings) };
  return folder;
}

/** Matches a file against the folder's `exclude` globs as discover-files does (the file or any parent folder). */
function excluder(settings: FolderConfig): (file: string) => boolean {
  const base = settings.baseDir;
  const test = compileExclude(base ? excludeGlobs(settings.config.exclude, base) : []);
  return (file) => {
    if (!base || !isAbsolute(file)) return false;
    const parts = relative(base, file).split(sep);
    if (parts.some((p) => SKIPPED_DIRS.has(p))) return true;
    for (let i = 1; i <= parts.length; i++) if (test(join(base, ...parts.slice(0, i)), i < parts.length)) return true;
    return false;
  };
}

function isInside(file: string, folder: string): boolean {
  const rel = relative(folder, file);
  return !!rel && !rel.startsWith('..') && !isAbsolute(rel);
}

/** True when the path names something on disk (a dangling symbolic link counts: loading it says so). */
function onDisk(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
