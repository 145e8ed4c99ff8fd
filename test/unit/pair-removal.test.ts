import { strict as assert } from 'node:assert';
import { parseAllDocuments } from 'yaml';
import { applyEdits, dedent, lint } from '../helpers/lint';

/** The hostPortRemoval span of the first port of the first container, applied to the text. */
function removeHostPort(yaml: string): string | undefined {
  const text = dedent(yaml);
  const { analysis } = lint(text);
  const workload = analysis.model.workloads[0];
  const span = workload.pod.containers[0].ports[0].hostPortRemoval;
  return span ? applyEdits(text, [{ span, newText: '' }]) : undefined;
}

const pod = (ports: string) => `
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: web
      image: nginx
      ports:
${ports}`;

/** Parses the edited text and returns the first container's ports, failing on any YAML error. */
function portsAfter(text: string): unknown {
  const docs = parseAllDocuments(text);
  assert.ok(Array.isArray(docs));
  for (const d of docs) assert.deepEqual(d.errors, []);
  return (docs[0].toJS() as { spec: { containers: { ports: unknown }[] } }).spec.containers[0].ports;
}

describe('hostPortRemoval (load/pair-removal)', () => {
  it('removes a block entry after containerPort and keeps the next entry and its comment', () => {
    const out = removeHostPort(pod('        - containerPort: 80\n          hostPort: 31123\n          protocol: TCP # tcp only'));
    assert.ok(out);
    assert.match(out, /- containerPort: 80\n {10}protocol: TCP # tcp only/);
    assert.deepEqual(portsAfter(out), [{ containerPort: 80, protocol: 'TCP' }]);
  });

  it('removes the first block entry of a sequence item', () => {
    const out = removeHostPort(pod('        - hostPort: 31123\n          containerPort: 80'));
    assert.ok(out);
    assert.match(out, /- containerPort: 80/);
    assert.deepEqual(portsAfter(out), [{ containerPort: 80 }]);
  });

  it('removes a flow-style entry in either position', () => {
    const last = removeHostPort(pod('        - {containerPort: 80, hostPort: 31123}'));
    assert.ok(last);
    assert.match(last, /- \{containerPort: 80\}/);
    assert.deepEqual(portsAfter(last), [{ containerPort: 80 }]);
    const first = removeHostPort(pod('        - {hostPort: 31123, containerPort: 80, name: http}'));
    assert.ok(first);
    assert.deepEqual(portsAfter(first), [{ containerPort: 80, name: 'http' }]);
  });

  it('works with CRLF line endings', () => {
    const out = removeHostPort(pod('        - containerPort: 80\n          hostPort: 31123\n          name: http').replace(/\n/g, '\r\n'));
    assert.ok(out);
    assert.deepEqual(portsAfter(out), [{ containerPort: 80, name: 'http' }]);
  });

  it('offers no removal where it could not be exact: comments, anchors, merge keys, single entry', () => {
    assert.equal(removeHostPort(pod('        - containerPort: 80 # web\n          hostPort: 31123')), undefined);
    assert.equal(removeHostPort(pod('        - containerPort: 80\n          hostPort: 31123 # node port')), undefined);
    assert.equal(removeHostPort(pod('        - containerPort: 80\n          # published\n          hostPort: 31123')), undefined);
    assert.equal(removeHostPort(pod('        - &p {containerPort: 80, hostPort: 31123}')), undefined);
    assert.equal(removeHostPort(pod('        - containerPort: 80\n          hostPort: &hp 31123')), undefined);
    assert.equal(removeHostPort(pod('        - {hostPort: 31123}')), undefined);
    const merged = `
    apiVersion: v1
    kind: Pod
    metadata: {name: web}
    spec:
      containers:
        - &base {name: a, image: nginx, ports: [{containerPort: 80, hostPort: 8080}]}
        - <<: *base
          name: b`;
    const { analysis } = lint(merged);
    const [a, b] = analysis.model.workloads[0].pod.containers;
    assert.equal(a.ports[0].hostPortRemoval, undefined);
    assert.equal(b.ports[0].hostPortRemoval, undefined);
    assert.equal(b.ports[0].hostPort?.value, 8080);
  });
});
