import type { Severity } from '../config/config';
import type { HostPortClaim, NodePortClaim } from '../model/claims';
import { describe } from '../model/objects';
import { ComponentPort, componentPortsAt, COMPONENT_PORTS } from './data/component-ports';
import { KubeProxyReplacement, kubeProxyReplacement, PresentComponents, presentComponents, runsOnControlPlane, workloadComponents } from './helpers/components';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'host-port-reserved';

const COMPONENT_NAMES: Record<string, string> = { calico: 'Calico', cilium: 'Cilium', flannel: 'Flannel', weave: 'Weave Net', 'kube-router': 'kube-router', metallb: 'MetalLB' };

/** Severity of one table row for a claim, with the reason when it is below error. */
interface Judgement {
  readonly row: ComponentPort;
  readonly severity: Severity;
  readonly why?: string;
}

function judge(row: ComponentPort, present: PresentComponents, replacement: KubeProxyReplacement | undefined, onControlPlane: boolean | 'nodePort'): Judgement {
  if (row.scope === 'every-node') {
    if (row.owner === 'kube-proxy' && replacement) return { row, severity: 'warning', why: `the workspace shows a kube-proxy replacement (${replacement.evidence}), so kube-proxy may not run` };
    return { row, severity: 'error' };
  }
  if (row.scope === 'control-plane') {
    if (onControlPlane) return { row, severity: 'error' };
    return { row, severity: 'warning', why: 'the port is open on control-plane nodes only, and these pods do not tolerate the control-plane taint (they still collide where control-plane nodes are untainted, e.g. single-node clusters)' };
  }
  const evidence = present.get(row.scope);
  if (evidence) return { row, severity: 'error' };
  return { row, severity: 'warning', why: `${COMPONENT_NAMES[row.scope]} is not in the workspace (add \`${row.scope}\` to the config's \`cni\` list if the cluster runs it, to make this an error)` };
}

const rank = (s: Severity) => ['error', 'warning', 'info', 'hint'].indexOf(s);

function describeRows(judgements: readonly Judgement[]): string {
  return judgements.map((j) => {
    const where = j.row.scope === 'every-node' ? 'on every node' : j.row.scope === 'control-plane' ? 'on control-plane nodes' : `on every ${COMPONENT_NAMES[j.row.scope]} node`;
    const range = j.row.min === j.row.max ? `${j.row.min}` : `${j.row.min}-${j.row.max}`;
    return `the ${j.row.component} port (${range}/${j.row.protocol}, ${where})`;
  }).join(' and ');
}

function finding(span: HostPortClaim['span'], obj: HostPortClaim['workload'] | NodePortClaim['service'], what: string, consequence: string, judgements: Judgement[]): Finding {
  judgements.sort((a, b) => rank(a.severity) - rank(b.severity));
  const worst = judgements[0];
  const why = worst.severity === 'error' ? '' : ` Reported as a warning because ${worst.why}.`;
  return {
    ruleId: id,
    severity: worst.severity,
    message: `${what} of ${describe(obj)} is ${describeRows(judgements)}: ${consequence}.${why}`,
    span,
    object: refOf(obj),
    related: [],
    fixes: [],
  };
}

/** A host-level port or a nodePort on a port a node component already listens on. */
export const hostPortReserved: Rule = {
  id,
  title: 'Host port reserved by a node component',
  severity: 'error',
  explanation: [
    'Node components listen on well-known ports in the node\'s own network namespace: the kubelet (10250, 10248),',
    'kube-proxy (10249, 10256), the control plane (6443, 2379-2380, 10257, 10259, 10258) and the CNI or node add-ons',
    '(Calico BGP 179, Typha 5473, Felix health 9099, VXLAN 4789/8472, WireGuard, Cilium health 4240, …). A pod that takes',
    'one of these ports on the node breaks that component or itself:',
    '',
    '- a **hostNetwork** pod binds the same socket: whichever starts second fails with "address already in use";',
    '- a **hostPort** is served by the CNI portmap plugin with DNAT rules for every local address, so traffic meant for',
    '  the component (e.g. the API server reaching the kubelet on 10250 for logs, exec and metrics) goes to the pod;',
    '- a **nodePort** (possible only when `--service-node-port-range` is widened to include the port) makes kube-proxy',
    '  DNAT that port on every node to the Service.',
    '',
    'Severity: **error** for ports open on every node of every cluster (kubelet; kube-proxy unless the workspace shows a',
    'kube-proxy replacement such as Cilium `kube-proxy-replacement`, Calico eBPF or kube-router\'s service proxy, then',
    'warning); **error** for a CNI or add-on port when that component\'s manifest is in the workspace or the config\'s',
    '`cni` lists it, **warning** otherwise; control-plane ports are an **error** for pods that run on control-plane nodes',
    '(a DaemonSet tolerating the control-plane taint, or pods selecting control-plane nodes) and for nodePorts (open on',
    'every node), a **warning** for other pods.',
    '',
    'The component\'s own workload is exempt (recognised by its image or container name): calico-node may use 9099 and',
    '179, kube-proxy 10256, a kube-proxy replacement the kube-proxy ports. The finding points at the `hostPort` value when',
    'written, else the `containerPort` of the hostNetwork pod, or the `nodePort`. Loopback-only listeners (kubelet healthz,',
    'kube-proxy metrics, Felix health on 127.0.0.1) are not reported for a hostPort bound to another `hostIP`.',
    '',
    'Fix: pick another port (most of these components cannot move theirs without reconfiguring every node).',
    '',
    'Port table (server/src/core/rules/data/component-ports.ts):',
    '',
    '| component | port | protocol | where |',
    '| --- | --- | --- | --- |',
    ...COMPONENT_PORTS.map((r) => `| ${r.component} | ${r.min === r.max ? r.min : `${r.min}-${r.max}`} | ${r.protocol} | ${r.scope} |`),
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/reference/networking/ports-and-protocols/ (v1.33)',
    'kubernetes pkg/cluster/ports/ports.go (v1.33)',
    'containernetworking/plugins plugins/meta/portmap/portmap_iptables.go (DNAT for --dst-type LOCAL)',
    'https://docs.tigera.io/calico/latest/getting-started/kubernetes/requirements#network-requirements',
    'cilium Documentation/operations/system_requirements.rst',
    'flannel Documentation/backends.md',
    ...[...new Set(COMPONENT_PORTS.map((r) => r.source))].filter((s) => !/ports-and-protocols|ports\.go \(v1\.33\)$/.test(s)),
  ],
  check({ model, config }) {
    const present = presentComponents(model.objects, config);
    const replacement = kubeProxyReplacement(model.objects);
    const findings: Finding[] = [];
    for (const [port, claims] of model.hostPorts) {
      for (const claim of claims) {
        const rows = componentPortsAt(port, claim.protocol);
        if (rows.length === 0) continue;
        const own = workloadComponents(claim.workload);
        // The component's own workload (or a component sharing the port, e.g. kube-router and Calico on 179) is exempt.
        if (rows.some((r) => own.has(r.owner))) continue;
        // A hostPort bound to one node address (hostIP) does not capture traffic to a loopback-only listener.
        const boundElsewhere = !claim.hostNetwork && !['0.0.0.0', '::', '127.0.0.1', '::1'].includes(claim.hostIP);
        const relevant = rows.filter((r) => !(r.owner === 'kube-proxy' && replacement && own.has(replacement.component)) && !(r.loopbackOnly && boundElsewhere));
        if (relevant.length === 0) continue;
        const onCp = runsOnControlPlane(claim.workload);
        const judgements = relevant.map((r) => judge(r, present, replacement, onCp));
        const what = claim.containerPort.hostPort ? `hostPort ${port}/${claim.protocol}` : `containerPort ${port}/${claim.protocol} of a hostNetwork pod`;
        const consequence = claim.containerPort.hostPort && !claim.hostNetwork
          ? 'the CNI portmap plugin DNATs that port on every node address to this pod, taking the traffic meant for the component'
          : 'the pod shares the node\'s network namespace with the component, so whichever binds second fails with "address already in use"';
        findings.push(finding(claim.span, claim.workload, what, consequence, judgements));
      }
    }
    const range = model.settings.nodePortRange.value;
    for (const [port, claims] of model.nodePorts) {
      if (port < range.min || port > range.max) continue;
      for (const claim of claims) {
        const rows = componentPortsAt(port, claim.protocol);
        if (rows.length === 0) continue;
        const judgements = rows.map((r) => judge(r, present, replacement, 'nodePort'));
        const consequence = `the node-port range (${range.min}-${range.max}, from ${model.settings.nodePortRange.source}) includes it, and kube-proxy DNATs that port on every node address to the Service`;
        findings.push(finding(claim.span, claim.service, `${claim.field} ${port}/${claim.protocol}`, consequence, judgements));
      }
    }
    return findings;
  },
};
