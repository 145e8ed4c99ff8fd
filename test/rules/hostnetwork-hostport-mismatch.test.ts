import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['hostnetwork-hostport-mismatch'];
const ds = (podSpec: string) => `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: monitoring
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
${podSpec}`;

describe('hostnetwork-hostport-mismatch', () => {
  it('flags a hostPort different from its containerPort on a hostNetwork pod, at the hostPort value', () => {
    const text = ds(`      hostNetwork: true
      containers:
        - name: exporter
          image: exporter:1
          ports:
            - containerPort: 9100
              hostPort: 19100`);
    const { findings } = lint(text, { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity], [17, 25, '19100', 'error']);
    assert.match(f.message, /^hostPort 19100 differs from containerPort 9100 in container "exporter" of DaemonSet monitoring\/agent/);
    assert.match(f.message, /must match `containerPort` when `hostNetwork` is true/);
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[16, 'containerPort 9100'], [11, 'hostNetwork: true']]);
  });

  it('fixes by setting hostPort to the containerPort, touching only that value', () => {
    const text = ds(`      hostNetwork: true
      containers:
        - name: exporter
          ports:
            - {containerPort: 9100, hostPort: 19100}  # metrics`);
    const { findings } = lint(text, { rules });
    const fix = findings[0].fixes[0];
    assert.equal(fix.title, 'Set hostPort to 9100 (the containerPort)');
    assert.equal(fix.preferred, true);
    const fixed = applyEdits(dedent(text), fix.edits);
    assert.ok(fixed.includes('- {containerPort: 9100, hostPort: 9100}  # metrics'));
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('stays silent for equal ports, unset hostPort, hostPort 0, and pods without hostNetwork', () => {
    const silent = [
      ds(`      hostNetwork: true
      containers:
        - name: a
          ports: [{containerPort: 9100, hostPort: 9100}, {containerPort: 9101}, {containerPort: 9102, hostPort: 0}]`),
      ds(`      hostNetwork: false
      containers:
        - name: a
          ports: [{containerPort: 8080, hostPort: 80}]`),
      ds(`      containers:
        - name: a
          ports: [{containerPort: 8080, hostPort: 80}]`),
    ];
    for (const text of silent) assert.deepEqual(lint(text, { rules }).findings, [], text);
  });

  it('does not check init containers (the API server checks spec.containers only)', () => {
    const text = ds(`      hostNetwork: true
      initContainers:
        - name: setup
          ports: [{containerPort: 8080, hostPort: 80}]
      containers:
        - name: a
          ports: [{containerPort: 9100}]`);
    assert.deepEqual(lint(text, { rules }).findings, []);
  });
});
