import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { portMapDocument } from '../../core/port-map/document';
import { nodePortBands } from '../../core/kubernetes/api-server/node-port-allocator';
import { commonFreeNodePorts, portMapsOf } from '../../core/port-map/port-map';
import { Draft, Flag, formatFlagHelp, oneOf, parseFlags, UsageError, usageErrorText } from '../flags';
import type { CliIo, Subcommand } from '../io';
import { CliOptions, LINT_FLAGS } from '../options';
import { formatFreeText, formatPortsMarkdown, formatPortsText } from '../ports-format';
import { deliverReport } from '../report-file';
import { exitTwoOnUserErrors } from '../user-errors';
import { analyzeWorkspace } from '../workspace';

const FORMATS = ['text', 'json', 'markdown'] as const;

/** Flags of the lint command that mean the same here (what to read, and how). */
// --rule too: a collision is a finding of a rule, so its severity override (or off) changes the map's collisions.
const SHARED = ['output', 'config', 'rule', 'exclude', 'stdin-filename', 'node-port-range', 'kube-proxy-mode', 'cluster', 'require-cluster', 'max-file-size', 'helm', 'kustomize', 'no-render'];

interface PortsOptions extends CliOptions {
  readonly portsFormat: (typeof FORMATS)[number];
  readonly clusterGroup?: string;
  /** `--free N`: print N free nodePorts instead of the map. */
  readonly free?: number;
}

const FLAGS: readonly Flag<Draft<PortsOptions>>[] = [
  { name: 'format', short: 'f', value: 'text|json|markdown', help: 'output format (default text; json: see docs/ports.md)', apply: (o, v) => (o.portsFormat = oneOf('format', v, FORMATS)) },
  { name: 'cluster-group', short: 'g', value: 'NAME', help: 'only this cluster group (config `clusters:` or a kustomize entry point)', apply: (o, v) => (o.clusterGroup = String(v)) },
  {
    name: 'free', value: 'N', help: 'print N free nodePorts (static band first) instead of the map;\nwith several cluster groups, ports free in every group shown',
    apply: (o, v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UsageError(`--free must be a number of ports from 1 to 65535 (got "${v}")`);
      o.free = n;
    },
  },
  ...LINT_FLAGS.filter((f) => SHARED.includes(f.name)),
  { name: 'help', short: 'h', help: 'print this help', apply: (o) => (o.help = true) },
];

const USAGE = `Usage: kube-netlint ports [options] <paths...>

Prints the node-port map of each cluster group: every port taken on the nodes (nodePort, healthCheckNodePort,
hostPort, hostNetwork port, externalIP port, node component port) by number, with its protocol, kind of claim,
owner, file:line, the nodes it applies to and its collisions; then the NodePort range's static and dynamic bands
(KEP-3668), how full each is, and the free intervals.

Options:
${formatFlagHelp(FLAGS as readonly Flag<unknown>[])}

Exit codes: 0 = printed, 1 = --free found fewer free ports than asked, 2 = usage error, bad config or unreadable path.
`;

/** `kube-netlint ports`: the node-port map (see core/port-map/) as text, JSON or Markdown, or free nodePorts. */
export const portsCommand: Subcommand = {
  name: 'ports',
  summary: 'the node-port map of each cluster group: who takes which port on the nodes, bands, free ports (--free N)',
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const options: Draft<PortsOptions> = { paths: [], format: 'text', portsFormat: 'text', failOn: 'error', rules: {}, quiet: false, exclude: [], color: 'auto', help: false, version: false };
    try {
      options.paths = parseFlags(argv, FLAGS, options, (p) => existsSync(resolve(io.cwd, p)));
      if (options.help) {
        io.stdout(USAGE);
        return 0;
      }
      if (options.paths.length === 0) throw new UsageError('no paths given');
      if (options.stdinFilename !== undefined && !options.paths.includes('-')) throw new UsageError('--stdin-filename names the manifests read from standard input: add - to the paths');
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      io.stderr(usageErrorText('kube-netlint ports', err.message));
      return 2;
    }
    return exitTwoOnUserErrors('kube-netlint ports', io, () => ports(options, io));
  },
};

async function ports(options: PortsOptions, io: CliIo): Promise<number> {
  const { analysis, config, files } = await analyzeWorkspace(options, io);
  for (const failure of analysis.failures) io.stderr(`kube-netlint ports: rule ${failure.ruleId} failed (its collisions are missing): ${failure.error.split('\n')[0]}\n`);
  let maps = portMapsOf(analysis, config);
  let models = analysis.clusterModels.size ? [...analysis.clusterModels.values()] : [analysis.model];
  if (options.clusterGroup !== undefined) {
    const names = maps.map((m) => m.group).filter((n) => n);
    if (!names.includes(options.clusterGroup)) {
      throw new UsageError(names.length
        ? `--cluster-group: no cluster group "${options.clusterGroup}" (the groups are ${names.join(', ')})`
        : `--cluster-group: the workspace is one cluster (no \`clusters:\` in the config and no kustomize entry point)`);
    }
    maps = maps.filter((m) => m.group === options.clusterGroup);
    models = [analysis.clusterModels.get(options.clusterGroup)!];
  }
  const free = options.free === undefined ? undefined : { requested: options.free, ports: commonFreeNodePorts(models, config, options.free) };
  let report: string;
  if (options.portsFormat === 'json') report = JSON.stringify(portMapDocument(maps, analysis.files, { free }), null, 2) + '\n';
  else if (free) report = options.portsFormat === 'markdown' ? free.ports.map((p) => `- ${p}\n`).join('') : formatFreeText(free.ports);
  else report = options.portsFormat === 'markdown' ? formatPortsMarkdown(portMapDocument(maps, analysis.files)) : formatPortsText(portMapDocument(maps, analysis.files));
  deliverReport(report, options.output, files, io);
  const staticEnd = models.reduce((end, m) => Math.min(end, nodePortBands(m.settings.nodePortRange.value).find((b) => b.band === 'static')?.max ?? 0), Infinity);
  const dynamic = free?.ports.filter((p) => p > staticEnd).length ?? 0;
  if (free && dynamic && free.ports.length > dynamic) io.stderr(`kube-netlint ports: the static band has only ${free.ports.length - dynamic} free nodePort${free.ports.length - dynamic === 1 ? '' : 's'}; ${dynamic === 1 ? 'the last one is' : `the last ${dynamic} are`} from the dynamic band, where the API server allocates automatic nodePorts first\n`);
  if (free && free.ports.length < free.requested) {
    io.stderr(`kube-netlint ports: only ${free.ports.length} free nodePort${free.ports.length === 1 ? '' : 's'} in the NodePort range${maps.length > 1 ? ' of every cluster group' : ''} (asked for ${free.requested})\n`);
    return 1;
  }
  return 0;
}
