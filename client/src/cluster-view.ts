import * as vscode from 'vscode';
import type { HandleDiagnosticsSignature, LanguageClient } from 'vscode-languageclient/node';
import {
  CLUSTER_REFRESH_REQUEST, CLUSTER_URI_SCHEME, CLUSTER_SETTINGS_NOTIFICATION, CLUSTER_STATUS_NOTIFICATION, ClusterSettings, ClusterStatusParams,
} from '../../server/src/protocol/cluster-messages';
import { ClusterObjectContent, ClusterTree } from './cluster-tree';

/** Command "kube-netlint: Refresh Cluster" (contributed in package.json). */
export const REFRESH_CLUSTER_COMMAND = 'kubeNetlint.refreshCluster';
/** The "kube-netlint: Cluster" view (contributed in package.json, explorer). */
export const CLUSTER_VIEW_ID = 'kubeNetlint.cluster';

/**
 * The `kubeNetlint.cluster.*` settings from the USER level only (`inspect().globalValue`): values in
 * workspace or folder settings are ignored, so a repository cannot point the extension at a kubeconfig
 * (which may run an exec credential plugin). The settings are also declared `application`/`machine`
 * scoped in package.json, which makes VS Code refuse them in workspace settings.
 */
export function userClusterSettings(): ClusterSettings {
  const c = vscode.workspace.getConfiguration('kubeNetlint.cluster');
  const user = <T>(key: string): T | undefined => c.inspect<T>(key)?.globalValue;
  return {
    enabled: user<boolean>('enabled') ?? false,
    context: user<string>('context') ?? '',
    kubeconfig: user<string>('kubeconfig') ?? '',
    refreshSeconds: user<number>('refreshSeconds') ?? 0,
    namespaces: user<string[]>('namespaces') ?? [],
  };
}

/**
 * The client side of the live cluster: sends the user's cluster settings to the server (only in a
 * trusted workspace), shows the cluster's context and last sync time in a language status item, feeds
 * the "kube-netlint: Cluster" view and runs "kube-netlint: Refresh Cluster".
 */
export class ClusterView implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly tree: ClusterTree;
  private readonly content: ClusterObjectContent;
  private readonly treeView: vscode.TreeView<unknown>;
  /** The "cluster: <context>" language status item: only while cluster access is enabled in the user settings. */
  private item: vscode.LanguageStatusItem | undefined;
  private lastStatus: ClusterStatusParams | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** The server's diagnostics of cluster objects' read-only views, by URI, and where to show them. */
  private readonly viewDiagnostics = new Map<string, vscode.Diagnostic[]>();
  private showDiagnostics: HandleDiagnosticsSignature | undefined;

  /**
   * Client middleware: the squiggles of a cluster object's read-only view are shown while that view is open (and
   * so in Problems); the others stay in the "kube-netlint: Cluster" view, so Problems stays about the workspace.
   */
  readonly handleDiagnostics = (uri: vscode.Uri, diagnostics: vscode.Diagnostic[], next: HandleDiagnosticsSignature): void => {
    if (uri.scheme !== CLUSTER_URI_SCHEME) return next(uri, diagnostics);
    this.showDiagnostics = next;
    if (diagnostics.length) this.viewDiagnostics.set(uri.toString(), diagnostics);
    else this.viewDiagnostics.delete(uri.toString());
    next(uri, vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()) ? diagnostics : []);
  };

  constructor() {
    const request = <R>(method: string, params?: unknown): Promise<R> | undefined => this.client?.sendRequest<R>(method, params);
    this.tree = new ClusterTree(request);
    this.content = new ClusterObjectContent(request);
    this.treeView = vscode.window.createTreeView(CLUSTER_VIEW_ID, { treeDataProvider: this.tree as vscode.TreeDataProvider<unknown> });
    this.syncItem();
    this.disposables.push(
      this.treeView,
      { dispose: () => this.item?.dispose() },
      this.content,
      vscode.workspace.registerTextDocumentContentProvider(ClusterObjectContent.scheme, this.content),
      vscode.commands.registerCommand(REFRESH_CLUSTER_COMMAND, () => this.refresh()),
      vscode.workspace.onDidOpenTextDocument((d) => {
        if (d.uri.scheme === CLUSTER_URI_SCHEME) this.showDiagnostics?.(d.uri, this.viewDiagnostics.get(d.uri.toString()) ?? []);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme === CLUSTER_URI_SCHEME) this.showDiagnostics?.(d.uri, []);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('kubeNetlint.cluster')) return;
        this.syncItem();
        this.sendSettings();
      }),
    );
  }

  /** Call before `client.start()`: listens for the server's cluster status. */
  attach(client: LanguageClient): void {
    this.client = client;
    client.onNotification(CLUSTER_STATUS_NOTIFICATION, (status: ClusterStatusParams) => {
      this.showStatus(status);
      void this.tree.reload();
      this.content.refreshOpen();
    });
  }

  /** Call after `client.start()` resolved: sends the user-level cluster settings. */
  started(): void {
    this.sendSettings();
  }

  detach(): void {
    this.client = undefined;
    this.tree.clear();
    this.viewDiagnostics.clear();
    this.showDiagnostics = undefined;
  }

  private sendSettings(): void {
    // Untrusted workspaces never get cluster access (the server checks too).
    const settings = vscode.workspace.isTrusted ? userClusterSettings() : { enabled: false };
    void this.client?.sendNotification(CLUSTER_SETTINGS_NOTIFICATION, settings).catch(() => undefined);
  }

  private async refresh(): Promise<void> {
    if (!userClusterSettings().enabled) {
      void vscode.window.showInformationMessage('kube-netlint: cluster access is off. Enable "kubeNetlint.cluster.enabled" in your user settings.');
      return;
    }
    const message = await vscode.window.withProgress(
      { location: { viewId: CLUSTER_VIEW_ID }, title: 'Reading the cluster' },
      () => this.client?.sendRequest<string>(CLUSTER_REFRESH_REQUEST) ?? Promise.resolve('the language server is not running'),
    );
    vscode.window.setStatusBarMessage(`kube-netlint: ${message}`, 5000);
  }

  /** Creates the status item when cluster access is enabled, removes it when it is not. */
  private syncItem(): void {
    const enabled = userClusterSettings().enabled;
    if (enabled && !this.item) {
      this.item = vscode.languages.createLanguageStatusItem('kubeNetlint.cluster', { language: 'yaml' });
      this.item.name = 'kube-netlint cluster';
      this.item.command = { title: 'Refresh', command: REFRESH_CLUSTER_COMMAND };
    } else if (!enabled && this.item) {
      this.item.dispose();
      this.item = undefined;
    }
    this.showStatus(this.lastStatus);
  }

  private showStatus(status: ClusterStatusParams | undefined): void {
    this.lastStatus = status;
    if (!status || status.state === 'disabled') {
      if (this.item) {
        this.item.text = 'cluster: off';
        this.item.detail = vscode.workspace.isTrusted ? 'Starting…' : 'No cluster access in Restricted Mode';
        this.item.severity = vscode.LanguageStatusSeverity.Information;
      }
      this.treeView.message = 'Live cluster access is off (kubeNetlint.cluster.enabled, user settings).';
      return;
    }
    if (!this.item) return;
    const synced = status.lastSync ? ` · synced ${new Date(status.lastSync).toLocaleTimeString()}` : '';
    this.item.text = `cluster: ${status.context || '?'}${synced}`;
    this.item.detail = status.message;
    this.item.busy = status.state === 'connecting';
    this.item.severity = status.state === 'connected' ? vscode.LanguageStatusSeverity.Information : vscode.LanguageStatusSeverity.Warning;
    this.treeView.message = status.findings ? undefined : status.message;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
