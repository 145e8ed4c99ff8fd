import type { Connection } from 'vscode-languageserver';
import { STATUS_NOTIFICATION, StatusParams } from '../protocol/messages';
import type { Folder } from './workspace';
import type { RecalledScan } from './remembered-scan';
import type { Finding } from '../core/rules/rule';
import type { RuleFailure } from '../core/engine/run-rules';

/** The status the client shows ("N objects, M findings") of analysis results: their sums. */
function statusOfResults(results: Iterable<{ readonly objects: number; readonly files: number; readonly findings: Iterable<readonly Finding[]>; readonly failures: readonly RuleFailure[] }>, durationMs: number): StatusParams {
  let objects = 0, findings = 0, errors = 0, warnings = 0, files = 0;
  const failedRules = new Set<string>();
  for (const result of results) {
    files += result.files;
    objects += result.objects;
    for (const list of result.findings) {
      findings += list.length;
      for (const f of list) {
        if (f.severity === 'error') errors++;
        else if (f.severity === 'warning') warnings++;
      }
    }
    for (const failure of result.failures) failedRules.add(failure.ruleId);
  }
  return { objects, findings, errors, warnings, files, durationMs: Math.round(durationMs), failedRules: [...failedRules].sort() };
}

/** Sums the last analysis of every folder into the status the client shows ("N objects, M findings"). */
export function statusOf(folders: readonly Folder[], durationMs: number): StatusParams {
  const runs = folders.flatMap((f) => (f.host.last ? [f.host.last] : []));
  return statusOfResults(runs.map((run) => ({
    files: run.analysis.files.size,
    objects: run.analysis.model.objects.filter((o) => o.origin.type === 'file').length,
    findings: run.findingsByFile.values(),
    failures: run.analysis.failures,
  })), durationMs);
}

/** The status of findings stored for a reopened folder (lsp/remembered-scan.ts), as {@link statusOf} gave it then. */
export function recalledStatus(stored: RecalledScan['stored'], durationMs: number): StatusParams {
  return statusOfResults([{ ...stored.counts, findings: [stored.findings], failures: stored.failures }], durationMs);
}

/** Sends {@link STATUS_NOTIFICATION} when the status changed since the last one sent. */
export class StatusReporter {
  private last = '';

  constructor(private readonly connection: Connection) {}

  report(status: StatusParams): void {
    const key = JSON.stringify({ ...status, durationMs: 0 });
    if (key === this.last) return;
    this.last = key;
    this.connection.sendNotification(STATUS_NOTIFICATION, status).catch(() => undefined);
  }
}
