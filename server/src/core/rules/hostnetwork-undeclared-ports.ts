import { describe } from '../model/objects';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';

const id = 'hostnetwork-undeclared-ports';

/**
 * A `hostNetwork: true` pod that declares no `ports` in any container. Its listeners are invisible to
 * the scheduler's NodePorts filter (it only knows declared ports) and to this linter's host-port rules.
 * Sources: kubernetes staging/src/k8s.io/api/core/v1/types.go (PodSpec.HostNetwork: "When using
 * HostNetwork you should specify ports so the scheduler is aware", v1.33);
 * kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go (v1.33).
 */
export const hostnetworkUndeclaredPorts: Rule = {
  id,
  title: 'hostNetwork pod declares no ports',
  severity: 'info',
  explanation: [
    'A `hostNetwork: true` pod listens directly on the node\'s addresses, but the scheduler only knows the ports',
    'written under `containers[].ports`: its NodePorts filter ("didn\'t have free ports for the requested pod',
    'ports") cannot keep two pods that listen on the same undeclared port off one node, and kube-netlint cannot',
    'check those ports against nodePorts, healthCheckNodePorts and other host ports either.',
    '',
    'The API reference for `hostNetwork` says: "When using HostNetwork you should specify ports so the scheduler',
    'is aware." (`ports` are otherwise informational: not listing a port does not stop the process from using it.)',
    '',
    'Fix: list every port the processes listen on (metrics, health, API) as `containerPort`s with their protocol.',
    'Ports opened indirectly count too (flannel\'s VXLAN device binds UDP 8472 in the kernel; Calico\'s BIRD listens',
    'for BGP on TCP 179). To silence the notice for one object, put `# kube-netlint-disable-next-line',
    'hostnetwork-undeclared-ports` above its `hostNetwork` line, or set the rule to `off` in `.kube-netlint.yaml`.',
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#hostname-and-name-resolution (hostNetwork, v1.33)',
    'kubernetes staging/src/k8s.io/api/core/v1/types.go PodSpec.HostNetwork and Container.Ports (v1.33)',
    'kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go (v1.33)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    for (const w of model.workloads) {
      const hostNetwork = w.pod.hostNetwork;
      if (hostNetwork?.value !== true) continue;
      if (w.pod.containers.some((c) => c.ports.length > 0)) continue;
      const names = w.pod.containers.filter((c) => c.role !== 'init').map((c) => `"${c.name}"`);
      findings.push({
        ruleId: id,
        severity: 'info',
        message:
          `${describe(w)} uses hostNetwork but none of its containers${names.length ? ` (${joinNames(names, 3)})` : ''} declares a port: ` +
          `the scheduler's free-port check cannot see what they listen on, so port clashes on the node show up only at runtime; list those ports as containerPorts`,
        span: hostNetwork.span,
        object: refOf(w),
        related: [],
        fixes: [],
      });
    }
    return findings;
  },
};
