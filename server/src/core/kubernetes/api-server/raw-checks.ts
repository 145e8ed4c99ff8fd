import type { RawCheck, WorkloadObject } from '../../model/objects';
import { isRecord, rawAt } from '../../model/views/raw-fields';
import { containerRestartPolicyProblems, httpSchemeProblems, requirementProblems } from './pod-spec';
import { schedulingProblems } from './pod-scheduling';

/**
 * The checks of pod-spec-invalid that read a workload's `raw`, each as the loader runs it: as on a whole object
 * written as it is (not a kustomize patch, which only narrows what they find), so that a check that finds nothing
 * here finds nothing later either.
 */
const RAW_CHECKS: readonly (readonly [RawCheck, (w: WorkloadObject) => readonly unknown[]])[] = [
  ['httpScheme', httpSchemeProblems],
  ['restartPolicy', containerRestartPolicyProblems],
  ['scheduling', (w) => schedulingProblems(w, false)],
  ['selectorRequirements', (w) => requirementProblems(w, 'spec.selector.matchExpressions', 'spec.selector.matchExpressions')],
];

/**
 * The {@link RawCheck}s that find something in `w`, for the loader to record (PodTemplate.rawChecks): it has `raw`
 * parsed, while on the main thread the first read of `raw` parses the whole object, so the checks run there only
 * for the few workloads that need them. A check runs only where its field is written at all (most workloads write
 * none of them). `w` must not carry `rawChecks` yet.
 */
export function rawChecksFinding(w: WorkloadObject): RawCheck[] {
  const written = writtenFields(w);
  return RAW_CHECKS.filter(([name, check]) => written.has(name) && check(w).length > 0).map(([name]) => name);
}

/** The checks whose fields `w`'s raw writes: an httpGet `scheme`, a container's `restartPolicy`, affinity or spread constraints, selector requirements. */
function writtenFields(w: WorkloadObject): Set<RawCheck> {
  // Run for every workload the loader reads: plain loops over the JSON, nothing built that is not kept.
  const out = new Set<RawCheck>();
  const spec = rawAt(w.raw, w.pod.path);
  if (!isRecord(spec)) return out;
  if (spec.affinity !== undefined || spec.topologySpreadConstraints !== undefined) out.add('scheduling');
  const selector = isRecord(w.raw.spec) ? w.raw.spec.selector : undefined;
  if (isRecord(selector) && Array.isArray(selector.matchExpressions)) out.add('selectorRequirements');
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const c of containers) {
      if (!isRecord(c)) continue;
      if (c.restartPolicy !== undefined) out.add('restartPolicy');
      const lifecycle = isRecord(c.lifecycle) ? c.lifecycle : undefined;
      if (hasScheme(c.livenessProbe) || hasScheme(c.readinessProbe) || hasScheme(c.startupProbe) || (lifecycle && (hasScheme(lifecycle.postStart) || hasScheme(lifecycle.preStop)))) out.add('httpScheme');
    }
  }
  return out;
}

const CONTAINER_LISTS = ['initContainers', 'containers'] as const;

/** True for a probe or hook whose httpGet writes a `scheme`. */
function hasScheme(handler: unknown): boolean {
  return isRecord(handler) && isRecord(handler.httpGet) && handler.httpGet.scheme !== undefined;
}
