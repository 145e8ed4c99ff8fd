/**
 * The analysis configuration (`.kube-netlint.yaml`, CLI flags, editor settings), validated.
 * Pure: the CLI and the language server read the file; this module only checks the value.
 */
import picomatch from 'picomatch';
import { dns1123LabelErrors, parseIpSloppy } from '../kubernetes/api-server/validation';
import { ComponentId, OPTIONAL_COMPONENTS } from '../kubernetes/node/components';

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];
export type KubeProxyMode = 'iptables' | 'ipvs' | 'nftables';
export const KUBE_PROXY_MODES: readonly KubeProxyMode[] = ['iptables', 'ipvs', 'nftables'];

/** An inclusive port range, e.g. the NodePort range 30000–32767. */
export interface PortRange {
  readonly min: number;
  readonly max: number;
}

/** A node named in the config, with its addresses (IPv4/IPv6 strings). */
export interface ConfiguredNode {
  readonly name: string;
  readonly addresses: readonly string[];
}

export interface CoreConfig {
  /** kube-apiserver `--service-node-port-range`; undefined = take it from the workspace, else 30000-32767. */
  readonly nodePortRange?: PortRange;
  /** kube-proxy mode; undefined = take it from the workspace, else unknown. */
  readonly kubeProxyMode?: KubeProxyMode;
  readonly nodes: readonly ConfiguredNode[];
  /** Namespace of objects that do not name one. */
  readonly namespace: string;
  /** Globs (picomatch, relative to the config file's folder or workspace root) of files not to lint. */
  readonly exclude: readonly string[];
  /** Rule id → severity override, or `off`. */
  readonly rules: Readonly<Record<string, Severity | 'off'>>;
  /** CNI plugins known to run in the cluster (`calico`, `cilium`, `flannel`, …), in addition to those whose manifests are in the workspace. */
  readonly cni: readonly string[];
  /** Named groups of globs, one per cluster; undefined = the workspace is one cluster. */
  readonly clusters?: Readonly<Record<string, readonly string[]>>;
  /** `render:` — what kube-netlint renders with kustomize and helm (see core/render/plan.ts). */
  readonly render?: RenderConfig;
  /** Where nodePortRange / kubeProxyMode were set (for messages), e.g. `--kube-proxy-mode flag`, `.kube-netlint.yaml`. */
  readonly settingSources?: { readonly nodePortRange?: string; readonly kubeProxyMode?: string };
}

/** `render:` in `.kube-netlint.yaml`. Paths are relative to the config file's folder. */
export interface RenderConfig {
  /** false: lint kustomize sources as written, without running kustomize. Default true. */
  readonly kustomize?: boolean;
  /** Helm releases to render; when present, replaces the default of one release per chart. */
  readonly helm?: readonly HelmReleaseConfig[];
}

/** One entry of `render.helm`. */
export interface HelmReleaseConfig {
  /** Folder with Chart.yaml. */
  readonly chart: string;
  /** Release name (default: the chart's name). */
  readonly release?: string;
  /** Release namespace (default: the config's `namespace`). */
  readonly namespace?: string;
  /** `-f` values files, in order. */
  readonly values?: readonly string[];
  /** `--set` pairs. */
  readonly set?: Readonly<Record<string, string | number | boolean>>;
  /** The cluster group the rendered objects belong to (default: every group). */
  readonly cluster?: string;
}

/** The Kubernetes default NodePort range. Source: kubernetes pkg/kubeapiserver/options/options.go (DefaultServiceNodePortRange, v1.33). */
export const DEFAULT_NODE_PORT_RANGE: PortRange = { min: 30000, max: 32767 };

export const DEFAULT_CONFIG: CoreConfig = { nodes: [], namespace: 'default', exclude: [], rules: {}, cni: [] };

/** A config value that is not valid. `key` is the dotted key; `line` (1-based) when known. */
export class ConfigError extends Error {
  constructor(readonly file: string, readonly key: string, readonly detail: string, readonly line?: number) {
    super(`${file}${line ? `:${line}` : ''}: ${key ? `'${key}': ` : ''}${detail}`);
    this.name = 'ConfigError';
  }
}

/**
 * Every problem found in one config file (at most one per top-level key, one per `rules` entry), in line order:
 * the CLI lists them all before it exits 2, so a config is not fixed one CI run per mistake. The fields of
 * ConfigError are the first problem's; `message` has one line per problem.
 */
export class ConfigErrors extends ConfigError {
  constructor(readonly errors: readonly ConfigError[]) {
    super(errors[0].file, errors[0].key, errors[0].detail, errors[0].line);
    this.message = errors.map((e) => e.message).join('\n');
    this.name = 'ConfigErrors';
  }
}

const KNOWN_KEYS = ['nodePortRange', 'kubeProxyMode', 'nodes', 'namespace', 'exclude', 'rules', 'cni', 'clusters', 'render'];

/**
 * Parses a port range as kube-apiserver reads `--service-node-port-range`: `MIN-MAX` (inclusive), `MIN+OFFSET`
 * (MIN to MIN+OFFSET) or a single port `N` (the range N-N). Source: kubernetes
 * staging/src/k8s.io/apimachinery/pkg/util/net/port_range.go (PortRange.Set, v1.33).
 * @throws Error with a readable message when the text is none of these, or not within 1 ≤ MIN ≤ MAX ≤ 65535
 */
export function parsePortRange(text: string): PortRange {
  const m = /^\s*(\d+)\s*(?:([-+])\s*(\d+)\s*)?$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a port range like 30000-32767 (or 30000+2767, or one port)`);
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[2] === '+' ? min + Number(m[3]) : Number(m[3]);
  if (min < 1 || max > 65535 || min > max) throw new Error(`"${text}" must be MIN-MAX with 1 <= MIN <= MAX <= 65535`);
  return { min, max };
}

/**
 * Validates a parsed config value (from YAML or editor settings) and fills defaults.
 * @param value the parsed document (an object, or null/undefined for an empty file)
 * @param file the file name used in error messages
 * @param lineOf maps a dotted key to its 1-based line in the file, for error messages
 * @param knownRules rule ids accepted under `rules`
 * @throws ConfigError naming the file, key and problem, for unknown keys and bad values
 */
export function parseConfig(value: unknown, file: string, knownRules: ReadonlySet<string>, lineOf: (key: string) => number | undefined = () => undefined): CoreConfig {
  if (value === null || value === undefined) return DEFAULT_CONFIG;
  const fail = (key: string, detail: string): never => {
    throw new ConfigError(file, key, detail, lineOf(key));
  };
  if (typeof value !== 'object' || Array.isArray(value)) fail('', 'the config must be a mapping of keys to values');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!KNOWN_KEYS.includes(key)) fail(key, `unknown key (known keys: ${KNOWN_KEYS.join(', ')})`);
  }
  let nodePortRange: PortRange | undefined;
  if (v.nodePortRange !== undefined) {
    if (typeof v.nodePortRange !== 'string') fail('nodePortRange', 'must be a string like "30000-32767"');
    try {
      nodePortRange = parsePortRange(v.nodePortRange as string);
    } catch (e) {
      fail('nodePortRange', (e as Error).message);
    }
  }
  const mode = v.kubeProxyMode;
  if (mode !== undefined && mode !== null && !KUBE_PROXY_MODES.includes(mode as KubeProxyMode)) {
    fail('kubeProxyMode', `must be one of ${KUBE_PROXY_MODES.join(', ')} (got ${JSON.stringify(mode)})`);
  }
  const strings = (key: string): string[] => {
    const list = v[key];
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) fail(key, 'must be a list of strings');
    return list as string[];
  };
  const nodes: ConfiguredNode[] = [];
  if (v.nodes !== undefined && v.nodes !== null) {
    if (!Array.isArray(v.nodes)) fail('nodes', 'must be a list of {name, addresses}');
    (v.nodes as unknown[]).forEach((n, i) => {
      const node = n as Record<string, unknown>;
      if (!node || typeof node !== 'object' || typeof node.name !== 'string') fail(`nodes.${i}.name`, 'each node needs a string name');
      const addresses = node.addresses ?? [];
      if (!Array.isArray(addresses) || addresses.some((a) => typeof a !== 'string')) fail(`nodes.${i}.addresses`, 'must be a list of IP address strings');
      const notIp = (addresses as string[]).findIndex((a) => !parseIpSloppy(a));
      if (notIp >= 0) fail(`nodes.${i}.addresses.${notIp}`, `"${(addresses as string[])[notIp]}" is not an IP address`);
      const extra = Object.keys(node).filter((k) => k !== 'name' && k !== 'addresses');
      if (extra.length) fail(`nodes.${i}.${extra[0]}`, 'unknown key (a node has name and addresses)');
      nodes.push({ name: node.name as string, addresses: addresses as string[] });
    });
  }
  if (v.namespace !== undefined && (typeof v.namespace !== 'string' || !v.namespace)) fail('namespace', 'must be a non-empty string');
  // ValidateNamespaceName: a DNS-1123 label, as the API server checks metadata.namespace.
  for (const detail of typeof v.namespace === 'string' ? dns1123LabelErrors(v.namespace) : []) fail('namespace', `"${v.namespace}" is not a namespace name: ${detail}`);
  const rules: Record<string, Severity | 'off'> = {};
  if (v.rules !== undefined && v.rules !== null) {
    if (typeof v.rules !== 'object' || Array.isArray(v.rules)) fail('rules', 'must map rule ids to off, error, warning, info or hint');
    for (const [id, sev] of Object.entries(v.rules as Record<string, unknown>)) {
      if (!knownRules.has(id)) fail(`rules.${id}`, `unknown rule id ("kube-netlint rules" lists them)`);
      if (sev !== 'off' && !SEVERITIES.includes(sev as Severity)) fail(`rules.${id}`, `must be off, error, warning, info or hint (got ${JSON.stringify(sev)})`);
      rules[id] = sev as Severity | 'off';
    }
  }
  let clusters: Record<string, string[]> | undefined;
  if (v.clusters !== undefined && v.clusters !== null) {
    if (typeof v.clusters !== 'object' || Array.isArray(v.clusters)) fail('clusters', 'must map cluster names to lists of globs');
    clusters = {};
    for (const [name, globs] of Object.entries(v.clusters as Record<string, unknown>)) {
      // Findings and the stderr notice name a cluster by its key: an empty one would print as nothing.
      if (!name.trim()) fail(`clusters.${name}`, 'a cluster name must not be empty (findings name the cluster they concern)');
      if (!Array.isArray(globs) || globs.some((g) => typeof g !== 'string')) fail(`clusters.${name}`, 'must be a list of glob strings');
      checkGlobs(globs as string[], `clusters.${name}`, fail);
      clusters[name] = globs as string[];
    }
  }
  const render = v.render === undefined || v.render === null ? undefined : parseRenderConfig(v.render, fail);
  return {
    ...(render ? { render } : {}),
    nodePortRange,
    kubeProxyMode: (mode ?? undefined) as KubeProxyMode | undefined,
    nodes,
    namespace: (v.namespace as string | undefined) ?? 'default',
    exclude: checkGlobs(strings('exclude'), 'exclude', fail),
    rules,
    cni: strings('cni').map((s, i) => {
      const id = s.toLowerCase();
      if (!OPTIONAL_COMPONENTS.includes(id as ComponentId)) fail(`cni.${i}`, `"${s}" is not a CNI or add-on kube-netlint knows the ports of (known: ${OPTIONAL_COMPONENTS.join(', ')})`);
      return id;
    }),
    clusters,
  };
}

const RELEASE_KEYS = ['chart', 'release', 'namespace', 'values', 'set', 'cluster'];

/** Validates `render:` (see {@link RenderConfig}); `fail` throws a ConfigError for the dotted key. */
function parseRenderConfig(value: unknown, fail: (key: string, detail: string) => never): RenderConfig {
  if (typeof value !== 'object' || Array.isArray(value)) fail('render', 'must be a mapping with kustomize and/or helm');
  const r = value as Record<string, unknown>;
  for (const key of Object.keys(r)) if (key !== 'kustomize' && key !== 'helm') fail(`render.${key}`, 'unknown key (known keys: kustomize, helm)');
  if (r.kustomize !== undefined && typeof r.kustomize !== 'boolean') fail('render.kustomize', 'must be true or false');
  let helm: HelmReleaseConfig[] | undefined;
  if (r.helm !== undefined && r.helm !== null) {
    if (!Array.isArray(r.helm)) fail('render.helm', 'must be a list of releases ({chart, release, namespace, values, set, cluster})');
    helm = (r.helm as unknown[]).map((item, i) => {
      const key = `render.helm.${i}`;
      if (!item || typeof item !== 'object' || Array.isArray(item)) fail(key, 'each release must be a mapping with at least chart');
      const e = item as Record<string, unknown>;
      for (const k of Object.keys(e)) if (!RELEASE_KEYS.includes(k)) fail(`${key}.${k}`, `unknown key (known keys: ${RELEASE_KEYS.join(', ')})`);
      if (typeof e.chart !== 'string' || !e.chart) fail(`${key}.chart`, 'must be the folder that holds Chart.yaml, relative to this file');
      for (const k of ['release', 'namespace', 'cluster']) if (e[k] !== undefined && (typeof e[k] !== 'string' || !e[k])) fail(`${key}.${k}`, 'must be a non-empty string');
      if (e.values !== undefined && (!Array.isArray(e.values) || e.values.some((x) => typeof x !== 'string'))) fail(`${key}.values`, 'must be a list of values files, relative to this file');
      const urls = ((e.values as string[] | undefined) ?? []).filter((x) => /^[a-z][a-z0-9+.-]*:\/\//i.test(x));
      if (urls.length) fail(`${key}.values`, `values files must be files of the repository, not URLs (${urls[0]}): kube-netlint never downloads`);
      if (e.set !== undefined && (typeof e.set !== 'object' || e.set === null || Array.isArray(e.set) || Object.values(e.set).some((x) => !['string', 'number', 'boolean'].includes(typeof x)))) {
        fail(`${key}.set`, 'must map value keys to strings, numbers or booleans (as --set pairs)');
      }
      const norm = (p: string): string => p.split('\\').join('/').replace(/^\.\//, '').replace(/\/$/, '') || '.';
      return {
        chart: norm(e.chart as string),
        ...(e.release ? { release: e.release as string } : {}),
        ...(e.namespace ? { namespace: e.namespace as string } : {}),
        ...(e.values ? { values: (e.values as string[]).map(norm) } : {}),
        ...(e.set ? { set: e.set as Record<string, string | number | boolean> } : {}),
        ...(e.cluster ? { cluster: e.cluster as string } : {}),
      };
    });
  }
  return { ...(r.kustomize !== undefined ? { kustomize: r.kustomize as boolean } : {}), ...(helm ? { helm } : {}) };
}

/** Globs that picomatch can compile with balanced brackets (`[` alone matches nothing the user meant); returns them. */
function checkGlobs(globs: string[], key: string, fail: (key: string, detail: string) => never): string[] {
  globs.forEach((g, i) => {
    try {
      picomatch(g, { strictBrackets: true });
    } catch (err) {
      fail(`${key}.${i}`, `"${g}" is not a valid glob: ${(err as Error).message}`);
    }
  });
  return globs;
}
