import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver/node';

/** Least time between two `$/progress` reports of one scan (a 10,000-file scan reports every batch otherwise). */
const REPORT_EVERY_MS = 200;

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The workspace scan's progress in the editor: `window/workDoneProgress/create`, then `$/progress`
 * begin / report / end ("kube-netlint: 4,210 / 10,000 files"), through vscode-languageserver, which sends
 * nothing when the client does not advertise `window.workDoneProgress`. One progress per scan of a folder.
 */
export class ScanProgress {
  private reporter: Promise<WorkDoneProgressServerReporter> | undefined;
  private last = 0;

  constructor(private readonly connection: Connection) {}

  /** `done` of `total` files of the scan are loaded; the progress ends when they all are. */
  update(done: number, total: number): void {
    if (!this.reporter) {
      if (done >= total) return; // nothing left to show (an empty folder, or everything came from the cache)
      this.reporter = this.connection.window.createWorkDoneProgress().then((r) => {
        r.begin('kube-netlint', 0, `${count(done)} / ${count(total)} files`, false);
        return r;
      });
      this.reporter.catch(() => undefined);
      this.last = performance.now();
      return;
    }
    const now = performance.now();
    if (done >= total) {
      void this.reporter.then((r) => r.done()).catch(() => undefined);
      return;
    }
    if (now - this.last < REPORT_EVERY_MS) return;
    this.last = now;
    void this.reporter.then((r) => r.report(Math.floor((100 * done) / total), `${count(done)} / ${count(total)} files`)).catch(() => undefined);
  }
}
