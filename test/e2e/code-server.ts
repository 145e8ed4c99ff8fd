/**
 * Starts and stops a throw-away code-server (VS Code 1.100.3 in the browser) for the e2e suite: fresh
 * user-data, extensions, HOME and XDG folders under the run's output folder, bound to 127.0.0.1 on a free port,
 * `--auth none`, in its own process group so that stop() also ends the file watcher, extension host and
 * language server it forks.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { BrowserContext, e2eHome } from './playwright';

export interface CodeServer {
  url: string;
  /** `--user-data-dir`: logs/<timestamp>/exthost1/... hold the extension host and output channel logs. */
  userDataDir: string;
  extensionsDir: string;
  /** HOME given to code-server and Chromium, so nothing is written to the real home. */
  home: string;
  /** code-server's own stdout + stderr. */
  logFile: string;
  stop(): Promise<void>;
}

/**
 * User settings every suite starts code-server with: no start page, tips, trust prompt, update checks or
 * telemetry, and no git scan of the repository around the workspace (test-results/ is inside its work tree).
 */
export const QUIET_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false,
  'extensions.autoUpdate': false, 'extensions.autoCheckUpdates': false, 'telemetry.telemetryLevel': 'off',
  'git.openRepositoryInParentFolders': 'never',
};

function codeServerBin(): string {
  const bin = path.join(e2eHome(), 'node_modules', '.bin', 'code-server');
  if (!fs.existsSync(bin)) throw new Error(`code-server not found at ${bin}; run test/e2e/install-deps.sh first`);
  return bin;
}

function isolatedEnv(dir: string): NodeJS.ProcessEnv {
  // code-server writes ~/.config/code-server/config.yaml, ~/.local/share/code-server and
  // ~/.cache/Microsoft/DeveloperTools even with --user-data-dir (FEASIBILITY.md, pitfall 6).
  return {
    ...process.env, HOME: path.join(dir, 'home'), XDG_CONFIG_HOME: path.join(dir, 'xdg-config'),
    XDG_DATA_HOME: path.join(dir, 'xdg-data'), XDG_CACHE_HOME: path.join(dir, 'xdg-cache'),
  };
}

/** Asks the kernel for a free TCP port on 127.0.0.1 (so parallel runs don't collide on a fixed port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Installs a .vsix into a fresh extensions folder with `code-server --install-extension`, the way a user
 * installs the packaged extension. Returns code-server's output; throws when it does not report success.
 */
export function installExtension(vsix: string, dir: string): string {
  const out = execFileSync(codeServerBin(), ['--user-data-dir', path.join(dir, 'user-data'),
    '--extensions-dir', path.join(dir, 'extensions'), '--install-extension', vsix],
  { env: isolatedEnv(dir), encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (!/was successfully installed/.test(out)) throw new Error(`installing ${vsix} failed:\n${out}`);
  return out;
}

async function waitHealthy(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with ${child.exitCode}:\n${fs.readFileSync(logFile, 'utf8')}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms:\n${fs.readFileSync(logFile, 'utf8')}`);
}

/** Sends `signal` to the whole process group; false when the group no longer exists. */
function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try { process.kill(-pid, signal); return true; } catch { return false; }
}

/**
 * Starts code-server for `workspace` with the extensions already installed in `<dir>/extensions`.
 * Resolves once /healthz answers (about 1–2 s here).
 */
export async function startCodeServer(dir: string, workspace: string, settings: object): Promise<CodeServer> {
  const userDataDir = path.join(dir, 'user-data');
  const extensionsDir = path.join(dir, 'extensions');
  const env = isolatedEnv(dir);
  for (const d of [userDataDir, extensionsDir, env.HOME!, env.XDG_CONFIG_HOME!, env.XDG_DATA_HOME!, env.XDG_CACHE_HOME!]) {
    fs.mkdirSync(d, { recursive: true });
  }
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(dir, 'code-server.log');
  const log = fs.openSync(logFile, 'w');
  const child = spawn(codeServerBin(), ['--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--disable-file-downloads', workspace],
  { env, stdio: ['ignore', log, log], detached: true }); // detached = setsid: own process group
  fs.closeSync(log);
  const pid = child.pid!;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (!killGroup(pid, 'SIGTERM')) return;
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    killGroup(pid, 'SIGKILL'); // whatever of the group is still alive (extension host, language server)
  };
  // If the test process ends without running stop() (crash, Ctrl+C, CI timeout), don't leave code-server,
  // its extension host and the language server behind. Chromium is ended by playwright-core itself.
  process.once('exit', () => killGroup(pid, 'SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killGroup(pid, 'SIGKILL');
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
  try {
    await waitHealthy(url, child, logFile, 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, userDataDir, extensionsDir, home: env.HOME!, logFile, stop };
}

/**
 * Ends a suite's run: saves the browser console, closes the browser, stops code-server, keeps its logs next to the
 * screenshots in `out/logs/` (the CI artifact) and removes the run's profile and extension copy (`runDir`).
 */
export async function finishRun(run: { browser?: BrowserContext; server?: CodeServer; out: string; runDir: string; consoleLines: readonly string[] }): Promise<void> {
  fs.writeFileSync(path.join(run.out, 'browser-console.log'), run.consoleLines.join('\n') + '\n');
  await run.browser?.close().catch(() => undefined);
  await run.server?.stop();
  if (run.server) {
    fs.cpSync(path.join(run.server.userDataDir, 'logs'), path.join(run.out, 'logs'), { recursive: true });
    fs.copyFileSync(run.server.logFile, path.join(run.out, 'logs', 'code-server.log'));
  }
  fs.rmSync(run.runDir, { recursive: true, force: true });
}
