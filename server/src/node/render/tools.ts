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

/** What probing a renderer binary found: its version, or why it cannot render. */
interface Probe {
  /** As the tool prints it (`v3.17.3`); '' when it prints none. */
  readonly version: string;
  /** Set when the binary cannot render (`` `kubectl version --client` exited with status 3 (…) ``). */
  readonly unusable?: string;
}

const probeCache = new Map<string, Promise<Probe>>();

/** The first line of a tool's complaint, shortened for a one-line message. */
function firstLine(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l) ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** Why a probe run failed, or undefined when it exited 0. */
function runFailure(argv: readonly string[], name: string, run: Awaited<ReturnType<typeof runTool>>): string | undefined {
  if (run.exitCode === 0) return undefined;
  const command = `\`${[name, ...argv].join(' ')}\``;
  const why = firstLine(run.stderr) || firstLine(run.stdout);
  if (run.stopped === 'spawn') return `${command} could not start${why ? ` (${why})` : ''}`;
  if (run.stopped === 'timeout') return `${command} did not answer within 5 s`;
  if (run.stopped === 'output-cap') return `${command} printed more than 64 KiB`;
  return `${command} exited with status ${run.exitCode}${why ? ` (${why})` : ''}`;
}

/**
 * Probes a renderer once per path and modification time (in a sandbox: no config, no network): `helm version
 * --short`, `kustomize version` or `kubectl version --client` must exit 0, and a kubectl must have the `kustomize`
 * subcommand (kubectl 1.14 or later): its version output names a Kustomize version (kubectl 1.24+), else `kubectl
 * kustomize --help` must exit 0 (kubectl 1.14–1.23 print no Kustomize version).
 */
async function probe(path: string, flavour: Renderer['flavour']): Promise<Probe> {
  let mtime = 0;
  try {
    mtime = statSync(path).mtimeMs;
  } catch {
    return { version: '', unusable: 'it cannot be read' };
  }
  const key = `${path}|${mtime}`;
  let cached = probeCache.get(key);
  if (!cached) {
    cached = (async (): Promise<Probe> => {
      const sandbox = new Sandbox();
      const name = basename(path);
      const run = (argv: string[]) => runTool(path, argv, sandbox.env, { cwd: sandbox.dir, timeoutMs: 5000, maxOutputBytes: 65536 });
      try {
        const argv = flavour === 'helm' ? ['version', '--short'] : flavour === 'kustomize' ? ['version'] : ['version', '--client'];
        const version = await run(argv);
        const failed = runFailure(argv, name, version);
        if (failed) return { version: '', unusable: failed };
        const text = version.stdout + version.stderr;
        const m = flavour === 'kubectl' ? /Kustomize Version:\s*(v?[\d.]+)/.exec(text) : /v?\d+\.\d+\.\d+/.exec(text);
        if (flavour === 'kubectl' && !m) {
          const help = await run(['kustomize', '--help']);
          if (runFailure(['kustomize', '--help'], name, help)) return { version: '', unusable: `it has no kustomize subcommand (kubectl 1.14 or later has one; \`${name} kustomize --help\` said ${JSON.stringify(firstLine(help.stderr) || `status ${help.exitCode}`)})` };
        }
        return { version: m ? (m[1] ?? m[0]) : '' };
      } finally {
        sandbox.dispose();
      }
    })();
    probeCache.set(key, cached);
  }
  return cached;
}

/**
 * Finds helm and kustomize: an explicit path when given (CLI `--helm`/`--kustomize`, `KUBE_NETLINT_HELM` /
 * `KUBE_NETLINT_KUSTOMIZE`, or the VS Code *user* settings — never the repository's `.kube-netlint.yaml` or
 * workspace settings, since the path runs a program), else `helm` and `kustomize` on PATH, else `kubectl` on
 * PATH for `kubectl kustomize`. A binary whose file name starts with `kubectl` is run as `kubectl kustomize`.
 * Each candidate is probed first ({@link probe}); one that cannot render is not used, and `problems` says which
 * binary was tried and why (`kustomize: /usr/bin/kubectl (PATH) cannot render: it has no kustomize subcommand …`),
 * so the workspace is linted raw with that reason on stderr / in the language status instead of failing every render.
 */
export async function findRenderers(helmChoice: RendererChoice, kustomizeChoice: RendererChoice, pathVar: string | undefined, cwd: string): Promise<Renderers> {
  const problems: string[] = [];
  const flavourOf = (path: string, what: 'helm' | 'kustomize'): Renderer['flavour'] => (what === 'helm' ? 'helm' : basename(path).startsWith('kubectl') ? 'kubectl' : 'kustomize');
  const pick = async (choice: RendererChoice, names: readonly string[], what: 'helm' | 'kustomize'): Promise<Renderer | undefined> => {
    if (choice.path) {
      const path = resolve(cwd, choice.path);
      const source = choice.source ?? 'settings';
      if (!isExecutable(path)) {
        problems.push(`${what}: ${path} (${source}) is not an executable file`);
        return undefined;
      }
      const found = await probe(path, flavourOf(path, what));
      if (!found.unusable) return { path, flavour: flavourOf(path, what), version: found.version, source };
      problems.push(`${what}: ${path} (${source}) cannot render: ${found.unusable}`);
      return undefined;
    }
    // On PATH: the first usable one (a kustomize that cannot run leaves the choice to kubectl).
    const unusable: string[] = [];
    for (const name of names) {
      const path = which(name, pathVar);
      if (!path) continue;
      const found = await probe(path, flavourOf(path, what));
      if (!found.unusable) return { path, flavour: flavourOf(path, what), version: found.version, source: 'PATH' };
      unusable.push(`${path} (PATH) cannot render: ${found.unusable}`);
    }
    problems.push(unusable.length ? `${what}: ${unusable.join('; ')}` : `${what}: ${names.join(' or ')} not found on PATH`);
    return undefined;
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
