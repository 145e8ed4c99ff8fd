import type { Container, K8sObject, WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import { containerComponent, memoOnComponentEvidence } from './components';

/** Calico features that open a port on every Calico node (see data/component-ports.ts `feature`). */
export type CalicoFeature = 'bgp' | 'vxlan' | 'wireguard' | 'typha';

/** What the workspace says about one feature: on, off, or unknown (nothing in the workspace configures it). */
export interface FeatureState {
  readonly enabled: boolean;
  /** `CALICO_NETWORKING_BACKEND=vxlan in DaemonSet kube-system/calico-node`. */
  readonly evidence: string;
}

export type CalicoFeatures = ReadonlyMap<CalicoFeature, FeatureState>;

const ON_MODES = new Set(['always', 'crosssubnet', 'cross-subnet']);
const truthy = (v: string | undefined): boolean => v !== undefined && /^(true|1|yes)$/i.test(v.trim());

/**
 * The Calico features the workspace configures, from:
 * - a calico-node container (manifest install): `CALICO_NETWORKING_BACKEND` (`bird`, the default, runs BIRD and BGP
 *   on 179; `vxlan` disables BIRD/BGP and uses VXLAN; `none` is policy-only: neither BGP nor VXLAN),
 *   `CALICO_IPV4POOL_VXLAN` / `CALICO_IPV6POOL_VXLAN` (VXLAN 4789/UDP only when `Always` or `CrossSubnet`; default
 *   `Never`), `FELIX_WIREGUARDENABLED` (default false). Values may be literal or a `configMapKeyRef` to a ConfigMap
 *   of the workspace (the stock calico.yaml reads `calico_backend` from ConfigMap calico-config);
 * - Typha only when a calico-typha workload is in the workspace (the stock calico.yaml ships without it): with a
 *   calico-node workload and no Typha, Typha is off;
 * - tigera-operator `Installation`: `spec.calicoNetwork.bgp: Disabled`, `spec.calicoNetwork.ipPools[].encapsulation`
 *   (VXLAN / VXLANCrossSubnet use 4789; IPIP / IPIPCrossSubnet / None do not; IPIP when unset); the operator always
 *   deploys Typha;
 * - `IPPool` (`spec.vxlanMode` Always / CrossSubnet) and `FelixConfiguration` (`spec.wireguardEnabled`, `wireguardEnabledV6`).
 * A feature that one source turns on is on; a feature is off only when a source turns it off and none turns it on;
 * features nothing mentions are absent from the map (unknown: the rule treats them as on).
 * Sources: https://docs.tigera.io/calico/latest/reference/configure-calico-node (environment variables),
 * https://docs.tigera.io/calico/latest/reference/installation/api (Installation, EncapsulationType),
 * https://docs.tigera.io/calico/latest/getting-started/kubernetes/requirements#network-requirements.
 */
export function calicoFeatures(objects: readonly K8sObject[]): CalicoFeatures {
  return calicoFeaturesMemo(objects, undefined);
}
const calicoFeaturesMemo = memoOnComponentEvidence((objects: readonly K8sObject[]): CalicoFeatures => {
  const votes = new Map<CalicoFeature, FeatureState[]>();
  const vote = (f: CalicoFeature, enabled: boolean, evidence: string) => votes.set(f, [...(votes.get(f) ?? []), { enabled, evidence }]);
  let calicoNode: string | undefined;
  // The ConfigMaps themselves, their `data` read only when a reference names one (a loaded file's `raw` is parsed when first read).
  const configMaps = new Map<string, K8sObject>();
  for (const o of objects) if (o.kind === 'ConfigMap' && o.group === '') configMaps.set(`${o.namespace}/${o.name}`, o);
  for (const o of objects) {
    const raw = (): Record<string, any> => o.raw;
    if (o.category === 'workload') {
      for (const c of o.pod.containers) {
        if (containerComponent(c) !== 'calico') continue;
        if (isTypha(c)) { vote('typha', true, describe(o)); continue; }
        if (c.role === 'init') continue;
        calicoNode ??= describe(o);
        nodeContainerVotes(o, c, (name) => envValue(o, c, name, configMaps), vote);
      }
    } else if (o.kind === 'Installation' && o.group === 'operator.tigera.io') {
      const net = raw().spec?.calicoNetwork ?? {};
      vote('typha', true, describe(o));
      // WireGuard is a FelixConfiguration setting, off by default (a FelixConfiguration turning it on wins).
      vote('wireguard', false, `wireguardEnabled not set in a FelixConfiguration next to ${describe(o)}`);
      if (net.bgp === 'Disabled' || net.bgp === 'Enabled') vote('bgp', net.bgp === 'Enabled', `calicoNetwork.bgp: ${net.bgp} in ${describe(o)}`);
      if (Array.isArray(net.ipPools) && net.ipPools.length) {
        const modes = net.ipPools.map((p: any) => String(p?.encapsulation ?? 'IPIP'));
        vote('vxlan', modes.some((m: string) => m.startsWith('VXLAN')), `ipPools encapsulation ${[...new Set(modes)].join(', ')} in ${describe(o)}`);
      }
    } else if (o.kind === 'IPPool' && typeof raw().spec?.vxlanMode === 'string') {
      vote('vxlan', ON_MODES.has(raw().spec.vxlanMode.toLowerCase()), `vxlanMode: ${raw().spec.vxlanMode} in ${describe(o)}`);
    } else if (o.kind === 'FelixConfiguration' && (raw().spec?.wireguardEnabled !== undefined || raw().spec?.wireguardEnabledV6 !== undefined)) {
      vote('wireguard', raw().spec.wireguardEnabled === true || raw().spec.wireguardEnabledV6 === true, `wireguardEnabled in ${describe(o)}`);
    }
  }
  // The stock calico.yaml ships without Typha: with calico-node in the workspace and no Typha, Typha is off.
  if (calicoNode && !votes.has('typha')) vote('typha', false, `no calico-typha workload next to ${calicoNode}`);
  const out = new Map<CalicoFeature, FeatureState>();
  for (const [f, list] of votes) out.set(f, list.find((s) => s.enabled) ?? list[0]);
  return out;
});

function isTypha(c: Container): boolean {
  return /(^|\/)typha(:|@|$)/.test(c.image?.value ?? '') || c.name === 'calico-typha';
}

/** Votes of one calico-node container's environment (defaults as documented for calico/node). */
function nodeContainerVotes(w: WorkloadObject, c: Container, env: (name: string) => string | undefined, vote: (f: CalicoFeature, on: boolean, evidence: string) => void): void {
  const where = `in ${describe(w)}`;
  const backend = (env('CALICO_NETWORKING_BACKEND') ?? 'bird').trim().toLowerCase();
  const backendText = `CALICO_NETWORKING_BACKEND=${backend}${env('CALICO_NETWORKING_BACKEND') === undefined ? ' (the default)' : ''} ${where}`;
  vote('bgp', backend === 'bird', backendText);
  if (backend === 'vxlan' || backend === 'none') vote('vxlan', backend === 'vxlan', backendText);
  else {
    const pools = ['CALICO_IPV4POOL_VXLAN', 'CALICO_IPV6POOL_VXLAN'].map((n) => [n, env(n) ?? 'Never'] as const);
    const on = pools.find(([, v]) => ON_MODES.has(v.trim().toLowerCase()));
    vote('vxlan', !!on, on ? `${on[0]}=${on[1]} ${where}` : `CALICO_IPV4POOL_VXLAN=${pools[0][1]} ${where}`);
  }
  const wg = env('FELIX_WIREGUARDENABLED');
  vote('wireguard', truthy(wg), `FELIX_WIREGUARDENABLED=${wg ?? 'false (the default)'} ${where}`);
}

/**
 * An environment variable of a container: the literal `value`, else a `valueFrom.configMapKeyRef` resolved
 * against the ConfigMaps of the workspace (same namespace); undefined when unset or unresolved.
 */
function envValue(w: WorkloadObject, c: Container, name: string, configMaps: ReadonlyMap<string, K8sObject>): string | undefined {
  const literal = c.env.find((e) => e.name === name);
  if (literal?.value) return literal.value.value;
  let spec: any = w.raw;
  for (const key of w.pod.path.split('.')) spec = spec?.[key];
  const list = c.role === 'container' ? spec?.containers : spec?.initContainers;
  const entry = Array.isArray(list?.[c.index]?.env) ? list[c.index].env.find((e: any) => e?.name === name) : undefined;
  const ref = entry?.valueFrom?.configMapKeyRef;
  if (!ref || typeof ref.name !== 'string' || typeof ref.key !== 'string') return undefined;
  const configMap = configMaps.get(`${w.namespace}/${ref.name}`);
  const value = configMap && ((configMap.raw.data ?? {}) as Record<string, unknown>)[ref.key];
  return typeof value === 'string' ? value : undefined;
}
