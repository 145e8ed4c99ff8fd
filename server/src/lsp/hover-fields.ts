/**
 * What a port-bearing field's value does on a node, as short markdown for hovers. Sources (v1.33):
 * - nodePort / healthCheckNodePort allocator, externalIPs, Service types:
 *   https://kubernetes.io/docs/concepts/services-networking/service/ and kubernetes
 *   pkg/registry/core/service/portallocator/allocator.go;
 * - health check server (200 with local endpoints, else 503): kubernetes pkg/proxy/healthcheck/service_health.go;
 * - `--nodeport-addresses` (nftables defaults to `primary`), traffic policies (no local endpoint = drop):
 *   https://kubernetes.io/docs/reference/networking/virtual-ips/;
 * - hostPort via the CNI portmap plugin: https://www.cni.dev/plugins/current/meta/portmap/;
 * - hostNetwork defaults hostPort to containerPort: kubernetes pkg/apis/core/v1/defaults.go;
 * - CVE-2020-8554: https://github.com/kubernetes/kubernetes/issues/97076.
 */

/** Fields that get a hover. */
export const HOVER_FIELDS: ReadonlySet<string> = new Set([
  'nodePort', 'port', 'targetPort', 'containerPort', 'hostPort', 'healthCheckNodePort',
  'externalTrafficPolicy', 'internalTrafficPolicy', 'hostNetwork', 'externalIPs', 'type',
]);

/**
 * Markdown explanation of `key: value`.
 * @param hostNetwork true when the field belongs to a pod with `hostNetwork: true` (changes containerPort's meaning)
 */
export function explainField(key: string, value: unknown, hostNetwork: boolean): string | undefined {
  const v = value === undefined || value === null ? '' : String(value);
  switch (key) {
    case 'nodePort':
      return `**nodePort ${v}**: kube-proxy accepts this port on every node (all node addresses, or those selected by \`--nodeport-addresses\`; the nftables mode defaults to the primary IP) and forwards it to the Service's endpoints. It comes from one cluster-wide allocator keyed on the number only: no other Service may hold it, for any protocol.`;
    case 'healthCheckNodePort':
      return `**healthCheckNodePort ${v}**: kube-proxy serves an HTTP health check on this port on every node (200 when the node has a ready local endpoint, else 503), so the load balancer sends traffic only to such nodes. It is taken from the same allocator as nodePorts.`;
    case 'port':
      return `**port ${v}**: the Service's port on its ClusterIP (and on its externalIPs / load-balancer IPs). kube-proxy intercepts it on every node for those IPs; it does not open the port on node addresses.`;
    case 'targetPort':
      return `**targetPort ${v}**: where traffic is sent on the selected pods — a number, or the \`name\` of a containerPort. It defaults to \`port\`.`;
    case 'containerPort':
      return hostNetwork
        ? `**containerPort ${v}** of a \`hostNetwork\` pod: the process binds this port on the node itself (the API server defaults hostPort to it), so it collides with anything else on the node's port ${v}.`
        : `**containerPort ${v}**: the port the container listens on inside the pod's own network namespace; it is informational (a Service's targetPort may name it) and takes nothing on the node.`;
    case 'hostPort':
      return `**hostPort ${v}**: the CNI portmap plugin DNATs node:${v} to this container on the node where the pod runs. The scheduler places at most one pod per node per hostIP/port/protocol.`;
    case 'externalTrafficPolicy':
      return v === 'Local'
        ? '**externalTrafficPolicy: Local**: nodes without a ready local endpoint drop external traffic for the Service (the client source IP is kept); the healthCheckNodePort tells load balancers which nodes have one.'
        : `**externalTrafficPolicy: ${v || 'Cluster'}**: every node forwards external traffic to any endpoint of the Service, SNATing the client source IP.`;
    case 'internalTrafficPolicy':
      return v === 'Local'
        ? '**internalTrafficPolicy: Local**: traffic to the ClusterIP from a node goes only to endpoints on that node, and is dropped when there is none.'
        : `**internalTrafficPolicy: ${v || 'Cluster'}**: traffic to the ClusterIP goes to any endpoint of the Service.`;
    case 'hostNetwork':
      return v === 'true'
        ? '**hostNetwork: true**: the pod shares the node\'s network namespace; its containerPorts bind on the node\'s addresses and can collide with nodePorts, hostPorts and node daemons (kubelet 10250, kube-proxy 10256…).'
        : '**hostNetwork: false**: the pod has its own network namespace; its ports take nothing on the node unless a hostPort is set.';
    case 'externalIPs':
      return `**externalIP ${v}**: kube-proxy captures traffic to this IP on the Service's ports on every node; Kubernetes does not allocate or route the address — the cluster administrator must. Anyone who can set externalIPs can intercept traffic to that IP (CVE-2020-8554).`;
    case 'type':
      return typeText(v);
    default:
      return undefined;
  }
}

function typeText(v: string): string | undefined {
  switch (v) {
    case 'ClusterIP':
      return '**type: ClusterIP**: a virtual IP reachable inside the cluster only; nothing is opened on node addresses.';
    case 'NodePort':
      return '**type: NodePort**: a ClusterIP plus a nodePort per port, opened by kube-proxy on every node.';
    case 'LoadBalancer':
      return '**type: LoadBalancer**: a NodePort Service (unless `allocateLoadBalancerNodePorts: false`) plus an external load balancer that targets the nodes.';
    case 'ExternalName':
      return '**type: ExternalName**: a DNS CNAME; kube-proxy programs nothing for it.';
    default:
      return undefined;
  }
}
