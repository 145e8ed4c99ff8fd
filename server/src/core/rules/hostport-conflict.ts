import type { HostPortClaim } from '../model/claims';
import { describe, WorkloadObject } from '../model/objects';
import { OwnerLineage } from '../model/owner-lineage';
import { areVariants, cappedRelated, collisionSummary, joinNames, splitSides } from './report/collisions';
import { claimLabel, portPhrase } from './report/claim-labels';
import { hostIPsOverlap, runningClaims } from '../kubernetes/scheduler/host-ports';
import { canShareNode, Meeting, nodeLabelsOf } from '../kubernetes/scheduler/placement';
import { duplicatesInPod } from './report/pod-host-port-duplicates';
import { idleWordsOf, idleWorkload } from '../kubernetes/controller-manager/idle';
import { firstFitting } from '../output/fit-message';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'hostport-conflict';

/** Two workloads that can share a node claim overlapping (hostIP, protocol, host-level port). */
/** Running host-level claims of one port compared pair by pair at most (1,000 → 500,000 placement checks). */
export const MAX_PAIRWISE_CLAIMS = 1000;

export const hostportConflict: Rule = {
  id,
  title: 'Host port claimed by two workloads that can share a node',
  severity: 'error',
  explanation: [
    "The scheduler's NodePorts filter lets a node hold each (hostIP, protocol, hostPort) once. An empty hostIP is",
    '`0.0.0.0` and overlaps every address; `::` is *not* treated as a wildcard (kubernetes',
    'pkg/scheduler/framework/types.go HostPortInfo). A hostNetwork pod holds its `containerPort`s the same way (the',
    'API server defaults hostPort to containerPort on its Pods). When two workloads claim an overlapping port, the',
    'second pod on a node stays **Pending** with `node(s) didn\'t have free ports for the requested pod ports`; a pod',
    'pinned with `nodeName` bypasses the scheduler and is rejected by the kubelet instead (`Predicate NodePorts failed`,',
    'phase Failed). Only regular containers count (the scheduler reads `spec.containers`).',
    '',
    'Whether the two can meet on a node is judged from the manifests (nodeSelector, required node affinity,',
    '`nodeName`, the `kubernetes.io/hostname` label; taints are unknown, nodes are assumed untainted):',
    '- **error** when they certainly meet: two DaemonSets whose node selections overlap so that one contains the',
    "  other, a DaemonSet and a pod pinned to a node it covers, two pods pinned to the same node — one of them is",
    '  Pending on every such node (a DaemonSet then misses nodes: node-level agents silently do not run);',
    '- **warning** when they only may (e.g. two Deployments: the scheduler keeps them apart while nodes last), or',
    '  when they would certainly meet but one side runs no pods now (`replicas: 0`, or a CronJob or Job with',
    '  `suspend: true`, `parallelism: 0` or `completions: 0`): the collision comes once it is scaled up or resumed. An HPA does not',
    '  scale a workload up from `replicas: 0` (it reports "scaling is disabled since the replica count of the target',
    '  is zero");',
    '- nothing when their selections exclude each other (e.g. `nodeSelector` `zone: a` vs `zone: b`).',
    'Variants of one object (same kind, namespace and name in several files) never collide, nor do the objects of one',
    'controller that `kubectl get -o yaml` dumps next to it: a Deployment, its ReplicaSets and their Pods, a CronJob',
    'and its Jobs, a DaemonSet or StatefulSet and its Pods (followed through `metadata.ownerReferences`).',
    '',
    'Inside one pod template the API server itself rejects the same protocol/hostIP/hostPort twice across',
    'containers (`Duplicate value: "TCP//80"`, init containers checked separately); for a hostNetwork template the',
    'rejection comes only when the controller creates the Pods (hostPort is defaulted on Pods only since v1.28).',
    'An overlapping but different hostIP (`0.0.0.0` next to a specific address) is accepted with the warning',
    '"dangerously ambiguous port definition" and reported here as a warning.',
    '',
    'Fix: give one side another hostPort, or restrict one side with a nodeSelector so they no longer meet.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go (NodePorts filter, v1.33)',
    'kubernetes pkg/scheduler/framework/types.go (HostPortInfo.CheckConflict, 0.0.0.0 wildcard, v1.33)',
    "kubernetes pkg/kubelet/lifecycle/predicate.go (kubelet admission: Predicate NodePorts failed, v1.33)",
    'kubernetes pkg/apis/core/validation/validation.go AccumulateUniqueHostPorts (Duplicate value, v1.33)',
    'kubernetes pkg/api/pod/warnings.go (dangerously ambiguous port definition, v1.28+)',
    'https://kubernetes.io/docs/concepts/configuration/overview/#services (hostIP, hostPort, protocol unique)',
    'https://kubernetes.io/docs/concepts/overview/working-with-objects/owners-dependents/ (ownerReferences, v1.33)',
    'kubernetes pkg/controller/podautoscaler/horizontal.go (ScalingDisabled when the target has 0 replicas, v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#schedule-suspension (suspend, v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/job/#controlling-parallelism (parallelism 0 runs no pods, v1.31); kubernetes pkg/controller/job/job_controller.go (manageJob: no more active Pods than completions minus succeeded, so completions 0 runs none, v1.31)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    const nodes = nodeLabelsOf(model.nodes);
    const lineage = new OwnerLineage(model.workloads);
    for (const [port, all] of model.hostPorts) {
      const claims = runningClaims(all).filter((c) => c.container.role === 'container');
      if (claims.length < 2) continue;
      // Placement is compared pair by pair: past the limit, say so instead of running for hours.
      const compared = claims.length > MAX_PAIRWISE_CLAIMS ? claims.slice(0, MAX_PAIRWISE_CLAIMS) : claims;
      if (compared !== claims) {
        const first = claims[MAX_PAIRWISE_CLAIMS];
        findings.push({
          ruleId: id, severity: 'warning', span: first.span, object: refOf(first.workload), related: [], fixes: [],
          message: `hostPort ${port} is claimed by ${claims.length} running workloads: only the first ${MAX_PAIRWISE_CLAIMS} are compared pair by pair for nodes they share, so collisions of this one and the ${claims.length - MAX_PAIRWISE_CLAIMS - 1} after it are not reported`,
        });
      }
      const meetings = new Map<HostPortClaim, { other: HostPortClaim; meeting: Meeting }[]>();
      for (let i = 0; i < compared.length; i++) {
        for (let j = i + 1; j < compared.length; j++) {
          const [a, b] = [compared[i], compared[j]];
          if (a.workload === b.workload || areVariants(a.workload, b.workload) || lineage.sameWorkload(a.workload, b.workload)) continue;
          if (a.protocol !== b.protocol || !hostIPsOverlap(a.hostIP, b.hostIP)) continue;
          const meeting = canShareNode(a.workload, b.workload, nodes);
          if (meeting === 'never') continue;
          (meetings.get(a) ?? meetings.set(a, []).get(a)!).push({ other: b, meeting });
          (meetings.get(b) ?? meetings.set(b, []).get(b)!).push({ other: a, meeting });
        }
      }
      // The first sides one by one, the others in one summary.
      const { shown, rest } = splitSides([...meetings]);
      for (const [claim, others] of shown) findings.push(crossFinding(claim, others, port));
      const certain = rest.some(([c, others]) => !idleWorkload(c.workload) && others.some((o) => o.meeting === 'certain' && !idleWorkload(o.other.workload)));
      findings.push(...collisionSummary(hostportConflict, rest.map(([c]) => ({ span: c.span, label: claimLabel(c), object: c.workload })), `hostPort ${port}`, meetings.size, certain ? 'error' : 'warning'));
    }
    for (const w of model.workloads) findings.push(...duplicatesInPod(w, id));
    return findings;
  },
};

function crossFinding(claim: HostPortClaim, others: { other: HostPortClaim; meeting: Meeting }[], port: number): Finding {
  // A side that runs no pods now holds the port on no node: a certain meeting with it is one to come, not one now.
  const ownIdle = idleWorkload(claim.workload);
  const isCertain = (o: { other: HostPortClaim; meeting: Meeting }): boolean => o.meeting === 'certain' && !ownIdle && !idleWorkload(o.other.workload);
  const certain = others.filter(isCertain);
  const latent = certain.length ? [] : others.filter((o) => o.meeting === 'certain');
  const shown = certain.length ? certain : latent.length ? latent : others;
  const names = joinNames([...new Set(shown.map((o) => describe(o.other.workload)))], 3);
  const idleOthers = [...new Set(latent.map((o) => o.other.workload))];
  // Long names leave room to name the idle side by its kind only (the finding is on it, or names it before).
  const idleSide = (byKind: boolean): string => ownIdle
    ? idleWordsOf(claim.workload, ownIdle, byKind)
    : idleOthers.length === 1
      ? idleWordsOf(idleOthers[0], idleWorkload(idleOthers[0])!, byKind)
      : `none of them runs pods now (${[...new Set(idleOthers.map((w) => idleWorkload(w)!.field))].join(', ')})`;
  const where = (byKind: boolean): string => certain.length
    ? `they certainly share nodes, so on each shared node one pod stays Pending ("didn't have free ports"); give one side another port`
    : latent.length
      ? `${idleSide(byKind)}, but once ${!ownIdle && idleOthers.length > 1 ? 'one' : 'it'} runs they certainly share nodes and on each one pod stays Pending ("didn't have free ports"); give one side another port`
      : `they may land on the same node, and one pod then stays Pending ("didn't have free ports") unless another node has the port free; give one side another port`;
  return {
    ruleId: id,
    severity: certain.length ? 'error' : 'warning',
    message: firstFitting(`${portPhrase(claim)} is also claimed by ${names}: ${where(false)}`, `${portPhrase(claim)} is also claimed by ${names}: ${where(true)}`),
    span: claim.span,
    object: refOf(claim.workload),
    related: cappedRelated(others, (o) => ({ span: o.other.span, message: `${claimLabel(o.other)} (${isCertain(o) ? 'certainly on the same node' : o.meeting === 'certain' ? 'on the same node once both run' : 'possibly on the same node'})` })),
    fixes: [],
  };
}
