import { describe } from '../model/objects';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'externalip-usage';

/** Every `spec.externalIPs` entry: unmanaged by Kubernetes and the CVE-2020-8554 vector. */
export const externalipUsage: Rule = {
  id,
  title: 'externalIPs in use',
  severity: 'info',
  explanation: [
    '`spec.externalIPs` are **not managed by Kubernetes**: the API server accepts any address, and kube-proxy on every',
    'node then captures traffic to that address and port for the Service. Routing the address to a node is the',
    'cluster administrator\'s job.',
    '',
    'Because any user allowed to create or update a Service can claim any address (for example a public DNS server or',
    'another team\'s database), externalIPs are the man-in-the-middle vector of **CVE-2020-8554** (all versions, no',
    'patch). Clusters that do not need them should enable the **`DenyServiceExternalIPs`** admission plugin',
    '(Kubernetes v1.21+, off by default), which rejects new externalIPs values; clusters that do should restrict them',
    'with a policy (e.g. an allow-list of addresses).',
    '',
    'This finding is informational: it marks each externalIP so reviewers see it; turn it off in the config',
    '(`rules: {externalip-usage: off}`) when externalIPs are intended.',
  ].join('\n'),
  sources: [
    'https://github.com/kubernetes/kubernetes/issues/97076 (CVE-2020-8554)',
    'https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#denyserviceexternalips (v1.21+)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#external-ips (v1.33)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    for (const svc of model.services) {
      for (const ip of svc.externalIPs) {
        findings.push({
          ruleId: id,
          severity: 'info',
          message: `externalIP ${ip.value} of ${describe(svc)}: Kubernetes neither routes nor reserves it, and anyone who can create Services can claim any address this way (man in the middle); allow only known addresses (DenyServiceExternalIPs or a policy)`,
          span: ip.span,
          object: refOf(svc),
          related: [],
          fixes: [],
        });
      }
    }
    return findings;
  },
};
