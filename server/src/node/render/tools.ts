import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import { runTool, Sandbox } from './run-tool';

/** A renderer binary found for this run. */
export interface Renderer {
  /** Absolute path of the executable. */
  readonly path: string;
  /** `kustomize build` (standalone kustomize) or `kubectl kustomize`; helm is always `helm template`. */
  readonly flavour: 'helm' | 'kustomize' | 'kubectl';
  /** Version as the tool prints it (`v3.17.3`, `v5.4.2`); '' when it could not be read. */
  readonly version: string;
  /** Where the path came from, for messages: `--helm flag`, `KUBE_NETLINT_HELM`, `PATH`, `kubeNetlint.render.helmPath`. */
  readonly source: string;
}

export interface RendererChoice {
  /** An explicit path (CLI flag, env variable or user setting), with its source; empty = search PATH. */
  readonly path?: string;
  readonly source?: string;
}

export interface Renderers {
  readonly helm?: Renderer;
  readonly kustomize?: Renderer;
  /** Why a renderer is missing (`helm: not found on PATH`), for the CLI's stderr and the language status. */
  readonly problems: readonly string[];
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The first `name` on PATH (absolute), like `command -v`. */
export function which(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue; // relative PATH entries would depend on the working directory
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

const versionCache = new Map<string, Promise<string>>();

/** Reads a tool's version once per path and modification time (in a sandbox: no config, no network). */
async function versionOf(path: string, flavour: Renderer['flavour']): Promise<string> {
  let mtime = 0;
  try {
    mtime = statSync(path).mtimeMs;
  } catch {
    return '';
  }
  const key = `${path}|${mtime}`;
  let cached = versionCache.get(key);
  if (!cached) {
    cached = (async () => {
      const sandbox = new Sandbox();
      try {
        const argv = flavour === 'helm' ? ['version', '--short'] : flavour === 'kustomize' ? ['version'] : ['version', '--client'];
        const run = await runTool(path, argv, sandbox.env, { cwd: sandbox.dir, timeoutMs: 5000, maxOutputBytes: 65536 });
        const text = run.stdout + run.stderr;
        const m = flavour === 'kubectl' ? /Kustomize Version:\s*(v?[\d.]+)/.exec(text) : /v?\d+\.\d+\.\d+/.exec(text);
        return m ? (m[1] ?? m[0]) : '';
      } finally {
        sandbox.dispose();
      }
    })();
    versionCache.set(key, cached);
  }
  return cached;
}

/**
 * Finds helm and kustomize: an explicit path when given (CLI `--helm`/`--kustomize`, `KUBE_NETLINT_HELM` /
 * `KUBE_NETLINT_KUSTOMIZE`, or the VS Code *user* settings — never the repository's `.kube-netlint.yaml` or
 * workspace settings, since the path runs a program), else `helm` and `kustomize` on PATH, else `kubectl` on
 * PATH for `kubectl kustomize`. A binary whose file name starts with `kubectl` is run as `kubectl kustomize`.
 */
export async function findRenderers(helmChoice: RendererChoice, kustomizeChoice: RendererChoice, pathVar: string | undefined, cwd: string): Promise<Renderers> {
  const problems: string[] = [];
  const pick = async (choice: RendererChoice, names: readonly string[], what: 'helm' | 'kustomize'): Promise<Renderer | undefined> => {
    let path: string | undefined;
    let source = 'PATH';
    if (choice.path) {
      path = resolve(cwd, choice.path);
      source = choice.source ?? 'settings';
      if (!isExecutable(path)) {
        problems.push(`${what}: ${path} (${source}) is not an executable file`);
        return undefined;
      }
    } else {
      for (const name of names) if ((path = which(name, pathVar))) break;
      if (!path) {
        problems.push(`${what}: ${names.join(' or ')} not found on PATH`);
        return undefined;
      }
    }
    const flavour: Renderer['flavour'] = what === 'helm' ? 'helm' : basename(path).startsWith('kubectl') ? 'kubectl' : 'kustomize';
    return { path, flavour, version: await versionOf(path, flavour), source };
  };
  const [helm, kustomize] = await Promise.all([pick(helmChoice, ['helm'], 'helm'), pick(kustomizeChoice, ['kustomize', 'kubectl'], 'kustomize')]);
  return { helm, kustomize, problems };
}

/** True when `version` (`v3.17.3`) is at least `major.minor`. */
export function versionAtLeast(version: string, major: number, minor: number): boolean {
  const m = /(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  return Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor);
}
