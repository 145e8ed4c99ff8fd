import * as vscode from 'vscode';
import { STATUS_NOTIFICATION, StatusParams } from '../../server/src/protocol/messages';
import { COMMANDS } from './commands';

/** The language status item of YAML files: "kube-netlint: N objects, M findings", fed by the server. */
export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('kubeNetlint.status', { language: 'yaml' });

  constructor() {
    this.item.name = 'kube-netlint';
    this.item.text = 'kube-netlint: starting…';
    this.item.busy = true;
    this.item.command = { title: 'Show Output', command: COMMANDS.showOutput };
  }

  /** The notification method and handler to register on the client. */
  static readonly method = STATUS_NOTIFICATION;

  update(status: StatusParams): void {
    this.item.busy = false;
    this.item.text = `kube-netlint: ${status.objects} objects, ${status.findings} findings`;
    const failed = status.failedRules.length ? ` Rules that failed (see output): ${status.failedRules.join(', ')}.` : '';
    this.item.detail = `${status.files} files, ${status.errors} errors, ${status.warnings} warnings, analysed in ${status.durationMs} ms.${failed}`;
    this.item.severity = status.failedRules.length ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  }

  starting(): void {
    this.item.busy = true;
    this.item.text = 'kube-netlint: starting…';
  }

  failed(message: string): void {
    this.item.busy = false;
    this.item.text = 'kube-netlint: stopped';
    this.item.detail = message;
    this.item.severity = vscode.LanguageStatusSeverity.Error;
  }

  dispose(): void {
    this.item.dispose();
  }
}
