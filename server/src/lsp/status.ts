import type { Connection } from 'vscode-languageserver';
import { STATUS_NOTIFICATION, StatusParams } from '../protocol/messages';
import type { Folder } from './workspace';

/** Sums the last analysis of every folder into the status the client shows ("N objects, M findings"). */
export function statusOf(folders: readonly Folder[], durationMs: number): StatusParams {
  let objects = 0, findings = 0, errors = 0, warnings = 0, files = 0;
  const failedRules = new Set<string>();
  for (const folder of folders) {
    const run = folder.host.last;
    if (!run) continue;
    files += run.analysis.files.size;
    objects += run.analysis.model.objects.filter((o) => o.origin.type === 'file').length;
    for (const list of run.findingsByFile.values()) {
      findings += list.length;
      for (const f of list) {
        if (f.severity === 'error') errors++;
        else if (f.severity === 'warning') warnings++;
      }
    }
    for (const failure of run.analysis.failures) failedRules.add(failure.ruleId);
  }
  return { objects, findings, errors, warnings, files, durationMs: Math.round(durationMs), failedRules: [...failedRules].sort() };
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
