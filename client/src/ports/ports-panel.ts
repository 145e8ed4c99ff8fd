import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  HostMessage, isPortMapResponse, parseViewMessage, PORT_MAP_CHANGED_NOTIFICATION, PORT_MAP_REQUEST, PortMapChangedParams, PortMapResponse,
  SHOW_PORTS_COMMAND, ShowPortsArgs,
} from '../../../server/src/protocol/port-map-messages';
import { CLUSTER_URI_SCHEME } from '../../../server/src/protocol/cluster-messages';
import { RENDER_URI_SCHEME } from '../../../server/src/protocol/render-messages';
import type { ClaimLink } from '../../../server/src/core/port-map/document';

/** The webview panel's type id (also its state key). */
export const PORTS_VIEW_TYPE = 'kubeNetlint.ports';

/** URI schemes the view may open: what the language server links claims to (workspace files, cluster objects, rendered manifests). */
const OPENABLE_SCHEMES = new Set(['file', 'untitled', CLUSTER_URI_SCHEME, RENDER_URI_SCHEME]);

/**
 * The "Node Ports" view: a webview panel showing the language server's node-port map (the same computation as
 * `kube-netlint ports`), opened by the command "kube-netlint: Show Node Ports" and by the hover's link on a port.
 * It re-reads the map whenever the server says an analysis changed it (while visible; once when shown again),
 * so it follows edits without a refresh. The webview runs under a strict Content-Security-Policy and loads only
 * dist/ports-view.js and dist/ports-view.css from the extension; messages are validated both ways
 * (protocol/port-map-messages.ts), and a click opens only a claim the server sent, by its id.
 */
export class PortsPanel implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private panel: vscode.WebviewPanel | undefined;
  private last: PortMapResponse | undefined;
  private shownVersion = -1;
  private serverVersion = 0;
  private ready = false;
  private loading: Promise<void> | undefined;
  private reloadAgain = false;
  private focus: ShowPortsArgs | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly extensionUri: vscode.Uri, private readonly log: (line: string) => void) {
    this.disposables.push(vscode.commands.registerCommand(SHOW_PORTS_COMMAND, (args?: unknown) => this.show(validArgs(args))));
  }

  /** Call before `client.start()`: listens for the server's "the map changed" notifications. */
  attach(client: LanguageClient): void {
    this.client = client;
    client.onNotification(PORT_MAP_CHANGED_NOTIFICATION, (params: PortMapChangedParams) => {
      if (typeof params?.version === 'number') this.serverVersion = params.version;
      if (this.panel?.visible) void this.reload();
    });
  }

  /** Call after `client.start()` resolved (and after a restart): a shown view reads the new server's map. */
  started(): void {
    this.shownVersion = -1;
    if (this.panel) void this.reload();
  }

  detach(): void {
    this.client = undefined;
    this.post({ type: 'status', text: 'The language server is not running.' });
  }

  /** Opens (or reveals) the view; with `port`, scrolls to that port and highlights it. */
  show(args: ShowPortsArgs = {}): void {
    this.focus = args.port !== undefined ? args : undefined;
    if (this.panel) {
      this.panel.reveal(undefined, false);
      this.sendFocus();
      void this.reload();
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(PORTS_VIEW_TYPE, 'Node Ports', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [dist],
    });
    this.panel = panel;
    this.ready = false;
    this.shownVersion = -1;
    panel.webview.html = html(panel.webview, dist);
    panel.webview.onDidReceiveMessage((data: unknown) => this.received(data), undefined, this.disposables);
    panel.onDidChangeViewState(() => {
      if (panel.visible && this.shownVersion !== this.serverVersion) void this.reload();
    }, undefined, this.disposables);
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    }, undefined, this.disposables);
  }

  private received(data: unknown): void {
    const message = parseViewMessage(data);
    if (!message) {
      this.log(`kube-netlint: ignored a message from the Node Ports view: ${safeJson(data)}`);
      return;
    }
    if (message.type === 'ready') {
      this.ready = true;
      if (this.last) this.post({ type: 'portMap', response: this.last });
      this.sendFocus();
      void this.reload();
      return;
    }
    const claim = this.last?.folders[message.folder]?.document.clusterGroups[message.group]?.ports.flatMap((p) => p.claims).find((c) => c.id === message.claim);
    if (!claim?.link) return;
    void this.open(claim.link).catch((err: Error) => this.log(`kube-netlint: cannot open ${claim.link?.uri}: ${err.message}`));
  }

  private async open(link: ClaimLink): Promise<void> {
    const uri = vscode.Uri.parse(link.uri, true);
    if (!OPENABLE_SCHEMES.has(uri.scheme)) return;
    const document = await vscode.workspace.openTextDocument(uri);
    const column = this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    const range = new vscode.Range(link.line, link.character, link.endLine, link.endCharacter);
    const editor = await vscode.window.showTextDocument(document, { viewColumn: column, preview: true, selection: range });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** Reads the map from the server and posts it; coalesces calls that arrive while a read runs. */
  private reload(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.reloadAgain = false;
        const client = this.client;
        if (!client || !this.panel) return;
        const version = this.serverVersion;
        try {
          const response = await client.sendRequest<unknown>(PORT_MAP_REQUEST);
          if (!isPortMapResponse(response)) {
            this.log('kube-netlint: the language server sent a node-port map of an unknown shape');
            return;
          }
          this.last = response;
          this.shownVersion = Math.max(version, response.version);
          this.post({ type: 'portMap', response });
        } catch (err) {
          this.post({ type: 'status', text: `The node-port map is not available: ${(err as Error).message}` });
        }
      } while (this.reloadAgain);
    })().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private sendFocus(): void {
    if (this.focus?.port !== undefined && this.ready) {
      this.post({ type: 'focus', port: this.focus.port, folderUri: this.focus.uri });
      this.focus = undefined;
    }
  }

  private post(message: HostMessage): void {
    if (this.panel && this.ready) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}

/** The command's argument when it is `{port?: 1–65535, uri?: string}` (a hover link, or a user's keybinding), else none. */
function validArgs(args: unknown): ShowPortsArgs {
  if (typeof args !== 'object' || args === null) return {};
  const { port, uri } = args as Record<string, unknown>;
  return {
    port: Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535 ? (port as number) : undefined,
    uri: typeof uri === 'string' && uri.length < 10_000 ? uri : undefined,
  };
}

function safeJson(data: unknown): string {
  try {
    return JSON.stringify(data)?.slice(0, 200) ?? String(data);
  } catch {
    return String(data);
  }
}

/** The webview's page: a nonce'd script and the extension's stylesheet, nothing else may load (no remote resources). */
function html(webview: vscode.Webview, dist: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'ports-view.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'ports-view.css'));
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`, `img-src ${webview.cspSource} data:`, `font-src ${webview.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Node Ports</title>
</head>
<body>
<div id="app" role="main" aria-label="Node ports"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
