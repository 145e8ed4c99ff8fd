import { parseYamlValue as parseYaml } from '../../load/parse-documents';
import type { K8sObject, WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import { flagValue } from '../../model/cluster-settings';
import type { Span } from '../../source/span';
import { containerComponent, workloadComponents } from '../node/components';

/** kube-proxy's `ipvs.strictARP` as the workspace sets it, with where. */
export interface StrictArpSetting {
  readonly value: boolean;
  readonly source: string;
  /** The value's span (KubeProxyConfiguration field, flag word, or the ConfigMap's embedded config). */
  readonly span?: Span;
  /** True when `span` is exactly the boolean value (a quick fix may replace it). */
  readonly exact: boolean;
  /** The object that sets it. */
  readonly object: K8sObject;
}

/** The kube-proxy container of a workload (image `kube-proxy`, hyperkube `proxy`, or container name), if any. */
export function kubeProxyContainer(w: WorkloadObject) {
  // The per-workload answer is cached: most workloads run no kube-proxy, and the image parsing is not free.
  if (!workloadComponents(w).has('kube-proxy')) return undefined;
  return w.pod.containers.find((c) => containerComponent(c) === 'kube-proxy');
}

/**
 * strictARP from KubeProxyConfiguration `ipvs.strictARP`, the kube-proxy ConfigMap's embedded config
 * (`config.conf`), or the `--ipvs-strict-arp` flag (a bare flag means true); undefined when none is
 * written (the default is false). Source: https://kubernetes.io/docs/reference/config-api/kube-proxy-config.v1alpha1/
 * (KubeProxyIPVSConfiguration.strictARP) and kube-proxy flags (v1.33).
 */
export function strictArpSetting(objects: readonly K8sObject[]): StrictArpSetting | undefined {
  for (const obj of objects) {
    if (obj.kind === 'KubeProxyConfiguration') {
      const v = ((obj.raw.ipvs ?? {}) as Record<string, unknown>).strictARP;
      if (typeof v === 'boolean') return { value: v, source: obj.name ? describe(obj) : obj.kind, span: obj.paths?.get('ipvs.strictARP'), exact: true, object: obj };
    }
    if (obj.kind === 'ConfigMap' && obj.name === 'kube-proxy') {
      for (const [key, text] of Object.entries((obj.raw.data ?? {}) as Record<string, unknown>)) {
        if (typeof text !== 'string') continue;
        let v: unknown;
        try {
          v = ((parseYaml(text) as Record<string, any> | null)?.ipvs ?? {}).strictARP;
        } catch {
          continue; // not YAML: not a kube-proxy config file
        }
        if (typeof v === 'boolean') return { value: v, source: `${describe(obj)} (${key})`, span: obj.paths?.get(`data.${key}`), exact: false, object: obj };
      }
    }
    if (obj.category === 'workload' && kubeProxyContainer(obj)) {
      for (const c of obj.pod.containers) {
        const bare = [...c.command, ...c.args].find((w) => /(^|\s)--ipvs-strict-arp(\s|$)/.test(w.value));
        if (bare) return { value: true, source: `--ipvs-strict-arp flag in ${describe(obj)}`, span: bare.span, exact: false, object: obj };
      }
      const flag = flagValue(obj, '--ipvs-strict-arp');
      if (flag) return { value: flag.value === 'true', source: `--ipvs-strict-arp flag in ${describe(obj)}`, span: flag.span, exact: false, object: obj };
    }
  }
  return undefined;
}

/** MetalLB in the workspace, with whether layer 2 mode is shown and the object to point at. */
export interface MetalLbPresence {
  readonly layer2: boolean;
  readonly evidence: string;
  readonly span: Span;
}

/**
 * MetalLB evidence: `L2Advertisement` (metallb.io), the legacy `config` ConfigMap with `protocol: layer2`
 * (MetalLB < v0.13), the speaker DaemonSet (image `metallb/speaker`). Layer 2 evidence wins.
 */
export function metalLb(objects: readonly K8sObject[]): MetalLbPresence | undefined {
  let other: MetalLbPresence | undefined;
  for (const obj of objects) {
    if (obj.kind === 'L2Advertisement' && obj.group === 'metallb.io') return { layer2: true, evidence: describe(obj), span: obj.span };
    if (obj.kind === 'ConfigMap' && obj.namespace === 'metallb-system' && obj.name === 'config') {
      const text = ((obj.raw.data ?? {}) as Record<string, unknown>).config;
      if (typeof text === 'string' && legacyLayer2(text)) return { layer2: true, evidence: `${describe(obj)} (protocol: layer2)`, span: obj.span };
    }
    if (!other && obj.category === 'workload' && obj.pod.containers.some((c) => containerComponent(c) === 'metallb')) {
      other = { layer2: false, evidence: `MetalLB speaker ${describe(obj)}`, span: obj.span };
    }
  }
  return other;
}

/**
 * True when a legacy MetalLB config (the `config` key of ConfigMap metallb-system/config, MetalLB < v0.13) has an
 * address pool with `protocol: layer2`. The embedded YAML is parsed, so a commented-out line does not count.
 * Source: https://metallb.universe.tf/configuration/ (v0.12: `address-pools: [{name, protocol, addresses}]`).
 */
function legacyLayer2(text: string): boolean {
  let config: unknown;
  try {
    config = parseYaml(text);
  } catch {
    return false; // not YAML: MetalLB would not read it either
  }
  const pools = (config as Record<string, unknown> | null)?.['address-pools'];
  return Array.isArray(pools) && pools.some((p) => (p as Record<string, unknown> | null)?.protocol === 'layer2');
}
