import ipaddr from 'ipaddr.js';
import { parseIpSloppy } from '../kubernetes/api-server/validation';
import type { WorkspaceModel } from '../model/workspace-model';
import type { CoreConfig } from '../config/config';
import type { Span } from '../source/span';
import { describe } from '../model/objects';
import type { Finding, RelatedLocation, Rule } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';

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
    'Fix: use a LoadBalancer Service (MetalLB, kube-vip) or a dedicated virtual IP that is not a node address, or a',
    'NodePort with an external load balancer in front.',
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/concepts/services-networking/service/#external-ips (v1.33)',
    'kubernetes pkg/proxy/ipvs/proxier.go (defaultDummyDevice kube-ipvs0: externalIPs bound on every node, v1.33)',
    'kubernetes pkg/proxy/iptables/proxier.go (externalIP rules in KUBE-SERVICES, v1.33)',
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
    return findings;
  },
};
