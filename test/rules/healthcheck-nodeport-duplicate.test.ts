import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['healthcheck-nodeport-duplicate'];
const lb = (name: string, hc: number, ports: string, extra = '  externalTrafficPolicy: Local\n  type: LoadBalancer') => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ns
spec:
${extra}
  healthCheckNodePort: ${hc}
  ports:
${ports}`;

describe('healthcheck-nodeport-duplicate', () => {
  it("flags a healthCheckNodePort equal to its own Service's nodePort, at the healthCheckNodePort", () => {
    const { findings } = lint(lb('app', 30990, '    - {name: app, port: 8080, nodePort: 31101}\n    - {name: hc, port: 8081, nodePort: 30990}'), { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [9, 24, '30990', 'error', 'Service ns/app']);
    assert.match(f.message, /^healthCheckNodePort 30990 of Service ns\/app is also nodePort 30990 \(port "hc"\) of the same Service/);
    assert.equal(f.message, 'healthCheckNodePort 30990 of Service ns/app is also nodePort 30990 (port "hc") of the same Service: both come from one allocator, so the API server refuses the Service ("already allocated"); pick another port');
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[12, 'nodePort 30990 (port "hc") of Service ns/app']]);
  });

  it("flags both sides when it equals another Service's nodePort, each naming the other", () => {
    const other = `
      apiVersion: v1
      kind: Service
      metadata: {name: other, namespace: ns2}
      spec:
        type: NodePort
        ports:
          - {name: web, port: 80, nodePort: 31990}`;
    const { findings } = lint({ 'a.yaml': lb('app', 31990, '    - {name: app, port: 80}'), 'b.yaml': other }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.text]), [['a.yaml', 9, '31990'], ['b.yaml', 7, '31990']]);
    assert.match(findings[0].message, /is also nodePort 31990 of Service ns2\/other: both come from one allocator, so whichever Service is applied second is refused \("already allocated"\); pick another port$/);
    assert.match(findings[1].message, /^nodePort 31990 of Service ns2\/other is also healthCheckNodePort 31990 of Service ns\/app/);
    assert.deepEqual(findings[0].related.map((r) => r.file), ['b.yaml']);
    assert.deepEqual(findings[1].related.map((r) => r.file), ['a.yaml']);
  });

  it('flags two Services with the same healthCheckNodePort', () => {
    const text = lb('a', 30500, '    - {name: x, port: 80}') + '\n---' + lb('b', 30500, '    - {name: x, port: 80}');
    const { findings } = lint(text, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.object]), [[9, 'Service ns/a'], [21, 'Service ns/b']]);
    assert.match(findings[0].message, /also healthCheckNodePort 30500 of Service ns\/b/);
  });

  it('offers a free port; the fixed file is clean', () => {
    const text = lb('app', 30000, '    - {name: a, port: 80, nodePort: 30000}\n    - {name: b, port: 81, nodePort: 30001}');
    const { findings } = lint(text, { rules });
    assert.equal(findings[0].fixes[0].title, 'Change healthCheckNodePort 30000 to free port 30002');
    assert.deepEqual(lint(applyEdits(dedent(text), findings[0].fixes[0].edits), { rules }).findings, []);
  });

  it('stays silent for variants of one Service (base and overlay) and for distinct ports', () => {
    const one = lb('app', 31990, '    - {name: a, port: 80, nodePort: 31000}');
    assert.deepEqual(lint({ 'base/svc.yaml': one, 'overlay/svc.yaml': one }, { rules }).findings, []);
  });

  it('stays silent when the healthCheckNodePort is not allocated (not LoadBalancer + Local)', () => {
    const text = lb('np', 30990, '    - {name: hc, port: 8081, nodePort: 30990}', '  type: NodePort');
    assert.deepEqual(lint(text, { rules }).findings, []);
  });

  it('ignores nodePorts of ClusterIP Services (never allocated)', () => {
    const cip = `
      apiVersion: v1
      kind: Service
      metadata: {name: cip, namespace: ns}
      spec:
        ports:
          - {name: web, port: 80, nodePort: 31990}`;
    assert.deepEqual(lint({ 'a.yaml': lb('app', 31990, '    - {name: app, port: 80}'), 'b.yaml': cip }, { rules }).findings, []);
  });
});
