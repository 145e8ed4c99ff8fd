import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['kube-proxy-ipvs-nodeport-interfaces'];
const proxy = (image: string, command: string) => `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-proxy
  namespace: kube-system
spec:
  selector: {matchLabels: {k8s-app: kube-proxy}}
  template:
    metadata: {labels: {k8s-app: kube-proxy}}
    spec:
      hostNetwork: true
      containers:
        - name: kube-proxy
          image: ${image}
          command: ${command}
`;
const configMap = (mode: string) => `
apiVersion: v1
kind: ConfigMap
metadata: {name: kube-proxy, namespace: kube-system}
data:
  config.conf: |
    apiVersion: kubeproxy.config.k8s.io/v1alpha1
    kind: KubeProxyConfiguration
    mode: ${mode}
`;

describe('kube-proxy-ipvs-nodeport-interfaces', () => {
  it('warns on a v1.9 kube-proxy with --proxy-mode=ipvs, at the image value', () => {
    const { findings } = lint(proxy('registry.example.com/kube-proxy:v1.9.11', '[/usr/local/bin/kube-proxy, --proxy-mode=ipvs]'), { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.severity, f.line, f.column, f.text, f.object], ['warning', 14, 18, 'registry.example.com/kube-proxy:v1.9.11', 'DaemonSet kube-system/kube-proxy']);
    assert.equal(f.message, 'kube-proxy v1.9.11 (DaemonSet kube-system/kube-proxy) runs in IPVS mode (its --proxy-mode): before v1.10.0 IPVS serves NodePorts only on eth* interfaces, so NodePorts do not answer on nodes whose NICs are ens*, enp*, bond*…; upgrade kube-proxy to v1.10+ or rename the NICs eth*');
  });

  it('takes the mode from the kube-proxy ConfigMap and recognises hyperkube', () => {
    const { findings } = lint({ 'ds.yaml': proxy('k8s.gcr.io/hyperkube-amd64:v1.8.4', '[/hyperkube, proxy, --config=/var/lib/kube-proxy/config.conf]'), 'cm.yaml': configMap('ipvs') }, { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /^kube-proxy v1\.8\.4 .* runs in IPVS mode \(ConfigMap kube-system\/kube-proxy\)/);
  });

  it('stays silent from v1.10.0, in iptables mode, and when the version is unknown', () => {
    assert.deepEqual(lint(proxy('registry.k8s.io/kube-proxy:v1.10.0', '[kube-proxy, --proxy-mode=ipvs]'), { rules }).findings, []);
    assert.deepEqual(lint(proxy('registry.k8s.io/kube-proxy:v1.9.11', '[kube-proxy, --proxy-mode=iptables]'), { rules, config: { kubeProxyMode: 'ipvs' } }).findings, []);
    assert.deepEqual(lint(proxy('registry.k8s.io/kube-proxy:latest', '[kube-proxy, --proxy-mode=ipvs]'), { rules }).findings, []);
    assert.deepEqual(lint({ 'ds.yaml': proxy('registry.k8s.io/kube-proxy:v1.9.11', '[kube-proxy]'), 'cm.yaml': configMap('iptables') }, { rules }).findings, []);
  });
});
