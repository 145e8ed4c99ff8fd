import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const cm = (conf: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kube-proxy, namespace: kube-system}\ndata:\n  config.conf: |\n${conf.split('\n').map((l) => '    ' + l).join('\n')}\n`;

describe('kube-proxy mode from the workspace', () => {
  const mode = (files: Record<string, string>) => lint(files, { rules: [] }).analysis.model.settings.kubeProxyMode;
  it('reads an explicit mode from the kube-proxy ConfigMap', () => {
    assert.equal(mode({ 'kp.yaml': cm('apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs') })?.value, 'ipvs');
  });
  it('takes mode "" (what kubeadm writes) as the Linux default, iptables, and says so', () => {
    const m = mode({ 'kp.yaml': cm('apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ""') });
    assert.deepEqual([m?.value, m?.source], ['iptables', 'ConfigMap kube-system/kube-proxy (mode not set: the Linux default)']);
  });
  it('takes a kube-proxy container with neither --proxy-mode nor --config as iptables', () => {
    const ds = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: kube-proxy, namespace: kube-system}\nspec:\n  template:\n    spec:\n      containers:\n        - name: kube-proxy\n          image: registry.k8s.io/kube-proxy:v1.30.0\n          command: [kube-proxy, --cluster-cidr=10.0.0.0/16]\n';
    assert.equal(mode({ 'ds.yaml': ds })?.value, 'iptables');
    assert.equal(mode({ 'ds.yaml': ds.replace('--cluster-cidr=10.0.0.0/16', '--config=/var/lib/kube-proxy/config.conf') }), undefined);
  });
  it('stays unknown without any kube-proxy configuration', () => {
    assert.equal(mode({ 'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n' }), undefined);
  });
});
