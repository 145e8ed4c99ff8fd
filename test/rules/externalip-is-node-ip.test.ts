import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['externalip-is-node-ip'];
const node = `
apiVersion: v1
kind: Node
metadata:
  name: node-ai
status:
  addresses:
    - type: InternalIP
      address: 192.0.2.18
    - type: Hostname
      address: node-ai
`;
const svc = (ip: string) => `
apiVersion: v1
kind: Service
metadata:
  name: review
  namespace: web
spec:
  selector: {app: review}
  ports:
    - {name: http, port: 8080}
  externalIPs:
    - ${ip}
`;

describe('externalip-is-node-ip', () => {
  it('warns under iptables, naming the node, at the externalIPs entry', () => {
    const { findings } = lint({ 'node.yaml': node, 'svc.yaml': svc('192.0.2.18') }, { rules, config: { kubeProxyMode: 'iptables' } });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.severity, f.file, f.line, f.column, f.text, f.object], ['warning', 'svc.yaml', 11, 7, '192.0.2.18', 'Service web/review']);
    assert.equal(f.message, "externalIP 192.0.2.18 of Service web/review belongs to Node node-ai (InternalIP): the Service is reachable only through that node and goes dark when it is down or its address changes; use a VIP no node has");
    assert.deepEqual(f.related.map((r) => [r.file, r.line]), [['node.yaml', 8]]);
  });

  it('is an error under IPVS (kube-ipvs0 on every node)', () => {
    const { findings } = lint({ 'node.yaml': node, 'svc.yaml': svc('192.0.2.18') }, { rules, config: { kubeProxyMode: 'ipvs' } });
    assert.equal(findings[0].severity, 'error');
    assert.equal(findings[0].message, "externalIP 192.0.2.18 of Service web/review belongs to Node node-ai (InternalIP): kube-proxy in IPVS mode (config) binds it to kube-ipvs0 on every node, so other nodes cannot reach node-ai at it; use a VIP no node has");
  });

  it('says when the kube-proxy mode is unknown', () => {
    const { findings } = lint({ 'node.yaml': node, 'svc.yaml': svc('192.0.2.18') }, { rules });
    assert.equal(findings[0].severity, 'warning');
    assert.match(findings[0].message, /its address changes \(error under IPVS\); use a VIP no node has$/);
  });

  it('uses the config\'s nodes and compares IPv6 addresses in canonical form', () => {
    const { findings } = lint(svc('2001:DB8:0::7'), { rules, config: { nodes: [{ name: 'edge-1', addresses: ['2001:db8::7'] }] } });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /belongs to Node edge-1 \(config nodes\)/);
    assert.deepEqual(findings[0].related, []);
  });

  it('stays silent for an address no node has, and without any node addresses', () => {
    assert.deepEqual(lint({ 'node.yaml': node, 'svc.yaml': svc('192.0.2.19') }, { rules }).findings, []);
    assert.deepEqual(lint(svc('192.0.2.18'), { rules }).findings, []);
  });
});

describe('externalip-is-node-ip: a node port taken over', () => {
  const files = (ports: string, extra = '') => ({
    'node.yaml': `apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {addresses: [{type: InternalIP, address: 10.0.0.11}]}
`,
    'svc.yaml': `apiVersion: v1
kind: Service
metadata: {name: ssh-grab}
spec:
  selector: {app: web}
  externalIPs: [${extra || '10.0.0.11'}]
  ports:
${ports}`,
  });
  const ports = `    - {name: ssh, port: 22, targetPort: 8080}
    - {name: kubelet, port: 10250, targetPort: 8080}
    - {name: web, port: 8081, targetPort: 8080}
`;

  it('is an error at each Service port a node listener has (sshd 22, kubelet 10250), beside the address warning', () => {
    const { findings } = lint(files(ports), { rules, config: { kubeProxyMode: 'iptables' } });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.line, f.column, f.text]), [
      ['externalip-is-node-ip', 'warning', 6, 17, '10.0.0.11'],
      ['externalip-is-node-ip', 'error', 8, 25, '22'],
      ['externalip-is-node-ip', 'error', 9, 29, '10250'],
    ]);
    assert.equal(findings[0].message, 'externalIP 10.0.0.11 of Service default/ssh-grab belongs to Node node-1 (InternalIP): the Service is reachable only through that node and goes dark when it is down or its address changes; use a VIP no node has');
    const [ssh, kubelet] = findings.slice(1);
    assert.deepEqual([ssh.file, ssh.object, kubelet.file, kubelet.object], ['svc.yaml', 'Service default/ssh-grab', 'svc.yaml', 'Service default/ssh-grab']);
    assert.equal(ssh.message, "Service default/ssh-grab port 22/TCP on externalIP 10.0.0.11 (Node node-1) is sshd's port: kube-proxy DNATs all connections to 10.0.0.11:22, the node's own too, to the pods, so SSH to node-1 reaches the pods instead of sshd; use another port or a VIP no node has");
    assert.equal(kubelet.message, "Service default/ssh-grab port 10250/TCP on externalIP 10.0.0.11 (Node node-1) is the kubelet API port: kube-proxy DNATs all connections to 10.0.0.11:10250, the node's own too, to the pods, so the API server cannot reach that kubelet (kubectl logs/exec fail); use another port or a VIP no node has");
    for (const f of [ssh, kubelet]) {
      assert.ok(f.message.length <= 300, `${f.message.length} characters`);
      assert.deepEqual(f.related.map((r) => [r.file, r.line, r.column, r.message]), [['node.yaml', 4, 50, 'address of Node node-1']]);
    }
  });

  it('stays silent for a non-component port, an address no node has, a UDP port where the component is TCP-only, and without externalIPs', () => {
    const only = (f: { severity: string; text: string }[]) => f.filter((x) => x.severity === 'error' || x.text !== '10.0.0.11');
    assert.deepEqual(only(lint(files('    - {name: web, port: 8081, targetPort: 8080}\n'), { rules, config: { kubeProxyMode: 'iptables' } }).findings), []);
    assert.deepEqual(lint(files(ports, '10.0.0.99'), { rules, config: { kubeProxyMode: 'iptables' } }).findings, []);
    assert.deepEqual(only(lint(files('    - {name: ssh, port: 22, protocol: UDP, targetPort: 8080}\n    - {name: kubelet, port: 10250, protocol: UDP, targetPort: 8080}\n'), { rules, config: { kubeProxyMode: 'iptables' } }).findings), []);
    const noExternal = files(ports);
    noExternal['svc.yaml'] = noExternal['svc.yaml'].replace('  externalIPs: [10.0.0.11]\n', '');
    assert.deepEqual(lint(noExternal, { rules, config: { kubeProxyMode: 'iptables' } }).findings, []);
  });

  it('writes an IPv6 address with its port in brackets', () => {
    const v6 = files('    - {name: ssh, port: 22, targetPort: 8080}\n', '"2001:db8::11"');
    v6['node.yaml'] = v6['node.yaml'].replace('10.0.0.11', '"2001:db8::11"');
    const taken = lint(v6, { rules, config: { kubeProxyMode: 'iptables' } }).findings.filter((f) => f.text === '22');
    assert.deepEqual(taken.map((f) => f.severity), ['error']);
    assert.match(taken[0].message, /kube-proxy DNATs all connections to \[2001:db8::11\]:22,/);
  });

  it('judges kube-proxy healthz a warning under a kube-proxy replacement, and a control-plane port by the Node\'s role label', () => {
    const cilium = `apiVersion: v1
kind: ConfigMap
metadata: {name: cilium-config, namespace: kube-system}
data: {kube-proxy-replacement: "true"}
`;
    const hz = lint({ ...files('    - {name: hz, port: 10256, targetPort: 8080}\n'), 'cilium.yaml': cilium }, { rules, config: { kubeProxyMode: 'iptables' } }).findings.filter((f) => f.text === '10256');
    assert.deepEqual(hz.map((f) => f.severity), ['warning']);
    // Within 300 characters the replacement's evidence and what breaks give way (the rule's page has them).
    assert.equal(hz[0].message, 'Service default/ssh-grab port 10256/TCP on externalIP 10.0.0.11 (Node node-1) is the kube-proxy healthz port: kube-proxy DNATs all connections to 10.0.0.11:10256 to the pods; use another port or a VIP no node has. A warning: kube-proxy may be replaced');
    const api = (labels: string) => {
      const f = files('    - {name: api, port: 6443, targetPort: 8080}\n');
      f['node.yaml'] = f['node.yaml'].replace('metadata: {name: node-1}', `metadata: {name: node-1${labels}}`);
      return lint(f, { rules, config: { kubeProxyMode: 'iptables' } }).findings.filter((x) => x.text === '6443');
    };
    assert.deepEqual(api(', labels: {node-role.kubernetes.io/control-plane: ""}').map((f) => f.severity), ['error']);
    const worker = api('');
    assert.deepEqual(worker.map((f) => f.severity), ['warning']);
    assert.match(worker[0].message, /is the kube-apiserver port: .* A warning: only if it is a control-plane node$/);
  });

  it('names a CNI port only when that CNI runs, skips loopback-only listeners, and reads the config\'s nodes', () => {
    const bgp = (cni: string[]) => lint(files('    - {name: bgp, port: 179, targetPort: 8080}\n'), { rules, config: { kubeProxyMode: 'iptables', cni } }).findings.filter((f) => f.text === '179');
    assert.deepEqual(bgp([]), []);
    const withCalico = bgp(['calico']);
    assert.deepEqual(withCalico.map((f) => [f.severity, f.line, f.column]), [['error', 8, 25]]);
    assert.match(withCalico[0].message, /^Service default\/ssh-grab port 179\/TCP on externalIP 10\.0\.0\.11 \(Node node-1\) is the Calico BGP \(BIRD\) port: .* so node-1's Calico BGP \(BIRD\) is unreachable at that address;/);
    assert.deepEqual(lint(files('    - {name: hz, port: 10248, targetPort: 8080}\n'), { rules, config: { kubeProxyMode: 'iptables' } }).findings.filter((f) => f.text === '10248'), []);
    const svcOnly = files(ports)['svc.yaml'];
    const fromConfig = lint(svcOnly, { rules, config: { kubeProxyMode: 'iptables', nodes: [{ name: 'edge-1', addresses: ['10.0.0.11'] }] } }).findings.filter((f) => f.severity === 'error');
    assert.deepEqual(fromConfig.map((f) => [f.text, f.related]), [['22', []], ['10250', []]]);
    assert.match(fromConfig[0].message, /\(Node edge-1\) is sshd's port: .* so SSH to edge-1 reaches the pods instead of sshd;/);
  });
});
