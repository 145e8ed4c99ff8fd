/**
 * Reads the logs a code-server run leaves in its user-data folder, to attach them to a failure. Paths are
 * relative to `--user-data-dir` (FEASIBILITY.md, pitfall 2):
 * - logs/<ts>/exthost1/remoteexthost.log: extension host, including `ExtensionService#_doActivateExtension <id>`;
 * - logs/<ts>/exthost1/output_logging_<ts>/<n>-<channel>.log: output channels (the language client's channel
 *   holds the server's `connection.console` output);
 * - logs/<ts>/remoteagent.log: extension scan and compatibility errors ("Extension is not compatible...").
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every file under `dir`, recursively (empty when `dir` does not exist). */
function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

/** The code-server log files worth reading after a failure, extension host first. */
export function logFiles(userDataDir: string): string[] {
  const files = walk(path.join(userDataDir, 'logs')).filter((f) => f.endsWith('.log'));
  const rank = (f: string): number =>
    f.endsWith('remoteexthost.log') ? 0 : f.includes('output_logging_') ? 1 : f.endsWith('remoteagent.log') ? 2 : 3;
  return files.filter((f) => rank(f) < 3).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Lines that explain most failures: errors, crashes, incompatible engines. */
const NOTABLE = /\b(error|Error|ERR|exception|Exception|crashed|failed|not compatible|did not start)\b/;

/**
 * The notable lines of all relevant logs (at most 40), then the last `maxLines` lines of each log, each under a
 * header naming its file. Stack frames (`    at ...`) are left out of the notable lines.
 */
export function logExcerpt(userDataDir: string, extraFiles: string[] = [], maxLines = 40): string {
  const files = [...logFiles(userDataDir), ...extraFiles].filter((f) => fs.existsSync(f));
  const notable = [...new Set(files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n')
    .filter((l) => NOTABLE.test(l) && !/^\s+at /.test(l)).map((l) => `${path.basename(f)}: ${l.slice(0, 400)}`)))];
  const header = notable.length ? `----- notable lines (${notable.length}${notable.length > 40 ? ', first 40' : ''})\n${notable.slice(0, 40).join('\n')}\n` : '';
  return header + files.map((f) => {
    const lines = fs.readFileSync(f, 'utf8').trimEnd().split('\n');
    const tail = lines.slice(-maxLines).join('\n');
    return `----- ${path.relative(userDataDir, f)} (${lines.length} lines${lines.length > maxLines ? `, last ${maxLines}` : ''})\n${tail}`;
  }).join('\n') || '(no code-server logs found)';
}

/**
 * 'activated' once the extension host log shows that the extension `id` (publisher.name) was activated,
 * 'failed' when its activate() threw, 'not-yet' otherwise.
 */
export function activationState(userDataDir: string, id: string): 'activated' | 'failed' | 'not-yet' {
  const logs = logFiles(userDataDir).filter((f) => f.endsWith('remoteexthost.log')).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  if (logs.includes(`Activating extension ${id} failed`)) return 'failed';
  return logs.includes(`_doActivateExtension ${id}`) ? 'activated' : 'not-yet';
}

/** True once the extension `id` was activated without error. */
export function extensionActivated(userDataDir: string, id: string): boolean {
  return activationState(userDataDir, id) === 'activated';
}

/** What {@link screenshotSteps} needs of a suite: its page and code-server, read when a step runs (set in `before`). */
export interface StepContext {
  readonly page: { screenshot(options: { path: string; animations: 'disabled' }): Promise<unknown> };
  readonly server?: { readonly userDataDir: string; readonly logFile: string };
}

/**
 * A suite's screenshot helpers: `shot(name)` saves `<out>/<name>.png`; `withLogs(body, name)` runs a step, saves
 * `<name>.png` after it, or on failure `<name>-FAILED.png` and appends the code-server logs to the error.
 */
export function screenshotSteps(out: string, context: () => StepContext): {
  shot: (name: string) => Promise<unknown>;
  withLogs: (body: () => Promise<void>, name: string) => Promise<void>;
} {
  const shot = (name: string): Promise<unknown> => context().page.screenshot({ path: path.join(out, `${name}.png`), animations: 'disabled' });
  const withLogs = async (body: () => Promise<void>, name: string): Promise<void> => {
    try {
      await body();
      await shot(name);
    } catch (err) {
      await shot(`${name}-FAILED`).catch(() => undefined);
      const { server } = context();
      (err as Error).message += `\nlogs:\n${server ? logExcerpt(server.userDataDir, [server.logFile]) : ''}`;
      throw err;
    }
  };
  return { shot, withLogs };
}
