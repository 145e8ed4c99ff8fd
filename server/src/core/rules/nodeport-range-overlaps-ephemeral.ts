import { holdsNodePort } from '../kubernetes/api-server/validation';
import { escapeRegExp, narrowSpan } from './report/narrow-span';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'nodeport-range-overlaps-ephemeral';
/** Linux `net.ipv4.ip_local_port_range` default (Documentation/networking/ip-sysctl.rst). */
export const LINUX_EPHEMERAL = { min: 32768, max: 60999 } as const;

/** A configured NodePort range overlapping the Linux ephemeral port range. */
export const nodeportRangeOverlapsEphemeral: Rule = {
  id,
  title: 'NodePort range overlaps the ephemeral port range',
  severity: 'warning',
  explanation: [
    'Linux picks source ports for outgoing connections from `net.ipv4.ip_local_port_range`, by default **32768–60999**.',
    'When the NodePort range (`--service-node-port-range`, default 30000–32767, which ends just below) overlaps it, an',
    'outbound connection from a node can get a source port equal to a NodePort: the reply arrives on that port, kube-proxy',
    'DNATs it to the Service, and the connection hangs (kubernetes #111682, kops #6342). Since v1.24 kube-proxy no longer',
    'holds NodePort sockets open, so nothing prevents the kernel from choosing them. The kube-apiserver flag help itself',
    'says the range "must not overlap with the ephemeral port range on nodes".',
    '',
    'Reported on the `--service-node-port-range` flag (kube-apiserver static Pod) or kubeadm ClusterConfiguration value.',
    'When the range comes only from the kube-netlint config (no span in the workspace), each nodePort that lies in the',
    'overlap is reported instead; a config-only range with no such nodePort is not reported.',
    '',
    'Fix: reserve the overlap on every node with `net.ipv4.ip_local_reserved_ports` (e.g. `sysctl -w',
    'net.ipv4.ip_local_reserved_ports=30000-40000`), or move the NodePort range below 32768.',
  ].join('\n'),
  sources: [
    'Linux Documentation/networking/ip-sysctl.rst (ip_local_port_range default 32768 60999; ip_local_reserved_ports)',
    'kubernetes cmd/kube-apiserver/app/options/options.go (--service-node-port-range help: "must not overlap with the ephemeral port range on nodes", v1.33)',
    'https://github.com/kubernetes/kubernetes/issues/111682',
    'kubernetes CHANGELOG-1.24.md (PR #108496: kube-proxy no longer holds NodePort sockets)',
  ],
  check({ model, files }) {
    const setting = model.settings.nodePortRange;
    if (setting.source === 'default') return [];
    const { min, max } = setting.value;
    const lo = Math.max(min, LINUX_EPHEMERAL.min);
    const hi = Math.min(max, LINUX_EPHEMERAL.max);
    if (lo > hi) return [];
    const advice = `reserve them in net.ipv4.ip_local_reserved_ports or keep the range below ${LINUX_EPHEMERAL.min}`;
    const base = `the NodePort range ${min}-${max} (${setting.source}) overlaps the Linux ephemeral ports ${LINUX_EPHEMERAL.min}-${LINUX_EPHEMERAL.max}: connections from source ports in ${lo}-${hi} hang (kube-proxy takes the replies)`;
    if (setting.span) {
      // Point at the value only, not the whole `--service-node-port-range=…` word.
      const span = narrowSpan(files, setting.span, new RegExp(`(?:^|[=\\s"'])(${escapeRegExp(String(min))}\\s*[-+]\\s*\\d+)`));
      return [{ ruleId: id, severity: 'warning', message: `${base}; ${advice}`, span, related: [], fixes: [] }];
    }
    const findings: Finding[] = [];
    for (const [port, claims] of model.nodePorts) {
      if (port < lo || port > hi) continue;
      for (const claim of claims) {
        if (claim.service.origin.type === 'builtin' || !holdsNodePort(claim)) continue;
        findings.push({ ruleId: id, severity: 'warning', message: `${claim.field} ${port} is in the overlap: ${base}; ${advice}`, span: claim.span, object: refOf(claim.service), related: [], fixes: [] });
      }
    }
    return findings;
  },
};
