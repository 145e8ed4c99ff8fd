import { describe } from '../model/objects';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';
import { firstOf } from '../output/first-of';

const id = 'hostnetwork-usage';

/**
 * Best-practice notice on every `hostNetwork: true` pod template (one finding per object), for parity with
 * Polaris, Checkov, Kubescape and kube-linter. Source: https://kubernetes.io/docs/concepts/configuration/overview/
 * ("Avoid using hostNetwork, for the same reasons as hostPort", v1.33).
 */
export const hostnetworkUsage: Rule = {
  id,
  title: 'hostNetwork in use',
  severity: 'info',
  explanation: [
    'The Kubernetes configuration best practices say: "Avoid using `hostNetwork`, for the same reasons as',
    '`hostPort`." A hostNetwork pod shares the node\'s network namespace: every port it binds is a port of the',
    'node, so two such pods (or a pod and a node daemon, a nodePort or a healthCheckNodePort) that use the same',
    'port cannot share a node, it bypasses NetworkPolicies of most CNIs, and it sees all node traffic.',
    '',
    'CNI agents, kube-proxy, node exporters and some ingress controllers need it; for them this notice is expected',
    '(the other rules check their ports). For anything else, a normal pod behind a Service (NodePort or',
    'LoadBalancer if it must be reached from outside) is the better choice.',
    '',
    'Reported at info level, once per object, for parity with the host-network checks of Polaris, Checkov,',
    'Kubescape and kube-linter. Turn it off in `.kube-netlint.yaml` with',
    '`rules: {hostnetwork-usage: off}` if you do not want the notice.',
  ].join('\n'),
  sources: ['https://kubernetes.io/docs/concepts/configuration/overview/#services (v1.33)'],
  check({ model }) {
    const findings: Finding[] = [];
    for (const w of model.workloads) {
      const hostNetwork = w.pod.hostNetwork;
      if (hostNetwork?.value !== true) continue;
      const ports = [...new Set(w.pod.containers.filter((c) => c.role !== 'init').flatMap((c) =>
        c.ports.filter((p) => p.containerPort).map((p) => `${p.containerPort!.value}/${p.protocol.value.toUpperCase()}`)))];
      const shown = firstOf(ports, 4);
      const what = ports.length ? `its ports (${shown}) are ports of the node` : 'every port it binds is a port of the node';
      findings.push({
        ruleId: id,
        severity: 'info',
        message: `${describe(w)} runs in the node's network namespace (hostNetwork: true): ${what}; avoid hostNetwork unless the pod must see the node's network (CNI, node agents)`,
        span: hostNetwork.span,
        object: refOf(w),
        related: [],
        fixes: [],
      });
    }
    return findings;
  },
};
