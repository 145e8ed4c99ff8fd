import { describe } from '../model/objects';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'hostnetwork-hostport-mismatch';

/**
 * A `hostNetwork: true` pod whose container port sets a `hostPort` different from its `containerPort`.
 * The API server rejects it: validatePodHostNetworkDeps checks `spec.containers` only (not init
 * containers) and allows hostPort 0/unset in templates (it is defaulted to containerPort when the Pod
 * is created). Source: kubernetes pkg/apis/core/validation/validation.go validatePodHostNetworkDeps (v1.33).
 */
export const hostnetworkHostportMismatch: Rule = {
  id,
  title: 'hostPort differs from containerPort on a hostNetwork pod',
  severity: 'error',
  explanation: [
    'With `hostNetwork: true` the containers use the node\'s network namespace: there is no port mapping, the',
    'process binds the node\'s port directly, so a `hostPort` can only repeat the `containerPort`. The API server',
    'rejects any other value with',
    '``spec.containers[i].ports[j].hostPort: Invalid value: X: must match `containerPort` when `hostNetwork` is true``',
    '(older releases reported it on `containerPort` as "must match `hostPort`"). For a Deployment, DaemonSet or other',
    'template the whole object is rejected, so nothing is rolled out.',
    '',
    'Only `spec.containers` are checked by the API server, so this rule does not look at init containers.',
    'A `hostPort` left unset (or 0) is fine: it is defaulted to the `containerPort` when the Pod is created.',
    '',
    'Fix: set `hostPort` to the `containerPort` value (quick fix), or remove `hostPort` — the process really',
    'listens on the `containerPort` of the node either way.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/apis/core/validation/validation.go validatePodHostNetworkDeps (v1.33)',
    'kubernetes pkg/apis/core/v1/defaults.go defaultHostNetworkPorts (v1.28+)',
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#ports (hostPort: "If HostNetwork is specified, this must match ContainerPort", v1.33)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    for (const w of model.workloads) {
      const seen = new Set<number>();
      if (w.pod.hostNetwork?.value !== true) continue;
      for (const c of w.pod.containers) {
        if (c.role !== 'container') continue;
        for (const p of c.ports) {
          if (!p.hostPort || !p.containerPort || p.hostPort.value === p.containerPort.value) continue;
          // Containers merged from one YAML anchor share the scalar: one finding per written value.
          if (seen.has(p.hostPort.span.start)) continue;
          seen.add(p.hostPort.span.start);
          const cp = p.containerPort.value;
          findings.push({
            ruleId: id,
            severity: 'error',
            message:
              `hostPort ${p.hostPort.value} differs from containerPort ${cp} in container "${c.name}" of ${describe(w)} (hostNetwork: true): ` +
              `the API server rejects it ("must match \`containerPort\` when \`hostNetwork\` is true"), as there is no port mapping; ` +
              `set hostPort to ${cp} or remove it`,
            span: p.hostPort.span,
            object: refOf(w),
            related: [
              { span: p.containerPort.span, message: `containerPort ${cp}` },
              ...(w.pod.hostNetwork ? [{ span: w.pod.hostNetwork.span, message: 'hostNetwork: true' }] : []),
            ],
            fixes: [{ title: `Set hostPort to ${cp} (the containerPort)`, edits: [{ span: p.hostPort.span, newText: String(cp) }], preferred: true }],
          });
        }
      }
    }
    return findings;
  },
};
