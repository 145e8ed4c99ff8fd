import { holdsNodePort } from '../kubernetes/api-server/validation';
import type { HostPortClaim } from '../model/claims';
import { portPhrase } from './report/claim-labels';
import { freeHostPortBelow } from './fixes/free-node-port';
import { runningClaims } from '../kubernetes/scheduler/host-ports';
import { staticBandSize } from '../kubernetes/api-server/node-port-allocator';
import type { Finding, Fix, Rule, RuleContext } from './rule';
import { refOf } from './rule';

const id = 'host-port-in-nodeport-range';

/** A host-level port inside the NodePort range that no Service uses yet: a future nodePort allocation can take it. */
export const hostPortInNodeportRange: Rule = {
  id,
  title: 'Host-level port inside the NodePort range',
  severity: 'warning',
  explanation: [
    "The API server's nodePort allocator hands out nodePorts and healthCheckNodePorts from the NodePort range",
    '(`--service-node-port-range`, default 30000-32767) and knows only about Services: it does not know that a pod',
    'uses a port of that range on its node (a `hostPort`, or the `containerPort` of a `hostNetwork` pod). The next',
    'Service of type NodePort or LoadBalancer created without an explicit nodePort can be given that very number, and',
    'then kube-proxy takes it on **every** node: NodePort DNAT rules capture the traffic before the hostNetwork process',
    "or the portmap hostPort sees it, or kube-proxy's health-check listener and the process fight over the socket (see",
    'rules host-port-conflicts-nodeport and host-port-conflicts-healthcheck-nodeport). Nothing warns at apply time.',
    '',
    'Since Kubernetes 1.28 (KEP-3668: beta and on by default in 1.28, GA in 1.29) automatic allocation prefers the upper part of the range and uses',
    'the lower "static band" only when the rest is full, so a port in the static band is less likely — not safe — to',
    'be taken. The kube-apiserver flag help also asks that the range not overlap ports the nodes use otherwise, and',
    'the v1.24 release note of kubernetes PR #108496 says: "Users are still advised not to run any listener on node',
    'ports range".',
    '',
    'This rule reports only ports no Service in the workspace uses yet (a used one is an error of the two rules above).',
    'Fix: move the hostPort below the range; the quick fix picks the nearest port under the range that nothing on the',
    'nodes uses (no claim of the node-port map: host-level ports, nodePorts, externalIP ports, node component ports)',
    'and no Service uses as its port. For a hostNetwork pod the process itself must be reconfigured (its',
    'containerPort only declares the port), so no quick fix is offered there.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/registry/core/service/portallocator/allocator.go (nodePort allocation, static band: calculateRangeOffset, v1.33)',
    'https://github.com/kubernetes/enhancements/tree/master/keps/sig-network/3668-reserved-service-nodeport-range',
    'https://kubernetes.io/docs/reference/command-line-tools-reference/kube-apiserver/ (--service-node-port-range, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#avoid-nodeport-collisions (v1.33)',
    'https://github.com/kubernetes/kubernetes/pull/108496 (CHANGELOG-1.24 release note)',
  ],
  freePortFixes: true,
  check({ model, config }) {
    const { value: range, source } = model.settings.nodePortRange;
    const band = staticBandSize(range);
    const findings: Finding[] = [];
    const offered = new Set<number>();
    for (const [port, claims] of model.hostPorts) {
      // A port some Service already holds is reported as a collision instead; an unallocated nodePort holds none.
      if (port < range.min || port > range.max || model.nodePorts.get(port)?.some(holdsNodePort)) continue;
      for (const c of runningClaims(claims)) {
        const inBand = port < range.min + band ? ` (less likely in the static band ${range.min}-${range.min + band - 1})` : '';
        findings.push({
          ruleId: id,
          severity: 'warning',
          message: `${portPhrase(c)} lies in the NodePort range ${range.min}-${range.max} (${source}) and no Service uses it yet: the API server may allocate ${port} to the next nodePort or healthCheckNodePort${inBand}, and kube-proxy then takes it on every node; move it below ${range.min}`,
          span: c.span,
          object: refOf(c.workload),
          related: [],
          fixes: moveBelowRange({ model, config }, c, offered),
        });
      }
    }
    return findings;
  },
};

/** The hostPort moved to the nearest port below the range that nothing in the workspace uses (hostPort pods only). */
function moveBelowRange({ model, config }: RuleContext, c: HostPortClaim, offered: Set<number>): Fix[] {
  // Not for hostNetwork (the process picks its port) nor for a value shared through an anchor or alias.
  if (c.hostNetwork || !c.containerPort.hostPort || c.containerPort.hostPortShared) return [];
  const p = freeHostPortBelow(model, config, model.settings.nodePortRange.value.min, offered);
  if (p === undefined) return [];
  offered.add(p);
  return [{ title: `Change hostPort ${c.port} to ${p} (below the NodePort range)`, edits: [{ span: c.containerPort.hostPort.span, newText: String(p) }] }];
}
