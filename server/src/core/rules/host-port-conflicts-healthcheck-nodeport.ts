import { holdsNodePort } from '../kubernetes/api-server/validation';
import { idleWordsOf, idleWorkload } from '../kubernetes/controller-manager/idle';
import { firstFitting } from '../output/fit-message';
import type { HostPortClaim, NodePortClaim } from '../model/claims';
import { describe } from '../model/objects';
import { cappedRelated, collisionSummary, joinNames, splitSides } from './report/collisions';
import { freeNodePort } from './fixes/free-node-port';
import { claimLabel, portPhrase } from './report/claim-labels';
import { removeHostPortFix } from './fixes/host-port-fixes';
import { runningClaims } from '../kubernetes/scheduler/host-ports';
import type { Finding, Fix, Rule, RuleContext } from './rule';
import { refOf } from './rule';

const id = 'host-port-conflicts-healthcheck-nodeport';

/**
 * What happens on a node where the pod runs (the Service is named before it in the message). `byKind`: an idle
 * workload is named by its kind only (for long names).
 */
function consequence(c: HostPortClaim, port: number, byKind = false): string {
  const idle = idleWorkload(c.workload);
  if (idle) return `${idleWordsOf(c.workload, idle, byKind)}, but once it runs it and kube-proxy's health-check server on ${port}/TCP collide on its nodes; move one port`;
  return c.hostNetwork
    ? `kube-proxy serves the load balancer's health checks on ${port}/TCP on every node, so whichever binds second fails ("address already in use" or FailedToStartServiceHealthcheck); move one port`
    : `kube-proxy serves the load balancer's health checks on ${port}/TCP on every node, but on the pod's node the CNI portmap DNAT sends the probes to the pod; move one port`;
}

/** A host-level port equals a Service's healthCheckNodePort (kube-proxy's per-node HTTP health-check listener). */
export const hostPortConflictsHealthcheckNodeport: Rule = {
  id,
  title: 'Host-level port equals a healthCheckNodePort',
  severity: 'error',
  explanation: [
    'For a Service of type LoadBalancer with `externalTrafficPolicy: Local`, kube-proxy opens an HTTP server on the',
    "Service's `healthCheckNodePort` on **every** node (kubernetes pkg/proxy/healthcheck/service_health.go). It",
    'answers 200 on nodes with a local endpoint and 503 elsewhere; the cloud load balancer probes it to pick nodes.',
    'This is a real socket, not a DNAT rule, so a pod that uses the same port on a node collides with it:',
    '',
    '- **hostNetwork pod**: the process and kube-proxy bind the same port. Whoever comes second loses: the pod',
    '  crash-loops with `bind: address already in use`, or kube-proxy records the event `FailedToStartServiceHealthcheck`',
    '  (`node X failed to start healthcheck "ns/name" on port N: … address already in use`) and the load balancer',
    '  probes the pod instead of kube-proxy.',
    '- **hostPort pod**: the CNI portmap DNAT (`--dst-type LOCAL`, before any local socket) diverts the load',
    "  balancer's probes on that node to the pod, so the node is marked healthy or unhealthy by the wrong answer.",
    '',
    'A story from the field: Kafka brokers ran with `hostNetwork: true` and a replication listener on',
    '31990, inside the NodePort range. A LoadBalancer Service for the brokers with `externalTrafficPolicy: Local` got',
    'healthCheckNodePort 31990 — written by hand, or allocated automatically because the allocator knows nothing of',
    'host ports. From then on every node had kube-proxy on 31990: restarted brokers could not bind their port.',
    '',
    'Fixes: move the healthCheckNodePort (the field is immutable once set: the quick fix edits the manifest, and the',
    'Service must be re-created to apply it), remove the hostPort of a hostPort pod, or reconfigure the hostNetwork',
    'process to a port outside the NodePort range.',
    '',
    'A **warning** instead when the workload runs no pods now (`replicas: 0`, or a CronJob or Job with `suspend: true`,',
    '`parallelism: 0` or `completions: 0`; an HPA does not scale it up from 0): nothing collides until it is scaled up or resumed.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/proxy/healthcheck/service_health.go (per-Service health server, FailedToStartServiceHealthcheck, v1.33)',
    'kubernetes pkg/api/service/util.go NeedsHealthCheck (LoadBalancer + externalTrafficPolicy Local, v1.33)',
    'kubernetes pkg/apis/core/validation/validation.go (healthCheckNodePort: field is immutable, v1.33)',
    'https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/#preserving-the-client-source-ip',
    'containernetworking/plugins plugins/meta/portmap/portmap_iptables.go (CNI-HOSTPORT-DNAT, --dst-type LOCAL)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism (parallelism 0 runs no pods, v1.31); kubernetes pkg/controller/job/job_controller.go (manageJob: no more active Pods than completions minus succeeded, so completions 0 runs none, v1.31)',
  ],
  freePortFixes: true,
  check({ model, config }) {
    const findings: Finding[] = [];
    const offered = new Set<number>();
    for (const [port, npClaims] of model.nodePorts) {
      // Only where kube-proxy really serves it: the API rejects the field elsewhere (NeedsHealthCheck).
      const checks = npClaims.filter((c) => c.field === 'healthCheckNodePort' && holdsNodePort(c));
      // The health-check server is HTTP: only TCP host-level ports collide with it.
      const tcp = runningClaims(model.hostPorts.get(port)).filter((h) => h.protocol === 'TCP');
      // The workloads that run first: an idle one collides only once it is scaled up.
      const hosts = [...tcp.filter((h) => !idleWorkload(h.workload)), ...tcp.filter((h) => idleWorkload(h.workload))];
      if (!checks.length || !hosts.length) continue;
      const services = joinNames([...new Set(checks.map((c) => describe(c.service)))], 3);
      const hostNames = joinNames([...new Set(hosts.map((h) => describe(h.workload)))], 3);
      // Thousands of claims on one port: the first sides one by one, the others in one summary.
      const hostSides = splitSides(hosts);
      const checkSides = splitSides(checks);
      const summarised = [...hostSides.rest.map((h) => ({ span: h.span, label: claimLabel(h), object: h.workload })), ...checkSides.rest.map((c) => ({ span: c.span, label: `healthCheckNodePort ${port} of ${describe(c.service)}`, object: c.service }))];
      findings.push(...collisionSummary(hostPortConflictsHealthcheckNodeport, summarised, `port ${port}`, hosts.length + checks.length));
      // One free port per healthCheckNodePort, offered on both sides (the host side edits the Service's file).
      const moves = new Map(checkSides.shown.map((c) => [c, healthCheckFix({ model, config }, c, offered)]));
      for (const h of hostSides.shown) {
        findings.push({
          ruleId: id,
          severity: idleWorkload(h.workload) ? 'warning' : 'error',
          message: firstFitting(`${portPhrase(h)} is the healthCheckNodePort of ${services}: ${consequence(h, port)}`, `${portPhrase(h)} is the healthCheckNodePort of ${services}: ${consequence(h, port, true)}`),
          span: h.span,
          object: refOf(h.workload),
          related: cappedRelated(checks, (c) => ({ span: c.span, message: `healthCheckNodePort ${port} of ${describe(c.service)}` })),
          fixes: [
            ...removeHostPortFix(h, 'leave the port to kube-proxy'),
            ...checkSides.shown.flatMap((c) => moves.get(c)!.map((f) => ({ ...f, title: `${f.title.replace('Change healthCheckNodePort', `Change the healthCheckNodePort of ${describe(c.service)} from`)}` }))),
          ],
        });
      }
      for (const c of checkSides.shown) {
        findings.push({
          ruleId: id,
          severity: idleWorkload(hosts[0].workload) ? 'warning' : 'error',
          message: firstFitting(...[false, true].map((byKind) => `healthCheckNodePort ${port} is also the ${hosts[0].hostNetwork ? 'hostNetwork port' : 'hostPort'} of ${hostNames}: ${consequence(hosts[0], port, byKind)}`) as [string, string]),
          span: c.span,
          object: refOf(c.service),
          related: cappedRelated(hosts, (h) => ({ span: h.span, message: claimLabel(h) })),
          fixes: moves.get(c)!,
        });
      }
    }
    return findings;
  },
};

function healthCheckFix({ model, config }: RuleContext, c: NodePortClaim, offered: Set<number>): Fix[] {
  const free = freeNodePort(model, config, offered);
  if (free === undefined) return [];
  offered.add(free);
  return [{ title: `Change healthCheckNodePort ${c.port} to free port ${free} (immutable: re-create the Service)`, edits: [{ span: c.span, newText: String(free) }] }];
}
