import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['host-port-reserved'];

/** A workload of `kind` with one container; `extra` is appended to the pod spec (indented 6). */
const workload = (kind: string, name: string, image: string, ports: string, podExtra = '', containerName = 'main') => `
apiVersion: apps/v1
kind: ${kind}
metadata:
  name: ${name}
  namespace: ns
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${podExtra}      containers:
        - name: ${containerName}
          image: ${image}
          ports:
${ports}`;

/** A pod holding the ports of Calico's optional features: BGP 179, VXLAN 4789, WireGuard 51820, Typha 5473. */
const hostPorts = workload('DaemonSet', 'ports', 'example/ports:1', [179, 4789, 51820, 5473].map((p) => `            - {containerPort: ${p}, hostPort: ${p}${p === 4789 || p === 51820 ? ', protocol: UDP' : ''}}`).join('\n'));
/** A calico-node DaemonSet with the given env (flow sequence). */
const calicoNode = (env: string) => workload('DaemonSet', 'calico-node', 'docker.io/calico/node:v3.26.1', '            - {containerPort: 9099}', '      hostNetwork: true\n', 'calico-node')
  .replace('          ports:', `          env: ${env}\n          ports:`);

describe('host-port-reserved', () => {
  it('warns of a hostPort or a hostNetwork port on 22/TCP, the node\'s sshd, and stays silent for UDP 22 and other ports', () => {
    const git = workload('Deployment', 'gitea', 'gitea/gitea:1.22', '            - {name: ssh, containerPort: 2222, hostPort: 22}\n            - {name: http, containerPort: 3000, hostPort: 2223}');
    const fs = lint(git, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.severity, f.line, f.column, f.text]), [['warning', 15, 58, '22']]);
    assert.equal(fs[0].message, 'hostPort 22/TCP of Deployment ns/gitea is the node\'s sshd port: CNI portmap takes every connection to that port on each node running the pod, so SSH to those nodes reaches the pod instead; use another hostPort (e.g. 2222). A warning: node images without sshd are not affected');
    const hostNet = lint(workload('DaemonSet', 'agent', 'example/agent:1', '            - {containerPort: 22}', '      hostNetwork: true\n'), { rules }).findings;
    assert.deepEqual(hostNet.map((f) => [f.severity, f.line, f.text]), [['warning', 16, '22']]);
    assert.equal(hostNet[0].message, 'hostNetwork containerPort 22/TCP of DaemonSet ns/agent is the node\'s sshd port: on nodes where sshd runs (most node images), the later bind fails ("address already in use"); use another port. A warning: node images without sshd are not affected');
    assert.deepEqual(lint(workload('DaemonSet', 'dns', 'example/dns:1', '            - {containerPort: 22, hostPort: 22, protocol: UDP}'), { rules }).findings, []);
    assert.deepEqual(lint(workload('Deployment', 'web', 'nginx', '            - {containerPort: 22}'), { rules }).findings, []);
  });

  it('flags a hostNetwork containerPort on the kubelet port (case 11) as an error at the containerPort', () => {
    const { findings } = lint(workload('Deployment', 'op', 'example/op:1.0', '            - name: https\n              containerPort: 10250', '      hostNetwork: true\n'), { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.severity, f.line, f.column, f.text, f.object], ['error', 17, 30, '10250', 'Deployment ns/op']);
    assert.match(f.message, /^hostNetwork containerPort 10250\/TCP of Deployment ns\/op is the kubelet API port on every node: the later bind fails/);
    assert.match(f.message, /: the later bind fails \("address already in use"\); use another port\.$/);
  });

  it('points at the hostPort value, not the containerPort, and explains the portmap DNAT', () => {
    const { findings } = lint(workload('DaemonSet', 'agent', 'example/agent:2', '            - containerPort: 8080\n              hostPort: 10256'), { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].severity, findings[0].line, findings[0].text], ['error', 16, '10256']);
    assert.match(findings[0].message, /hostPort 10256\/TCP of DaemonSet ns\/agent is the kube-proxy healthz port/);
    assert.match(findings[0].message, /: CNI portmap takes the component's traffic on every node address; use another hostPort\.$/);
  });

  it('is a warning at most, saying so, for a workload that runs no pods now (replicas: 0)', () => {
    const parked = workload('Deployment', 'op', 'example/op:1.0', '            - containerPort: 8080\n              hostPort: 10250').replace('spec:\n  selector', 'spec:\n  replicas: 0\n  selector');
    const { findings } = lint(parked, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.line, f.text]), [['warning', 17, '10250']]);
    assert.match(findings[0].message, /^hostPort 10250\/TCP of Deployment ns\/op is the kubelet API port on every node: .*; use another hostPort\. A warning: the Deployment runs no pods now \(replicas: 0\), and collides once it runs\.$/);
    assert.deepEqual(lint(parked.replace('replicas: 0', 'replicas: 1'), { rules }).findings.map((f) => f.severity), ['error']);
  });

  it('ignores another protocol on the same number', () => {
    assert.deepEqual(lint(workload('DaemonSet', 'agent', 'example/agent:2', '            - {containerPort: 10250, hostPort: 10250, protocol: UDP}'), { rules }).findings, []);
  });

  it('ignores loopback-only listeners for a hostPort bound to another hostIP, but not for 0.0.0.0', () => {
    const bound = (ip: string) => workload('DaemonSet', 'agent', 'example/agent:2', `            - {containerPort: 10249, hostPort: 10249, hostIP: "${ip}"}`);
    assert.deepEqual(lint(bound('10.0.0.5'), { rules }).findings, []);
    assert.equal(lint(bound('0.0.0.0'), { rules }).findings[0].severity, 'error');
    assert.match(lint(bound('0.0.0.0'), { rules }).findings[0].message, /kube-proxy metrics \(127\.0\.0\.1\) port/);
  });

  it('reports a CNI port as a warning unless the CNI is in the workspace or the config', () => {
    const pod = workload('DaemonSet', 'bgp', 'example/bgpd:1', '            - {containerPort: 179, hostPort: 179}');
    const alone = lint(pod, { rules }).findings;
    assert.equal(alone.length, 1);
    assert.equal(alone[0].severity, 'warning');
    assert.equal(alone[0].message, 'hostPort 179/TCP of DaemonSet ns/bgp is commonly used by Calico BGP (BIRD) and kube-router BGP: ' +
      'where one of them runs, CNI portmap takes the component\'s traffic on every node address; use another hostPort. ' +
      'Warning: neither is in the workspace (`cni: [calico, kube-router]` for an error)');
    const configured = lint(pod, { rules, config: { cni: ['calico'] } }).findings;
    assert.equal(configured[0].severity, 'error');
    assert.match(configured[0].message, /^hostPort 179\/TCP of DaemonSet ns\/bgp is the Calico BGP \(BIRD\) port on every Calico node: CNI portmap takes/);
    assert.doesNotMatch(configured[0].message, /kube-router/);
    const router = lint(pod, { rules, config: { cni: ['kube-router'] } }).findings;
    assert.match(router[0].message, /^hostPort 179\/TCP of DaemonSet ns\/bgp is the kube-router BGP port on every kube-router node: /);
    assert.doesNotMatch(router[0].message, /Calico/);
    const calicoNode = workload('DaemonSet', 'calico-node', 'docker.io/calico/node:v3.26.1', '            - {containerPort: 9099}', '      hostNetwork: true\n', 'calico-node');
    const withManifest = lint({ 'bgp.yaml': pod, 'calico.yaml': calicoNode }, { rules }).findings;
    assert.deepEqual(withManifest.map((f) => [f.file, f.severity]), [['bgp.yaml', 'error']]);
    assert.match(withManifest[0].message, /the Calico BGP \(BIRD\) port on every Calico node \(CALICO_NETWORKING_BACKEND=bird \(the default\) in DaemonSet ns\/calico-node\): /);
  });

  it('frees Calico ports whose feature the calico-node environment turns off (literal or configMapKeyRef)', () => {
    const vxlanBackend = lint({ 'p.yaml': hostPorts, 'c.yaml': calicoNode('[{name: CALICO_NETWORKING_BACKEND, value: vxlan}]') }, { rules }).findings;
    // 179 is free of Calico now; kube-router (not deployed) is only named as a common user, at warning level.
    assert.deepEqual(vxlanBackend.map((f) => [f.line, f.text, f.severity]), [[15, '179', 'warning'], [16, '4789', 'error']]);
    assert.match(vxlanBackend[0].message, /commonly used by kube-router BGP/);
    assert.doesNotMatch(vxlanBackend[0].message, /Calico/);
    assert.match(vxlanBackend[1].message, /^hostPort 4789\/UDP of DaemonSet ns\/ports is the Calico VXLAN port on every Calico node \(CALICO_NETWORKING_BACKEND=vxlan in DaemonSet ns\/calico-node\): /);
    const ref = '[{name: CALICO_NETWORKING_BACKEND, valueFrom: {configMapKeyRef: {name: calico-config, key: calico_backend}}}]';
    const cm = (backend: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: calico-config, namespace: ns}\ndata: {calico_backend: "${backend}"}\n`;
    assert.deepEqual(lint({ 'p.yaml': hostPorts, 'c.yaml': calicoNode(ref), 'cm.yaml': cm('none') }, { rules }).findings.map((f) => [f.text, f.severity]), [['179', 'warning']]);
    const bird = lint({ 'p.yaml': hostPorts, 'c.yaml': calicoNode(ref), 'cm.yaml': cm('bird') }, { rules }).findings;
    assert.deepEqual(bird.map((f) => f.text), ['179']);
    assert.match(bird[0].message, /CALICO_NETWORKING_BACKEND=bird in DaemonSet ns\/calico-node/);
  });

  it('reports Calico VXLAN only when a pool uses it, WireGuard only when enabled, Typha only when deployed', () => {
    const texts = (env: string, extra: Record<string, string> = {}) => lint({ 'p.yaml': hostPorts, 'c.yaml': calicoNode(env), ...extra }, { rules }).findings.map((f) => f.text);
    assert.deepEqual(texts('[{name: CALICO_IPV4POOL_VXLAN, value: Never}]'), ['179']);
    assert.deepEqual(texts('[{name: CALICO_IPV4POOL_VXLAN, value: CrossSubnet}, {name: CALICO_IPV4POOL_IPIP, value: Never}]'), ['179', '4789']);
    assert.deepEqual(texts('[{name: FELIX_WIREGUARDENABLED, value: "true"}]'), ['179', '51820']);
    const typha = workload('Deployment', 'calico-typha', 'docker.io/calico/typha:v3.26.1', '            - {containerPort: 5473}', '      hostNetwork: true\n', 'calico-typha');
    const withTypha = lint({ 'p.yaml': hostPorts, 'c.yaml': calicoNode('[]'), 't.yaml': typha }, { rules }).findings;
    assert.deepEqual(withTypha.map((f) => f.text), ['179', '5473']);
    assert.match(withTypha[1].message, /the Calico Typha port on the nodes running calico-typha \(Deployment ns\/calico-typha\)/);
  });

  it('reads the operator Installation: bgp Disabled, ipPools encapsulation, Typha always', () => {
    const installation = (network: string) => `apiVersion: operator.tigera.io/v1\nkind: Installation\nmetadata: {name: default}\nspec:\n  calicoNetwork: ${network}\n`;
    const texts = (network: string) => lint({ 'p.yaml': hostPorts, 'i.yaml': installation(network) }, { rules }).findings.map((f) => `${f.text} ${f.severity}`);
    // bgp: Disabled frees 179 of Calico: only the kube-router warning ("commonly used by") is left.
    assert.deepEqual(texts('{bgp: Disabled, ipPools: [{cidr: 10.244.0.0/16, encapsulation: VXLAN}]}'), ['179 warning', '4789 error', '5473 error']);
    assert.deepEqual(texts('{bgp: Enabled, ipPools: [{cidr: 10.244.0.0/16, encapsulation: IPIPCrossSubnet}]}'), ['179 error', '5473 error']);
    assert.deepEqual(texts('{ipPools: [{cidr: 10.244.0.0/16, encapsulation: VXLANCrossSubnet}]}'), ['179 error', '4789 error', '5473 error']);
    const vx = lint({ 'p.yaml': hostPorts, 'i.yaml': installation('{bgp: Disabled, ipPools: [{cidr: 10.244.0.0/16, encapsulation: VXLAN}]}') }, { rules }).findings;
    assert.match(vx[1].message, /VXLAN port on every Calico node \(ipPools encapsulation VXLAN in Installation default\)/);
  });

  it('names only absent components, as "commonly used by", when Calico is deployed with BGP off', () => {
    const bgpOnly = workload('DaemonSet', 'bgp', 'example/bgpd:1', '            - {containerPort: 179, hostPort: 179}');
    const { findings } = lint({ 'p.yaml': bgpOnly, 'c.yaml': calicoNode('[{name: CALICO_NETWORKING_BACKEND, value: vxlan}]') }, { rules });
    assert.deepEqual(findings.map((f) => f.severity), ['warning']);
    assert.match(findings[0].message, /^hostPort 179\/TCP of DaemonSet ns\/bgp is commonly used by kube-router BGP: where it runs, .* Warning: kube-router is not in the workspace \(`cni: \[kube-router\]` for an error\)$/);
  });

  it('exempts the component\'s own workloads (calico-node 9099/179, kube-router 179, kube-proxy 10256)', () => {
    const files = {
      'calico.yaml': workload('DaemonSet', 'calico-node', 'quay.io/calico/node:v3.27.0', '            - {containerPort: 9099}\n            - {containerPort: 179}', '      hostNetwork: true\n', 'calico-node'),
      'router.yaml': workload('DaemonSet', 'kube-router', 'docker.io/cloudnativelabs/kube-router', '            - {containerPort: 179}\n            - {containerPort: 20244}', '      hostNetwork: true\n', 'kube-router'),
      'proxy.yaml': workload('DaemonSet', 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.30.2', '            - {containerPort: 10256}\n            - {containerPort: 10249}', '      hostNetwork: true\n', 'kube-proxy'),
    };
    assert.deepEqual(lint(files, { rules }).findings, []);
  });

  it('follows kube-proxy\'s healthz and metrics ports where its KubeProxyConfiguration or flags put them', () => {
    const agent = (port: number, hostIP = '') => workload('DaemonSet', 'agent', 'example/agent:1', `            - {containerPort: ${port}, hostPort: ${port}${hostIP ? `, hostIP: ${hostIP}` : ''}}`);
    const configMap = (config: string) => `
apiVersion: v1
kind: ConfigMap
metadata: {name: kube-proxy, namespace: kube-system}
data:
  config.conf: |
    apiVersion: kubeproxy.config.k8s.io/v1alpha1
    kind: KubeProxyConfiguration
${config.split('\n').map((l) => `    ${l}`).join('\n')}
`;
    const moved = configMap('healthzBindAddress: 0.0.0.0:10266\nmetricsBindAddress: 0.0.0.0:10249');
    // The default healthz port is free there; the configured one is taken.
    assert.deepEqual(lint({ 'cm.yaml': moved, 'a.yaml': agent(10256) }, { rules }).findings, []);
    const taken = lint({ 'cm.yaml': moved, 'a.yaml': agent(10266) }, { rules }).findings;
    assert.deepEqual(taken.map((f) => [f.file, f.line, f.column, f.text, f.severity]), [['a.yaml', 15, 48, '10266', 'error']]);
    assert.equal(taken[0].message, 'hostPort 10266/TCP of DaemonSet ns/agent is the kube-proxy healthz port on every node: CNI portmap takes the component\'s traffic on every node address; use another hostPort.');
    // metrics on 0.0.0.0 is no longer loopback-only: a hostPort bound to a node address takes its traffic too.
    const metrics = lint({ 'cm.yaml': moved, 'a.yaml': agent(10249, '192.0.2.10') }, { rules }).findings;
    assert.deepEqual(metrics.map((f) => [f.line, f.text]), [[15, '10249']]);
    assert.match(metrics[0].message, /is the kube-proxy metrics port on every node/);
    assert.deepEqual(lint({ 'a.yaml': agent(10249, '192.0.2.10') }, { rules }).findings, []);
    // A bare address keeps the default port; port 0 serves nothing.
    assert.equal(lint({ 'cm.yaml': configMap('healthzBindAddress: 0.0.0.0'), 'a.yaml': agent(10256) }, { rules }).findings.length, 1);
    assert.deepEqual(lint({ 'cm.yaml': configMap('healthzBindAddress: "[::]:0"'), 'a.yaml': agent(10256) }, { rules }).findings, []);
    // Flags of the kube-proxy container, when no config file sets the address; a config file wins over them.
    const proxy = (args: string) => workload('DaemonSet', 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.31.0', '            - {containerPort: 10249}', '      hostNetwork: true\n', 'kube-proxy')
      .replace('          ports:', `          args: [${args}]\n          ports:`);
    assert.deepEqual(lint({ 'p.yaml': proxy('--healthz-bind-address=0.0.0.0:10300'), 'a.yaml': agent(10256) }, { rules }).findings, []);
    assert.deepEqual(lint({ 'p.yaml': proxy('--healthz-bind-address=0.0.0.0:10300'), 'a.yaml': agent(10300) }, { rules }).findings.map((f) => [f.file, f.text]), [['a.yaml', '10300']]);
    assert.deepEqual(lint({ 'p.yaml': proxy('--healthz-bind-address=0.0.0.0:10300'), 'cm.yaml': moved, 'a.yaml': agent(10300) }, { rules }).findings, []);
  });

  it('downgrades kube-proxy ports to a warning when the workspace shows a kube-proxy replacement', () => {
    const cm = `
apiVersion: v1
kind: ConfigMap
metadata: {name: cilium-config, namespace: kube-system}
data:
  kube-proxy-replacement: "true"
`;
    const { findings } = lint({ 'a.yaml': workload('DaemonSet', 'agent', 'example/agent:2', '            - {containerPort: 10256, hostPort: 10256}'), 'cilium.yaml': cm }, { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].severity, 'warning');
    assert.match(findings[0].message, /A warning: kube-proxy may be replaced \(kube-proxy-replacement in ConfigMap kube-system\/cilium-config\)\.$/);
  });

  it('recognises Calico eBPF and kube-router\'s service proxy as kube-proxy replacements', () => {
    const agent = workload('DaemonSet', 'agent', 'example/agent:2', '            - {containerPort: 10249, hostPort: 10249}');
    const calicoBpf = workload('DaemonSet', 'calico-node', 'calico/node:v3.28.0', '            - {containerPort: 9099}', '      hostNetwork: true\n', 'calico-node')
      .replace('          ports:', '          env: [{name: FELIX_BPFENABLED, value: "true"}]\n          ports:');
    const bpf = lint({ 'a.yaml': agent, 'calico.yaml': calicoBpf }, { rules }).findings;
    assert.deepEqual(bpf.map((f) => [f.file, f.severity]), [['a.yaml', 'warning']]);
    assert.match(bpf[0].message, /FELIX_BPFENABLED in DaemonSet ns\/calico-node/);
    const router = workload('DaemonSet', 'kube-router', 'cloudnativelabs/kube-router:v2.1.0', '            - {containerPort: 20244}', '      hostNetwork: true\n', 'kube-router');
    assert.match(lint({ 'a.yaml': agent, 'r.yaml': router }, { rules }).findings[0].message, /service proxy on by default/);
    const routerOff = router.replace('          ports:', '          args: [--run-service-proxy=false]\n          ports:');
    assert.equal(lint({ 'a.yaml': agent, 'r.yaml': routerOff }, { rules }).findings[0].severity, 'error');
  });

  it('makes control-plane ports an error only for pods that run on control-plane nodes', () => {
    const ports = '            - {containerPort: 6443, hostPort: 6443}';
    const deployment = lint(workload('Deployment', 'web', 'example/web:1', ports), { rules }).findings;
    assert.equal(deployment[0].severity, 'warning');
    assert.match(deployment[0].message, /kube-apiserver port on control-plane nodes: .* A warning: only control-plane nodes open it and these pods do not tolerate their taint \(untainted ones still collide\)\.$/);
    const tolerating = '      tolerations:\n        - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}\n';
    const ds = lint(workload('DaemonSet', 'web', 'example/web:1', ports, tolerating), { rules }).findings;
    assert.deepEqual([ds[0].severity, ds[0].line, ds[0].text], ['error', 17, '6443']);
    const etcd = lint(workload('DaemonSet', 'etcd-backup', 'example/b:1', '            - {containerPort: 2380, hostPort: 2380}', '      tolerations: [{operator: Exists}]\n'), { rules }).findings;
    assert.match(etcd[0].message, /etcd client\/peer port \(2379-2380\/TCP/);
    assert.equal(etcd[0].severity, 'error');
  });

  it('flags a nodePort on a component port only when the node-port range was widened to include it', () => {
    const svc = `
apiVersion: v1
kind: Service
metadata: {name: metrics, namespace: ns}
spec:
  type: NodePort
  selector: {app: m}
  ports:
    - {port: 80, nodePort: 10250}
`;
    assert.deepEqual(lint(svc, { rules }).findings, []);
    const { findings } = lint(svc, { rules, config: { nodePortRange: { min: 1000, max: 32767 } } });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].severity, findings[0].line, findings[0].text], ['error', 8, '10250']);
    assert.match(findings[0].message, /^nodePort 10250\/TCP of Service ns\/metrics is the kubelet API port.*range \(1000-32767, from config\).*; use another nodePort\.$/);
    // An ExternalName Service's nodePort is never allocated, so kube-proxy takes no component port.
    const external = svc.replace('type: NodePort', 'type: ExternalName\n  externalName: db.example.com');
    assert.deepEqual(lint(external, { rules, config: { nodePortRange: { min: 1000, max: 32767 } } }).findings, []);
  });

  it('stays silent on ports no component uses', () => {
    assert.deepEqual(lint(workload('DaemonSet', 'exporter', 'quay.io/prometheus/node-exporter:v1.6.1', '            - {containerPort: 9100, hostPort: 9100}'), { rules }).findings, []);
  });
});
