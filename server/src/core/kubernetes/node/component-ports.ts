import type { ComponentId } from './components';
import type { CalicoFeature } from './calico-features';

/**
 * Where a component's port is open:
 * - `every-node`: on every node of every cluster (kubelet, kube-proxy);
 * - `control-plane`: on control-plane nodes only (kube-apiserver, etcd, scheduler, controller managers);
 * - a component name (CNI or node add-on): on every node where that component runs.
 */
export type PortScope = 'every-node' | 'control-plane' | 'calico' | 'cilium' | 'flannel' | 'weave' | 'kube-router' | 'metallb';

/** One port (or inclusive range) a node component listens on. Ports are integers 1–65535. */
export interface ComponentPort {
  /** Human name used in messages, e.g. `kubelet API`. */
  readonly component: string;
  /** The component whose own workload may use the port (exempt from the rule). */
  readonly owner: ComponentId;
  readonly min: number;
  readonly max: number;
  readonly protocol: 'TCP' | 'UDP';
  readonly scope: PortScope;
  /** Where the port number comes from. */
  readonly source: string;
  /** The component listens on 127.0.0.1 only by default (a hostPort bound to another hostIP does not reach it). */
  readonly loopbackOnly?: boolean;
  /**
   * The Calico feature that opens the port (BGP, VXLAN, WireGuard, Typha): when the workspace configures the
   * feature off, the port is free (see helpers/calico-features.ts). Absent for ports open whenever the component runs.
   */
  readonly feature?: CalicoFeature;
}

const PORTS_AND_PROTOCOLS = 'https://kubernetes.io/docs/reference/networking/ports-and-protocols/ (v1.33)';
const K8S_PORTS = 'kubernetes pkg/cluster/ports/ports.go (v1.33)';
const CALICO_REQS = 'https://docs.tigera.io/calico/latest/getting-started/kubernetes/requirements#network-requirements';
const CILIUM_REQS = 'cilium Documentation/operations/system_requirements.rst (Firewall Rules, v1.16)';

const METALLB = 'metallb manifests/metallb.yaml v0.10.2 (speaker hostPorts 7472 and 7946; memberlist --ml-bindport default 7946)';
const WEAVE = 'https://www.weave.works/docs/net/latest/faq/#ports; weaveworks/weave commit ff220138 (router port 6783, control 6784)';

const row = (component: string, owner: ComponentId, ports: number | [number, number], protocol: 'TCP' | 'UDP', scope: PortScope, source: string, feature?: CalicoFeature): ComponentPort => {
  const [min, max] = typeof ports === 'number' ? [ports, ports] : ports;
  return { component, owner, min, max, protocol, scope, source, loopbackOnly: component.includes('(127.0.0.1)') || undefined, feature };
};

/** The well-known ports of node components, one row per component port, each with its source. */
export const COMPONENT_PORTS: readonly ComponentPort[] = [
  row('kubelet API', 'kubelet', 10250, 'TCP', 'every-node', `${PORTS_AND_PROTOCOLS}; ${K8S_PORTS} KubeletPort`),
  row('kubelet healthz (127.0.0.1)', 'kubelet', 10248, 'TCP', 'every-node', `${K8S_PORTS} KubeletHealthzPort`),
  row('kube-proxy metrics (127.0.0.1)', 'kube-proxy', 10249, 'TCP', 'every-node', `${K8S_PORTS} ProxyStatusPort; kubernetes pkg/proxy/apis/config/v1alpha1/defaults.go`),
  row('kube-proxy healthz', 'kube-proxy', 10256, 'TCP', 'every-node', `${PORTS_AND_PROTOCOLS}; ${K8S_PORTS} ProxyHealthzPort`),
  row('kube-apiserver', 'kube-apiserver', 6443, 'TCP', 'control-plane', PORTS_AND_PROTOCOLS),
  row('etcd client/peer', 'etcd', [2379, 2380], 'TCP', 'control-plane', PORTS_AND_PROTOCOLS),
  row('kube-scheduler', 'kube-scheduler', 10259, 'TCP', 'control-plane', `${PORTS_AND_PROTOCOLS}; kubeadm constants KubeSchedulerPort`),
  row('kube-controller-manager', 'kube-controller-manager', 10257, 'TCP', 'control-plane', `${PORTS_AND_PROTOCOLS}; ${K8S_PORTS} KubeControllerManagerPort`),
  row('cloud-controller-manager', 'cloud-controller-manager', 10258, 'TCP', 'control-plane', `${K8S_PORTS} CloudControllerManagerPort`),
  row('Calico BGP (BIRD)', 'calico', 179, 'TCP', 'calico', CALICO_REQS, 'bgp'),
  row('Calico Typha', 'calico', 5473, 'TCP', 'calico', CALICO_REQS, 'typha'),
  row('Calico VXLAN', 'calico', 4789, 'UDP', 'calico', CALICO_REQS, 'vxlan'),
  row('Calico WireGuard', 'calico', [51820, 51821], 'UDP', 'calico', CALICO_REQS, 'wireguard'),
  row('Calico Felix health (127.0.0.1)', 'calico', 9099, 'TCP', 'calico', 'calico felix/config/config_params.go HealthPort'),
  row('Calico Typha health', 'calico', 9098, 'TCP', 'calico', 'calico typha/pkg/config/config_params.go HealthPort', 'typha'),
  row('Flannel VXLAN (Linux kernel default)', 'flannel', 8472, 'UDP', 'flannel', 'flannel Documentation/backends.md (vxlan Port)'),
  row('Flannel UDP backend', 'flannel', 8285, 'UDP', 'flannel', 'flannel Documentation/backends.md (udp Port)'),
  row('Cilium health', 'cilium', 4240, 'TCP', 'cilium', CILIUM_REQS),
  row('Cilium VXLAN', 'cilium', 8472, 'UDP', 'cilium', CILIUM_REQS),
  row('Cilium Hubble server', 'cilium', 4244, 'TCP', 'cilium', CILIUM_REQS),
  row('Cilium agent metrics', 'cilium', 9962, 'TCP', 'cilium', CILIUM_REQS),
  row('Cilium WireGuard', 'cilium', 51871, 'UDP', 'cilium', CILIUM_REQS),
  row('Weave Net control', 'weave', 6783, 'TCP', 'weave', WEAVE),
  row('Weave Net data', 'weave', [6783, 6784], 'UDP', 'weave', WEAVE),
  row('kube-router BGP', 'kube-router', 179, 'TCP', 'kube-router', 'kube-router pkg/options/options.go DefaultBgpPort = 179 (v1.6)'),
  row('kube-router health', 'kube-router', 20244, 'TCP', 'kube-router', 'https://kube-router.io/docs/health/ (--health-port, default 20244)'),
  row('MetalLB speaker memberlist', 'metallb', 7946, 'TCP', 'metallb', METALLB),
  row('MetalLB speaker memberlist', 'metallb', 7946, 'UDP', 'metallb', METALLB),
  row('MetalLB speaker metrics', 'metallb', 7472, 'TCP', 'metallb', `${METALLB} (--port=7472)`),
];

/**
 * Ports the node's operating system listens on, outside Kubernetes: sshd on 22/TCP on most node images (not on
 * every one: Talos or Bottlerocket run none). Not in {@link COMPONENT_PORTS}, which lists what Kubernetes and its
 * add-ons open (host-port-reserved and the port map read that table); rules that judge traffic to one node's own
 * address (externalip-is-node-ip) read both.
 */
export const HOST_PORTS: readonly HostPort[] = [
  { component: 'sshd', min: 22, max: 22, protocol: 'TCP', scope: 'host', source: 'OpenSSH sshd_config(5) (Port, default 22); IANA service name ssh 22/tcp' },
];

/** A port the node's operating system listens on (see {@link HOST_PORTS}): no Kubernetes component owns it. */
export type HostPort = Omit<ComponentPort, 'owner' | 'feature' | 'loopbackOnly' | 'scope'> & { readonly scope: 'host' };

/** The rows of {@link HOST_PORTS} covering `port` with `protocol` (ports are integers 1–65535, ranges inclusive). */
export function hostPortsAt(port: number, protocol: string): readonly HostPort[] {
  return HOST_PORTS.filter((r) => r.protocol === protocol && port >= r.min && port <= r.max);
}

/** Port number → rows covering it, built once. */
const BY_PORT: ReadonlyMap<number, readonly ComponentPort[]> = (() => {
  const map = new Map<number, ComponentPort[]>();
  for (const r of COMPONENT_PORTS) {
    for (let p = r.min; p <= r.max; p++) map.set(p, [...(map.get(p) ?? []), r]);
  }
  return map;
})();

/** Rows of {@link COMPONENT_PORTS} covering `port` with `protocol` (TCP/UDP/SCTP, upper case). */
export function componentPortsAt(port: number, protocol: string): readonly ComponentPort[] {
  return (BY_PORT.get(port) ?? []).filter((r) => r.protocol === protocol);
}
