import * as vscode from 'vscode';
import { LanguageClient, State } from 'vscode-languageclient/node';
import type { Middleware } from 'vscode-languageclient/node';
import type { StatusParams } from '../../server/src/protocol/messages';
import { CLIENT_ID, CLIENT_NAME, clientOptions, serverOptions } from './client-options';
import { ClusterView } from './cluster-view';
import { PortsPanel } from './ports/ports-panel';
import { registerCommands } from './commands';
import { registerRuleDocs } from './rule-docs';
import { RenderView } from './render-view';
import { RenderedViewDiagnostics } from './rendered-diagnostics';
import { StatusItem } from './status-item';

let client: LanguageClient | undefined;

/**
 * Activated on YAML files (onLanguage:yaml, workspaceContains YAML) and on opening a JSON file (a workspace of
 * Kubernetes *.json manifests only): starts the kube-netlint language
 * server, shows the language status item and registers the commands. Works in untrusted workspaces
 * (analysis only); when trust is granted the server is restarted so it can use trusted-only features.
 */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const outputChannel = vscode.window.createOutputChannel(CLIENT_NAME);
  const status = new StatusItem();
  const cluster = new ClusterView(); // live cluster: view, status, Refresh Cluster
  const render = new RenderView(); // helm / kustomize: status, renderer paths, read-only rendered manifests
  const ports = new PortsPanel(context.extensionUri, (line) => outputChannel.appendLine(line)); // "kube-netlint: Show Node Ports"
  const renderedFindings = new RenderedViewDiagnostics(); // rendered views: squiggles as decorations, not in Problems
  context.subscriptions.push(outputChannel, status, cluster, render, ports, renderedFindings);
  const handleDiagnostics: Middleware['handleDiagnostics'] = (uri, diagnostics, next) =>
    renderedFindings.handleDiagnostics(uri, diagnostics, (u, d) => cluster.handleDiagnostics(u, d, next));

  const start = async (): Promise<void> => {
    status.starting();
    client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(context), clientOptions(outputChannel, (context.storageUri ?? context.globalStorageUri)?.fsPath, handleDiagnostics));
    client.onNotification(StatusItem.method, (params: StatusParams) => {
      status.update(params);
      render.update(params);
    });
    cluster.attach(client);
    ports.attach(client);
    render.attach(client);
    // The client restarts a crashed server a few times, then gives up: say so in the status item
    // (not when we stopped it ourselves to restart it).
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && !restarting) status.failed('The language server stopped. Run "kube-netlint: Restart Server"; details are in "kube-netlint: Show Output".');
      else if (e.newState === State.Starting) status.starting();
      else if (e.newState === State.Running) {
        cluster.started(); // (re)send the user-level cluster settings
        ports.started();
        render.started(); // and the user-level renderer paths
      }
    });
    try {
      await client.start();
    } catch (err) {
      status.failed(`The language server did not start: ${(err as Error).message}`);
      outputChannel.appendLine(`kube-netlint: the language server did not start: ${(err as Error).stack ?? err}`);
    }
  };
  let restarting = false;
  const restart = async (): Promise<void> => {
    const old = client;
    client = undefined;
    cluster.detach();
    ports.detach();
    render.detach();
    restarting = true;
    outputChannel.appendLine('kube-netlint: restarting the language server');
    try {
      if (old) await old.stop().catch(() => undefined);
    } finally {
      restarting = false;
    }
    renderedFindings.clear(); // the new server publishes every view's findings again
    await start();
  };

  context.subscriptions.push(
    ...registerCommands({ restart, outputChannel }),
    registerRuleDocs(context),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
    { dispose: () => void client?.stop() },
  );
  await start();
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
