import { describe } from '../model/objects';
import type { NodePortClaim } from '../model/claims';
import { CollisionSide, fitNames, joinNames, reportCollision } from './report/collisions';
import { freeNodePort } from './fixes/free-node-port';
import { holdsNodePort } from '../kubernetes/api-server/validation';
import type { Finding, Fix, Rule } from './rule';
import { refOf } from './rule';

const id = 'nodeport-duplicate';

/** Two Services (or two ports of one Service with the same protocol) claim the same nodePort. */
export const nodeportDuplicate: Rule = {
  id,
  title: 'nodePort claimed twice',
  severity: 'error',
  explanation: [
    'Every nodePort is allocated from one cluster-wide allocator that keys on the **number only**: a nodePort held by',
    'one Service (for any protocol) cannot be given to another Service. The API server rejects the second Service',
    'with `spec.ports[i].nodePort: Invalid value: N: provided port is already allocated`, so whichever manifest is',
    'applied second fails — often only in the environment where both are deployed.',
    '',
    'Inside one Service the same nodePort may be used once per protocol (e.g. DNS on 30053/TCP and 30053/UDP);',
    'the same protocol twice is rejected with `Duplicate value` (on any type of Service).',
    '',
    'Only nodePorts the allocator hands out count across Services: those of NodePort and LoadBalancer Services. An',
    "ExternalName Service's nodePort is stored but never allocated (`service-spec-invalid` warns about it), and a",
    "ClusterIP Service's is rejected.",
    '',
    'Fix: give one of the Services another nodePort. The quick fix picks a port that nothing on the nodes uses (no',
    'nodePort, hostPort, hostNetwork port, externalIP port or node component port: the free ports of the',
    "node-port map), from the range's static band (KEP-3668), which automatic allocation avoids.",
  ].join('\n'),
  sources: [
    'kubernetes pkg/registry/core/service/portallocator/allocator.go (ErrAllocated, v1.33)',
    'kubernetes pkg/apis/core/validation/validation.go ValidateService (nodePort Duplicate value, v1.33)',
    'kubernetes pkg/registry/core/service/storage/alloc.go (txnAllocNodePorts: NodePort and LoadBalancer only, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#avoid-nodeport-collisions (v1.33)',
  ],
  freePortFixes: true,
  check({ model, config }) {
    const findings: Finding[] = [];
    for (const [port, claims] of model.nodePorts) {
      const nodePortClaims = claims.filter((c) => c.field === 'nodePort');
      if (nodePortClaims.length < 2) continue;
      // Across Services only the nodePorts the allocator hands out count: an ExternalName Service's nodePort holds
      // nothing. ValidateService's Duplicate check inside one Service runs for every type.
      const allocated = nodePortClaims.filter(holdsNodePort);
      const fix = (side: CollisionSide): Fix[] => {
        const claim = nodePortClaims.find((c) => c.span === side.span);
        const free = freeNodePort(model, config);
        // Another number would not help a Service that allocates no nodePort: the field has no use there.
        if (!claim || free === undefined || !holdsNodePort(claim)) return [];
        return [{ title: `Change nodePort ${port} to free port ${free}`, edits: [{ span: claim.span, newText: String(free) }], preferred: true }];
      };
      // Across Services: one side per Service (its first claim), protocol ignored.
      const perService = new Map<string, NodePortClaim>();
      for (const c of allocated) if (!perService.has(c.service.uid)) perService.set(c.service.uid, c);
      const sides: CollisionSide[] = [...perService.values()].map((c) => ({ object: c.service, span: c.span, label: `nodePort ${port} of ${describe(c.service)}` }));
      findings.push(
        ...reportCollision(nodeportDuplicate, sides, (_side, others) => fitNames((max) =>
          `nodePort ${port} is also claimed by ${joinNames([...new Set(others.map((o) => describe(o.object)))], max)}: nodePorts are cluster-wide, so the API server rejects whichever Service is applied second ("provided port is already allocated"); pick another port`),
          { fixes: fix, what: `nodePort ${port}` }),
      );
      // Inside one Service: the same (protocol, nodePort) twice.
      const seen = new Map<string, NodePortClaim>();
      for (const c of nodePortClaims) {
        const key = `${c.service.uid}|${c.protocol}`;
        const first = seen.get(key);
        if (!first) {
          seen.set(key, c);
          continue;
        }
        findings.push({
          ruleId: id,
          severity: 'error',
          message: `nodePort ${port}/${c.protocol} is used twice in ${describe(c.service)} (also by port ${first.servicePort?.name?.value ?? `#${first.servicePort?.index}`}): the API server rejects the Service with "Duplicate value: ${port}"; give one of them another nodePort`,
          span: c.span,
          object: refOf(c.service),
          related: [{ span: first.span, message: `first use of nodePort ${port}/${c.protocol}` }],
          fixes: fix({ object: c.service, span: c.span, label: '' }),
        });
      }
    }
    return findings;
  },
};
