import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { takeClusterFlag } from '../cluster/cluster-flag';
import { KUBE_PROXY_MODES, KubeProxyMode, parsePortRange, PortRange, Severity } from '../core/config/config';

export type OutputFormat = 'text' | 'json' | 'sarif';

export interface CliOptions {
  readonly paths: string[];
  readonly format: OutputFormat;
  readonly config?: string;
  readonly nodePortRange?: PortRange;
  readonly kubeProxyMode?: KubeProxyMode;
  readonly failOn: Exclude<Severity, 'hint'>;
  readonly maxFileBytes?: number;
  /** `--helm PATH` / `--kustomize PATH`: renderer binaries (default: KUBE_NETLINT_HELM / KUBE_NETLINT_KUSTOMIZE, else PATH). */
  readonly helm?: string;
  readonly kustomize?: string;
  /** `--no-render`: lint kustomize and Helm sources as written, run no renderer. */
  readonly noRender?: boolean;
  /** `--cluster [CONTEXT]`: '' = the kubeconfig's current-context; undefined = workspace only. */
  readonly cluster?: string;
  readonly help: boolean;
  readonly version: boolean;
}

/** A command-line mistake: printed on stderr, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: kube-netlint [options] <paths...>

Lints Kubernetes manifests (*.yaml, *.yml, recursively) for networking mistakes.
Use - as a path to read manifests from standard input (e.g. helm template ... | kube-netlint -).

Options:
  --format text|json|sarif       output format (default text)
  --config FILE                  config file (default: .kube-netlint.yaml in the linted folder or above)
  --node-port-range MIN-MAX      NodePort range, inclusive (default: config, workspace kube-apiserver, 30000-32767)
  --kube-proxy-mode MODE         iptables | ipvs | nftables (default: config, workspace kube-proxy, unknown)
  --fail-on error|warning|info   exit 1 when a finding at or above this severity exists (default error)
  --cluster [CONTEXT]            also read the live cluster of a kubeconfig context (default: current-context;
                                 kubeconfig from KUBECONFIG or ~/.kube/config; read-only, 5 s timeout)
  --max-file-size MIB            skip files larger than this (default: no limit)
  --helm PATH                    helm binary for rendering charts (default: KUBE_NETLINT_HELM, else helm on PATH)
  --kustomize PATH               kustomize (or kubectl) binary for overlays (default: KUBE_NETLINT_KUSTOMIZE, else
                                 kustomize or kubectl on PATH)
  --no-render                    lint kustomize and Helm sources as written; run no renderer
  --version                      print the version
  --help                         print this help

Exit codes: 0 = no finding at or above --fail-on, 1 = some, 2 = usage error or unreadable path.
`;

/**
 * Parses argv (without node and script).
 * @throws UsageError for unknown options and bad values
 */
export function parseCliOptions(rawArgv: readonly string[], pathExists: (p: string) => boolean = existsSync): CliOptions {
  const { argv, cluster } = takeClusterFlag(rawArgv, pathExists);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv as string[],
      allowPositionals: true,
      options: {
        format: { type: 'string', short: 'f' },
        config: { type: 'string', short: 'c' },
        'node-port-range': { type: 'string' },
        'kube-proxy-mode': { type: 'string' },
        'fail-on': { type: 'string' },
        'max-file-size': { type: 'string' },
        helm: { type: 'string' },
        kustomize: { type: 'string' },
        'no-render': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  const format = (v.format ?? 'text') as OutputFormat;
  if (!['text', 'json', 'sarif'].includes(format)) throw new UsageError(`--format must be text, json or sarif (got "${v.format}")`);
  let nodePortRange: PortRange | undefined;
  if (v['node-port-range'] !== undefined) {
    try {
      nodePortRange = parsePortRange(v['node-port-range']);
    } catch (err) {
      throw new UsageError(`--node-port-range: ${(err as Error).message}`);
    }
  }
  const mode = v['kube-proxy-mode'];
  if (mode !== undefined && !KUBE_PROXY_MODES.includes(mode as KubeProxyMode)) throw new UsageError(`--kube-proxy-mode must be one of ${KUBE_PROXY_MODES.join(', ')} (got "${mode}")`);
  const failOn = (v['fail-on'] ?? 'error') as CliOptions['failOn'];
  if (!['error', 'warning', 'info'].includes(failOn)) throw new UsageError(`--fail-on must be error, warning or info (got "${v['fail-on']}")`);
  let maxFileBytes: number | undefined;
  if (v['max-file-size'] !== undefined) {
    const mib = Number(v['max-file-size']);
    if (!(mib > 0)) throw new UsageError(`--max-file-size must be a positive number of MiB (got "${v['max-file-size']}")`);
    maxFileBytes = mib * 1024 * 1024;
  }
  return {
    paths: parsed.positionals,
    format,
    config: v.config,
    nodePortRange,
    kubeProxyMode: mode as KubeProxyMode | undefined,
    failOn,
    maxFileBytes,
    ...(v.helm !== undefined ? { helm: v.helm } : {}),
    ...(v.kustomize !== undefined ? { kustomize: v.kustomize } : {}),
    ...(v['no-render'] ? { noRender: true } : {}),
    cluster,
    help: v.help ?? false,
    version: v.version ?? false,
  };
}
