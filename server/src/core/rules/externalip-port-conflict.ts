import { describe } from '../model/objects';
import { externalIpErrors } from '../kubernetes/api-server/validation';
import { addressKey } from './externalip-is-node-ip';
import { CollisionSide, listObjects, reportCollision } from './report/collisions';
import type { Finding, Rule } from './rule';

const id = 'externalip-port-conflict';

/** Two Services claim the same externalIP, port and protocol. */
export const externalipPortConflict: Rule = {
  id,
  title: 'Two Services claim one externalIP and port',
  severity: 'error',
  explanation: [
    'kube-proxy captures traffic to `externalIP:port/protocol` for every Service that lists the address, without any',
    'check that the pair is unique: the API server accepts both Services, and kube-proxy programs rules for both, so',
    'only one of them (whichever rule comes first) receives the traffic, and which one can change as Services are',
    're-synced. Nothing reports the conflict at apply time.',
    '',
    'The finding is reported on each side (the externalIPs entry), naming the other Service. Variants of one Service',
    '(the same object in a base and an overlay) do not conflict. Addresses the API server rejects (not an IP, `0.0.0.0`,',
    'loopback, link-local: reported by `service-spec-invalid`) are left out: kube-proxy never programs them.',
    '',
    'Fix: give one Service another port or another address — or, better, a LoadBalancer Service, whose addresses are',
    'allocated without conflicts.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/proxy/iptables/proxier.go (one KUBE-SERVICES rule per externalIP:port of every Service, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#external-ips (v1.33)',
  ],
  check({ model }) {
    // (externalIP, port, protocol) → sides, from the model's externalIP index (linear in claims, and complete when
    // only some Services are re-checked after an edit).
    const index = new Map<string, CollisionSide[]>();
    for (const [port, claims] of model.externalIPs) {
      const seen = new Set<string>();
      for (const c of claims) {
        // An address the API server rejects (service-spec-invalid reports it) is never programmed by kube-proxy.
        if (externalIpErrors(c.address).length) continue;
        const key = `${addressKey(c.address)}|${port}|${c.protocol}`;
        // One side per externalIPs entry, whatever number of Service ports share the number.
        const side = `${key}|${c.service.uid}|${c.span.start}`;
        if (seen.has(side)) continue;
        seen.add(side);
        const list = index.get(key) ?? [];
        list.push({ object: c.service, span: c.span, label: `externalIP ${c.address} port ${port}/${c.protocol} of ${describe(c.service)}` });
        index.set(key, list);
      }
    }
    const findings: Finding[] = [];
    for (const [key, sides] of index) {
      if (sides.length < 2) continue;
      const [ip, port, protocol] = key.split('|');
      findings.push(...reportCollision(externalipPortConflict, sides, (_side, others) =>
        `externalIP ${ip} port ${port}/${protocol} is also claimed by ${listObjects(others)}: kube-proxy programs both Services for the same address and port, so only one of them receives the traffic; use another port or externalIP`,
        { what: `externalIP ${ip} port ${port}/${protocol}` }));
    }
    return findings;
  },
};
