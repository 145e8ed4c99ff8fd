import { describe } from '../model/objects';
import type { ServiceObject } from '../model/objects';
import { partialCoverageBackends, totalPods } from '../kubernetes/kube-proxy/traffic-policy';
import { backendLocations, backendsShortfall } from './report/backends';
import { Autoscaler, autoscalersOf } from '../kubernetes/controller-manager/autoscalers';
import { externalPolicyToCluster } from './fixes/traffic-policy-fix';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';
import { firstFitting } from '../output/fit-message';

const id = 'externaltrafficpolicy-local-coverage';

/** The nodePorts of a Service for messages: `nodePort 30480`, `nodePorts 30080, 30443`, or `its nodePorts`. */
function nodePortsText(svc: ServiceObject): string {
  const ports = svc.ports.flatMap((p) => (p.nodePort ? [p.nodePort.value] : []));
  if (ports.length === 0) return 'its nodePorts';
  return ports.length === 1 ? `nodePort ${ports[0]}` : `nodePorts ${ports.join(', ')}`;
}

/**
 * `externalTrafficPolicy: Local` on a Service whose selected workloads do not run on every node (not DaemonSets,
 * or DaemonSets restricted by nodeSelector / required node affinity): nodes without
 * a local endpoint drop external traffic. Warning for NodePort (and ClusterIP with externalIPs), info for
 * LoadBalancer (its health check steers the load balancer away from those nodes).
 * Sources: kubernetes pkg/proxy/iptables/proxier.go ("has no local endpoints" DROP, v1.33);
 * https://kubernetes.io/docs/reference/networking/virtual-ips/#external-traffic-policy (v1.33).
 */
export const externaltrafficpolicyLocalCoverage: Rule = {
  id,
  title: 'externalTrafficPolicy Local with backends not on every node',
  severity: 'warning',
  explanation: [
    'With `externalTrafficPolicy: Local`, kube-proxy sends external traffic (to nodePorts, load balancer IPs and',
    'externalIPs) only to endpoints **on the node that received it**, to keep the client source IP. A node without',
    'a local endpoint drops that traffic (iptables: a DROP rule commented `<svc> has no local endpoints`). The API',
    'reference says: "Traffic mistakenly sent to a node with no endpoints will be dropped."',
    '',
    'Only a DaemonSet **without** a nodeSelector or required node affinity puts a backend on every node. A DaemonSet',
    'restricted to some nodes (`nodeSelector: {node-role: ingress}`) covers only those, like a Deployment or',
    'StatefulSet (selectors on `kubernetes.io/os` / `kubernetes.io/arch` are taken to match every node, and a',
    'selection that only excludes nodes with `NotIn` / `DoesNotExist` counts as every node). With such backends:',
    '',
    '- **NodePort** (and ClusterIP with `externalIPs`): **warning**. Clients (or an external load balancer that does',
    '  not health-check) that pick a node without a pod get timeouts; with 1 replica, every node but one drops.',
    '- **LoadBalancer**: **info**. A cloud load balancer probes the `healthCheckNodePort`, which answers 503 on',
    '  nodes without a local endpoint (MetalLB instead announces the IP only from nodes with a local endpoint), so',
    '  traffic only goes to nodes running a pod; but all traffic lands on',
    '  those few nodes, pods on one node share that node\'s share (imbalance), and during rollouts nodes fail the',
    '  check until the load balancer notices. Clients hitting the nodePorts directly are still dropped elsewhere.',
    '',
    'The message names the DaemonSet\'s selection ("DaemonSet ing/ing, which runs only on nodes matching',
    'node-role=ingress"). Silent when one selected workload is a DaemonSet on every node, or when the Service selects',
    'nothing in the workspace. Taints and tolerations are not considered. Workloads that run no pods now',
    '(`replicas: 0`, a Job or CronJob with `suspend: true`, `parallelism: 0` or `completions: 0`) are not counted as backends: they',
    'give no endpoint on any node, so the policy changes nothing for them. An autoscaled workload counts with its',
    'HorizontalPodAutoscaler\'s `maxReplicas` ("at most 10 nodes").',
    '',
    'Fixes: run the backends as a DaemonSet on every node the traffic reaches (or send the traffic only to the',
    'selected nodes: a load balancer or DNS naming just those); or set',
    '`externalTrafficPolicy: Cluster` (quick fix) — every node then forwards to any endpoint, but kube-proxy SNATs',
    'the traffic, so the backends see a node IP instead of the **client source IP**. The quick fix also removes a',
    'written `healthCheckNodePort` (the API server accepts one only with `externalTrafficPolicy: Local`); it is not',
    'offered when that entry cannot be removed exactly (it is anchored, reached through an alias, or has a comment).',
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/reference/networking/virtual-ips/#external-traffic-policy (v1.33)',
    'https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/#preserving-the-client-source-ip (v1.33)',
    'kubernetes staging/src/k8s.io/api/core/v1/types.go ServiceSpec.ExternalTrafficPolicy (v1.33)',
    'kubernetes pkg/proxy/iptables/proxier.go (no local endpoints → DROP, v1.33)',
    'kubernetes pkg/proxy/healthcheck/service_health.go (200 with local endpoints, else 503, v1.33)',
    'https://github.com/metallb/metallb/issues/322 (layer2 with Local announces only from nodes with a local endpoint)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#running-pods-on-select-nodes (v1.33)',
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/horizontal-pod-autoscaler-v2/ (minReplicas, maxReplicas; v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism (parallelism 0 runs no pods, v1.31); kubernetes pkg/controller/job/job_controller.go (manageJob: no more active Pods than completions minus succeeded, so completions 0 runs none, v1.31)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    let autoscalers: ReadonlyMap<string, Autoscaler> | undefined;
    for (const svc of model.services) {
      const policy = svc.externalTrafficPolicy;
      if (policy?.value !== 'Local' || svc.origin.type === 'builtin') continue;
      const type = svc.type.value;
      const viaExternalIPs = type === 'ClusterIP' && svc.externalIPs.length > 0;
      if (type !== 'NodePort' && type !== 'LoadBalancer' && !viaExternalIPs) continue;
      const backends = partialCoverageBackends(model, svc);
      if (backends.length === 0) continue;
      const scaling = (autoscalers ??= autoscalersOf(model.objects));
      const total = totalPods(backends, scaling);
      // Concrete node counts when the replicas are known: N pods are on at most N nodes.
      const landing = (caveat: boolean): string => (total === 1 ? 'the one node that runs it' : total !== undefined ? `at most ${total} nodes${caveat ? ' (fewer when pods share a node)' : ''}` : 'the nodes that run them');
      // Without a pod count the drop already says it: only nodes running them answer.
      const answering = total === 1 ? ' (only one node answers)' : total !== undefined ? ` (at most ${total} nodes answer)` : '';
      const entry = viaExternalIPs ? `its externalIPs (${svc.externalIPs.map((ip) => ip.value).join(', ')})` : nodePortsText(svc);
      const fix = 'run them on every node or use Cluster';
      // Long names leave no room for the details: the node count's caveat, the nodePort numbers and the names of the
      // autoscalers (kept in the related locations) give way first.
      const variants = (who: string): [string, ...string[]] => {
        const head = `externalTrafficPolicy Local on ${describe(svc)}, backends ${who}`;
        return type === 'LoadBalancer'
          ? [`${head}: the load balancer sends all traffic to ${landing(true)}; ${fix}`, `${head}: the load balancer sends all traffic to ${landing(false)}; ${fix}`]
          : [
            `${head}: kube-proxy drops traffic to ${entry} on nodes without such a pod${answering}; ${fix}`,
            `${head}: kube-proxy drops traffic to ${entry} on nodes without such a pod; ${fix}`,
            `${head}: kube-proxy drops traffic to ${viaExternalIPs ? entry : 'its nodePorts'} on nodes without such a pod; ${fix}`,
          ];
      };
      const message = firstFitting(...variants(backendsShortfall(backends, scaling)), ...variants(backendsShortfall(backends, scaling, true)));
      findings.push({
        ruleId: id,
        severity: type === 'LoadBalancer' ? 'info' : 'warning',
        message,
        span: policy.span,
        object: refOf(svc),
        related: backendLocations(backends, scaling),
        fixes: externalPolicyToCluster(svc, 'every node forwards; backends lose the client source IP to SNAT', type !== 'LoadBalancer'),
      });
    }
    return findings;
  },
};
