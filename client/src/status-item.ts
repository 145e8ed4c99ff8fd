import * as vscode from 'vscode';
import { STATUS_NOTIFICATION, StatusParams } from '../../server/src/protocol/messages';
import { COMMANDS } from './commands';

/**
 * The language status item of YAML files, fed by the server: a short text ("kube-netlint: 2 errors") that fits
 * the status hover, the counts in its detail line, and a Show Output link.
 */
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
    this.item.text = `kube-netlint: ${shortCount(status)}`;
    const failed = status.failedRules.length ? ` · failed: ${status.failedRules.join(', ')}` : '';
    this.item.detail = `${plural(status.objects, 'object')} in ${plural(status.files, 'file')} · ${status.durationMs} ms${failed}`;
    this.item.severity = status.failedRules.length ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  }

  starting(): void {
    this.item.severity = vscode.LanguageStatusSeverity.Information;
    this.item.detail = undefined;
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

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `2 errors`, `1 warning`, `3 notes`, `no findings`: the most severe kind found. */
function shortCount(s: StatusParams): string {
  if (s.errors) return plural(s.errors, 'error');
  if (s.warnings) return plural(s.warnings, 'warning');
  return s.findings ? plural(s.findings, 'note') : 'no findings';
}
