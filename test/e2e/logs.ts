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

/** The last `maxLines` lines of each relevant log, each under a header naming its file. */
export function logExcerpt(userDataDir: string, extraFiles: string[] = [], maxLines = 60): string {
  return [...logFiles(userDataDir), ...extraFiles].filter((f) => fs.existsSync(f)).map((f) => {
    const lines = fs.readFileSync(f, 'utf8').trimEnd().split('\n');
    const tail = lines.slice(-maxLines).join('\n');
    return `----- ${path.relative(userDataDir, f)} (${lines.length} lines${lines.length > maxLines ? `, last ${maxLines}` : ''})\n${tail}`;
  }).join('\n') || '(no code-server logs found)';
}

/** True once the extension host log shows that the extension `id` (publisher.name) was activated. */
export function extensionActivated(userDataDir: string, id: string): boolean {
  return logFiles(userDataDir).filter((f) => f.endsWith('remoteexthost.log'))
    .some((f) => fs.readFileSync(f, 'utf8').includes(`_doActivateExtension ${id}`));
}
