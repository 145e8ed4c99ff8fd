import { parseYamlValue as parseYaml } from '../load/parse-documents';
import type { Span } from '../source/span';
import { CoreConfig, DEFAULT_NODE_PORT_RANGE, KubeProxyMode, KUBE_PROXY_MODES, parsePortRange, PortRange } from '../config/config';
import type { K8sObject, WorkloadObject } from './objects';

/** A cluster-wide setting with where it came from, so messages can say why a rule assumed it. */
export interface Sourced<T> {
  readonly value: T;
  /** Human description: `default`, `config`, `kube-apiserver flag in Pod kube-system/kube-apiserver`, … */
  readonly source: string;
  readonly span?: Span;
}

export interface ClusterSettings {
  readonly nodePortRange: Sourced<PortRange>;
  /** undefined when neither config nor workspace says. */
  readonly kubeProxyMode?: Sourced<KubeProxyMode>;
  /** NodePort ranges written in the workspace that kube-apiserver cannot parse, in object order (none: empty or absent). */
  readonly invalidNodePortRanges?: readonly InvalidSetting[];
}

/** A cluster setting written in an object that the component refuses; `nodePortRange` then comes from elsewhere. */
export interface InvalidSetting {
  /** The value as written (a number or boolean shown as YAML writes it). */
  readonly text: string;
  /** Which setting of which object: `--service-node-port-range in Pod kube-system/kube-apiserver`. */
  readonly where: string;
  /** What is wrong and what the component does with it. */
  readonly problem: string;
  /** How to write it instead: `write MIN-MAX, e.g. 30000-32767`, `quote it`. */
  readonly fix: string;
  /** The value's span (a flag: the command word holding it). */
  readonly span?: Span;
  readonly object: K8sObject;
}

/** A `--flag=value` or `--flag value` in a container's command/args. */
export function flagValue(workload: WorkloadObject, flag: string): { value: string; span: Span; container: string } | undefined {
  for (const c of workload.pod.containers) {
    const words = [...c.command, ...c.args];
    for (let i = 0; i < words.length; i++) {
      const w = words[i].value.trim();
      // Shell-style commands (`sh -c "kube-proxy --proxy-mode=ipvs ..."`) are one word: search inside.
      const m = new RegExp(`(?:^|\\s)${flag}(?:=|\\s+)("?)([^\\s"]+)\\1`).exec(w);
      if (m) return { value: m[2], span: words[i].span, container: c.name };
      if (w === flag && i + 1 < words.length) return { value: words[i + 1].value.trim(), span: words[i + 1].span, container: c.name };
    }
  }
  return undefined;
}

/**
 * Effective NodePort range and kube-proxy mode. The config wins; otherwise the workspace's
 * kube-apiserver (static Pod flag `--service-node-port-range`, kubeadm ClusterConfiguration
 * `apiServer.extraArgs`) and kube-proxy (KubeProxyConfiguration `mode`, the kube-proxy ConfigMap's
 * `config.conf`, the `--proxy-mode` flag) are read. Sources: kube-apiserver flags
 * (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-apiserver/, v1.33),
 * kube-proxy config (https://kubernetes.io/docs/reference/config-api/kube-proxy-config.v1alpha1/).
 */
export function deriveClusterSettings(objects: readonly K8sObject[], config: CoreConfig): ClusterSettings {
  const from = config.settingSources ?? {};
  let range: Sourced<PortRange> | undefined = config.nodePortRange ? { value: config.nodePortRange, source: from.nodePortRange ?? 'config' } : undefined;
  let mode: Sourced<KubeProxyMode> | undefined = config.kubeProxyMode ? { value: config.kubeProxyMode, source: from.kubeProxyMode ?? 'config' } : undefined;
  const invalid: InvalidSetting[] = [];
  // Every object is read (no early exit): an unparsable range anywhere is reported, not skipped.
  for (const obj of objects) {
    const found = nodePortRangeFrom(obj);
    if (found && 'problem' in found) invalid.push(found);
    else if (found && !range) range = found;
    if (!mode) mode = proxyModeFrom(obj);
  }
  return { nodePortRange: range ?? { value: DEFAULT_NODE_PORT_RANGE, source: 'default' }, kubeProxyMode: mode, ...(invalid.length ? { invalidNodePortRanges: invalid } : {}) };
}

/**
 * The NodePort range one object sets, or why kube-apiserver cannot use it. An empty value is no range (kube-apiserver
 * then uses the default). Parsing follows kube-apiserver's PortRange.Set (see {@link parsePortRange}); a value it
 * rejects fails flag parsing (`invalid argument "…" for "--service-node-port-range" flag`) and kube-apiserver exits.
 */
function nodePortRangeFrom(obj: K8sObject): Sourced<PortRange> | InvalidSetting | undefined {
  const parse = (text: string, source: string, where: string, span: Span | undefined, consequence: string): Sourced<PortRange> | InvalidSetting | undefined => {
    if (text.trim() === '') return undefined;
    try {
      return { value: parsePortRange(text), source, span };
    } catch (err) {
      return { text, where, problem: `${(err as Error).message}: ${consequence}`, fix: 'write MIN-MAX, e.g. 30000-32767', span, object: obj };
    }
  };
  if (obj.category === 'workload' && obj.pod.containers.some((c) => /kube-apiserver/.test(c.name + (c.image?.value ?? '')))) {
    const flag = flagValue(obj, '--service-node-port-range');
    const name = `${obj.kind} ${obj.namespace}/${obj.name}`;
    if (flag) return parse(flag.value, `kube-apiserver flag in ${name}`, `--service-node-port-range in ${name}`, flag.span, 'kube-apiserver exits at start');
  }
  if (obj.kind === 'ClusterConfiguration') {
    const extra = (obj.raw.apiServer as Record<string, unknown> | undefined)?.extraArgs;
    let value: unknown;
    let path = 'apiServer.extraArgs.service-node-port-range';
    if (Array.isArray(extra)) {
      // kubeadm v1beta4: extraArgs is a list of {name, value}.
      const i = extra.findIndex((a) => (a as Record<string, unknown> | null)?.name === 'service-node-port-range');
      value = i >= 0 ? (extra[i] as Record<string, unknown>).value : undefined;
      path = `apiServer.extraArgs.${i}.value`;
    } else if (extra && typeof extra === 'object') {
      value = (extra as Record<string, unknown>)['service-node-port-range'];
    }
    const where = 'service-node-port-range in kubeadm ClusterConfiguration apiServer.extraArgs';
    if (typeof value === 'string') return parse(value, 'kubeadm ClusterConfiguration', where, obj.paths?.get(path), 'its kube-apiserver exits at start');
    if (typeof value === 'number' || typeof value === 'boolean') {
      return { text: String(value), where, problem: `${value} is a ${typeof value}, not a string: kubeadm refuses the ClusterConfiguration (extraArgs values are strings)`, fix: 'quote it', span: obj.paths?.get(path), object: obj };
    }
  }
  return undefined;
}

/**
 * kube-proxy's mode from one object. An empty or absent `mode` in a kube-proxy configuration means the
 * platform default, iptables on Linux (kubeadm writes `mode: ""`); the same holds for a kube-proxy
 * container that has neither `--proxy-mode` nor a `--config` file. Source: kube-proxy config API
 * (https://kubernetes.io/docs/reference/config-api/kube-proxy-config.v1alpha1/, `mode`, v1.33) and
 * kubernetes pkg/proxy/apis/config/v1alpha1/defaults.go.
 */
function proxyModeFrom(obj: K8sObject): Sourced<KubeProxyMode> | undefined {
  const asMode = (v: unknown): KubeProxyMode | undefined => (KUBE_PROXY_MODES.includes(v as KubeProxyMode) ? (v as KubeProxyMode) : undefined);
  const fromConfig = (config: Record<string, unknown> | null | undefined, source: string, span?: Span): Sourced<KubeProxyMode> | undefined => {
    if (!config || typeof config !== 'object') return undefined;
    // Only a file that says it is a KubeProxyConfiguration is known to leave the mode to its default.
    if (config.mode === undefined || config.mode === null || config.mode === '') {
      return config.kind === 'KubeProxyConfiguration' ? { value: 'iptables', source: `${source} (mode not set: the Linux default)`, span } : undefined;
    }
    const m = asMode(config.mode);
    return m ? { value: m, source, span } : undefined;
  };
  if (obj.kind === 'KubeProxyConfiguration') {
    return fromConfig(obj.raw, 'KubeProxyConfiguration', obj.paths?.get('mode') ?? obj.span);
  }
  if (obj.kind === 'ConfigMap' && obj.name === 'kube-proxy') {
    const data = (obj.raw.data ?? {}) as Record<string, unknown>;
    for (const [key, text] of Object.entries(data)) {
      if (typeof text !== 'string') continue;
      try {
        const found = fromConfig(parseYaml(text) as Record<string, unknown> | null, `ConfigMap ${obj.namespace}/kube-proxy`, obj.paths?.get(`data.${key}`));
        if (found) return found;
      } catch {
        // Not YAML: not a kube-proxy config file.
      }
    }
  }
  if (obj.category === 'workload' && obj.pod.containers.some((c) => /kube-proxy/.test(c.name + (c.image?.value ?? '')))) {
    const flag = flagValue(obj, '--proxy-mode');
    const m = flag && asMode(flag.value);
    if (m && flag) return { value: m, source: `--proxy-mode flag in ${obj.kind} ${obj.namespace}/${obj.name}`, span: flag.span };
    if (!flag && !flagValue(obj, '--config')) {
      return { value: 'iptables', source: `${obj.kind} ${obj.namespace}/${obj.name} (no --proxy-mode and no --config: the Linux default)`, span: obj.span };
    }
  }
  return undefined;
}
