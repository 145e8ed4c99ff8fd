import type { HostPortClaim } from '../model/claims';
import { describe } from '../model/objects';
import type { Finding, RelatedLocation, Rule } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';

const id = 'externaltrafficpolicy-local-healthcheck';
/** How many host-level ports a message lists before "and N more" (all of them are related locations, up to RELATED_MAX). */
const LIST_MAX = 5;
const RELATED_MAX = 20;

/** `31990 (StatefulSet streaming/broker, container "broker")`. */
function claimText(c: HostPortClaim): string {
  return `${c.port} (${describe(c.workload)}, container "${c.container.name}")`;
}

/**
 * Hint on `externalTrafficPolicy: Local` of a LoadBalancer Service: the healthCheckNodePort kube-proxy
 * listens on (written, or allocated at apply time from the NodePort range), what it answers, and which
 * TCP host-level ports of the workspace it meets or could be allocated onto (the nodePort allocator knows
 * nothing about hostPorts or hostNetwork listeners).
 * Sources: kubernetes pkg/proxy/healthcheck/service_health.go (v1.33);
 * https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/ (v1.33).
 */
export const externaltrafficpolicyLocalHealthcheck: Rule = {
  id,
  title: 'externalTrafficPolicy Local opens a healthCheckNodePort on every node',
  severity: 'hint',
  explanation: [
    'For a `LoadBalancer` Service with `externalTrafficPolicy: Local`, the API server allocates a',
    '`healthCheckNodePort` (from the NodePort range, when not written) and **kube-proxy opens an HTTP listener on',
    'it on every node** (on `0.0.0.0`, or on the node IPs selected by `--nodeport-addresses`). Any path is answered:',
    '**200** with `{"localEndpoints": N}` when the node runs at least one ready endpoint of the Service (and, in',
    'recent releases, kube-proxy itself is healthy), **503** otherwise. Cloud load balancers probe it (conventionally `/healthz`) to send traffic only to nodes with a',
    'local endpoint, which is what keeps the client source IP without dropping traffic.',
    '',
    'This hint makes that port visible, because it is a real listening socket on every node: a hostNetwork process',
    'or hostPort on the same TCP port fails with "address already in use", or kube-proxy logs',
    '`FailedToStartServiceHealthcheck` (see `host-port-conflicts-healthcheck-nodeport`). When the port is not',
    'written, the allocator picks one at apply time without knowing about hostPorts, so the hint lists the TCP',
    'host-level ports of the workspace inside the NodePort range that it could land on.',
    '',
    'Nothing to fix; to pin the port, write `healthCheckNodePort` with a value no host-level port uses.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/proxy/healthcheck/service_health.go (listener, 200/503, FailedToStartServiceHealthcheck, v1.33)',
    'https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/#preserving-the-client-source-ip (v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#external-traffic-policy (v1.33)',
    'kubernetes pkg/registry/core/service/storage/alloc.go (healthCheckNodePort allocation, v1.33)',
  ],
  check({ model }) {
    const range = model.settings.nodePortRange;
    // TCP host-level ports inside the NodePort range, computed once: the health server is a TCP listener.
    const inRange: HostPortClaim[] = [];
    for (const [port, claims] of model.hostPorts) {
      if (port < range.value.min || port > range.value.max) continue;
      for (const c of claims) if (c.protocol === 'TCP') inRange.push(c); // a port may have 100,000s of claims: no spread
    }
    inRange.sort((a, b) => a.port - b.port);
    const findings: Finding[] = [];
    for (const svc of model.services) {
      const policy = svc.externalTrafficPolicy;
      if (policy?.value !== 'Local' || svc.type.value !== 'LoadBalancer' || svc.origin.type === 'builtin') continue;
      const hc = svc.healthCheckNodePort;
      const meets = hc ? (model.hostPorts.get(hc.value) ?? []).filter((c) => c.protocol === 'TCP') : inRange;
      const listener = hc
        ? `kube-proxy listens on healthCheckNodePort ${hc.value}/TCP on every node for ${describe(svc)}`
        : `a healthCheckNodePort will be allocated for ${describe(svc)} from the NodePort range ${range.value.min}-${range.value.max} (${range.source}) at apply time, and kube-proxy will listen on it on every node`;
      const answers = 'it answers 200 only on nodes with a local endpoint (503 elsewhere), so the load balancer sends traffic only to those nodes';
      let where: string;
      if (hc) {
        where = meets.length ? `; host-level port ${joinNames(meets.map(claimText))} is the same port on the node` : '';
      } else if (meets.length) {
        const listed = meets.slice(0, LIST_MAX).map(claimText).join(', ');
        where = `; host-level ports of the workspace in that range it could land on: ${listed}${meets.length > LIST_MAX ? ` and ${meets.length - LIST_MAX} more` : ''}`;
      } else {
        where = '; no host-level port of the workspace lies in that range';
      }
      const related: RelatedLocation[] = [
        ...(hc ? [{ span: hc.span, message: `healthCheckNodePort ${hc.value}` }] : []),
        ...meets.slice(0, RELATED_MAX).map((c) => ({ span: c.span, message: `host-level port ${claimText(c)}` })),
      ];
      findings.push({
        ruleId: id,
        severity: 'hint',
        message: `${listener}: ${answers}${where}`,
        span: policy.span,
        object: refOf(svc),
        related,
        fixes: [],
      });
    }
    return findings;
  },
};
