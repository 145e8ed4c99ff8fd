import * as vscode from 'vscode';
import {
  CLUSTER_FINDINGS_REQUEST, CLUSTER_OBJECT_REQUEST, CLUSTER_URI_SCHEME, ClusterFindingItem, ClusterObjectGroup, clusterFileOfUri, clusterUri,
} from '../../server/src/protocol/cluster-messages';

/** What the view asks the language server (undefined while the server is not running). */
export type ServerRequest = <R>(method: string, params?: unknown) => Promise<R> | undefined;

type Node = { readonly group: ClusterObjectGroup } | { readonly group: ClusterObjectGroup; readonly finding: ClusterFindingItem };

const ICONS: Record<string, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'lightbulb' };

/**
 * The "kube-netlint: Cluster" view: findings whose only location is a live-cluster object, grouped by
 * object. Clicking an object opens it as read-only YAML (a `kube-netlint-cluster:` document served by
 * {@link ClusterObjectContent}) with its first finding's field selected; clicking a finding opens the workspace
 * file it names, if any, else the object's field.
 */
export class ClusterTree implements vscode.TreeDataProvider<Node> {
  private groups: ClusterObjectGroup[] = [];
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly request: ServerRequest) {}

  /** Fetches the groups again from the server and redraws. */
  async reload(): Promise<void> {
    this.groups = (await this.request<ClusterObjectGroup[]>(CLUSTER_FINDINGS_REQUEST)?.catch(() => undefined)) ?? [];
    this.emitter.fire(undefined);
  }

  clear(): void {
    this.groups = [];
    this.emitter.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.groups.map((group) => ({ group }));
    if ('finding' in node) return [];
    return node.group.findings.map((finding) => ({ group: node.group, finding }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    // The object's read-only view, on the field of the finding (an object: its first finding's).
    const at = ('finding' in node ? node.finding : node.group.findings[0])?.range;
    const selection = at && new vscode.Range(at.start.line, at.start.character, at.end.line, at.end.character);
    const open: vscode.Command = { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.parse(clusterUri(node.group.file)), { preview: true, ...(selection ? { selection } : {}) }] };
    if (!('finding' in node)) {
      const { kind, namespace, name, findings } = node.group;
      const item = new vscode.TreeItem(`${kind} ${namespace ? `${namespace}/` : ''}${name}`, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${findings.length} finding${findings.length === 1 ? '' : 's'}`;
      item.tooltip = node.group.file;
      item.iconPath = new vscode.ThemeIcon('cloud');
      item.command = open;
      return item;
    }
    const f = node.finding;
    const item = new vscode.TreeItem(f.message, vscode.TreeItemCollapsibleState.None);
    item.description = f.ruleId;
    item.tooltip = new vscode.MarkdownString(`**${f.ruleId}** (${f.severity})\n\n${f.message}\n\n${f.related.map((r) => `- ${r.message}`).join('\n')}`);
    item.iconPath = new vscode.ThemeIcon(ICONS[f.severity] ?? 'info');
    const local = f.related.find((r) => r.uri);
    item.command = local?.uri
      ? { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.parse(local.uri), { selection: new vscode.Range(local.line ?? 0, 0, local.line ?? 0, 0) }] }
      : open;
    return item;
  }
}

/**
 * Serves `kube-netlint-cluster:` documents: the cluster object's YAML, fetched from the server (read-only). The
 * server publishes diagnostics against that exact text, so open views are fetched again when the cluster changes.
 */
export class ClusterObjectContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = CLUSTER_URI_SCHEME;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly request: ServerRequest) {}

  /** Fetches every open view again (the objects may have changed). */
  refreshOpen(): void {
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === CLUSTER_URI_SCHEME) this.changed.fire(doc.uri);
  }

  dispose(): void {
    this.changed.dispose();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const file = clusterFileOfUri(uri.toString(true));
    const yaml = file ? await this.request<string | null>(CLUSTER_OBJECT_REQUEST, { file })?.catch(() => null) : null;
    return yaml ?? `# ${file ?? uri.toString()}: not (or no longer) read from the cluster\n`;
  }
}
