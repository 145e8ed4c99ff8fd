import ipaddr from 'ipaddr.js';
import { parseIpSloppy } from '../kubernetes/api-server/validation';
import type { WorkspaceModel } from '../model/workspace-model';
import type { CoreConfig } from '../config/config';
import type { Span } from '../source/span';
import { describe } from '../model/objects';
import type { Finding, RelatedLocation, Rule } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';
import type { NodeObject } from '../model/objects';
import { ComponentPort, COMPONENT_PORTS, HostPort, HOST_PORTS } from '../kubernetes/node/component-ports';
import { componentPortVerdict, nodeComponentsOnce } from '../kubernetes/node/component-port-verdict';
import { kubeProxyListeners, withKubeProxyListeners } from '../kubernetes/kube-proxy/listen-ports';
import { firstFitting } from '../output/fit-message';

const id = 'externalip-is-node-ip';

/** A node owning an address, from a Node object in the workspace or from the config's `nodes`. */
export interface NodeAddressOwner {
  readonly node: string;
  /** `InternalIP`, `ExternalIP`, … for Node objects; `config` for the config's `nodes`. */
  readonly type: string;
  readonly span?: Span;
}

/**
 * An address in one canonical spelling (`2001:DB8:0::1` = `2001:db8::1`), read as the API server reads it:
 * `010.0.0.1` is 10.0.0.1 (ParseIPSloppy: decimal), never octal 8.0.0.1 as ipaddr.js would read it; IPv4-mapped
 * IPv6 is its IPv4 address. Non-IP text is trimmed and lower-cased.
 */
export function addressKey(address: string): string {
  const text = address.trim();
  const ip = parseIpSloppy(text);
  if (!ip) return text.toLowerCase();
  const v4 = ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
  // toString is RFC 5952 for IPv6 (`2001:db8::1`): canonical as a key, and as users write it when shown.
  return v4.toString();
}

/**
 * Node addresses by {@link addressKey}: every
 * `status.addresses` entry of the workspace's Node objects plus the config's `nodes[].addresses`.
 */
export function nodeAddressIndex(model: WorkspaceModel, config: CoreConfig): Map<string, NodeAddressOwner[]> {
  const index = new Map<string, NodeAddressOwner[]>();
  const add = (address: string, owner: NodeAddressOwner) => {
    const key = addressKey(address);
    const list = index.get(key) ?? [];
    if (!list.some((o) => o.node === owner.node)) list.push(owner);
    index.set(key, list);
  };
  for (const node of model.nodes) {
    for (const a of node.addresses) if (a.type !== 'Hostname') add(a.address.value, { node: node.name, type: a.type, span: a.address.span });
  }
  for (const node of config.nodes) for (const a of node.addresses) add(a, { node: node.name, type: 'config' });
  return index;
}

const CONTROL_PLANE_ROLES = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/** What breaks when kube-proxy takes the port of `row` on node `node`, by the listener. */
function breaks(row: ComponentPort | HostPort, node: string): string {
  if (row.scope === 'host') return `SSH to ${node} reaches the pods instead of sshd`;
  switch (row.owner) {
    case 'kubelet': return `the API server cannot reach that kubelet (kubectl logs/exec fail)`;
    case 'kube-proxy': return `health checks of ${node}'s kube-proxy are answered by the pods`;
    case 'kube-apiserver': return `clients of the API server at that address reach the pods`;
    case 'etcd': return `the API server and etcd peers cannot reach ${node}'s etcd`;
    default: return `${node}'s ${row.component} is unreachable at that address`;
  }
}

/**
 * Findings for Service ports on an externalIP that is a node's address and equal to a port that node listens on
 * (a row of COMPONENT_PORTS, kube-proxy's moved to where the workspace binds them, or sshd from HOST_PORTS): kube-proxy
 * DNATs `address:port` there to the Service, for outside traffic and the node's own (iptables: `-A KUBE-SERVICES -d
 * <externalIP> --dport <port> -j KUBE-EXT-…`, reached from PREROUTING and OUTPUT, kubernetes
 * pkg/proxy/iptables/proxier.go "Capture externalIPs", v1.33; IPVS binds the address to kube-ipvs0 and adds a
 * virtual server, pkg/proxy/ipvs/proxier.go, v1.33). Loopback-only listeners are not reached at a node address; a
 * CNI or add-on port counts only when the workspace runs that component (and does not turn its Calico feature off);
 * a control-plane port is an error only on a Node labelled control-plane; kube-proxy's ports are a warning when the
 * workspace shows a kube-proxy replacement.
 */
function portFindings(model: WorkspaceModel, config: CoreConfig, index: Map<string, NodeAddressOwner[]>): Finding[] {
  const findings: Finding[] = [];
  let table: readonly ComponentPort[] | undefined;
  const workspace = nodeComponentsOnce(model, config);
  const nodes = new Map<string, NodeObject>(model.nodes.map((n) => [n.name, n]));
  for (const [port, claims] of model.externalIPs) {
    for (const claim of claims) {
      if (claim.service.origin.type === 'builtin') continue;
      const owners = index.get(addressKey(claim.address));
      if (!owners) continue;
      table ??= withKubeProxyListeners(COMPONENT_PORTS, kubeProxyListeners(model.objects));
      const candidates: (ComponentPort | HostPort)[] = [...HOST_PORTS, ...table]
        .filter((r) => r.protocol === claim.protocol && port >= r.min && port <= r.max && !('loopbackOnly' in r && r.loopbackOnly));
      if (candidates.length === 0) continue;
      const controlPlane = owners.some((o) => CONTROL_PLANE_ROLES.some((k) => k in (nodes.get(o.node)?.nodeLabels ?? {})));
      const judged: { row: ComponentPort | HostPort; severity: 'error' | 'warning'; why?: string; short?: string }[] = [];
      for (const row of candidates) {
        if (row.scope === 'host') {
          judged.push({ row, severity: 'error' });
          continue;
        }
        // A component the workspace does not run, or a Calico feature it turns off, holds nothing to take over.
        const verdict = componentPortVerdict(row, workspace(), controlPlane);
        if (!verdict) continue;
        if (verdict.severity === 'error') judged.push({ row, severity: 'error' });
        else if (verdict.because === 'kube-proxy-replaced') judged.push({ row, severity: 'warning', why: `kube-proxy may be replaced (${verdict.evidence})`, short: 'kube-proxy may be replaced' });
        else if (verdict.because === 'not-control-plane') judged.push({ row, severity: 'warning', why: 'only if it is a control-plane node' });
      }
      if (judged.length === 0) continue;
      judged.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
      const worst = judged[0];
      const node = owners[0].node;
      const nodeNames = joinNames(owners.map((o) => `Node ${o.node}`), 3);
      const listeners = joinNames([...new Set(judged.map((j) => (j.row.scope === 'host' ? `${j.row.component}'s port` : `the ${j.row.component} port`)))]);
      const head = `${describe(claim.service)} port ${port}/${claim.protocol} on externalIP ${claim.address} (${nodeNames}) is ${listeners}: `;
      const fix = 'use another port or a VIP no node has';
      // An IPv6 address with a port is written in brackets (RFC 3986): [2001:db8::10]:22.
      const hostPort = claim.address.includes(':') ? `[${claim.address}]:${port}` : `${claim.address}:${port}`;
      // Long names and a warning's reason leave no room for everything: the node's own connections, then the
      // evidence of a kube-proxy replacement, then what breaks give way (the rule's page has them).
      const message = firstFitting(
        `${head}kube-proxy DNATs all connections to ${hostPort}, the node's own too, to the pods, so ${breaks(worst.row, node)}; ${fix}${worst.why ? `. A warning: ${worst.why}` : ''}`,
        `${head}kube-proxy DNATs all connections to ${hostPort} to the pods, so ${breaks(worst.row, node)}; ${fix}${worst.why ? `. A warning: ${worst.short ?? worst.why}` : ''}`,
        `${head}kube-proxy DNATs all connections to ${hostPort} to the pods; ${fix}${worst.why ? `. A warning: ${worst.short ?? worst.why}` : ''}`,
      );
      findings.push({
        ruleId: id,
        severity: worst.severity,
        message,
        span: claim.portSpan,
        object: refOf(claim.service),
        related: owners.filter((o) => o.span).map((o) => ({ span: o.span!, message: `address of Node ${o.node}` })),
        fixes: [],
      });
    }
  }
  return findings;
}

/** A Service externalIP equal to a node's address. */
export const externalipIsNodeIp: Rule = {
  id,
  title: 'externalIP is a node address',
  severity: 'warning',
  explanation: [
    'A Service `externalIP` that is one node\'s own address (from Node objects in the workspace, e.g. `kubectl get nodes',
    '-o yaml`, or the config\'s `nodes`) ties the Service to that one node: traffic reaches the cluster only through it,',
    'so when that node is down, drained, or its address changes (e.g. the CNI re-detects another interface after a',
    'reboot) every Service pinned there goes dark. kube-proxy also captures the node\'s own traffic to that address and',
    'port, so a host process on that port becomes unreachable.',
    '',
    '- **warning** under iptables / nftables / unknown kube-proxy mode: the Service lives and dies with that node;',
    '- **error** under **IPVS**: kube-proxy binds every externalIP to the `kube-ipvs0` dummy interface **on every node**,',
    '  so every other node treats that node\'s address as its own (local route) and can no longer reach that node at',
    '  that address (kubelet, SSH, BGP, etcd peers…).',
    '',
    'The kube-proxy mode comes from the config (`kubeProxyMode`), a `--proxy-mode` flag or the kube-proxy ConfigMap.',
    'When the kube-proxy mode is not known (no config, flag or kube-proxy ConfigMap in the workspace) the message',
    'says it would be an error under IPVS.',
    '',
    '**A port the node listens on** (a second finding, at the Service `port`): kube-proxy sends every connection to',
    '`<externalIP>:<port>` to the Service, from outside and from the node itself (iptables: a KUBE-SERVICES rule',
    '`-d <externalIP> --dport <port>` reached from PREROUTING and OUTPUT; IPVS: a virtual server on the address bound',
    'to kube-ipvs0; nftables likewise). When the externalIP is a node\'s address and the port is one that node serves,',
    'that listener is taken over: SSH (22/TCP) reaches the pods instead of sshd, the API server cannot reach the',
    'kubelet (10250: `kubectl logs` / `exec` fail), kube-proxy\'s health check (10256) answers from the pods, etcd or',
    'the API server on a control-plane node become unreachable at that address. Ports come from the node port table',
    '(see host-port-reserved) plus sshd 22/TCP, for the Service port\'s protocol (a UDP port 22 is not reported):',
    '',
    '- **error** for sshd, the kubelet and kube-proxy; a **warning** for kube-proxy\'s ports when the workspace shows a',
    '  kube-proxy replacement (Cilium, Calico eBPF, kube-router), which may not run kube-proxy;',
    '- control-plane ports (6443, 2379-2380, 10257, 10259, 10258): **error** when the Node is labelled',
    '  `node-role.kubernetes.io/control-plane` (or `master`), else a **warning** (only if it is a control-plane node);',
    '- CNI and add-on ports: **error** when the workspace runs that component (and does not turn the Calico feature',
    '  off), else not reported; loopback-only listeners (kubelet healthz, kube-proxy metrics) are not reported.',
    '',
    'Fix: use a LoadBalancer Service (MetalLB, kube-vip) or a dedicated virtual IP that is not a node address, or a',
    'NodePort with an external load balancer in front; for a taken-over port, at least use another Service port.',
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/concepts/services-networking/service/#external-ips (v1.33)',
    'kubernetes pkg/proxy/ipvs/proxier.go (defaultDummyDevice kube-ipvs0: externalIPs bound on every node, v1.33)',
    'kubernetes pkg/proxy/iptables/proxier.go (externalIP rules in KUBE-SERVICES, v1.33)',
    'kubernetes pkg/proxy/iptables/proxier.go ("Capture externalIPs": -A KUBE-SERVICES -d <externalIP> --dport <port> -j KUBE-EXT-…, v1.33)',
    'https://kubernetes.io/docs/reference/networking/ports-and-protocols/ (v1.33)',
    'OpenSSH sshd_config(5) (Port, default 22)',
  ],
  check({ model, config }) {
    const index = nodeAddressIndex(model, config);
    if (index.size === 0) return [];
    const mode = model.settings.kubeProxyMode;
    const ipvs = mode?.value === 'ipvs';
    const findings: Finding[] = [];
    for (const svc of model.services) {
      if (svc.origin.type === 'builtin') continue;
      for (const ip of svc.externalIPs) {
        const owners = index.get(addressKey(ip.value));
        if (!owners) continue;
        const names = owners.map((o) => `Node ${o.node} (${o.type === 'config' ? 'config nodes' : o.type})`);
        const consequence = ipvs
          ? `kube-proxy in IPVS mode (${mode!.source}) binds it to kube-ipvs0 on every node, so other nodes cannot reach ${owners[0].node} at it`
          : `the Service is reachable only through that node and goes dark when it is down or its address changes${mode ? '' : ' (error under IPVS)'}`;
        const related: RelatedLocation[] = owners.filter((o) => o.span).map((o) => ({ span: o.span!, message: `address of Node ${o.node}` }));
        findings.push({
          ruleId: id,
          severity: ipvs ? 'error' : 'warning',
          message: `externalIP ${ip.value} of ${describe(svc)} belongs to ${joinNames(names, 3)}: ${consequence}; use a VIP no node has`,
          span: ip.span,
          object: refOf(svc),
          related,
          fixes: [],
        });
      }
    }
    findings.push(...portFindings(model, config, index));
    return findings;
  },
};
