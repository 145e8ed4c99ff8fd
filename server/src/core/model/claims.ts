import type { Span } from '../source/span';
import type { Container, ContainerPort, ServiceObject, ServicePort, WorkloadObject } from './objects';

/** A Service's claim on a number of the cluster-wide NodePort allocator (nodePort or healthCheckNodePort). */
export interface NodePortClaim {
  readonly port: number;
  readonly field: 'nodePort' | 'healthCheckNodePort';
  readonly service: ServiceObject;
  /** The Service port entry, for `nodePort` claims. */
  readonly servicePort?: ServicePort;
  readonly protocol: string;
  readonly span: Span;
}

/**
 * A port a pod holds on its node: a `hostPort` (served by the CNI portmap plugin) or, for a
 * `hostNetwork` pod, a `containerPort` (the process binds the node's address directly; the API
 * server defaults hostPort to containerPort on real Pods — kubernetes pkg/apis/core/v1/defaults.go).
 */
export interface HostPortClaim {
  readonly port: number;
  readonly protocol: string;
  /** The hostIP, `0.0.0.0` when empty (scheduler semantics: pkg/scheduler/framework/types.go HostPortInfo). */
  readonly hostIP: string;
  readonly workload: WorkloadObject;
  readonly container: Container;
  readonly containerPort: ContainerPort;
  /** The `hostPort` value when written, else the `containerPort` value. */
  readonly span: Span;
  /** True when the claim comes from hostNetwork (no hostPort written, or hostPort = containerPort on a hostNetwork pod). */
  readonly hostNetwork: boolean;
}

/** A Service `port` (the port on the ClusterIP / externalIPs). */
export interface ServicePortClaim {
  readonly port: number;
  readonly protocol: string;
  readonly service: ServiceObject;
  readonly servicePort: ServicePort;
  readonly span: Span;
}

/**
 * A Service port on one of its `externalIPs`: kube-proxy captures `address:port/protocol` on every node and
 * sends it to the Service (kubernetes pkg/proxy/iptables/proxier.go, one KUBE-SERVICES rule per externalIP:port,
 * v1.33). `span` is the externalIPs entry (where collisions are reported); `portSpan` the Service `port`.
 */
export interface ExternalIPClaim {
  readonly port: number;
  readonly protocol: string;
  /** The address as written. */
  readonly address: string;
  readonly service: ServiceObject;
  readonly servicePort: ServicePort;
  readonly span: Span;
  readonly portSpan: Span;
}

/** All host-level ports of one workload (see {@link HostPortClaim}). */
export function hostPortClaims(workload: WorkloadObject): HostPortClaim[] {
  const out: HostPortClaim[] = [];
  const hostNetwork = workload.pod.hostNetwork?.value === true;
  for (const container of workload.pod.containers) {
    for (const cp of container.ports) {
      const loc = cp.hostPort ?? (hostNetwork ? cp.containerPort : undefined);
      if (!loc || loc.value < 1 || loc.value > 65535) continue;
      out.push({
        port: loc.value,
        protocol: cp.protocol.value.toUpperCase(),
        hostIP: cp.hostIP?.value || '0.0.0.0',
        workload,
        container,
        containerPort: cp,
        span: loc.span,
        hostNetwork,
      });
    }
  }
  return out;
}
