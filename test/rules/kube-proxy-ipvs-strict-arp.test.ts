import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['kube-proxy-ipvs-strict-arp'];
const kpc = (strict: string) => `
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: ipvs
ipvs:
  strictARP: ${strict}
`;
const speaker = `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: speaker, namespace: metallb-system}
spec:
  selector: {matchLabels: {app: metallb}}
  template:
    metadata: {labels: {app: metallb}}
    spec:
      hostNetwork: true
      containers:
        - name: speaker
          image: quay.io/metallb/speaker:v0.14.5
`;
const l2 = `
apiVersion: metallb.io/v1beta1
kind: L2Advertisement
metadata: {name: l2, namespace: metallb-system}
`;

describe('kube-proxy-ipvs-strict-arp', () => {
  it('does not take kube-router\'s IPVS service proxy for kube-proxy IPVS (kube-router sets strict ARP itself)', () => {
    const router = `
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: {name: kube-router, namespace: kube-system}
      spec:
        selector: {matchLabels: {k8s-app: kube-router}}
        template:
          metadata: {labels: {k8s-app: kube-router}}
          spec:
            hostNetwork: true
            containers: [{name: kube-router, image: docker.io/cloudnativelabs/kube-router:v2.1.0, args: [--run-service-proxy=true]}]
    `;
    assert.deepEqual(lint({ 'router.yaml': router, 'metallb.yaml': speaker, 'l2.yaml': l2 }, { rules }).findings, []);
  });

  it('reads the legacy MetalLB config ConfigMap as YAML: protocol: layer2 counts, a commented-out line does not', () => {
    const legacy = (config: string) => `
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: config, namespace: metallb-system}
      data:
        config: |
${config.split('\n').map((l) => `          ${l}`).join('\n')}
    `;
    const l2pool = 'address-pools:\n- name: default\n  protocol: layer2\n  addresses: [192.0.2.10-192.0.2.20]';
    const on = lint({ 'kp.yaml': kpc('false'), 'mlb.yaml': legacy(l2pool) }, { rules }).findings;
    assert.equal(on.length, 1);
    assert.match(on[0].message, /, with MetalLB in layer 2 mode \(ConfigMap metallb-system\/config \(protocol: layer2\)\): /);
    const commented = 'address-pools:\n- name: default\n  # protocol: layer2\n  protocol: bgp\n  addresses: [192.0.2.10-192.0.2.20]';
    assert.deepEqual(lint({ 'kp.yaml': kpc('false'), 'mlb.yaml': legacy(commented) }, { rules }).findings, []);
  });

  it('warns at strictARP: false next to the MetalLB speaker and fixes it to true', () => {
    const { findings } = lint({ 'kp.yaml': kpc('false'), 'metallb.yaml': speaker }, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.severity, f.file, f.line, f.column, f.text], ['warning', 'kp.yaml', 5, 14, 'false']);
    assert.equal(f.message, 'kube-proxy runs in IPVS mode and strictARP is false (KubeProxyConfiguration), with MetalLB (speaker DaemonSet metallb-system/speaker): every node answers ARP for LoadBalancer IPs on kube-ipvs0, so traffic flips between nodes; set ipvs.strictARP: true');
    assert.deepEqual(f.related.map((r) => [r.file, r.line]), [['metallb.yaml', 3]]);
    const fixed = applyEdits(dedent(kpc('false')), f.fixes[0].edits);
    assert.ok(fixed.includes('  strictARP: true'));
    assert.deepEqual(lint({ 'kp.yaml': fixed, 'metallb.yaml': speaker }, { rules }).findings, []);
  });

  it('points at `mode: ipvs` inside the ConfigMap\'s config.conf when strictARP is not set, and names layer 2', () => {
    const cm = `
apiVersion: v1
kind: ConfigMap
metadata: {name: kube-proxy, namespace: kube-system}
data:
  config.conf: |
    mode: ipvs
`;
    const { findings } = lint({ 'cm.yaml': cm, 'l2.yaml': l2 }, { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].file, findings[0].line, findings[0].column, findings[0].text], ['cm.yaml', 6, 11, 'ipvs']);
    assert.match(findings[0].message, /strictARP is unset \(false\), with MetalLB in layer 2 mode \(L2Advertisement metallb-system\/l2\): /);
    assert.deepEqual(findings[0].fixes, []);
  });

  it('points at strictARP: false inside the kube-proxy ConfigMap and fixes that word only', () => {
    const cm = `
apiVersion: v1
kind: ConfigMap
metadata: {name: kube-proxy, namespace: kube-system}
data:
  config.conf: |
    mode: ipvs
    ipvs:
      strictARP: false
`;
    const { findings } = lint({ 'cm.yaml': cm, 'metallb.yaml': speaker }, { rules });
    assert.deepEqual([findings[0].line, findings[0].column, findings[0].text], [8, 18, 'false']);
    assert.match(findings[0].message, /strictARP is false \(ConfigMap kube-system\/kube-proxy \(config\.conf\)\)/);
    const fixed = applyEdits(dedent(cm), findings[0].fixes[0].edits);
    assert.ok(fixed.endsWith('    ipvs:\n      strictARP: true\n'));
    assert.deepEqual(lint({ 'cm.yaml': fixed, 'metallb.yaml': speaker }, { rules }).findings, []);
  });

  it('points at the MetalLB object when the mode comes from the config only', () => {
    const { findings } = lint({ 'l2.yaml': l2 }, { rules, config: { kubeProxyMode: 'ipvs' } });
    assert.deepEqual([findings[0].file, findings[0].line, findings[0].text], ['l2.yaml', 3, 'l2']);
  });

  it('stays silent with strictARP true (field or bare flag), without MetalLB, or in iptables mode', () => {
    assert.deepEqual(lint({ 'kp.yaml': kpc('true'), 'metallb.yaml': speaker }, { rules }).findings, []);
    const flag = `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kube-proxy, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: kube-proxy}}
  template:
    metadata: {labels: {k8s-app: kube-proxy}}
    spec:
      containers:
        - name: kube-proxy
          image: registry.k8s.io/kube-proxy:v1.30.0
          command: [kube-proxy, --proxy-mode=ipvs, --ipvs-strict-arp]
`;
    assert.deepEqual(lint({ 'kp.yaml': flag, 'metallb.yaml': speaker }, { rules }).findings, []);
    assert.deepEqual(lint({ 'kp.yaml': kpc('false') }, { rules }).findings, []);
    assert.deepEqual(lint({ 'metallb.yaml': speaker }, { rules, config: { kubeProxyMode: 'iptables' } }).findings, []);
  });
});
