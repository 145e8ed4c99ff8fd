import type { HostPortClaim } from '../model/claims';
import { describe } from '../model/objects';
import type { Finding, RelatedLocation, Rule } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';

const id = 'externaltrafficpolicy-local-healthcheck';
/** How many host-level ports a message lists before "and N more" (all of them are related locations, up to RELATED_MAX). */
const LIST_MAX = 3;
const RELATED_MAX = 20;

/** `31990 (StatefulSet streaming/broker, container "broker")`, for related locations. */
function claimText(c: HostPortClaim): string {
  return `${c.port} (${describe(c.workload)}, container "${c.container.name}")`;
}

/** `31990 (StatefulSet streaming/broker)`, for messages: the container is in the related location. */
function shortClaimText(c: HostPortClaim): string {
  return `${c.port} (${describe(c.workload)})`;
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
    'host-level ports of the workspace inside the NodePort range that it could land on (at most three in the',
    'message, each with its container in the related locations). The range is `nodePortRange` of `.kube-netlint.yaml`',
    '(or `--node-port-range`), else the one a kube-apiserver manifest of the workspace sets, else the Kubernetes',
    'default 30000-32767.',
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
        : `kube-proxy will listen on every node on the healthCheckNodePort allocated to ${describe(svc)}`;
      const answers = ': it answers 200 only where a local endpoint runs, so the load balancer uses only those nodes';
      // The same workload may claim a port from several files or containers: each text once.
      const texts = [...new Set(meets.map(shortClaimText))];
      let where: string;
      if (hc) {
        where = meets.length ? `; host-level port ${joinNames(texts, LIST_MAX)} is the same port` : '';
      } else if (meets.length) {
        where = `; in ${range.value.min}-${range.value.max} it may hit host ports ${joinNames(texts, LIST_MAX)}; pin a free one`;
      } else {
        where = `${answers}; no host-level port of the workspace is in ${range.value.min}-${range.value.max}`;
      }
      const related: RelatedLocation[] = [
        ...(hc ? [{ span: hc.span, message: `healthCheckNodePort ${hc.value}` }] : []),
        ...meets.slice(0, RELATED_MAX).map((c) => ({ span: c.span, message: `host-level port ${claimText(c)}` })),
      ];
      findings.push({
        ruleId: id,
        severity: 'hint',
        message: `${listener}${hc ? answers : ''}${where}`,
        span: policy.span,
        object: refOf(svc),
        related,
        fixes: [],
      });
    }
    return findings;
  },
};
