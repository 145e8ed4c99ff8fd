import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { StatusParams } from '../../server/src/protocol/messages';
import { RENDER_SETTINGS_NOTIFICATION, RENDER_URI_SCHEME, RENDERED_DOCUMENT_REQUEST, RenderSettings } from '../../server/src/protocol/render-messages';

/**
 * The `kubeNetlint.render.*` settings from the USER level only (`inspect().globalValue`): a repository's workspace
 * settings must not choose a program to run. They are also declared `machine` scoped in package.json, so remote
 * setups resolve the binary where the server runs.
 */
export function userRenderSettings(): RenderSettings {
  const c = vscode.workspace.getConfiguration('kubeNetlint.render');
  return { helmPath: c.inspect<string>('helmPath')?.globalValue ?? '', kustomizePath: c.inspect<string>('kustomizePath')?.globalValue ?? '' };
}

/**
 * The client side of rendering: sends the user's renderer paths to the server (only in a trusted workspace; the
 * server runs nothing otherwise), shows what was rendered (or why nothing was) in a language status item, and
 * serves the read-only views of rendered manifests that diagnostics link to (`kube-netlint-rendered:` documents).
 */
export class RenderView implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly item = vscode.languages.createLanguageStatusItem('kubeNetlint.render', { language: 'yaml' });
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.item.name = 'kube-netlint render';
    this.item.text = 'render: starting…';
    const provider: vscode.TextDocumentContentProvider = {
      onDidChange: this.changed.event,
      provideTextDocumentContent: async (uri) => {
        const text = await this.client?.sendRequest<string | null>(RENDERED_DOCUMENT_REQUEST, { uri: uri.toString() });
        return text ?? '# kube-netlint: this rendered manifest is gone (the render changed or failed); run the analysis again\n';
      },
    };
    this.disposables.push(
      this.item,
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(RENDER_URI_SCHEME, provider),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('kubeNetlint.render')) this.sendSettings();
      }),
    );
  }

  attach(client: LanguageClient): void {
    this.client = client;
  }

  /** Call when the client is running: sends the user-level renderer paths. */
  started(): void {
    this.sendSettings();
  }

  detach(): void {
    this.client = undefined;
  }

  /** Shows the server's render status; open rendered views are refreshed (their render may have run again). */
  update(status: StatusParams): void {
    if (status.render === undefined) return;
    const untrusted = !vscode.workspace.isTrusted;
    // VS Code shows the text and the detail on one line of a narrow hover and cuts what does not fit: the text says
    // what ran, the detail only what the text leaves out (a renderer binary that is missing or not executable).
    const [summary, ...problems] = status.render.split('; ');
    this.item.text = untrusted ? 'render: off (Restricted Mode)' : `render: ${summary.replace(/^rendered /, '')}`;
    const short = problems.map((p) => p.replace(/^[\w-]+: (.*) not found on PATH$/, '$1 not on PATH'));
    this.item.detail = untrusted ? 'helm and kustomize are not run' : short.join(', ') || undefined;
    this.item.severity = untrusted || /failed|not found|not an executable/.test(status.render) ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === RENDER_URI_SCHEME) this.changed.fire(doc.uri);
  }

  private sendSettings(): void {
    if (!vscode.workspace.isTrusted) return; // the server runs no renderer in Restricted Mode either
    void this.client?.sendNotification(RENDER_SETTINGS_NOTIFICATION, userRenderSettings()).catch(() => undefined);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
