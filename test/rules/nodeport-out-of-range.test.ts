import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { fromApiObject } from '../../server/out/core/model/from-api-object';
import { allRules } from '../../server/out/core/rules/index';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['nodeport-out-of-range'];
const svc = (name: string, spec: string) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: web
spec:
${spec}`;

describe('nodeport-out-of-range', () => {
  it('flags a nodePort below the default range at the value, quoting the API server', () => {
    const { findings } = lint(svc('ingress', '  type: NodePort\n  ports:\n    - name: http\n      port: 80\n      nodePort: 5678'), { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [11, 17, '5678', 'error', 'Service web/ingress']);
    assert.match(f.message, /^nodePort 5678 of Service web\/ingress is outside the NodePort range 30000-32767 \(the Kubernetes default;/);
    assert.ok(f.message.includes('"spec.ports[0].nodePort: Invalid value: 5678: provided port is not in the valid range. The range of valid ports is 30000-32767"'));
    assert.deepEqual(f.related, []);
  });

  it('flags ports above the range and beyond 65535, on LoadBalancer Services too', () => {
    const { findings } = lint(svc('lb', '  type: LoadBalancer\n  ports:\n    - {name: a, port: 80, nodePort: 32768}\n    - {name: b, port: 81, nodePort: 70000}'), { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.text]), [[9, '32768'], [10, '70000']]);
    assert.ok(findings[1].message.includes('spec.ports[1].nodePort: Invalid value: 70000'));
  });

  it('accepts both ends of the range (inclusive)', () => {
    const { findings } = lint(svc('edge', '  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 30000}\n    - {name: b, port: 81, nodePort: 32767}'), { rules });
    assert.deepEqual(findings, []);
  });

  it('uses the config range and says so', () => {
    const text = svc('x', '  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 30080}');
    const { findings } = lint(text, { rules, config: { nodePortRange: { min: 20000, max: 22767 } } });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /outside the NodePort range 20000-22767 \(from the kube-netlint config/);
    assert.ok(findings[0].message.includes('The range of valid ports is 20000-22767'));
    assert.deepEqual(lint(svc('wide', '  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 20080}'), { rules, config: { nodePortRange: { min: 20000, max: 22767 } } }).findings, []);
  });

  it('takes the range from a kube-apiserver static Pod in the workspace and points at the flag', () => {
    const apiserver = `
      apiVersion: v1
      kind: Pod
      metadata: {name: kube-apiserver, namespace: kube-system}
      spec:
        containers:
          - name: kube-apiserver
            image: registry.k8s.io/kube-apiserver:v1.30.0
            command: [kube-apiserver, --service-node-port-range=1000-2000]`;
    const { findings } = lint({ 'apiserver.yaml': apiserver, 'svc.yaml': svc('x', '  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 30080}') }, { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /range 1000-2000 \(from the kube-apiserver flag in Pod kube-system\/kube-apiserver\)/);
    assert.deepEqual(findings[0].related.map((r) => [r.file, r.line, r.message]), [['apiserver.yaml', 8, 'NodePort range 1000-2000 set here']]);
  });

  it('reads a single-port --service-node-port-range (valid for Kubernetes) instead of falling back to the default', () => {
    const apiserver = `
      apiVersion: v1
      kind: Pod
      metadata: {name: kube-apiserver, namespace: kube-system}
      spec:
        containers:
          - name: kube-apiserver
            image: registry.k8s.io/kube-apiserver:v1.30.0
            command: [kube-apiserver, --service-node-port-range=31000]`;
    const { findings } = lint({ 'apiserver.yaml': apiserver, 'svc.yaml': svc('x', '  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 31000}\n    - {name: b, port: 81, nodePort: 31001}') }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.text]), [[10, '31001']]);
    assert.match(findings[0].message, /outside the NodePort range 31000-31000 \(from the kube-apiserver flag in Pod kube-system\/kube-apiserver\)/);
  });

  it('flags a healthCheckNodePort of a LoadBalancer+Local Service with the allocator message', () => {
    const { findings } = lint(svc('lb', '  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 10256\n  ports:\n    - {name: a, port: 80}'), { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].line, findings[0].column, findings[0].text], [9, 24, '10256']);
    assert.ok(findings[0].message.includes('failed to allocate requested HealthCheck NodePort 10256: provided port is not in the valid range'));
  });

  it('offers distinct free ports from the static band, and the fixed file is clean', () => {
    const text = svc('two', '  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 80}\n    - {name: b, port: 81, nodePort: 30000}\n    - {name: c, port: 82, nodePort: 443}');
    const { findings } = lint(text, { rules });
    assert.deepEqual(findings.map((f) => f.fixes[0].title), ['Change nodePort 80 to free port 30001', 'Change nodePort 443 to free port 30002']);
    const fixed = applyEdits(dedent(text), findings.flatMap((f) => f.fixes[0].edits));
    assert.match(fixed, /nodePort: 30001\}\n.*nodePort: 30000\}\n.*nodePort: 30002\}/);
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('stays silent where the API server rejects the Service earlier (ClusterIP nodePort, unneeded healthCheckNodePort)', () => {
    assert.deepEqual(lint(svc('c', '  ports:\n    - {name: a, port: 80, nodePort: 80}'), { rules }).findings, []);
    assert.deepEqual(lint(svc('d', '  type: NodePort\n  healthCheckNodePort: 80\n  ports:\n    - {name: a, port: 80}'), { rules }).findings, []);
  });

  it('stays silent for live cluster Services (the API server accepted them: the assumed range is what is wrong)', () => {
    const live = fromApiObject({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'np', namespace: 'x' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 20080 }] } }, 'prod')!;
    const analysis = analyze([], DEFAULT_CONFIG, { rules: allRules.filter((r) => rules.includes(r.id) || r.id === 'service-spec-invalid'), extraObjects: [live] });
    assert.equal(live.origin.type, 'cluster');
    assert.deepEqual(analysis.findings, []);
  });

  it('stays silent for unset nodePorts and nodePort 0 (allocated by the API server)', () => {
    assert.deepEqual(lint(svc('e', '  type: NodePort\n  ports:\n    - {name: a, port: 80}\n    - {name: b, port: 81, nodePort: 0}'), { rules }).findings, []);
  });
});
