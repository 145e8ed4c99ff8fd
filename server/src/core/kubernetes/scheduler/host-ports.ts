import type { HostPortClaim } from '../../model/claims';

/**
 * Host-level port claims that hold the port while the pod runs: init containers are left out (they
 * have exited before the pod's containers start, and the scheduler's NodePorts filter only reads
 * `spec.containers` — kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go, v1.33);
 * restartable init containers (sidecars) stay, they run for the pod's whole life. A `PodTemplate`
 * object runs nothing by itself and is left out too.
 */
export function runningClaims(claims: readonly HostPortClaim[] | undefined): HostPortClaim[] {
  return (claims ?? []).filter((c) => c.container.role !== 'init' && c.workload.kind !== 'PodTemplate');
}

/**
 * True when two hostIPs overlap on a node: equal, or one of them is the wildcard `0.0.0.0` (an empty
 * hostIP is stored as `0.0.0.0`). `::` is not a wildcard for the scheduler — kubernetes
 * pkg/scheduler/framework/types.go HostPortInfo.CheckConflict (v1.33).
 */
export function hostIPsOverlap(a: string, b: string): boolean {
  return a === b || a === '0.0.0.0' || b === '0.0.0.0';
}
