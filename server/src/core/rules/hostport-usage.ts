import { describe } from '../model/objects';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'hostport-usage';

/**
 * Best-practice notice on every `hostPort` of a pod that is not hostNetwork (one finding per hostPort), for
 * parity with Polaris, Checkov, Kubescape and kube-linter. hostNetwork pods are left to `hostnetwork-usage`:
 * their hostPort only repeats the containerPort. Source: https://kubernetes.io/docs/concepts/configuration/overview/
 * ("Don't specify a hostPort for a Pod unless it is absolutely necessary", v1.33).
 */
export const hostportUsage: Rule = {
  id,
  title: 'hostPort in use',
  severity: 'info',
  explanation: [
    'The Kubernetes configuration best practices say: "Don\'t specify a `hostPort` for a Pod unless it is absolutely',
    'necessary." Each <`hostIP`, `hostPort`, `protocol`> combination can be held by one pod per node (an unset',
    'hostIP means `0.0.0.0`, which holds the port on every address), so a hostPort limits where and how many pods',
    'can be scheduled, and rolling updates need a free node. The CNI `portmap` plugin serves it with DNAT rules that',
    'also interact with Services (see `hostport-shadows-service-port`, `host-port-conflicts-nodeport`).',
    '',
    'To reach a pod for debugging use `kubectl port-forward` or the apiserver proxy; to expose it, consider a',
    'NodePort or LoadBalancer Service first. Ingress controllers run as DaemonSets are the common justified use.',
    '',
    'Reported at info level, once per hostPort, for parity with the hostPort checks of Polaris, Checkov, Kubescape',
    'and kube-linter. hostNetwork pods get `hostnetwork-usage` instead. Turn it off',
    'with `rules: {hostport-usage: off}` if you do not want the notice.',
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/concepts/configuration/overview/#services (v1.33)',
    'https://www.cni.dev/plugins/current/meta/portmap/ (portmap plugin)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    for (const w of model.workloads) {
      const seen = new Set<number>();
      if (w.pod.hostNetwork?.value === true) continue;
      for (const c of w.pod.containers) {
        for (const p of c.ports) {
          if (!p.hostPort) continue;
          // Containers merged from one YAML anchor share the scalar: one finding per written value.
          if (seen.has(p.hostPort.span.start)) continue;
          seen.add(p.hostPort.span.start);
          const proto = p.protocol.value.toUpperCase();
          const target = p.containerPort ? ` to containerPort ${p.containerPort.value}` : '';
          const address = p.hostIP?.value ? ` on ${p.hostIP.value}` : ' on every node address';
          findings.push({
            ruleId: id,
            severity: 'info',
            message:
              `hostPort ${p.hostPort.value}/${proto} of container "${c.name}" in ${describe(w)} maps the node's port${address}${target}: ` +
              'only one pod per node can hold it, which limits scheduling and rollouts; prefer a NodePort or LoadBalancer Service',
            span: p.hostPort.span,
            object: refOf(w),
            related: [],
            fixes: [],
          });
        }
      }
    }
    return findings;
  },
};
