import { analyze, Analysis, AnalyzeOptions } from '../core/analyze';
import { RENDER_FILE_PREFIX } from '../core/render/jobs';
import type { CoreConfig } from '../core/config/config';
import type { ChangedRange } from '../core/load/incremental-file';
import type { LoadedFile } from '../core/load/load-file';
import { IncrementalWorkspace } from '../core/workspace/incremental';
import type { RepoPath } from '../core/repo/layout';
import { mergeClusterObjects } from '../core/model/merge-cluster-objects';
import type { K8sObject } from '../core/model/objects';
import { skippedFile } from '../core/load/skipped-file';
import type { Finding } from '../core/rules/rule';
import { LEAN_WORKSPACE_BYTES, loadFiles, type ParallelLoadOptions } from '../node/parallel-load';
import { DEFAULT_MAX_FILE_BYTES, readManifestFile, readManifestText, tooLargeDetail } from '../node/read-file';
import { rendersNothing } from '../node/remembered-findings';

/** The result of one analysis run of a host. */
export interface HostAnalysis {
  readonly analysis: Analysis;
  /** Findings by the file they point into (only files of this host; virtual files are left out). */
  readonly findingsByFile: ReadonlyMap<string, readonly Finding[]>;
  /** Wall time of the run in milliseconds. */
  readonly durationMs: number;
}

/**
 * Where a file's current content comes from: the editor's buffer (with its UTF-8 size in bytes once counted), or the
 * disk.
 */
type Source = { readonly kind: 'memory'; readonly text: string; bytes?: number } | { readonly kind: 'disk' };

/**
 * The ONE place the language server re-analyses: holds the loaded files of one workspace folder and
 * runs the core over them. Each file is parsed once per change (`update` / `updateFromDisk`);
 * `analyze()` then rebuilds the model from the cached {@link LoadedFile}s and runs the rules.
 * Kept behind this small API so the analysis can be made incremental without touching its callers.
 *
 * Files are keyed by file-system path (or by URI for documents that have no path, e.g. `untitled:`).
 * Editor buffers larger than `maxBytes` (UTF-8 bytes, default {@link DEFAULT_MAX_FILE_BYTES} = 5 MiB)
 * are not parsed and get one `file-skipped` finding instead, the same limit as files read from disk.
 * Never throws for bad input: syntax errors, binary and unreadable files become findings.
 */
export class AnalysisHost {
  private readonly sources = new Map<string, Source>();
  private readonly loaded = new Map<string, LoadedFile>();
  private lastRun: HostAnalysis | undefined;
  private dirty = true;
  private loading = 0;
  private cluster: readonly K8sObject[] = [];
  private clusterViews: ReadonlyMap<string, LoadedFile> = new Map();
  /** Keeps the same files as `loaded` (same order): re-parses edited documents only, re-checks only what an edit affects. */
  private incremental: IncrementalWorkspace;

  /**
   * @param repoPath maps a file to its `/` path relative to the folder's config (for `clusters:` globs and
   *   kustomize paths, as the CLI does); default: the path as it is
   */
  constructor(private config: CoreConfig, private readonly maxBytes: number = DEFAULT_MAX_FILE_BYTES, private readonly repoPath?: RepoPath) {
    this.incremental = new IncrementalWorkspace(config, { repoPath });
  }

  /** Replaces the configuration; reloads every file when the default namespace changed. */
  setConfig(config: CoreConfig): void {
    const reload = config.namespace !== this.config.namespace;
    this.config = config;
    this.dirty = true;
    if (reload) {
      this.incremental = new IncrementalWorkspace(config, { repoPath: this.repoPath });
      for (const file of [...this.sources.keys()]) this.load(file);
    } else this.incremental.setConfig(config);
  }

  get currentConfig(): CoreConfig {
    return this.config;
  }

  private renders: Pick<AnalyzeOptions, 'renders' | 'helmUnavailable' | 'renderNotes' | 'sourceFiles'> | undefined;

  /** Render results for this folder (lsp/renders.ts); the next analysis lints them instead of their sources. */
  setRenders(renders: Pick<AnalyzeOptions, 'renders' | 'helmUnavailable' | 'renderNotes' | 'sourceFiles'> | undefined): void {
    this.renders = renders;
    this.incremental.setRenders(renders);
    this.dirty = true;
  }

  /**
   * Objects read from the live cluster; workspace objects replace their cluster twins at each run.
   * @param views the objects' read-only views by virtual file (`cluster:…`): {@link loadedFile} answers with them
   */
  setClusterObjects(objects: readonly K8sObject[], views: ReadonlyMap<string, LoadedFile> = new Map()): void {
    this.clusterViews = views;
    if (objects === this.cluster || (objects.length === 0 && this.cluster.length === 0)) return;
    this.cluster = objects;
    this.dirty = true;
  }

  /**
   * Sets a file's content from an editor buffer (open or changed document). `changed`: where it differs from the
   * buffer set before, as the editor's incremental changes say (spares comparing and measuring whole buffers).
   */
  update(file: string, text: string, changed?: ChangedRange): void {
    const before = this.sources.get(file);
    const source: Source = { kind: 'memory', text };
    this.sources.set(file, source);
    if (before?.kind === 'memory' && before.bytes !== undefined && changed && changed.previousLength === before.text.length) {
      // The size of a large buffer follows from the changed range: only its old and new text are counted.
      const [from, oldEnd, newEnd] = [changed.prefix, before.text.length - changed.suffix, text.length - changed.suffix];
      if (from <= oldEnd && from <= newEnd) source.bytes = before.bytes - utf8Bytes(before.text.slice(from, oldEnd)) + utf8Bytes(text.slice(from, newEnd));
    }
    this.load(file, changed);
  }

  /** (Re)reads a file from disk: initial scan, file created or changed on disk, document closed. */
  updateFromDisk(file: string): void {
    this.sources.set(file, { kind: 'disk' });
    this.load(file);
  }

  /**
   * Reads many files from disk on worker threads (initial scan, rescan after a settings change).
   * Files whose source changes meanwhile (opened, or changed on disk) keep the newer content.
   * While it runs, {@link busy} is true and callers should not publish this host's (partial) results.
   */
  async updateManyFromDisk(files: readonly string[], load: Pick<ParallelLoadOptions, 'cache' | 'digests' | 'onProgress'> = {}): Promise<void> {
    const sources = files.map((file) => {
      const source: Source = { kind: 'disk' };
      this.sources.set(file, source);
      return source;
    });
    this.loading++;
    try {
      const options = { defaultNamespace: this.config.namespace, maxBytes: this.maxBytes };
      let loaded: LoadedFile[];
      try {
        // Strings pooled only for a large workspace: pooling walks every value on arrival (and parses each object's
        // raw JSON), which a smaller workspace's start does not pay back (see LEAN_WORKSPACE_BYTES).
        loaded = await loadFiles(files.map((f) => [f, f] as const), { ...options, leanFromBytes: LEAN_WORKSPACE_BYTES, ...load });
      } catch {
        loaded = files.map((f) => readManifestFile(f, f, options)); // a worker failed: load on this thread
      }
      files.forEach((file, i) => {
        if (this.sources.get(file) === sources[i]) this.setLoaded(file, loaded[i]);
      });
      this.dirty = true;
    } finally {
      this.loading--;
    }
  }

  /** True while {@link updateManyFromDisk} runs. */
  get busy(): boolean {
    return this.loading > 0;
  }

  /** Forgets a file (deleted, excluded, or its folder removed). */
  remove(file: string): void {
    if (this.sources.delete(file)) {
      this.loaded.delete(file);
      this.incremental.remove(file);
      this.dirty = true;
    }
  }

  has(file: string): boolean {
    return this.sources.has(file);
  }

  /**
   * Editor buffers that differ from the file on disk, by path (helm renders them instead of the disk's text). A
   * file that cannot be read counts as different.
   */
  unsavedBuffers(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [file, source] of this.sources) {
      if (source.kind !== 'memory') continue;
      let disk: string | undefined;
      try {
        disk = readManifestText(file);
      } catch {
        disk = undefined;
      }
      if (disk !== source.text) out.set(file, source.text);
    }
    return out;
  }

  /** The editor buffer that is the file's current content, or undefined (the file as loaded from disk, or unknown). */
  currentText(file: string): string | undefined {
    const source = this.sources.get(file);
    return source?.kind === 'memory' ? source.text : undefined;
  }

  /**
   * True when the analysis reads nothing but the host's files: no live-cluster objects, and the renders handed over
   * nothing (no outcome, note, other source, nor a reason helm cannot run).
   */
  get decidedByFiles(): boolean {
    return this.cluster.length === 0 && rendersNothing(this.renders);
  }

  /** True when the file's current content is the editor's buffer. */
  isInMemory(file: string): boolean {
    return this.sources.get(file)?.kind === 'memory';
  }

  files(): string[] {
    return [...this.sources.keys()];
  }

  /**
   * Files that get this folder's diagnostics: its files, and the other sources renders read whose lines findings
   * point at (`.kube-netlint.yaml`, when a `render.helm` release's `set:` pair feeds a rendered field).
   */
  diagnosticFiles(): string[] {
    return [...this.sources.keys(), ...this.renderSources().keys()];
  }

  /** True when {@link diagnosticFiles} lists the file. */
  publishes(file: string): boolean {
    return this.sources.has(file) || this.renderSources().has(file);
  }

  /**
   * The loaded form of a file (its text, line index, objects), as of the last update; rendered manifests (`render:…`)
   * as of the last run; live-cluster objects (`cluster:…`) as their read-only view shows them; the renders' other
   * sources (`.kube-netlint.yaml`) as the renders read them.
   */
  loadedFile(file: string): LoadedFile | undefined {
    return this.loaded.get(file) ?? (file.startsWith(RENDER_FILE_PREFIX) ? this.lastRun?.analysis.files.get(file) : this.clusterViews.get(file) ?? this.renderSources().get(file));
  }

  /** The renders' extra source files by name (not workspace files): `.kube-netlint.yaml`, JSON 6902 patches. */
  private renderSources(): Map<string, LoadedFile> {
    const extra = [...(this.renders?.sourceFiles ?? []), ...(this.renders?.renders ?? []).flatMap((o) => o.sources ?? [])];
    return new Map(extra.filter((f) => !this.sources.has(f.file)).map((f) => [f.file, f]));
  }

  /** Every loaded file (as the renders read them). */
  loadedFiles(): LoadedFile[] {
    return [...this.loaded.values()];
  }

  /** Maps a file to its repository path (relative to the folder's config), as the analysis does. */
  repoPathOf(file: string): string {
    return this.repoPath ? this.repoPath(file) : file;
  }

  /** True when files or config changed since the last {@link analyze}. */
  get needsAnalysis(): boolean {
    return this.dirty || !this.lastRun;
  }

  /** The last run's result, if any. */
  get last(): HostAnalysis | undefined {
    return this.lastRun;
  }

  /** Runs the core over all files (or returns the last run when nothing changed). */
  analyze(): HostAnalysis {
    if (!this.dirty && this.lastRun) return this.lastRun;
    const started = performance.now();
    const files = [...this.loaded.values()];
    const extraObjects = this.cluster.length ? mergeClusterObjects(files.flatMap((f) => f.objects), this.cluster).objects : undefined;
    const analysis = extraObjects ? analyze(files, this.config, { extraObjects, repoPath: this.repoPath, ...this.renders }) : this.incremental.analyze();
    const findingsByFile = new Map<string, Finding[]>();
    const extra = this.renderSources();
    for (const f of analysis.findings) {
      if (!this.loaded.has(f.span.file) && !extra.has(f.span.file)) continue;
      const list = findingsByFile.get(f.span.file);
      if (list) list.push(f);
      else findingsByFile.set(f.span.file, [f]);
    }
    this.lastRun = { analysis, findingsByFile, durationMs: performance.now() - started };
    this.dirty = false;
    return this.lastRun;
  }

  private load(file: string, changed?: ChangedRange): void {
    const source = this.sources.get(file);
    if (!source) return;
    const options = { defaultNamespace: this.config.namespace, maxBytes: this.maxBytes };
    if (source.kind === 'disk') this.setLoaded(file, readManifestFile(file, file, options));
    else this.loaded.set(file, this.loadText(file, source, changed));
    this.dirty = true;
  }

  private setLoaded(file: string, loaded: LoadedFile): void {
    this.loaded.set(file, loaded);
    this.incremental.setLoaded(file, loaded);
  }

  private loadText(file: string, source: Source & { kind: 'memory' }, changed: ChangedRange | undefined): LoadedFile {
    const text = source.text;
    // A UTF-16 code unit is 1 to 3 UTF-8 bytes: the byte count (a pass over the text) only when it can matter.
    if (this.maxBytes > 0 && text.length * 3 > this.maxBytes && (source.bytes ??= utf8Bytes(text)) > this.maxBytes) {
      const skipped = skippedFile(file, 'too-large', tooLargeDetail('the file', source.bytes, this.maxBytes));
      this.incremental.setLoaded(file, skipped);
      return skipped;
    }
    // The text is kept as is (offsets must match the editor's buffer); yaml itself skips a BOM.
    return this.incremental.setText(file, text, changed);
  }
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
