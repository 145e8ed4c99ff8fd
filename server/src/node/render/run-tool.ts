import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one renderer run gave back. */
export interface ToolRun {
  /** Standard output (the rendered YAML stream), cut at the output cap. */
  readonly stdout: string;
  /** Standard error: warnings on success (kustomize prints deprecations and exits 0), the message on failure. */
  readonly stderr: string;
  /** Exit code; null when the process was killed (timeout, output cap) or could not start. */
  readonly exitCode: number | null;
  /** Why the run was stopped by us, if it was: `timeout`, `output-cap`, or `spawn` (the binary could not start). */
  readonly stopped?: 'timeout' | 'output-cap' | 'spawn';
  readonly durationMs: number;
}

export interface ToolRunOptions {
  /** Working directory (a temp folder of the caller; never the user's repository). */
  readonly cwd: string;
  /** Milliseconds before the whole process group is killed (default 20,000). */
  readonly timeoutMs?: number;
  /** Bytes of stdout kept before the process group is killed (default 64 MiB). */
  readonly maxOutputBytes?: number;
  /** Extra variables on top of the sandbox environment (e.g. HELM_NAMESPACE is never set here). */
  readonly env?: Readonly<Record<string, string>>;
}

export const DEFAULT_RENDER_TIMEOUT_MS = 20_000;
export const DEFAULT_RENDER_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * A fresh, empty environment for one renderer run, in a temp folder removed by {@link dispose}:
 * HOME, TMPDIR, XDG config/cache/data and every HELM_*_HOME point into it (as Argo CD does for each helm
 * command: util/helm/cmd.go), KUBECONFIG is an empty file (helm would read the context's namespace, kubectl a
 * cluster), HELM_NO_PLUGINS=1, and PATH is an empty folder: kustomize fetches remote bases with `git` from
 * PATH (api/internal/git/gitrunner.go), so a remote reference the pre-flight missed fails ("no 'git' program on
 * path") instead of reaching out. HTTP(S)_PROXY point at a closed loopback port as a second layer against
 * kustomize's HTTP GET of URL resources (Go's default transport honours them).
 */
export class Sandbox {
  readonly dir: string;
  readonly env: Readonly<Record<string, string>>;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'kube-netlint-render-'));
    live.add(this.dir);
    if (live.size === 1 && !exitHook) {
      // A process that exits with renders in flight (a language server told to exit) leaves no sandbox behind.
      exitHook = true;
      process.once('exit', () => live.forEach((d) => rmSync(d, { recursive: true, force: true })));
    }
    const sub = (name: string): string => {
      const p = join(this.dir, name);
      mkdirSync(p, { recursive: true });
      return p;
    };
    const kubeconfig = join(this.dir, 'kubeconfig');
    writeFileSync(kubeconfig, '');
    const closed = 'http://127.0.0.1:9';
    this.env = {
      PATH: sub('empty-path'),
      HOME: sub('home'),
      TMPDIR: sub('tmp'),
      XDG_CONFIG_HOME: sub('xdg/config'),
      XDG_CACHE_HOME: sub('xdg/cache'),
      XDG_DATA_HOME: sub('xdg/data'),
      HELM_CONFIG_HOME: sub('helm/config'),
      HELM_CACHE_HOME: sub('helm/cache'),
      HELM_DATA_HOME: sub('helm/data'),
      HELM_PLUGINS: sub('helm/plugins'),
      HELM_REGISTRY_CONFIG: join(this.dir, 'helm/registry.json'),
      HELM_REPOSITORY_CONFIG: join(this.dir, 'helm/repositories.yaml'),
      HELM_REPOSITORY_CACHE: sub('helm/repository'),
      HELM_NO_PLUGINS: '1',
      KUBECONFIG: kubeconfig,
      HTTP_PROXY: closed,
      HTTPS_PROXY: closed,
      http_proxy: closed,
      https_proxy: closed,
      NO_PROXY: '',
      no_proxy: '',
    };
  }

  /** A new empty folder inside the sandbox (wrappers, temp values files). */
  folder(name: string): string {
    const p = join(this.dir, 'work', name);
    mkdirSync(p, { recursive: true });
    return p;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
    live.delete(this.dir);
  }
}

/** Sandboxes not disposed yet (removed at process exit). */
const live = new Set<string>();
let exitHook = false;

/**
 * Runs a renderer binary as a child process: no shell (`argv` is passed as is, nothing is interpreted), only the
 * given environment, its own process group (detached) so a timeout or the output cap kills helm/kustomize and
 * anything they started, stdout cut at `maxOutputBytes`. Never rejects: a binary that cannot start resolves with
 * `stopped: 'spawn'` and the error in `stderr`.
 * @param binary absolute path of the executable
 */
export function runTool(binary: string, argv: readonly string[], env: Readonly<Record<string, string>>, options: ToolRunOptions): Promise<ToolRun> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_RENDER_OUTPUT_BYTES;
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(binary, argv as string[], { cwd: options.cwd, env: { ...env, ...options.env }, shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    } catch (err) {
      resolve({ stdout: '', stderr: (err as Error).message, exitCode: null, stopped: 'spawn', durationMs: performance.now() - started });
      return;
    }
    const out: Buffer[] = [];
    const errOut: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let stopped: ToolRun['stopped'];
    let done = false;
    const killGroup = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      stopped = 'timeout';
      killGroup();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      outBytes += chunk.length;
      if (outBytes > maxBytes) {
        stopped = 'output-cap';
        killGroup();
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // stderr is kept for messages only: 1 MiB is far more than any real warning list.
      if (errBytes < 1024 * 1024) errOut.push(chunk);
      errBytes += chunk.length;
    });
    const finish = (exitCode: number | null, spawnError?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: spawnError ? spawnError.message : Buffer.concat(errOut).toString('utf8'),
        exitCode: stopped ? null : exitCode,
        ...(spawnError ? { stopped: 'spawn' as const } : stopped ? { stopped } : {}),
        durationMs: performance.now() - started,
      });
    };
    child.on('error', (err) => finish(null, err));
    child.on('close', (code) => finish(code));
  });
}
