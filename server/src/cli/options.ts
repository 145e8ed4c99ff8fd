import { existsSync } from 'node:fs';
import { KUBE_PROXY_MODES, KubeProxyMode, parsePortRange, PortRange, SEVERITIES, Severity } from '../core/config/config';
import { ruleIds } from '../core/rules/index';
import { Draft, Flag, formatFlagHelp, oneOf, parseFlags, UsageError } from './flags';

export { UsageError } from './flags';

export const OUTPUT_FORMATS = ['text', 'json', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const COLOR_MODES = ['auto', 'always', 'never'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

/** What a lint run was asked to do (the default command: `kube-netlint [options] <paths...>`). */
export interface CliOptions {
  readonly paths: string[];
  readonly format: OutputFormat;
  readonly config?: string;
  readonly nodePortRange?: PortRange;
  readonly kubeProxyMode?: KubeProxyMode;
  readonly failOn: Exclude<Severity, 'hint'>;
  /** `--max-file-size` in bytes (Infinity for `0`: no limit); undefined = the default, 16 MiB. */
  readonly maxFileBytes?: number;
  /** `--cluster [CONTEXT]`: '' = the kubeconfig's current-context; undefined = workspace only. */
  readonly cluster?: string;
  /** `--require-cluster`: exit 2 unless every list of the live cluster was read (implies `--cluster`). */
  readonly requireCluster?: boolean;
  /** `--helm PATH` / `--kustomize PATH`: renderer binaries (default: KUBE_NETLINT_HELM / KUBE_NETLINT_KUSTOMIZE, else PATH). */
  readonly helm?: string;
  readonly kustomize?: string;
  /** `--no-render`: lint kustomize and Helm sources as written, run no renderer. */
  readonly noRender?: boolean;
  /** `--rule ID=SEVERITY`, in command-line order (the last one of an id wins); wins over the config's `rules`. */
  readonly rules: Readonly<Record<string, Severity | 'off'>>;
  /** `--quiet`: report errors only (warnings still count for `--max-warnings`, as in eslint). */
  readonly quiet: boolean;
  /** `--exclude GLOB`: picomatch globs relative to the working directory, added to the config's `exclude`. */
  readonly exclude: readonly string[];
  /** `--output FILE`: write the report there instead of standard output. */
  readonly output?: string;
  /** `--stdin-filename NAME`: the file name findings in `-` (standard input) carry. */
  readonly stdinFilename?: string;
  /** `--cache`: reuse the parse cache of unchanged files (eslint's flag). */
  readonly cache?: boolean;
  /** `--cache-location PATH`: the cache file, or a folder for it (default `.kube-netlintcache` in the working directory). */
  readonly cacheLocation?: string;
  /** `--max-warnings N`: exit 1 when more than N warnings are found; undefined = no limit. */
  readonly maxWarnings?: number;
  readonly color: ColorMode;
  readonly help: boolean;
  readonly version: boolean;
}

function defaultOptions(): Draft<CliOptions> {
  return { paths: [], format: 'text', failOn: 'error', rules: {}, quiet: false, exclude: [], color: 'auto', help: false, version: false };
}

/** The flags of the lint command, in `--help` order. Add a flag here: the parser and the help follow. */
export const LINT_FLAGS: readonly Flag<Draft<CliOptions>>[] = [
  {
    name: 'format', short: 'f', value: 'text|json|sarif', help: 'output format (default text)',
    apply: (o, v) => (o.format = oneOf('format', v, OUTPUT_FORMATS)),
  },
  { name: 'output', short: 'o', value: 'FILE', help: 'write the report to FILE instead of standard output', apply: (o, v) => (o.output = String(v)) },
  {
    name: 'config', short: 'c', value: 'FILE', help: 'config file (default: .kube-netlint.yaml in the linted folder or above)',
    apply: (o, v) => (o.config = String(v)),
  },
  {
    name: 'rule', value: 'ID=SEVERITY', repeatable: true,
    help: 'set a rule to off|error|warning|info|hint, wins over the config (ids: kube-netlint rules)',
    apply: (o, v) => {
      const [id, severity] = parseRuleFlag(String(v));
      o.rules = { ...o.rules, [id]: severity };
    },
  },
  { name: 'exclude', value: 'GLOB', repeatable: true, help: 'skip files matching GLOB (picomatch, relative to the working directory)', apply: (o, v) => (o.exclude = [...o.exclude, String(v)]) },
  { name: 'quiet', short: 'q', help: 'report errors only', apply: (o) => (o.quiet = true) },
  {
    name: 'fail-on', value: 'error|warning|info', help: 'exit 1 when a finding at or above this severity exists (default error)',
    apply: (o, v) => (o.failOn = oneOf('fail-on', v, ['error', 'warning', 'info'] as const)),
  },
  {
    name: 'max-warnings', value: 'N', help: 'exit 1 when more than N warnings are found (default: no limit)',
    apply: (o, v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < -1) throw new UsageError(`--max-warnings must be a whole number of warnings, -1 for no limit (got "${v}")`);
      o.maxWarnings = n < 0 ? undefined : n;
    },
  },
  {
    name: 'stdin-filename', value: 'NAME', help: 'file name of the manifests read from - (findings, config lookup and SARIF use it)',
    apply: (o, v) => (o.stdinFilename = String(v)),
  },
  {
    name: 'color', value: 'auto|always|never', bareValue: 'always',
    help: 'colour the text report (bare --color: always; default auto: on a terminal, unless\nNO_COLOR is set; FORCE_COLOR=1 turns it on, FORCE_COLOR=0 off)',
    apply: (o, v) => (o.color = oneOf('color', v, COLOR_MODES)),
  },
  { name: 'no-color', help: 'no colour (the same as --color never)', apply: (o) => (o.color = 'never') },
  {
    name: 'node-port-range', value: 'MIN-MAX', help: 'NodePort range, inclusive (default: config, workspace kube-apiserver, 30000-32767)',
    apply: (o, v) => {
      try {
        o.nodePortRange = parsePortRange(String(v));
      } catch (err) {
        throw new UsageError(`--node-port-range: ${(err as Error).message}`);
      }
    },
  },
  {
    name: 'kube-proxy-mode', value: 'MODE', help: 'iptables | ipvs | nftables (default: config, workspace kube-proxy, unknown)',
    apply: (o, v) => {
      if (!KUBE_PROXY_MODES.includes(v as KubeProxyMode)) throw new UsageError(`--kube-proxy-mode must be one of ${KUBE_PROXY_MODES.join(', ')} (got "${v}")`);
      o.kubeProxyMode = v as KubeProxyMode;
    },
  },
  {
    name: 'cluster', value: 'CONTEXT', optionalValue: true,
    help: 'also read the live cluster of a kubeconfig context (default: current-context;\nkubeconfig from KUBECONFIG or ~/.kube/config; read-only, 5 s timeout)',
    apply: (o, v) => (o.cluster = String(v)),
  },
  {
    name: 'require-cluster', help: 'exit 2 when the live cluster cannot be read whole (unreachable, untrusted, credentials\nrefused, a list forbidden); implies --cluster (current-context unless given)',
    apply: (o) => {
      o.requireCluster = true;
      o.cluster ??= '';
    },
  },
  {
    name: 'max-file-size', value: 'MIB', help: 'skip files (and standard input) larger than this, with a file-skipped finding (default 16; 0: no limit)',
    apply: (o, v) => {
      const mib = Number(v);
      if (!(mib >= 0)) throw new UsageError(`--max-file-size must be a number of MiB, 0 for no limit (got "${v}")`);
      o.maxFileBytes = mib === 0 ? Infinity : mib * 1024 * 1024;
    },
  },
  { name: 'helm', value: 'PATH', help: 'helm binary that renders charts (default: KUBE_NETLINT_HELM, else helm on PATH)', apply: (o, v) => (o.helm = String(v)) },
  {
    name: 'kustomize', value: 'PATH', help: 'kustomize or kubectl binary that renders overlays (default: KUBE_NETLINT_KUSTOMIZE,\nelse kustomize, else kubectl on PATH)',
    apply: (o, v) => (o.kustomize = String(v)),
  },
  { name: 'no-render', help: 'lint kustomize and Helm sources as written: run neither helm nor kustomize', apply: (o) => (o.noRender = true) },
  { name: 'cache', help: 'keep each file\'s parsed objects in a cache and reuse them while the file is unchanged', apply: (o) => (o.cache = true) },
  {
    name: 'cache-location', value: 'PATH', help: 'the cache file, or a folder for it (default .kube-netlintcache in the working directory)',
    apply: (o, v) => (o.cacheLocation = String(v)),
  },
  { name: 'version', short: 'v', help: 'print the version', apply: (o) => (o.version = true) },
  { name: 'help', short: 'h', help: 'print this help', apply: (o) => (o.help = true) },
];

/**
 * `ID=SEVERITY` of `--rule`.
 * @throws UsageError for a missing `=`, an unknown rule id or severity
 */
function parseRuleFlag(text: string): [string, Severity | 'off'] {
  const eq = text.lastIndexOf('=');
  if (eq <= 0) throw new UsageError(`--rule takes ID=SEVERITY, e.g. --rule hostport-usage=off (got "${text}")`);
  const id = text.slice(0, eq).trim();
  const severity = text.slice(eq + 1).trim();
  if (!ruleIds.has(id)) throw new UsageError(`--rule: unknown rule id "${id}" (\`kube-netlint rules\` lists them)`);
  if (severity !== 'off' && !SEVERITIES.includes(severity as Severity)) throw new UsageError(`--rule ${id}: severity must be off, error, warning, info or hint (got "${severity}")`);
  return [id, severity as Severity | 'off'];
}

/** `--help` of the lint command; `commands` is the `Commands:` block (see commands/index.ts). */
export function lintUsage(commands: string): string {
  return `Usage: kube-netlint [options] <paths...>
       kube-netlint <command> [options]

Lints Kubernetes manifests (*.yaml, *.yml and Kubernetes *.json, recursively; quoted globs too) for networking mistakes.
Use - as a path to read manifests from standard input (e.g. helm template ... | kube-netlint -).
A first argument that names a command runs it; lint a folder of that name as ./NAME.

Commands:
${commands}

Options:
${formatFlagHelp(LINT_FLAGS as readonly Flag<unknown>[])}

Exit codes: 0 = no finding at or above --fail-on (and at most --max-warnings warnings), 1 = some,
2 = usage error, bad config, a path that does not exist or cannot be listed, or a rule that crashed
(a file that cannot be read is a file-skipped error: exit 1).
`;
}

/**
 * Parses the lint command's argv (without node, script and command name).
 * @param pathExists tells whether a word after a bare `--cluster` is a path to lint rather than a context
 * @throws UsageError for unknown options and bad values
 */
export function parseCliOptions(argv: readonly string[], pathExists: (p: string) => boolean = existsSync): CliOptions {
  const options = defaultOptions();
  options.paths = parseFlags(argv, LINT_FLAGS, options, pathExists);
  if (options.stdinFilename !== undefined && !options.paths.includes('-')) {
    throw new UsageError('--stdin-filename names the manifests read from standard input: add - to the paths');
  }
  return options;
}
