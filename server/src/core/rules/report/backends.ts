import type { WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import type { RelatedLocation } from '../rule';
import { joinNames } from './collisions';
import { daemonSetRestriction } from '../../kubernetes/scheduler/daemonset-coverage';
import { autoscalerOf, podCount } from '../../kubernetes/kube-proxy/traffic-policy';
import type { Autoscaler } from '../../kubernetes/controller-manager/autoscalers';

/**
 * How the backends fall short of every node, for messages: `Deployment a/b (2 replicas), not a DaemonSet`,
 * `DaemonSet ing/ing, which runs only on nodes matching node-role=ingress`, or for a mix
 * `Deployment a/b (2 replicas) and DaemonSet ing/ing (only on nodes matching node-role=ingress), not on every node`.
 * `autoscalers`: the HorizontalPodAutoscalers by target (autoscalersOf), for the replica counts they set; `short`:
 * without their names (see podCount).
 */
export function backendsShortfall(backends: readonly WorkloadObject[], autoscalers?: ReadonlyMap<string, Autoscaler>, short = false): string {
  const restricted = backends.filter((w) => w.kind === 'DaemonSet');
  if (restricted.length === 0) return `${describeBackends(backends, autoscalers, short)}, not a DaemonSet`;
  if (backends.length === 1) return `${describe(backends[0])}, which runs only on nodes matching ${daemonSetRestriction(backends[0])}`;
  return `${describeBackends(backends, autoscalers, short)}, not on every node`;
}

/** `Deployment ns/x (2 replicas)` for each backend, joined with commas and "and", at most five (see joinNames). */
export function describeBackends(backends: readonly WorkloadObject[], autoscalers?: ReadonlyMap<string, Autoscaler>, short = false): string {
  const names = backends.map((w) => {
    const count = podCount(w, autoscalerOf(w, autoscalers), short) ?? onlyOn(w);
    return count ? `${describe(w)} (${count})` : describe(w);
  });
  return joinNames(names);
}

/** Related locations pointing at each backend (its metadata.name, or its replicas value when written). */
export function backendLocations(backends: readonly WorkloadObject[], autoscalers?: ReadonlyMap<string, Autoscaler>): RelatedLocation[] {
  return backends.map((w) => {
    const count = podCount(w, autoscalerOf(w, autoscalers)) ?? onlyOn(w);
    return { span: w.replicas?.span ?? w.span, message: `backend ${describe(w)}${count ? ` (${count})` : ''}` };
  });
}

/** `only on nodes matching node-role=ingress` for a restricted DaemonSet, else undefined. */
function onlyOn(w: WorkloadObject): string | undefined {
  const restriction = daemonSetRestriction(w);
  return restriction ? `only on nodes matching ${restriction}` : undefined;
}
