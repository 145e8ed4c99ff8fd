import * as vscode from 'vscode';
import { LanguageClientOptions, Middleware, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import type { InitializationOptions } from '../../server/src/protocol/messages';
import { trustPortMapLinks } from './ports/hover-links';
import { trustRuleDocLinks } from './rule-docs';

/** Client id: also the prefix of the `kubeNetlint.trace.server` setting read by vscode-languageclient. */
export const CLIENT_ID = 'kubeNetlint';
export const CLIENT_NAME = 'kube-netlint';

/** Starts the bundled server (dist/server.js) as a node module over IPC; `debug` adds an inspector port. */
export function serverOptions(context: vscode.ExtensionContext): ServerOptions {
  const module = context.asAbsolutePath('dist/server.js');
  return {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
  };
}

/**
 * YAML documents (files and untitled buffers) go to the server; the client watches YAML files and
 * `.kube-netlint.yaml` on disk for it (workspace/didChangeWatchedFiles). Settings are pulled by the
 * server (workspace/configuration, section `kubeNetlint`, per folder). The server is told whether the
 * workspace is trusted: in Restricted Mode it only analyses files. `cacheFolder` (the extension's storage
 * folder) is where the server keeps its parse cache. `handleDiagnostics` sees every published diagnostic first
 * (rendered views' findings become decorations, not Problems entries; the cluster view holds back those of cluster
 * objects' views that are not open).
 */
export function clientOptions(outputChannel: vscode.OutputChannel, cacheFolder?: string, handleDiagnostics?: Middleware['handleDiagnostics']): LanguageClientOptions {
  const initializationOptions: InitializationOptions = { workspaceTrusted: vscode.workspace.isTrusted, watchesFiles: true, showRuleDocumentationCommand: true, portMapView: true, ...(cacheFolder ? { cacheFolder } : {}) };
  return {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
    ],
    synchronize: {
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}'),
        // kustomize also reads a kustomization from a file named Kustomization, without extension.
        vscode.workspace.createFileSystemWatcher('**/Kustomization'),
        vscode.workspace.createFileSystemWatcher('**/.kube-netlint.yaml'),
        // Kubernetes *.json manifests (the server skips other JSON), and chart files helm reads besides YAML (helpers,
        // NOTES.txt, values.schema.json): a change re-renders the chart.
        vscode.workspace.createFileSystemWatcher('**/*.{tpl,txt,json}'),
        // Folders created or deleted (a watcher reports a folder once, not each YAML file in it).
        vscode.workspace.createFileSystemWatcher('**/*', false, true, false),
      ],
    },
    outputChannel,
    initializationOptions,
    middleware: {
      provideHover: async (document, position, token, next) => trustPortMapLinks(trustRuleDocLinks(await next(document, position, token))),
      ...(handleDiagnostics ? { handleDiagnostics } : {}),
    },
  };
}
