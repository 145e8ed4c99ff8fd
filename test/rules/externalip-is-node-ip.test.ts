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
