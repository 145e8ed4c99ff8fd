import type { Sourced } from '../model/cluster-settings';
import type { PortRange } from '../config/config';
import { describe } from '../model/objects';
import type { Located, Span } from '../source/span';
import { nodePortsOutsideRange } from '../kubernetes/api-server/validation';
import { freeNodePort } from './fixes/free-node-port';
import type { Finding, RelatedLocation, Rule } from './rule';
import { refOf } from './rule';

const id = 'nodeport-out-of-range';

/** Says where the effective NodePort range came from, for messages. */
export function describeRangeSource(range: Sourced<PortRange>): string {
  if (range.source === 'default') return 'the Kubernetes default';
  if (range.source === 'config') return 'from the kube-netlint config';
  return `from the ${range.source}`;
}

/**
 * A nodePort or healthCheckNodePort outside the cluster's NodePort range. Only Services whose
 * ports the API server allocates are checked (nodePorts of NodePort/LoadBalancer Services,
 * healthCheckNodePort of LoadBalancer + Local); other cases are rejected earlier by validation
 * and reported by `service-spec-invalid`.
 */
export const nodeportOutOfRange: Rule = {
  id,
  title: 'nodePort outside the NodePort range',
  severity: 'error',
  reportsRejection: true,
  decidesRejection: true,
  explanation: [
    'The API server allocates every nodePort and healthCheckNodePort from the range given by the kube-apiserver flag',
    '`--service-node-port-range` (default `30000-32767`, inclusive at both ends). A manifest that asks for a port',
    'outside it is rejected when applied:',
    '',
    '`spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767`',
    '',
    'and for a healthCheckNodePort: `failed to allocate requested HealthCheck NodePort N: provided port is not in the valid range…`.',
    '',
    'kube-netlint takes the range from `nodePortRange` in `.kube-netlint.yaml` (or `--node-port-range`), else from a',
    'kube-apiserver static Pod or kubeadm ClusterConfiguration found in the workspace, else the default; the message',
    'says which ("the Kubernetes default": set `nodePortRange` when your kube-apiserver passes another',
    '`--service-node-port-range`). Fix: pick a port inside the range — the quick fix proposes one no object in the workspace uses, from the',
    "range's static band (KEP-3668) — or leave the field out and let the API server allocate one.",
  ].join('\n'),
  sources: [
    'kubernetes pkg/registry/core/service/portallocator/allocator.go (ErrNotInRange, v1.33)',
    'kubernetes pkg/registry/core/service/storage/alloc.go (allocNodePorts, allocHealthCheckNodePort, v1.33)',
    'kubernetes pkg/kubeapiserver/options/options.go (DefaultServiceNodePortRange 30000-32767, v1.33)',
    'https://kubernetes.io/docs/reference/command-line-tools-reference/kube-apiserver/ (--service-node-port-range, v1.33)',
  ],
  freePortFixes: true,
  check({ model, config }) {
    const range = model.settings.nodePortRange;
    const { min, max } = range.value;
    const rangeText = `${min}-${max}`;

    const related: RelatedLocation[] = range.span ? [{ span: range.span, message: `NodePort range ${rangeText} set here` }] : [];
    const taken = new Set<number>();
    const findings: Finding[] = [];
    const report = (svc: Parameters<typeof refOf>[0], field: string, loc: Located<number>): void => {
      const free = freeNodePort(model, config, taken);
      if (free !== undefined) taken.add(free);
      findings.push({
        ruleId: id,
        severity: 'error',
        message: `${field} ${loc.value} of ${describe(svc)} is outside the NodePort range ${rangeText} (${describeRangeSource(range)}): the API server rejects the Service ("provided port is not in the valid range"); pick a port inside the range`,
        span: loc.span,
        object: refOf(svc),
        related,
        fixes: free === undefined ? [] : [{ title: `Change ${field} ${loc.value} to free port ${free}`, edits: [{ span: loc.span as Span, newText: String(free) }], preferred: true }],
      });
    };
    for (const svc of model.services) {
      // Live Services were accepted by the API server: one outside the assumed range means the assumption is wrong, not the Service.
      if (svc.origin.type !== 'file') continue;
      const outside = nodePortsOutsideRange(svc, min, max);
      if (outside.length === 0) continue;
      // The Service is rejected, so the free ports leave out its claims; the fixed Service must not repeat its own numbers.
      for (const n of [...svc.ports.map((p) => p.nodePort?.value), svc.healthCheckNodePort?.value]) if (n !== undefined) taken.add(n);
      for (const { field, loc } of outside) report(svc, field, loc);
    }
    return findings;
  },
};
