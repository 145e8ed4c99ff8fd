import type { K8sObject } from './objects';
import { controllerRefKey, podController, twinKey } from './merge-cluster-objects';

/**
 * Which objects of a workspace are one workload: an object and the controllers above it that its
 * `metadata.ownerReferences` name. `kubectl get deploy,rs,pods -o yaml` puts a Deployment, its ReplicaSet and
 * their Pods in one file; a CronJob's Jobs sit next to it the same way. They are one pod template, run as the
 * same pods, so they never collide with each other. Pure data.
 *
 * Source for owner references (the `controller: true` entry is the managing controller):
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/owners-dependents/ (v1.33); a ReplicaSet named
 * `<deployment>-<pod-template-hash>` belongs to that Deployment: kubernetes pkg/controller/deployment/sync.go (v1.33).
 */
export class OwnerLineage {
  private readonly byKey: ReadonlyMap<string, K8sObject>;
  private readonly cache = new Map<K8sObject, ReadonlySet<string>>();

  /** @param objects the objects whose owners can be followed (the workspace's workloads) */
  constructor(objects: readonly K8sObject[]) {
    this.byKey = new Map(objects.map((o) => [twinKey(o), o]));
  }

  /**
   * The twin keys ({@link twinKey}) of `o` and of every controller above it: its controller ownerReference, the
   * Deployment a `<name>-<hash>` ReplicaSet stands for, and, when that owner is one of the objects, its own
   * controllers in turn (Pod → ReplicaSet → Deployment, Pod → Job → CronJob). At most 8 levels; cycles end.
   */
  keysOf(o: K8sObject): ReadonlySet<string> {
    const cached = this.cache.get(o);
    if (cached) return cached;
    const keys = new Set<string>();
    const visited = new Set<K8sObject>();
    let current: K8sObject | undefined = o;
    for (let depth = 0; current && !visited.has(current) && depth < 8; depth++) {
      visited.add(current);
      keys.add(twinKey(current));
      const owner = podController(current);
      const direct = controllerRefKey(current);
      if (!owner || !direct) break;
      keys.add(owner).add(direct);
      current = this.byKey.get(direct) ?? this.byKey.get(owner);
    }
    this.cache.set(o, keys);
    return keys;
  }

  /** True when `a` and `b` are one workload: one is a controller above the other, or they share one. */
  sameWorkload(a: K8sObject, b: K8sObject): boolean {
    const ka = this.keysOf(a);
    for (const k of this.keysOf(b)) if (ka.has(k)) return true;
    return false;
  }
}
