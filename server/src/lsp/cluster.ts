import type { Connection } from 'vscode-languageserver';
import { ClusterSource } from '../cluster/cluster-source';
import { keepClusterFinding } from '../cluster/cli-cluster';
import type { LoadedFile } from '../core/load/load-file';
import type { K8sObject } from '../core/model/objects';
import type { Finding } from '../core/rules/rule';
import { isVirtualFile } from '../core/source/span';
import {
  CLUSTER_FINDINGS_REQUEST, CLUSTER_OBJECT_REQUEST, CLUSTER_REFRESH_REQUEST, CLUSTER_SETTINGS_NOTIFICATION, CLUSTER_STATUS_NOTIFICATION,
  ClusterObjectGroup, ClusterSettings, ClusterStatusParams,
} from '../protocol/cluster-messages';

/** Where a related location of a workspace file is (for the tree view's links). */
export type Locate = (file: string, offset: number) => { uri: string; line: number } | undefined;

/** Prefix of the virtual files of cluster objects (`cluster:<context>/<kind>/…`). */
export const CLUSTER_FILE_PREFIX = 'cluster:';

/**
 * The live cluster in the language server: owns the {@link ClusterSource}, hands its objects to the
 * analysis, and answers the client's cluster requests (findings by object, an object's YAML, refresh).
 * Cluster access needs a trusted workspace and settings from the user (see cluster-messages.ts).
 */
export class ClusterIntegration {
  private source: ClusterSource | undefined;
  private settingsKey = '';
  private current: readonly K8sObject[] = [];
  /** The read-only view of each object by its virtual file: the text the client shows and the spans point into. */
  private views: ReadonlyMap<string, LoadedFile> = new Map();
  private groups: ClusterObjectGroup[] = [];
  private lastStatus = '';

  constructor(
    private readonly connection: Connection,
    private readonly trusted: boolean,
    private readonly changed: () => void,
  ) {
    connection.onNotification(CLUSTER_SETTINGS_NOTIFICATION, (settings: ClusterSettings) => this.configure(settings));
    connection.onRequest(CLUSTER_FINDINGS_REQUEST, () => this.groups);
    connection.onRequest(CLUSTER_OBJECT_REQUEST, (params: { file: string }) => this.objectYaml(params?.file));
    connection.onRequest(CLUSTER_REFRESH_REQUEST, async () => {
      await this.source?.refresh();
      return this.source?.status.message ?? 'cluster: not enabled (kubeNetlint.cluster.enabled)';
    });
  }

  /** True while the live cluster is read (enabled in settings, in a trusted workspace). */
  get enabled(): boolean {
    return this.settingsKey !== '';
  }

  /** Objects read from the cluster (same array until they change, so hosts re-analyse only on change). */
  objects(): readonly K8sObject[] {
    return this.current;
  }

  /** The read-only views of the objects by virtual file (`cluster:…`), for positions in them. */
  viewFiles(): ReadonlyMap<string, LoadedFile> {
    return this.views;
  }

  /** Applies settings: starts, restarts or stops reading the cluster. Ignored in untrusted workspaces. */
  configure(settings: ClusterSettings | undefined): void {
    const s = settings ?? {};
    const enabled = this.trusted && s.enabled === true;
    if (s.enabled === true && !this.trusted) this.log('kube-netlint: cluster access is off in an untrusted workspace (Restricted Mode)');
    const key = enabled ? JSON.stringify([s.context ?? '', s.kubeconfig ?? '', s.refreshSeconds ?? 0, s.namespaces ?? []]) : '';
    if (key === this.settingsKey) return;
    this.settingsKey = key;
    this.source?.stop();
    this.source = undefined;
    this.current = [];
    this.views = new Map();
    if (!enabled) {
      this.sendStatus();
      this.changed();
      return;
    }
    const refreshSeconds = typeof s.refreshSeconds === 'number' && s.refreshSeconds > 0 ? s.refreshSeconds : 0;
    const namespaces = Array.isArray(s.namespaces) ? s.namespaces.filter((n) => typeof n === 'string' && n) : [];
    const source = new ClusterSource({ context: s.context || undefined, path: s.kubeconfig || undefined, refreshSeconds, namespaces, log: (l) => this.log(`kube-netlint: ${l}`) });
    this.source = source;
    source.onChange(() => {
      if (this.source !== source) return;
      const snapshot = source.snapshot();
      this.current = snapshot.objects;
      this.views = new Map(snapshot.views.map((v) => [v.file, v]));
      this.sendStatus();
      this.changed();
    });
    void source.start();
  }

  /** Re-reads the cluster now. */
  async refresh(): Promise<void> {
    await this.source?.refresh();
  }

  /**
   * Takes the findings of the last analysis runs (all folders): keeps those located in cluster objects
   * (as the CLI does: notices about cluster-only objects are left out) for the tree view, and returns them
   * by virtual file for the diagnostics of the objects' read-only views (once each: several workspace
   * folders report the same cluster finding).
   */
  publish(findings: readonly Finding[], locate: Locate): Map<string, Finding[]> {
    const groups = new Map<string, ClusterObjectGroup & { findings: ClusterObjectGroup['findings'][number][] }>();
    const byFile = new Map<string, Finding[]>();
    const seen = new Set<string>();
    for (const f of findings) {
      if (!f.span.file.startsWith(CLUSTER_FILE_PREFIX) || !keepClusterFinding(f)) continue;
      const key = `${f.ruleId}|${f.span.file}|${f.span.start}|${f.message}`;
      if (seen.has(key)) continue; // the same cluster finding from several workspace folders
      seen.add(key);
      let group = groups.get(f.span.file);
      if (!group) {
        group = { file: f.span.file, kind: f.object?.kind ?? '', namespace: f.object?.namespace ?? '', name: f.object?.name ?? '', findings: [] };
        groups.set(f.span.file, group);
        byFile.set(f.span.file, []);
      }
      byFile.get(f.span.file)!.push(f);
      const view = this.views.get(f.span.file);
      group.findings.push({
        ruleId: f.ruleId, severity: f.severity, message: f.message,
        ...(view ? { range: { start: view.lines.lspPosition(f.span.start), end: view.lines.lspPosition(f.span.end) } } : {}),
        related: f.related.map((r) => ({ file: r.span.file, message: r.message, ...(isVirtualFile(r.span.file) ? {} : locate(r.span.file, r.span.start)) })),
      });
    }
    this.groups = [...groups.values()].sort((a, b) => (a.file < b.file ? -1 : 1));
    this.sendStatus();
    return byFile;
  }

  dispose(): void {
    this.source?.stop();
  }

  /** The exact text the object's spans point into (see clusterObjectFile), or null when the object is not (or no longer) read. */
  private objectYaml(file: string | undefined): string | null {
    return (typeof file === 'string' && this.views.get(file)?.text) || null;
  }

  private sendStatus(): void {
    const status = this.source?.status;
    const params: ClusterStatusParams = {
      state: status?.state ?? 'disabled',
      context: status?.context ?? '',
      message: status?.message ?? (this.settingsKey ? '' : 'cluster: not enabled (kubeNetlint.cluster.enabled)'),
      lastSync: status?.lastSync?.toISOString(),
      objects: this.current.length,
      findings: this.groups.reduce((n, g) => n + g.findings.length, 0),
    };
    const key = JSON.stringify(params);
    if (key === this.lastStatus) return;
    this.lastStatus = key;
    void this.connection.sendNotification(CLUSTER_STATUS_NOTIFICATION, params);
  }

  private log(line: string): void {
    this.connection.console.log(line);
  }
}
