import type { HostPortClaim } from '../../model/claims';
import type { Fix } from '../rule';

/**
 * The "remove the hostPort" fix for a claim of a pod that is not hostNetwork, when the loader found an
 * exact edit (ContainerPort.hostPortRemoval). Removing a hostPort never creates a collision.
 */
export function removeHostPortFix(c: HostPortClaim, why: string): Fix[] {
  const span = c.containerPort.hostPortRemoval;
  if (c.hostNetwork || !span) return [];
  return [{ title: `Remove hostPort ${c.port} (${why})`, edits: [{ span, newText: '' }] }];
}
