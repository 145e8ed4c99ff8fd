import type { NodePortClaim } from '../model/claims';
import { describe } from '../model/objects';
import { areVariants, cappedRelated, collisionSummary, fitNames, joinNames, splitSides } from './report/collisions';
import { holdsNodePort } from '../kubernetes/api-server/validation';
import { freeNodePort } from './fixes/free-node-port';
import type { Finding, Fix, Rule } from './rule';
import { refOf } from './rule';

const id = 'healthcheck-nodeport-duplicate';


/** `healthCheckNodePort 30990 of Service a/b`, or `nodePort 30990 (port "hc") of Service a/b`. */
function label(c: NodePortClaim): string {
  const port = c.servicePort ? ` (port ${c.servicePort.name ? `"${c.servicePort.name.value}"` : `#${c.servicePort.index}`})` : '';
  return `${c.field} ${c.port}${port} of ${describe(c.service)}`;
}

/**
 * A healthCheckNodePort equal to a nodePort or another healthCheckNodePort — of any Service, its own
 * included: one allocator hands out both kinds, keyed on the number only.
 */
export const healthcheckNodeportDuplicate: Rule = {
  id,
  title: 'healthCheckNodePort already used as a nodePort',
  severity: 'error',
  explanation: [
    'A LoadBalancer Service with `externalTrafficPolicy: Local` gets a `healthCheckNodePort`: kube-proxy serves',
    "the Service's health check on that port of every node, so the cloud load balancer only sends traffic to nodes",
    'with a local endpoint. The API server takes that port from the **same allocator as nodePorts**, keyed on the',
    'number only. A healthCheckNodePort equal to any nodePort or healthCheckNodePort — another Service\'s or one of',
    'the same Service\'s own ports — is refused when the second one is applied:',
    '',
    '`failed to allocate requested HealthCheck NodePort 30990: provided port is already allocated`',
    '',
    'or, when the healthCheckNodePort was there first, `spec.ports[i].nodePort: Invalid value: 30990: provided port is',
    'already allocated` for the other Service. Inside one Service the nodePorts are allocated first, so its own',
    'healthCheckNodePort is the one refused. A clash between Services is reported on both sides, each naming the',
    "other; a clash inside one Service is reported on its healthCheckNodePort. Fix: pick another port (the quick fix",
    'proposes a free one from the static band of the range) or leave healthCheckNodePort out to have one allocated.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/registry/core/service/storage/alloc.go (allocHealthCheckNodePort uses the nodePort allocator, v1.33)',
    'kubernetes pkg/registry/core/service/portallocator/allocator.go (ErrAllocated, v1.33)',
    'kubernetes pkg/api/service/util.go (NeedsHealthCheck, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#preserving-the-client-source-ip (v1.33)',
  ],
  freePortFixes: true,
  check({ model, config }) {
    const findings: Finding[] = [];
    const taken = new Set<number>();
    const fixFor = (c: NodePortClaim): Fix[] => {
      const free = freeNodePort(model, config, taken);
      if (free === undefined) return [];
      taken.add(free);
      return [{ title: `Change ${c.field} ${c.port} to free port ${free}`, edits: [{ span: c.span, newText: String(free) }], preferred: true }];
    };
    for (const [port, all] of model.nodePorts) {
      if (!all.some((c) => c.field === 'healthCheckNodePort')) continue;
      const claims = all.filter((c) => holdsNodePort(c) && c.service.origin.type !== 'builtin');
      const healthChecked = new Set(claims.filter((c) => c.field === 'healthCheckNodePort').map((c) => c.service));
      const collides = (c: NodePortClaim): boolean =>
        c.field === 'healthCheckNodePort' ? claims.length > 1 : healthChecked.size > 1 || (healthChecked.size === 1 && !healthChecked.has(c.service));
      // A port shared by thousands of Services: the first sides one by one, the others in one summary (linear).
      const { shown, rest } = splitSides(claims);
      const summarised = rest.filter(collides);
      let reported = 0;
      for (const side of shown) {
        // A healthCheckNodePort clashes with every other claim; a nodePort only with healthCheckNodePorts of
        // other Services (nodePort vs nodePort is nodeport-duplicate; its own Service's clash is reported on the healthCheckNodePort).
        const others = claims.filter((o) =>
          o !== side && !areVariants(o.service, side.service) &&
          (side.field === 'healthCheckNodePort' ? true : o.field === 'healthCheckNodePort' && o.service !== side.service));
        if (others.length === 0) continue;
        // Another Service's port name is left to the related locations, to keep the message short.
        const names = others.map((o) => (o.service === side.service ? `${o.field} ${port}${o.servicePort?.name ? ` (port "${o.servicePort.name.value}")` : ''} of the same Service` : `${o.field} ${port} of ${describe(o.service)}`));
        const why = side.field === 'healthCheckNodePort' && others.every((o) => o.service === side.service)
          ? 'the API server refuses the Service ("already allocated")'
          : 'whichever Service is applied second is refused ("already allocated")';
        findings.push({
          ruleId: id,
          severity: 'error',
          message: fitNames((max) => `${side.field} ${port} of ${describe(side.service)} is also ${joinNames(names, max)}: both come from one allocator, so ${why}; pick another port`, 3),
          span: side.span,
          object: refOf(side.service),
          related: cappedRelated(others, (o) => ({ span: o.span, message: label(o) })),
          fixes: fixFor(side),
        });
        reported++;
      }
      findings.push(...collisionSummary(healthcheckNodeportDuplicate, summarised.map((c) => ({ span: c.span, label: label(c), object: c.service })), `port ${port}`, reported + summarised.length));
    }
    return findings;
  },
};
