import { describe } from '../model/objects';
import { partialCoverageBackends } from '../kubernetes/kube-proxy/traffic-policy';
import { backendLocations, backendsShortfall } from './report/backends';
import { firstFitting } from '../output/fit-message';
import { Autoscaler, autoscalersOf } from '../kubernetes/controller-manager/autoscalers';
import { setToCluster } from './fixes/traffic-policy-fix';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'internaltrafficpolicy-local-coverage';

/**
 * `internalTrafficPolicy: Local` on a Service whose selected workloads do not run on every node (not DaemonSets,
 * or DaemonSets restricted by nodeSelector / required node affinity): in-cluster
 * clients on nodes without a local endpoint get their traffic dropped.
 * Source: https://kubernetes.io/docs/concepts/services-networking/service-traffic-policy/ (v1.33).
 */
export const internaltrafficpolicyLocalCoverage: Rule = {
  id,
  title: 'internalTrafficPolicy Local with backends not on every node',
  severity: 'warning',
  explanation: [
    'With `internalTrafficPolicy: Local`, kube-proxy routes traffic from pods to the Service\'s ClusterIP only to',
    'endpoints on **the same node**. The docs: "For pods on nodes with no endpoints for a given Service, the Service',
    'behaves as if it has zero endpoints (for Pods on this node) even if the service does have endpoints on other',
    'nodes" (KEP-2086: "only route to node-local endpoints, drop otherwise"): a client pod on a node without a',
    'backend gets connection failures, not a fallback.',
    '',
    'That suits node-local agents run as DaemonSets on every node (log shippers, node caches). When the selected',
    'workloads are Deployments or StatefulSets, or a DaemonSet restricted by a nodeSelector or required node affinity',
    '(it runs only on the nodes it selects; `kubernetes.io/os` / `kubernetes.io/arch` selectors are taken to match',
    'every node), every node without one of their pods is a black hole for in-cluster clients. Silent when one',
    'selected workload is a DaemonSet on every node, when the Service selects nothing in the workspace, and for',
    'headless Services (no ClusterIP, kube-proxy is not involved). Workloads that run no pods now (`replicas: 0`, a',
    'Job or CronJob with `suspend: true`, `parallelism: 0` or `completions: 0`) are not counted as backends; an autoscaled one is named',
    'with its HorizontalPodAutoscaler\'s `minReplicas`-`maxReplicas`.',
    '',
    'Fix: set `internalTrafficPolicy: Cluster` (quick fix), or run the backends as a DaemonSet on every node where',
    'clients run (no nodeSelector, or one that matches every client node).',
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/concepts/services-networking/service-traffic-policy/ (v1.33)',
    'https://kubernetes.io/docs/reference/networking/virtual-ips/#internal-traffic-policy (v1.33)',
    'https://github.com/kubernetes/enhancements/tree/master/keps/sig-network/2086-service-internal-traffic-policy (KEP-2086)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#running-pods-on-select-nodes (v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism (parallelism 0 runs no pods, v1.31); kubernetes pkg/controller/job/job_controller.go (manageJob: no more active Pods than completions minus succeeded, so completions 0 runs none, v1.31)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    let autoscalers: ReadonlyMap<string, Autoscaler> | undefined;
    for (const svc of model.services) {
      const policy = svc.internalTrafficPolicy;
      if (policy?.value !== 'Local' || svc.origin.type === 'builtin') continue;
      if (svc.clusterIP?.value === 'None' || svc.type.value === 'ExternalName') continue;
      const backends = partialCoverageBackends(model, svc);
      if (backends.length === 0) continue;
      const scaling = (autoscalers ??= autoscalersOf(model.objects));
      // The autoscalers' names (kept in the related locations) give way to long names.
      const message = (short: boolean): string =>
        `internalTrafficPolicy Local on ${describe(svc)}, whose backends are ${backendsShortfall(backends, scaling, short)}: ` +
        `a client pod on a node that runs none of these pods gets no endpoint, and kube-proxy drops its traffic to the ClusterIP; set internalTrafficPolicy: Cluster`;
      findings.push({
        ruleId: id,
        severity: 'warning',
        // The autoscalers' names (kept in the related locations) give way to long names.
        message: firstFitting(message(false), message(true)),
        span: policy.span,
        object: refOf(svc),
        related: backendLocations(backends, scaling),
        fixes: [setToCluster(policy, 'Set internalTrafficPolicy to Cluster (clients use backends on any node)', true)],
      });
    }
    return findings;
  },
};
