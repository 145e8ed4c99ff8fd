import { describe } from '../model/objects';
import { flagValue } from '../model/cluster-settings';
import { imageVersion, isOlderThan } from '../kubernetes/images';
import { kubeProxyContainer } from '../kubernetes/kube-proxy/strict-arp';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'kube-proxy-ipvs-nodeport-interfaces';

/** kube-proxy older than v1.10 in IPVS mode: NodePorts only on eth* interfaces. */
export const kubeProxyIpvsNodeportInterfaces: Rule = {
  id,
  title: 'kube-proxy < v1.10 IPVS serves NodePorts only on eth*',
  severity: 'warning',
  explanation: [
    'In v1.8 and v1.9 the IPVS proxier built NodePort virtual servers only for the addresses of interfaces named',
    '`eth*` (kubernetes issue #55923, again #58202 for v1.9.0). On nodes whose NICs are named `ens*`, `enp*`, `eno*`,',
    '`bond*`… NodePort Services silently do not answer. Fixed by kubernetes PR #56685 ("Fix ipvs proxier nodeport eth*',
    'assumption"), released in **v1.10.0**; since then all local addresses (or `nodePortAddresses`) are used.',
    '',
    'Reported on the kube-proxy container\'s `image` value when its tag is a version older than v1.10.0 and kube-proxy',
    'runs in IPVS mode (`--proxy-mode`, kube-proxy ConfigMap, KubeProxyConfiguration, or the config). Images whose tag',
    'is not a version are not reported (the version is unknown).',
    '',
    'Fix: upgrade kube-proxy to v1.10 or later, or (if that is not possible) rename the node interfaces to `eth*`.',
  ].join('\n'),
  sources: [
    'https://github.com/kubernetes/kubernetes/pull/56685 (v1.10.0)',
    'https://github.com/kubernetes/kubernetes/issues/55923',
    'kubernetes CHANGELOG-1.10.md',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    for (const w of model.workloads) {
      const c = kubeProxyContainer(w);
      if (!c?.image) continue;
      const own = flagValue(w, '--proxy-mode');
      const mode = own ? { value: own.value, source: 'its --proxy-mode' } : model.settings.kubeProxyMode;
      if (mode?.value !== 'ipvs') continue;
      const version = imageVersion(c.image.value);
      if (!version.known || !isOlderThan(version, '1.10.0')) continue;
      findings.push({
        ruleId: id,
        severity: 'warning',
        message: `kube-proxy ${version.tag} (${describe(w)}) runs in IPVS mode (${mode.source}): before v1.10.0 IPVS serves NodePorts only on eth* interfaces, so NodePorts do not answer on nodes whose NICs are ens*, enp*, bond*…; upgrade kube-proxy to v1.10+ or rename the NICs eth*`,
        span: c.image.span,
        object: refOf(w),
        related: [],
        fixes: [],
      });
    }
    return findings;
  },
};
