import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['nodeport-duplicate'];
const svc = (name: string, ns: string, ports: string) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  type: NodePort
  selector: {app: ${name}}
  ports:
${ports}`;

describe('nodeport-duplicate', () => {
  it('flags both Services across files and namespaces, each naming the other', () => {
    const { findings } = lint(
      {
        'a.yaml': svc('app-a', 'team-a', '    - {name: http, port: 80, nodePort: 30080}'),
        'b.yaml': svc('app-b', 'team-b', '    - {name: dns, port: 53, protocol: UDP, nodePort: 30080}'),
      },
      { rules },
    );
    assert.equal(findings.length, 2);
    const [a, b] = findings;
    assert.deepEqual([a.file, a.line, a.column, a.text, a.severity], ['a.yaml', 10, 40, '30080', 'error']);
    assert.deepEqual([b.file, b.line, b.text], ['b.yaml', 10, '30080']);
    assert.match(a.message, /nodePort 30080 is also claimed by Service team-b\/app-b/);
    assert.match(b.message, /Service team-a\/app-a/);
    assert.deepEqual(a.related.map((r) => [r.file, r.line]), [['b.yaml', 10]]);
  });

  it('names at most two other Services in the message and "and N more", while related locations list all of them', () => {
    const files = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((n) => [`${n}.yaml`, svc(`app-${n}`, 'x', '    - {name: http, port: 80, nodePort: 30080}')]));
    const { findings } = lint(files, { rules });
    assert.equal(findings.length, 8);
    assert.equal(findings[0].message, 'nodePort 30080 is also claimed by Service x/app-b, Service x/app-c and 5 more: nodePorts are cluster-wide, so the API server rejects whichever Service is applied second ("provided port is already allocated"); pick another port');
    assert.deepEqual(findings[0].related.map((r) => r.message), ['b', 'c', 'd', 'e', 'f', 'g', 'h'].map((n) => `nodePort 30080 of Service x/app-${n}`));
    const three = lint(Object.fromEntries(Object.entries(files).slice(0, 3)), { rules }).findings;
    assert.match(three[0].message, /^nodePort 30080 is also claimed by Service x\/app-b and Service x\/app-c: /);
  });

  it('offers a fix to a free port of the static band that no object uses', () => {
    const text = svc('a', 'x', '    - {name: http, port: 80, nodePort: 30000}') + '\n---' + svc('b', 'x', '    - {name: http, port: 80, nodePort: 30000}\n    - {name: h2, port: 81, nodePort: 30001}');
    const { findings } = lint(text, { rules });
    const fix = findings[0].fixes[0];
    assert.equal(fix.title, 'Change nodePort 30000 to free port 30002');
    const fixed = applyEdits(dedent(text), fix.edits);
    assert.equal(lint(fixed, { rules }).findings.length, 0);
  });

  it('allows one nodePort for TCP and UDP inside one Service', () => {
    const { findings } = lint(svc('dns', 'kube-system', '    - {name: dns-tcp, port: 53, protocol: TCP, nodePort: 30053}\n    - {name: dns, port: 53, protocol: UDP, nodePort: 30053}'), { rules });
    assert.deepEqual(findings, []);
  });

  it('flags the same protocol twice inside one Service at the second use', () => {
    const { findings } = lint(svc('web', 'default', '    - name: a\n      port: 80\n      nodePort: 30100\n    - name: b\n      port: 81\n      nodePort: 30100'), { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].line, 15);
    assert.match(findings[0].message, /^nodePort 30100\/TCP is used twice in Service default\/web \(also by port a\): the API server rejects the Service with "Duplicate value: 30100"; give one of them another nodePort$/);
  });

  it('stays silent for variants of one object (the same Service in two files)', () => {
    const one = svc('app', 'prod', '    - {name: http, port: 80, nodePort: 30080}');
    assert.deepEqual(lint({ 'base/svc.yaml': one, 'overlay/svc.yaml': one }, { rules }).findings, []);
  });

  it('stays silent for different nodePorts and for unset nodePorts', () => {
    const { findings } = lint(
      { 'a.yaml': svc('a', 'x', '    - {name: http, port: 80, nodePort: 30080}'), 'b.yaml': svc('b', 'x', '    - {name: http, port: 80}') },
      { rules },
    );
    assert.deepEqual(findings, []);
  });

  it('does not count the nodePort of an ExternalName Service, which is never allocated, but still refuses it twice inside the Service', () => {
    const external = (ports: string) => `
    apiVersion: v1
    kind: Service
    metadata: {name: db, namespace: x}
    spec:
      type: ExternalName
      externalName: db.example.com
      ports: [${ports}]`;
    const across = lint({ 'a.yaml': external('{name: h, port: 80, nodePort: 30001}'), 'b.yaml': svc('web', 'x', '    - {name: h, port: 80, nodePort: 30001}') }, { rules });
    assert.deepEqual(across.findings, []);
    // The same check with a NodePort Service in place of the ExternalName one does collide.
    const both = lint({ 'a.yaml': svc('db', 'x', '    - {name: h, port: 80, nodePort: 30001}'), 'b.yaml': svc('web', 'x', '    - {name: h, port: 80, nodePort: 30001}') }, { rules });
    assert.deepEqual(both.findings.map((f) => [f.file, f.line, f.text]), [['a.yaml', 10, '30001'], ['b.yaml', 10, '30001']]);
    const twice = lint(external('{name: h, port: 80, nodePort: 30001}, {name: i, port: 81, nodePort: 30001}'), { rules }).findings;
    assert.deepEqual(twice.map((f) => [f.line, f.column, f.text]), [[7, 79, '30001']]);
    assert.match(twice[0].message, /^nodePort 30001\/TCP is used twice in Service x\/db \(also by port h\): the API server rejects the Service with "Duplicate value: 30001"/);
    // No move to a free port: any nodePort on an ExternalName Service is unused (service-spec-invalid says so).
    assert.deepEqual(twice[0].fixes, []);
  });
});
