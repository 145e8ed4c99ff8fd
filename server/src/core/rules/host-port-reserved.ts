import { holdsNodePort } from '../kubernetes/api-server/validation';
import { idleWordsByKind, idleWorkload } from '../kubernetes/controller-manager/idle';
import type { Severity } from '../config/config';
import type { HostPortClaim, NodePortClaim } from '../model/claims';
import { describe } from '../model/objects';
import { ComponentPort, componentPortsAt, COMPONENT_PORTS, HOST_PORTS, hostPortsAt } from '../kubernetes/node/component-ports';
import { firstFitting } from '../output/fit-message';
import { runsOnControlPlane, workloadComponents } from '../kubernetes/node/components';
import { componentPortVerdict, type NodeComponents, nodeComponentsOnce } from '../kubernetes/node/component-port-verdict';
import { kubeProxyListeners, withKubeProxyListeners } from '../kubernetes/kube-proxy/listen-ports';
import { joinNames } from './report/collisions';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'host-port-reserved';

const COMPONENT_NAMES: Record<string, string> = { calico: 'Calico', cilium: 'Cilium', flannel: 'Flannel', weave: 'Weave Net', 'kube-router': 'kube-router', metallb: 'MetalLB' };

/** Severity of one table row for a claim, with the reason when it is below error. */
interface Judgement {
  readonly row: ComponentPort;
  readonly severity: Severity;
  readonly why?: string;
  /** The optional component is not in the workspace: the port is only "commonly used by" it. */
  readonly absent?: boolean;
  /** The workspace setting that turns the row's feature on, for the message. */
  readonly evidence?: string;
}

/**
 * Judges one row ({@link componentPortVerdict}, worded for a pod's or Service's claim), or returns undefined when
 * the workspace turns the row's Calico feature off (BGP with `CALICO_NETWORKING_BACKEND=vxlan`, VXLAN with
 * `CALICO_IPV4POOL_VXLAN=Never`, …): that port is free.
 */
function judge(row: ComponentPort, components: NodeComponents, onControlPlane: boolean | 'nodePort'): Judgement | undefined {
  const verdict = componentPortVerdict(row, components, Boolean(onControlPlane));
  if (!verdict) return undefined;
  if (verdict.severity === 'error') return { row, severity: 'error', evidence: verdict.evidence };
  switch (verdict.because) {
    case 'kube-proxy-replaced': return { row, severity: 'warning', why: `kube-proxy may be replaced (${verdict.evidence})` };
    case 'not-control-plane': return { row, severity: 'warning', why: 'only control-plane nodes open it and these pods do not tolerate their taint (untainted ones still collide)' };
    case 'absent': return { row, severity: 'warning', absent: true };
  }
}

/**
 * The judgements a finding reports: rows of components the workspace runs (or that are always there) win;
 * rows of absent components are kept only when nothing else is, so a port shared by Calico and kube-router
 * names only the one deployed.
 */
function reported(judgements: readonly Judgement[]): Judgement[] {
  const known = judgements.filter((j) => !j.absent);
  return known.length ? known : [...judgements];
}

const rank = (s: Severity) => ['error', 'warning', 'info', 'hint'].indexOf(s);

function rangeText(row: ComponentPort): string {
  return `${row.min === row.max ? `${row.min}` : `${row.min}-${row.max}`}/${row.protocol}`;
}

/** ` (2379-2380/TCP)` for a row spanning several ports; nothing for one port (the message names it already). */
const rowRange = (row: ComponentPort): string => (row.min === row.max ? '' : ` (${rangeText(row)})`);

function describeRows(judgements: readonly Judgement[]): string {
  return judgements.map((j) => {
    const where = j.row.scope === 'every-node' ? 'on every node' : j.row.scope === 'control-plane' ? 'on control-plane nodes'
      : j.row.feature === 'typha' ? 'on the nodes running calico-typha' : `on every ${COMPONENT_NAMES[j.row.scope]} node`;
    return `the ${j.row.component} port${rowRange(j.row)} ${where}${j.evidence ? ` (${j.evidence})` : ''}`;
  }).join(' and ');
}

/**
 * The finding on one claim: `what` (`hostPort 10250/TCP`) of `obj` is the component's port, `consequence`, and the
 * `fix` (`use another hostPort`).
 */
function finding(span: HostPortClaim['span'], obj: HostPortClaim['workload'] | NodePortClaim['service'], what: string, consequence: string, fix: string, judgements: Judgement[]): Finding {
  judgements.sort((a, b) => rank(a.severity) - rank(b.severity));
  const worst = judgements[0];
  let message: string;
  if (worst.absent) {
    // Only components the workspace does not show use the port: name them as common users, at warning level.
    const names = [...new Set(judgements.map((j) => `${j.row.component}${rowRange(j.row)}`))];
    const scopes = [...new Set(judgements.map((j) => j.row.scope))];
    const missing = joinNames(scopes.map((s) => COMPONENT_NAMES[s]));
    message = `${what} of ${describe(obj)} is commonly used by ${joinNames(names)}: where ${scopes.length > 1 ? 'one of them runs' : 'it runs'}, ${consequence}; ${fix}. ` +
      // The config key is named bare (`cni: [metallb]`): with a rendered label the full sentence ran past 300 characters.
      `Warning: ${scopes.length === 1 ? `${missing} is not` : scopes.length === 2 ? 'neither is' : 'none of them is'} in the workspace (\`cni: [${scopes.join(', ')}]\` for an error)`;
  } else {
    const why = worst.severity === 'error' ? '' : ` A warning: ${worst.why}.`;
    message = `${what} of ${describe(obj)} is ${describeRows(judgements)}: ${consequence}; ${fix}.${why}`;
  }
  return { ruleId: id, severity: worst.severity, message, span, object: refOf(obj), related: [], fixes: [] };
}

/**
 * A host-level port on a port the node's operating system serves (sshd on 22/TCP, {@link HOST_PORTS}): a warning, as
 * node images without sshd (Talos, Bottlerocket) are not affected. A hostPort is DNATed by CNI portmap for every node
 * address, so SSH to each node running the pod reaches the pod (the git-over-SSH hostPort 22 of a Git server chart,
 * say); a hostNetwork pod's bind fails where sshd holds the port.
 */
function hostServiceFinding(claim: HostPortClaim, service: string): Finding {
  const port = `${claim.port}/${claim.protocol}`;
  const portmap = Boolean(claim.containerPort.hostPort) && !claim.hostNetwork;
  const what = portmap ? `hostPort ${port}` : `hostNetwork containerPort ${port}`;
  const head = `${what} of ${describe(claim.workload)} is the node's ${service} port`;
  const message = portmap
    ? firstFitting(
      `${head}: CNI portmap takes every connection to that port on each node running the pod, so SSH to those nodes reaches the pod instead; use another hostPort (e.g. 2222). A warning: node images without ${service} are not affected`,
      `${head}: CNI portmap takes every connection to that port on each node running the pod, so SSH to those nodes reaches the pod; use another hostPort`,
    )
    : `${head}: on nodes where ${service} runs (most node images), the later bind fails ("address already in use"); use another port. A warning: node images without ${service} are not affected`;
  return { ruleId: id, severity: 'warning', message, span: claim.span, object: refOf(claim.workload), related: [], fixes: [] };
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
    '`cni` lists it; control-plane ports are an **error** for pods that run on control-plane nodes (a DaemonSet',
    'tolerating the control-plane taint, or pods selecting control-plane nodes) and for nodePorts (open on every node),',
    'a **warning** for other pods. A workload that runs no pods now (`replicas: 0`, or a CronJob or Job with',
    '`suspend: true`, `parallelism: 0` or `completions: 0`; an HPA does not scale it up from 0) gets a **warning** at most: it collides',
    'once it runs.',
    '',
    'Only components that are deployed are named. A port several components share (179: Calico BGP and kube-router',
    'BGP; 8472/UDP: Flannel and Cilium VXLAN) names the ones the workspace shows; when it shows none of them the finding',
    'is a **warning** saying the port is "commonly used by" them (list them in `cni` to make it an error).',
    '',
    'Calico ports follow Calico\'s configuration when it is in the workspace (a feature the workspace turns **off** frees',
    'its port, and the port is **not reported** — not even as info, since nothing listens there; a feature nothing',
    'configures counts as on):',
    '- BGP 179/TCP only with `CALICO_NETWORKING_BACKEND=bird` (the default) on calico-node — `vxlan` and `none` run no',
    '  BIRD — and not with the operator\'s `Installation.spec.calicoNetwork.bgp: Disabled`;',
    '- VXLAN 4789/UDP only when VXLAN is used: `CALICO_IPV4POOL_VXLAN` / `CALICO_IPV6POOL_VXLAN` `Always` or',
    '  `CrossSubnet` (default `Never`), `CALICO_NETWORKING_BACKEND=vxlan`, an `IPPool` with `vxlanMode` Always/CrossSubnet, or',
    '  Installation `ipPools[].encapsulation` `VXLAN` / `VXLANCrossSubnet` (`IPIP`, `IPIPCrossSubnet`, `None` do not);',
    '- WireGuard 51820-51821/UDP only with `FELIX_WIREGUARDENABLED=true` or FelixConfiguration `wireguardEnabled`;',
    '- Typha 5473/TCP and 9098/TCP only when a calico-typha workload is in the workspace or the operator installs',
    '  Calico (the stock calico.yaml has no Typha).',
    'Env values are read literally or through `configMapKeyRef` to a ConfigMap of the workspace (calico.yaml takes',
    '`calico_backend` from ConfigMap calico-config). The message quotes the setting that turns the feature on.',
    '',
    'The component\'s own workload is exempt (recognised by its image or container name): calico-node may use 9099 and',
    '179, kube-proxy 10256, a kube-proxy replacement the kube-proxy ports. The finding points at the `hostPort` value when',
    'written, else the `containerPort` of the hostNetwork pod, or the `nodePort`. Loopback-only listeners (kubelet healthz,',
    'kube-proxy metrics, Felix health on 127.0.0.1) are not reported for a hostPort bound to another `hostIP`.',
    '',
    'kube-proxy\'s ports follow the workspace: `healthzBindAddress` / `metricsBindAddress` of a KubeProxyConfiguration',
    '(or the one in the `kube-proxy` ConfigMap) and the `--healthz-bind-address` / `--metrics-bind-address` flags (a',
    'config file wins) move its healthz (default 0.0.0.0:10256) and metrics (127.0.0.1:10249) rows; port 0 serves none.',
    '',
    'A host-level port on 22/TCP is a **warning**: most node images run sshd there, so a hostPort takes SSH to every',
    'node running the pod (CNI portmap) and a hostNetwork pod cannot bind it; images without sshd (Talos, Bottlerocket)',
    'are not affected.',
    '',
    'Fix: pick another port (most of these components cannot move theirs without reconfiguring every node).',
    '',
    'Port table (server/src/core/kubernetes/node/component-ports.ts):',
    '',
    '| component | port | protocol | where |',
    '| --- | --- | --- | --- |',
    ...COMPONENT_PORTS.map((r) => `| ${r.component} | ${r.min === r.max ? r.min : `${r.min}-${r.max}`} | ${r.protocol} | ${r.scope} |`),
    ...HOST_PORTS.map((r) => `| ${r.component} (the node's operating system) | ${r.min === r.max ? r.min : `${r.min}-${r.max}`} | ${r.protocol} | most nodes |`),
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/reference/networking/ports-and-protocols/ (v1.33)',
    'kubernetes pkg/cluster/ports/ports.go (v1.33)',
    'https://kubernetes.io/docs/reference/config-api/kube-proxy-config.v1alpha1/ (healthzBindAddress, metricsBindAddress, v1.33)',
    'containernetworking/plugins plugins/meta/portmap/portmap_iptables.go (DNAT for --dst-type LOCAL)',
    'https://docs.tigera.io/calico/latest/getting-started/kubernetes/requirements#network-requirements',
    'https://docs.tigera.io/calico/latest/reference/configure-calico-node (CALICO_NETWORKING_BACKEND, CALICO_IPV4POOL_VXLAN, FELIX_WIREGUARDENABLED)',
    'https://docs.tigera.io/calico/latest/reference/installation/api (Installation calicoNetwork.bgp, EncapsulationType)',
    'cilium Documentation/operations/system_requirements.rst',
    'flannel Documentation/backends.md',
    ...[...new Set(COMPONENT_PORTS.map((r) => r.source))].filter((s) => !/ports-and-protocols|ports\.go \(v1\.33\)$/.test(s)),
    'https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism (parallelism 0 runs no pods, v1.31); kubernetes pkg/controller/job/job_controller.go (manageJob: no more active Pods than completions minus succeeded, so completions 0 runs none, v1.31)',
  ],
  check({ model, config }) {
    // Scanned only once a host-level port lands on a component port (the language server runs this per edit).
    const workspace = nodeComponentsOnce(model, config);
    // kube-proxy's healthz and metrics ports where the workspace's KubeProxyConfiguration or flags put them.
    let table: readonly ComponentPort[] | undefined;
    const rowsAt = (port: number, protocol: string): readonly ComponentPort[] => {
      table ??= withKubeProxyListeners(COMPONENT_PORTS, kubeProxyListeners(model.objects));
      return table === COMPONENT_PORTS ? componentPortsAt(port, protocol) : table.filter((r) => r.protocol === protocol && port >= r.min && port <= r.max);
    };
    const findings: Finding[] = [];
    for (const [port, claims] of model.hostPorts) {
      for (const claim of claims) {
        const rows = rowsAt(port, claim.protocol);
        if (rows.length === 0) {
          const host = hostPortsAt(port, claim.protocol)[0];
          if (host) findings.push(hostServiceFinding(claim, host.component));
          continue;
        }
        const components = workspace();
        const { replacement } = components;
        const own = workloadComponents(claim.workload);
        // The component's own workload (or a component sharing the port, e.g. kube-router and Calico on 179) is exempt.
        if (rows.some((r) => own.has(r.owner))) continue;
        // A hostPort bound to one node address (hostIP) does not capture traffic to a loopback-only listener.
        const boundElsewhere = !claim.hostNetwork && !['0.0.0.0', '::', '127.0.0.1', '::1'].includes(claim.hostIP);
        const relevant = rows.filter((r) => !(r.owner === 'kube-proxy' && replacement && own.has(replacement.component)) && !(r.loopbackOnly && boundElsewhere));
        if (relevant.length === 0) continue;
        const onCp = runsOnControlPlane(claim.workload);
        const judged = reported(relevant.flatMap((r) => judge(r, components, onCp) ?? []));
        if (judged.length === 0) continue;
        // A workload that runs no pods now holds nothing yet: the collision comes once it is scaled up or resumed.
        const idle = idleWorkload(claim.workload);
        const judgements = idle
          ? judged.map((j): Judgement => j.severity === 'error' ? { ...j, severity: 'warning', why: `${idleWordsByKind(claim.workload, idle)}, and collides once it runs` } : j)
          : judged;
        const what = claim.containerPort.hostPort ? `hostPort ${port}/${claim.protocol}` : `hostNetwork containerPort ${port}/${claim.protocol}`;
        const consequence = claim.containerPort.hostPort && !claim.hostNetwork
          ? 'CNI portmap takes the component\'s traffic on every node address'
          : 'the later bind fails ("address already in use")';
        const fix = claim.containerPort.hostPort ? 'use another hostPort' : 'use another port';
        findings.push(finding(claim.span, claim.workload, what, consequence, fix, judgements));
      }
    }
    const range = model.settings.nodePortRange.value;
    for (const [port, claims] of model.nodePorts) {
      if (port < range.min || port > range.max) continue;
      for (const claim of claims.filter(holdsNodePort)) {
        const rows = rowsAt(port, claim.protocol);
        if (rows.length === 0) continue;
        const judgements = reported(rows.flatMap((r) => judge(r, workspace(), 'nodePort') ?? []));
        if (judgements.length === 0) continue;
        const consequence = `the node-port range (${range.min}-${range.max}, from ${model.settings.nodePortRange.source}) includes it, and kube-proxy DNATs that port on every node address to the Service`;
        findings.push(finding(claim.span, claim.service, `${claim.field} ${port}/${claim.protocol}`, consequence, `use another ${claim.field}`, judgements));
      }
    }
    return findings;
  },
};
