import type { Severity } from '../config/config';
import type { HostPortClaim, ServicePortClaim } from '../model/claims';
import { describe, ServiceObject, WorkloadObject } from '../model/objects';
import { claimLabel, portPhrase } from './report/claim-labels';
import { removeHostPortFix } from './fixes/host-port-fixes';
import { runningClaims } from '../kubernetes/scheduler/host-ports';
import { serviceProxyMode } from '../kubernetes/kube-proxy/service-proxy-mode';
import type { Finding, Rule } from './rule';
import { idleWordsByKind, idleWorkload, idleWords } from '../kubernetes/controller-manager/idle';
import { refOf } from './rule';
import { cappedRelated, collisionSummary, fitNames, joinNames, splitSides } from './report/collisions';
import { firstFitting } from '../output/fit-message';

const id = 'hostport-shadows-service-port';
const RANK: Record<Severity, number> = { hint: 0, info: 1, warning: 2, error: 3 };

/** True for a Service that has a ClusterIP: not headless (`clusterIP: None`) and not ExternalName. */
export function hasClusterIP(svc: ServiceObject): boolean {
  return svc.type.value !== 'ExternalName' && svc.clusterIP?.value !== 'None';
}

/**
 * How a shadowed Service relates to the hostPort pod: `other` (the pod is not its backend), `own` (the pod
 * is a backend and the Service port targets the very containerPort the hostPort maps to: only load
 * balancing is bypassed), `misrouted` (the pod is a backend, but the Service port's targetPort is another
 * containerPort, or a name this pod does not declare: portmap delivers the traffic to the wrong port).
 */
type Relation = 'other' | 'own' | 'misrouted';

/**
 * Severity for one shadowed Service: kube-proxy IPVS makes every ClusterIP a local address, so the
 * hijack is real (error for another Service or a misrouted own Service, warning for the pod's own Service
 * on the right port); iptables/nftables do not (info); unknown mode: warning / info.
 */
function severityFor(mode: string | undefined, relation: Relation): Severity {
  const own = relation === 'own';
  if (mode === 'ipvs') return own ? 'warning' : 'error';
  if (mode === 'iptables' || mode === 'nftables') return 'info';
  return own ? 'info' : 'warning';
}

/** What a Service port's targetPort means in this pod: the containerPort it resolves to, if any. */
interface TargetInPod {
  /** `webhook`, `8443`: the targetPort as written (the Service `port` when targetPort is absent). */
  readonly text: string;
  /** The containerPort (1–65535) it resolves to in this pod; undefined for a name the pod does not declare. */
  readonly containerPort?: number;
}

/**
 * Resolves a Service port's targetPort against the hostPort pod the way the endpoints controller does:
 * a number is the container port itself; a name is looked up by name **and** protocol among the ports of
 * the regular containers and restartable init containers (sidecars); absent, 0 or '' means the Service
 * `port`. Source: kubernetes pkg/api/v1/pod/util.go FindPort (v1.33).
 */
export function targetInPod(sp: ServicePortClaim, workload: WorkloadObject): TargetInPod {
  const raw = sp.servicePort.targetPort?.value;
  if (typeof raw === 'number' && raw > 0) return { text: String(raw), containerPort: raw };
  if (typeof raw !== 'string' || raw === '') return { text: String(sp.port), containerPort: sp.port };
  const protocol = sp.protocol.toUpperCase();
  for (const c of workload.pod.containers) {
    if (c.role === 'init') continue;
    const p = c.ports.find((cp) => cp.name?.value === raw && cp.protocol.value.toUpperCase() === protocol && cp.containerPort);
    if (p) return { text: raw, containerPort: p.containerPort!.value };
  }
  return { text: raw };
}

/** Relation of a shadowed Service to the claim's pod (see {@link Relation}). */
function relationOf(sp: ServicePortClaim, h: HostPortClaim, own: ReadonlySet<ServiceObject>): { relation: Relation; target?: TargetInPod } {
  if (!own.has(sp.service)) return { relation: 'other' };
  const mapped = h.containerPort.containerPort?.value;
  const target = targetInPod(sp, h.workload);
  // Without a containerPort the hostPort maps to nothing knowable: keep the milder reading.
  if (mapped === undefined || target.containerPort === mapped) return { relation: 'own', target };
  return { relation: 'misrouted', target };
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
    'Severity depends on the kube-proxy mode (config `kubeProxyMode`, or read from the workspace; without one, a',
    "kube-router DaemonSet with its service proxy on, the default, counts as IPVS: it binds ClusterIPs to kube-dummy-if):",
    '- IPVS: **error** when the Service is another one — the MySQL story: db-b publishes hostPort 3306, and',
    "  clients on db-b's node that connect to db-a's ClusterIP log in to db-b, the wrong database; **warning** when the",
    '  hostPort pod is itself a backend of the Service and the Service port\'s `targetPort` is the containerPort the',
    '  hostPort maps to (load balancing is bypassed from that node, the traffic still reaches the right port);',
    '  **error** again when the pod is a backend but the `targetPort` (a number, or a name resolved against this pod\'s',
    '  containers by name and protocol, as the endpoints controller does) is **another** containerPort, or a name the',
    '  pod does not declare: portmap sends `ClusterIP:port` to the containerPort of the hostPort, not to the targetPort.',
    '  The ingress-nginx case: ports `https` (containerPort 9443, hostPort 9443) and `webhook` (containerPort 8443), and',
    '  Service `ing-admission` port 9443 with `targetPort: webhook` — admission requests from that node reach the HTTPS',
    '  listener on 9443 instead of the webhook on 8443. The message names both containerPorts.',
    '- iptables / nftables: **info** — ClusterIPs are not local addresses, portmap does not match them; it becomes a',
    '  hijack if the cluster moves to IPVS.',
    '- unknown: **warning** for another Service or a misrouted own Service, **info** for its own Service on the right',
    '  port; set `kubeProxyMode` to make it exact.',
    '- a workload that runs no pods now (`replicas: 0`, or a CronJob or Job with `suspend: true`,',
    '  `parallelism: 0` or `completions: 0`; an HPA does not scale it up from 0): **warning** at most, saying so — nothing is shadowed',
    '  until it runs.',
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
    'kubernetes pkg/api/v1/pod/util.go FindPort (named targetPort resolved by name and protocol, v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism (parallelism 0 runs no pods, v1.31); kubernetes pkg/controller/job/job_controller.go (manageJob: no more active Pods than completions minus succeeded, so completions 0 runs none, v1.31)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    // kube-router's service proxy is IPVS-based: ClusterIPs are local addresses there too.
    const mode = serviceProxyMode(model.settings.kubeProxyMode, model.objects);
    for (const [port, claims] of model.hostPorts) {
      const servicePorts = model.servicePorts.get(port);
      if (!servicePorts) continue;
      const shadowedBy = new Map<string, ServicePortClaim[]>();
      const shadowedFor = (protocol: string): ServicePortClaim[] => {
        let found = shadowedBy.get(protocol);
        if (!found) shadowedBy.set(protocol, (found = uniqueServices(servicePorts.filter((sp) => sp.protocol === protocol && hasClusterIP(sp.service)))));
        return found;
      };
      const hosts = runningClaims(claims).filter((h) => !h.hostNetwork && h.hostIP === '0.0.0.0' && shadowedFor(h.protocol).length > 0);
      // Thousands of hostPort pods on one port: the first one by one, the others in one summary.
      const { shown, rest } = splitSides(hosts);
      findings.push(...collisionSummary(hostportShadowsServicePort, rest.map((h) => ({ span: h.span, label: claimLabel(h), object: h.workload })), `hostPort ${port}`, hosts.length, severityFor(mode?.value, 'other')));
      for (const h of shown) {
        const shadowed = shadowedFor(h.protocol);
        const own = new Set(model.selectingServices(h.workload));
        const rated = shadowed
          .map((sp) => ({ sp, ...relationOf(sp, h, own) }))
          .map((r) => ({ ...r, severity: severityFor(mode?.value, r.relation) }))
          .sort((a, b) => ORDER[a.relation] - ORDER[b.relation]);
        const worst = rated.reduce<Severity>((s, r) => (RANK[r.severity] > RANK[s] ? r.severity : s), 'hint');
        // A workload that runs no pods now shadows nothing yet: at most a warning, said so.
        const idle = idleWorkload(h.workload);
        const severity = idle && worst === 'error' ? 'warning' : worst;
        const names = rated.map((r) => `${describe(r.sp.service)}${r.relation === 'other' ? '' : ' (its own)'}`);
        const render = (when: string, what = effect(mode, h, rated)) => fitNames((max) => `${portPhrase(h)} is ClusterIP port ${port} of ${joinNames(names, max)}: ${when}${what}`);
        // Long names leave room for the idle workload's kind only (the finding's object names it), then for the
        // effect without its details (the mode's source, the containerPort, the consequence).
        const byKind = idle && `${idleWordsByKind(h.workload, idle)}; once it runs, `;
        const message = idle
          ? firstFitting(render(`${idleWords(describe(h.workload), idle)}; once it runs, `), render(byKind!), render(byKind!, shortEffect(mode, consequence(rated))), render(byKind!, shortEffect(mode)))
          : render('');
        findings.push({
          ruleId: id,
          severity,
          message,
          span: h.span,
          object: refOf(h.workload),
          related: cappedRelated(rated.filter((r) => r.sp.service.origin.type !== 'builtin'), (r) => ({ span: r.sp.span, message: `port ${port}/${r.sp.protocol} of ${describe(r.sp.service)}` })),
          fixes: removeHostPortFix(h, 'stop shadowing the Service port'),
        });
      }
    }
    return findings;
  },
};

/** {@link effect} in the fewest words: the mode without its source, the pod without its containerPort, `what` when given. */
function shortEffect(mode: { value: string } | undefined, what?: string): string {
  const sends = `portmap sends its traffic to this pod${what ? `, ${what}` : ''}`;
  return mode && mode.value !== 'ipvs' ? `harmless under kube-proxy ${mode.value}; under IPVS ${sends}` : `under IPVS ${sends}; remove the hostPort`;
}

/** One port claim per Service; variants of one Service (same identity, e.g. base and overlay) count once. */
function uniqueServices(ports: readonly ServicePortClaim[]): ServicePortClaim[] {
  const seen = new Set<string>();
  return ports.filter((sp) => !seen.has(sp.service.identity) && !!seen.add(sp.service.identity));
}


const ORDER: Record<Relation, number> = { other: 0, misrouted: 1, own: 2 };

/**
 * What goes wrong: the wrong backend (another Service); else the wrong container port (the first misrouted own
 * Service; the others are in the related locations); else no load balancing (only its own Service, right port).
 */
function consequence(rated: readonly { sp: ServicePortClaim; relation: Relation; target?: TargetInPod }[]): string {
  if (rated.some((r) => r.relation === 'other')) return 'the wrong backend';
  const misrouted = rated.find((x) => x.relation === 'misrouted');
  if (!misrouted) return 'bypassing load balancing';
  const t = misrouted.target!;
  const meant = t.containerPort === undefined
    ? `targetPort ${t.text} (not declared for ${misrouted.sp.protocol})`
    : t.text === String(t.containerPort) ? `targetPort ${t.text}` : `targetPort ${t.text} (containerPort ${t.containerPort})`;
  return `not to ${meant}`;
}

/**
 * The kube-proxy mode (and, shortly, where it was read) and what portmap does under it. The mechanism — portmap's
 * DNAT matches every local address, and IPVS makes every ClusterIP local (kube-ipvs0) — is in the rule's page.
 */
function effect(mode: { value: string; source: string } | undefined, h: HostPortClaim, rated: readonly { sp: ServicePortClaim; relation: Relation; target?: TargetInPod }[]): string {
  const mapped = h.containerPort.containerPort?.value;
  const to = mapped === undefined ? 'this pod' : `its containerPort ${mapped}`;
  const what = consequence(rated);
  // "--proxy-mode flag in DaemonSet kube-system/kube-proxy", "kube-router, DaemonSet kube-system/kube-router":
  // the parenthesised detail of a source stays out.
  const source = mode?.source.replace(/ \(.*\)$/, '').replace(/^kube-router's IPVS service proxy, /, 'kube-router, ');
  if (mode?.value === 'ipvs') return `under IPVS (${source}) portmap sends this node's traffic for them to ${to}, ${what}; remove the hostPort`;
  if (mode) return `harmless under kube-proxy ${mode.value} (${source}); under IPVS portmap would send this node's traffic for them to ${to}, ${what}`;
  return `if kube-proxy uses IPVS (set kubeProxyMode), portmap sends this node's traffic for them to ${to}, ${what}; remove the hostPort`;
}
