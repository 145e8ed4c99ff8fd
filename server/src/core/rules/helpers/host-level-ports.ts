import type { HostPortClaim } from '../../model/claims';
import { describe } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { Fix } from '../rule';

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

/** `hostPort 31123/TCP` or `hostNetwork port 30092/TCP`, the way a claim is named in messages. */
export function portPhrase(c: HostPortClaim): string {
  return `${c.hostNetwork ? 'hostNetwork port' : 'hostPort'} ${c.port}/${c.protocol}${c.hostIP !== '0.0.0.0' ? ` on hostIP ${c.hostIP}` : ''}`;
}

/** `hostPort 31123/TCP of Deployment default/web (container web)`. */
export function claimLabel(c: HostPortClaim): string {
  return `${portPhrase(c)} of ${describe(c.workload)} (container ${c.container.name})`;
}

/**
 * The "remove the hostPort" fix for a claim of a pod that is not hostNetwork, when the loader found an
 * exact edit (ContainerPort.hostPortRemoval). Removing a hostPort never creates a collision.
 */
export function removeHostPortFix(c: HostPortClaim, why: string): Fix[] {
  const span = c.containerPort.hostPortRemoval;
  if (c.hostNetwork || !span) return [];
  return [{ title: `Remove hostPort ${c.port} (${why})`, edits: [{ span, newText: '' }] }];
}

/** True when any Service, nodePort, healthCheckNodePort or host-level port of the model uses the number. */
export function portUsed(model: WorkspaceModel, port: number): boolean {
  return model.nodePorts.has(port) || model.hostPorts.has(port) || model.servicePorts.has(port);
}
