import { holdsNodePort } from '../kubernetes/api-server/validation';
import { idleWordsOf, idleWorkload } from '../kubernetes/controller-manager/idle';
import { firstFitting } from '../output/fit-message';
import type { HostPortClaim, NodePortClaim } from '../model/claims';
import { describe, K8sObject } from '../model/objects';
import { cappedRelated, collisionSummary, fitNames, joinNames, splitSides } from './report/collisions';
import { freeNodePort } from './fixes/free-node-port';
import { claimLabel, portPhrase } from './report/claim-labels';
import { removeHostPortFix } from './fixes/host-port-fixes';
import { runningClaims } from '../kubernetes/scheduler/host-ports';
import type { Finding, Fix, Rule, RuleContext } from './rule';
import { refOf } from './rule';

const id = 'host-port-conflicts-nodeport';

/**
 * What happens on the node, from the host-level side's point of view, and the fix. The mechanism (DNAT order,
 * portmap versions, CVE-2019-9946, kube-proxy's port opener before v1.24) is in the rule's page. `byKind`: an idle
 * workload is named by its kind only (for long names).
 */
function consequence(c: HostPortClaim, port: number, byKind = false): string {
  const idle = idleWorkload(c.workload);
  if (idle) return `${idleWordsOf(c.workload, idle, byKind)}, but once it runs ${c.hostNetwork ? 'kube-proxy takes that port from its process on every node' : 'CNI portmap and kube-proxy both match it on its nodes and one loses the traffic'}; move one port`;
  return c.hostNetwork
    ? `kube-proxy sends connections to ${port}/${c.protocol} on every node to the Service's endpoints, so the hostNetwork process gets none (before v1.24 it cannot even bind); move the nodePort`
    : `CNI portmap and kube-proxy both match it on the pod's node: the hostPort or the NodePort loses its traffic; move one port`;
}

/** A host-level port (hostPort, or containerPort of a hostNetwork pod) equals some Service's nodePort. */
export const hostPortConflictsNodeport: Rule = {
  id,
  title: 'Host-level port equals a nodePort',
  severity: 'error',
  explanation: [
    "A nodePort is opened by kube-proxy on **every** node's addresses. A pod that also uses that number on its node",
    'collides with it; the API server does not notice (the nodePort allocator knows nothing of hostPorts, and the',
    'scheduler knows nothing of Services). Both objects are reported, each naming the other. Protocols must match.',
    '',
    '- **hostNetwork pod** (its `containerPort` is the port the process binds on the node): kube-proxy\'s NodePort',
    '  DNAT rule (iptables/nftables PREROUTING and OUTPUT, or the IPVS virtual server) rewrites new connections to the',
    "  Service's endpoints before the local process sees them, so the process only gets traffic when it is itself an",
    '  endpoint by luck. Before v1.24 kube-proxy also *held* every nodePort socket (the "port opener", removed by',
    '  kubernetes PR #108496 and its 1.21–1.23 cherry-picks), so whichever of the two started second failed:',
    '  the pod with `bind: address already in use`, or kube-proxy logging `can\'t open "nodePort for …", skipping this nodePort`.',
    '- **hostPort pod** (served by the CNI portmap plugin): portmap\'s `CNI-HOSTPORT-DNAT` chain and kube-proxy\'s',
    '  `KUBE-SERVICES`/`KUBE-NODEPORTS` rules both match the port on that node. The first DNAT wins: kube-proxy',
    '  prepends its jump and portmap ≥0.7.5 appends, so the NodePort normally wins and the hostPort is dead; portmap',
    '  ≤0.7.4 prepended its rules and let the hostPort hijack NodePort traffic (CVE-2019-9946), and the same happens',
    '  again when portmap and kube-proxy use different iptables backends (legacy vs nft, siderolabs/talos #9223).',
    '',
    'Fixes: give the Service another nodePort (the quick fix picks one from the static band of KEP-3668 that no',
    'object in the workspace uses; it is offered on both sides), or, for a hostPort pod that a Service selects, remove',
    'the hostPort and reach the pod through that Service (named in the fix; a pod no Service selects gets no removal).',
    'A hostNetwork process must be reconfigured to listen elsewhere: only the nodePort move is offered on that side.',
    '',
    'A **warning** instead when the workload runs no pods now (`replicas: 0`, or a CronJob or Job with `suspend: true`,',
    '`parallelism: 0` or `completions: 0`; an HPA does not scale it up from 0): nothing collides until it is scaled up or resumed.',
  ].join('\n'),
  sources: [
    'https://github.com/kubernetes/kubernetes/pull/108496 (kube-proxy: remove port opener, v1.24)',
    'containernetworking/plugins plugins/meta/portmap/portmap_iptables.go (CNI-HOSTPORT-DNAT, --dst-type LOCAL)',
    'https://github.com/containernetworking/plugins/pull/269 (append, not prepend, entry rules; v0.7.5)',
    'CVE-2019-9946 (https://github.com/kubernetes/kubernetes/pull/75455)',
    'kubernetes pkg/proxy/iptables/proxier.go (KUBE-SERVICES jump prepended, KUBE-NODEPORTS last, v1.33)',
    'https://github.com/siderolabs/talos/issues/9223 (iptables backend mismatch)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism (parallelism 0 runs no pods, v1.31); kubernetes pkg/controller/job/job_controller.go (manageJob: no more active Pods than completions minus succeeded, so completions 0 runs none, v1.31)',
  ],
  freePortFixes: true,
  check({ model, config }) {
    const findings: Finding[] = [];
    // Each Service-side fix proposes a different port, so applying several fixes cannot create a new collision.
    const offered = new Set<number>();
    for (const [port, npClaims] of model.nodePorts) {
      // Only nodePorts kube-proxy opens: an ExternalName Service's nodePort is never allocated.
      const nodePorts = npClaims.filter((c) => c.field === 'nodePort' && holdsNodePort(c));
      const hosts = runningClaims(model.hostPorts.get(port));
      if (!nodePorts.length || !hosts.length) continue;
      const byProtocol = (protocol: string) => nodePorts.filter((n) => n.protocol === protocol);
      const servicesOf = new Map([...new Set(hosts.map((h) => h.protocol))].map((p) => [p, byProtocol(p)] as const));
      const hostsOf = new Map([...new Set(nodePorts.map((n) => n.protocol))].map((p) => [p, hosts.filter((h) => h.protocol === p)] as const));
      // Thousands of claims on one port: the first sides one by one, the others in one summary each way.
      const hostSides = splitSides(hosts.filter((h) => servicesOf.get(h.protocol)!.length > 0));
      const serviceSides = splitSides(nodePorts.filter((n) => (hostsOf.get(n.protocol)?.length ?? 0) > 0 && n.service.origin.type !== 'builtin'));
      // One free nodePort per Service side, offered on both sides (the host side's fix edits the Service's file).
      const moves = new Map(serviceSides.shown.map((n) => [n, nodePortFix({ model, config }, n, offered)]));
      for (const h of hostSides.shown) {
        const services = servicesOf.get(h.protocol)!;
        findings.push({
          ruleId: id,
          severity: idleWorkload(h.workload) ? 'warning' : 'error',
          message: firstFitting(...[false, true].map((byKind) => fitNames((max) => `${portPhrase(h)} is also nodePort ${port} of ${joinNames(uniqueNames(services.map((s) => s.service)), max)}: ${consequence(h, port, byKind)}`)) as [string, string]),
          span: h.span,
          object: refOf(h.workload),
          related: cappedRelated(services, (s) => ({ span: s.span, message: `nodePort ${port}/${s.protocol} of ${describe(s.service)}` })),
          fixes: [
            ...hostSideRemoval(model, h, services),
            ...serviceSides.shown.filter((n) => n.protocol === h.protocol).flatMap((n) => moves.get(n)!.map((f) => ({ ...f, title: f.title.replace(/^Change nodePort \d+/, `$& of ${describe(n.service)}`), preferred: false }))),
          ],
        });
      }
      const summarised = [...hostSides.rest.map((h) => ({ span: h.span, label: claimLabel(h), object: h.workload })), ...serviceSides.rest.map((n) => ({ span: n.span, label: `nodePort ${port}/${n.protocol} of ${describe(n.service)}`, object: n.service }))];
      findings.push(...collisionSummary(hostPortConflictsNodeport, summarised, `port ${port}`, hostSides.shown.length + serviceSides.shown.length + summarised.length));
      for (const n of serviceSides.shown) {
        const all = hostsOf.get(n.protocol)!;
        // Name the workloads that run first: an idle one collides only once it is scaled up.
        const running = all.filter((o) => !idleWorkload(o.workload));
        const others = running.length ? [...running, ...all.filter((o) => idleWorkload(o.workload))] : all;
        const fix = moves.get(n)!;
        findings.push({
          ruleId: id,
          severity: running.length ? 'error' : 'warning',
          message: firstFitting(...[false, true].map((byKind) => fitNames((max) => `nodePort ${port}/${n.protocol} is also the ${others[0].hostNetwork ? 'hostNetwork port' : 'hostPort'} of ${joinNames(uniqueNames(others.map((o) => o.workload)), max)}: ${consequence(others[0], port, byKind)}`)) as [string, string]),
          span: n.span,
          object: refOf(n.service),
          related: cappedRelated(others, (o) => ({ span: o.span, message: claimLabel(o) })),
          fixes: fix,
        });
      }
    }
    return findings;
  },
};

/**
 * "Remove the hostPort and reach the pod through Service X": only when X selects the pod (a Service of the pod's
 * namespace whose selector matches its template; the colliding Service first). A pod no Service selects gets no
 * removal: without its hostPort nothing outside the pod's network would reach it.
 */
function hostSideRemoval(model: RuleContext['model'], h: HostPortClaim, colliding: readonly NodePortClaim[]): Fix[] {
  const selecting = model.selectingServices(h.workload);
  const through = colliding.map((c) => c.service).find((s) => selecting.includes(s)) ?? selecting[0];
  return through ? removeHostPortFix(h, `reach the pod through ${describe(through)} instead`) : [];
}

function nodePortFix({ model, config }: RuleContext, n: NodePortClaim, offered: Set<number>): Fix[] {
  const free = freeNodePort(model, config, offered);
  if (free === undefined) return [];
  offered.add(free);
  return [{ title: `Change nodePort ${n.port} to free port ${free}`, edits: [{ span: n.span, newText: String(free) }], preferred: true }];
}

/** `Service a/b` for each object, once each, in order. */
function uniqueNames(objects: readonly K8sObject[]): string[] {
  return [...new Set(objects.map(describe))];
}
