import type { K8sObject } from '../../model/objects';

/**
 * True for a Helm hook (`helm.sh/hook` annotation: `test`, `pre-install`, …): Helm creates it only around
 * an install, upgrade or `helm test` and deletes it after, so it is not a lasting backend of a Service even
 * when it carries the app's labels (chart test Pods usually do). Source: https://helm.sh/docs/topics/charts_hooks/
 * (Helm v3).
 */
export function isHelmHook(obj: K8sObject): boolean {
  return obj.annotations['helm.sh/hook'] !== undefined;
}
