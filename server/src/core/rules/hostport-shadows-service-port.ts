import type { Severity } from '../config/config';
import type { ServicePortClaim } from '../model/claims';
import { describe, ServiceObject } from '../model/objects';
import { portPhrase, removeHostPortFix, runningClaims } from './helpers/host-level-ports';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'hostport-shadows-service-port';
const RANK: Record<Severity, number> = { hint: 0, info: 1, warning: 2, error: 3 };

/** True for a Service that has a ClusterIP: not headless (`clusterIP: None`) and not ExternalName. */
export function hasClusterIP(svc: ServiceObject): boolean {
  return svc.type.value !== 'ExternalName' && svc.clusterIP?.value !== 'None';
}

/**
 * Severity for one shadowed Service: kube-proxy IPVS makes every ClusterIP a local address, so the
 * hijack is real (error for another Service, warning for the pod's own Service); iptables/nftables
 * do not (info); unknown mode: warning / info.
 */
function severityFor(mode: string | undefined, own: boolean): Severity {
  if (mode === 'ipvs') return own ? 'warning' : 'error';
  if (mode === 'iptables' || mode === 'nftables') return 'info';
  return own ? 'info' : 'warning';
}

/** A hostPort (pod not hostNetwork) equal to the `port` of a Service with a ClusterIP. */
export const hostportShadowsServicePort: Rule = {
  id,
  title: 'hostPort shadows a Service port',
  severity: 'error',
  explanation: [
    'A `hostPort` is implemented by the CNI **portmap** plugin: a DNAT rule in the nat table entered from PREROUTING',
    "and OUTPUT with `-m addrtype --dst-type LOCAL`, i.e. for **any address local to the node**, not only the node's",
    'own IP. With kube-proxy in **IPVS** mode every ClusterIP is bound to the dummy interface `kube-ipvs0` on every',
    'node, so ClusterIPs are local addresses too: a connection from that node (host processes and pods on it) to',
    '`<any ClusterIP>:<hostPort>` can be DNATed by portmap to the hostPort pod instead of being load-balanced by IPVS.',
    'It happens whenever portmap\'s rules come before kube-proxy\'s: portmap ≤0.7.4 (CVE-2019-9946), kube-proxy without',
    "the ACCEPT for IPVS VIPs (kubernetes PR #62718), kube-router's IPVS service proxy (cloudnativelabs/kube-router #612,",
    '#638), or portmap and kube-proxy on different iptables backends (siderolabs/talos #9223, 2024). Reports: kubernetes',
    '#60305 and #66103 (an ingress DaemonSet with hostPort 443 answered `10.96.0.1:443` instead of the API server),',
    '#61938, #60688 (own Service: IPVS round-robin bypassed from the node), containernetworking/plugins #222,',
    'aws/amazon-vpc-cni-k8s #499.',
    '',
    'Severity depends on the kube-proxy mode (config `kubeProxyMode`, or read from the workspace):',
    '- IPVS: **error** when the Service is another one — the MySQL story (case s3): db-b publishes hostPort 3306, and',
    "  clients on db-b's node that connect to db-a's ClusterIP log in to db-b, the wrong database; **warning** when the",
    '  hostPort pod is itself a backend of the Service (load balancing is bypassed from that node).',
    '- iptables / nftables: **info** — ClusterIPs are not local addresses, portmap does not match them; it becomes a',
    '  hijack if the cluster moves to IPVS.',
    '- unknown: **warning** for another Service, **info** for its own; set `kubeProxyMode` to make it exact.',
    '',
    'Only hostPorts on all addresses (no `hostIP`) are reported: portmap adds `-d <hostIP>` for a specific hostIP.',
    'hostNetwork pods are not concerned (portmap serves only CNI pods). Headless and ExternalName Services have no',
    'ClusterIP. The implicit Service `default/kubernetes` (443/TCP) is included. Protocols must match.',
    '',
    'Fix: remove the hostPort (reach the pod through a Service) or choose a hostPort no Service uses as its `port`.',
  ].join('\n'),
  sources: [
    'containernetworking/plugins plugins/meta/portmap/portmap_iptables.go (CNI-HOSTPORT-DNAT, --dst-type LOCAL, -d hostIP)',
    'kubernetes pkg/proxy/ipvs/proxier.go (ClusterIPs bound to kube-ipvs0, v1.33)',
    'https://github.com/kubernetes/kubernetes/issues/60305',
    'https://github.com/kubernetes/kubernetes/issues/66103',
    'https://github.com/kubernetes/kubernetes/issues/60688',
    'https://github.com/cloudnativelabs/kube-router/issues/612',
    'https://github.com/kubernetes/kubernetes/pull/62718',
    'https://github.com/containernetworking/plugins/issues/222',
    'CVE-2019-9946 (https://github.com/containernetworking/plugins/pull/269)',
    'https://github.com/siderolabs/talos/issues/9223',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    const mode = model.settings.kubeProxyMode;
    for (const [port, claims] of model.hostPorts) {
      const servicePorts = model.servicePorts.get(port);
      if (!servicePorts) continue;
      for (const h of runningClaims(claims)) {
        if (h.hostNetwork || h.hostIP !== '0.0.0.0') continue;
        const shadowed = uniqueServices(servicePorts.filter((sp) => sp.protocol === h.protocol && hasClusterIP(sp.service)));
        if (!shadowed.length) continue;
        const own = new Set(model.selectingServices(h.workload));
        const rated = shadowed.map((sp) => ({ sp, own: own.has(sp.service), severity: severityFor(mode?.value, own.has(sp.service)) })).sort((a, b) => Number(a.own) - Number(b.own));
        const severity = rated.reduce<Severity>((s, r) => (RANK[r.severity] > RANK[s] ? r.severity : s), 'hint');
        const names = listNames(rated.map((r) => `${describe(r.sp.service)}${r.own ? ' (this pod\'s own Service)' : ''}`));
        const anyOther = rated.some((r) => !r.own);
        findings.push({
          ruleId: id,
          severity,
          message: `${portPhrase(h)} equals ClusterIP port ${port}/${h.protocol} of ${names}: ${effect(mode?.value, mode?.source, port, anyOther)}`,
          span: h.span,
          object: refOf(h.workload),
          related: rated.filter((r) => r.sp.service.origin.type !== 'builtin').map((r) => ({ span: r.sp.span, message: `port ${port}/${r.sp.protocol} of ${describe(r.sp.service)}` })),
          fixes: removeHostPortFix(h, 'stop shadowing the Service port'),
        });
      }
    }
    return findings;
  },
};

/** One port claim per Service; variants of one Service (same identity, e.g. base and overlay) count once. */
function uniqueServices(ports: readonly ServicePortClaim[]): ServicePortClaim[] {
  const seen = new Set<string>();
  return ports.filter((sp) => !seen.has(sp.service.identity) && !!seen.add(sp.service.identity));
}

/** At most four names in the message; the related locations list every Service. */
function listNames(names: readonly string[]): string {
  return names.length <= 4 ? names.join(', ') : `${names.slice(0, 4).join(', ')} and ${names.length - 4} more`;
}

function effect(mode: string | undefined, source: string | undefined, port: number, anyOther: boolean): string {
  const hijack = `the CNI portmap DNAT (--dst-type LOCAL) can catch connections from this pod's node to those ClusterIPs on ${port} and send them to this pod${anyOther ? ', so clients on that node reach the wrong backend' : ', bypassing load balancing from that node'}`;
  if (mode === 'ipvs') return `under kube-proxy IPVS (${source}) every ClusterIP is a local address on each node (kube-ipvs0), so ${hijack}`;
  if (mode) return `harmless under kube-proxy ${mode} (${source}), where ClusterIPs are not local addresses; under IPVS ${hijack}`;
  return `the kube-proxy mode is unknown: under IPVS, where every ClusterIP is a local address, ${hijack}; under iptables or nftables it is harmless (set kubeProxyMode to be exact)`;
}
