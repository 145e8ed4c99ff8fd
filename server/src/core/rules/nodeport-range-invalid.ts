import { escapeRegExp, narrowSpan } from './report/narrow-span';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'nodeport-range-invalid';

/**
 * A NodePort range written in the workspace (kube-apiserver `--service-node-port-range`, kubeadm ClusterConfiguration
 * `apiServer.extraArgs`) that kube-apiserver cannot parse. Found by deriveClusterSettings (model/cluster-settings.ts);
 * the range the other rules use then comes from the config, another object or the default, which the message names.
 */
export const nodeportRangeInvalid: Rule = {
  id,
  title: 'NodePort range kube-apiserver cannot parse',
  severity: 'error',
  explanation: [
    'kube-apiserver reads `--service-node-port-range` as `MIN-MAX` (inclusive), `MIN+OFFSET` (MIN to MIN+OFFSET) or a',
    'single port `N`, each port at most 65535 and MAX not below MIN (`PortRange.Set`). Anything else fails flag parsing',
    '(`invalid argument "…" for "--service-node-port-range" flag: …`) and kube-apiserver exits at start: its static Pod',
    'restarts in a loop and serves nothing. kubeadm copies `apiServer.extraArgs` into that flag unchanged, and refuses a',
    'ClusterConfiguration whose extraArgs value is not a string.',
    '',
    'kube-netlint cannot tell which range was meant: it checks nodePorts against the range of the config, of another',
    'object, or the Kubernetes default 30000-32767, and says which. Reported on the value.',
    '',
    'Fix: write the range as `MIN-MAX`, e.g. `--service-node-port-range=30000-32767` (in kubeadm: `service-node-port-range:',
    '"30000-32767"`, quoted).',
  ].join('\n'),
  sources: [
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/net/port_range.go (PortRange.Set: MIN-MAX, MIN+OFFSET, one port; "unable to parse port range", "end port cannot be less than start port", v1.33)',
    'kubernetes cmd/kube-apiserver/app/options/options.go (--service-node-port-range, v1.33)',
    'spf13/pflag flag.go (a flag value that fails Set: `invalid argument %q for %q flag: %v`)',
    'https://kubernetes.io/docs/reference/config-api/kubeadm-config.v1beta4/ (apiServer.extraArgs: name/value strings; v1beta3: map of strings)',
  ],
  check({ model, files }) {
    const range = model.settings.nodePortRange;
    const used = range.source === 'default' ? `the default ${range.value.min}-${range.value.max}` : `${range.value.min}-${range.value.max} (${range.source})`;
    const findings: Finding[] = [];
    for (const bad of model.settings.invalidNodePortRanges ?? []) {
      const span = bad.span && narrowSpan(files, bad.span, new RegExp(`(?:^|[=\\s"'])(${escapeRegExp(bad.text)})(?:$|[\\s"'])`));
      findings.push({
        ruleId: id,
        severity: 'error',
        message: `${bad.where}: ${bad.problem}; ${bad.fix} (nodePorts are checked against ${used} until then)`,
        span: span ?? bad.object.span,
        object: refOf(bad.object),
        related: [],
        fixes: [],
      });
    }
    return findings;
  },
};
