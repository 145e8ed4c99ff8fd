import { HostPortClaim, hostPortClaims } from '../../model/claims';
import { describe, WorkloadObject } from '../../model/objects';
import type { Finding } from '../rule';
import { refOf } from '../rule';
import { claimLabel, portPhrase } from './claim-labels';
import { hostIPsOverlap } from '../../kubernetes/scheduler/host-ports';

/**
 * Host-level ports claimed twice inside one pod template. The API server checks regular containers and
 * init containers (sidecars included) as two separate groups, on the key protocol/hostIP/hostPort with the
 * hostIP as written (`""` and `0.0.0.0` differ) — kubernetes pkg/apis/core/validation/validation.go
 * AccumulateUniqueHostPorts (v1.33). An exact repeat is rejected (error); an overlapping one (a wildcard
 * next to a specific hostIP) is accepted with the warning "dangerously ambiguous port definition"
 * (pkg/api/pod/warnings.go, v1.28+) and reported as a warning. Each repeat is reported once, at the later entry.
 */
export function duplicatesInPod(w: WorkloadObject, ruleId: string): Finding[] {
  const groups = new Map<string, HostPortClaim[]>();
  for (const c of hostPortClaims(w)) {
    const group = c.container.role === 'container' ? 'containers' : 'initContainers';
    const key = `${group}/${c.protocol}/${c.port}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(c);
  }
  const findings: Finding[] = [];
  for (const claims of groups.values()) {
    for (let j = 1; j < claims.length; j++) {
      const later = claims[j];
      const earlier = claims.slice(0, j).find((c) => hostIPsOverlap(c.hostIP, later.hostIP));
      if (!earlier) continue;
      const exact = rawHostIP(earlier) === rawHostIP(later);
      const defaulted = !later.containerPort.hostPort;
      const consequence = exact
        ? defaulted
          ? `with hostNetwork the API server defaults hostPort to containerPort and rejects each Pod ("Duplicate value: \\"${later.protocol}/${rawHostIP(later)}/${later.port}\\""); give one a different port`
          : `the API server rejects the object ("Duplicate value: \\"${later.protocol}/${rawHostIP(later)}/${later.port}\\""); give one a different port`
        : `the API server accepts it with the warning "dangerously ambiguous port definition", and only one of the two entries can receive the traffic`;
      findings.push({
        ruleId,
        severity: exact ? 'error' : 'warning',
        message: `${portPhrase(later)} is claimed twice in the pod template of ${describe(w)} (also by container ${earlier.container.name}): ${consequence}`,
        span: later.span,
        object: refOf(w),
        related: [{ span: earlier.span, message: `first claim: ${claimLabel(earlier)}` }],
        fixes: [],
      });
    }
  }
  return findings;
}

function rawHostIP(c: HostPortClaim): string {
  return c.containerPort.hostIP?.value ?? '';
}
