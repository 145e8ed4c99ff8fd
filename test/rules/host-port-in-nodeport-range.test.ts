import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['host-port-in-nodeport-range'];

const daemonSet = (name: string, ports: string, hostNetwork = false) => `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ${name}
  namespace: infra
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      hostNetwork: ${hostNetwork}
      containers:
        - name: agent
          image: agent
          ports:
${ports}`;

describe('host-port-in-nodeport-range', () => {
  it('warns about a hostPort inside the default range that no Service uses, with the range and its source', () => {
    const { findings } = lint(daemonSet('agent', '            - containerPort: 8080\n              hostPort: 31500'), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [17, 25, '31500', 'warning', 'DaemonSet infra/agent']);
    assert.equal(f.message, 'hostPort 31500/TCP lies in the NodePort range 30000-32767 (default) and no Service uses it yet: the API server may allocate 31500 to the next nodePort or healthCheckNodePort, and kube-proxy then takes it on every node; move it below 30000');
  });

  it('moves the hostPort to the nearest port below the range that nothing uses', () => {
    const svc = `
    apiVersion: v1
    kind: Service
    metadata: {name: s, namespace: infra}
    spec:
      selector: {app: x}
      ports: [{port: 29999}]`;
    const ds = dedent(daemonSet('agent', '            - containerPort: 8080\n              hostPort: 31500')) + '\n---\n' + dedent(daemonSet('other', '            - containerPort: 9\n              hostPort: 29998'));
    const text = ds + '\n---\n' + dedent(svc);
    const [f] = lint(text, { rules }).findings;
    assert.equal(f.fixes[0].title, 'Change hostPort 31500 to 29997 (below the NodePort range)');
    assert.deepEqual(lint(applyEdits(text, f.fixes[0].edits), { rules }).findings, []);
  });

  it('offers no fix when the hostPort value is shared through an anchor', () => {
    const text = daemonSet('agent', '            - containerPort: 8080\n              hostPort: &hp 31500\n            - containerPort: 8081\n              hostIP: 10.0.0.1\n              hostPort: *hp');
    const { findings } = lint(text, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.fixes.length]), [[17, 0], [20, 0]]);
  });

  it('follows the configured range and mentions the static band', () => {
    const { findings } = lint(daemonSet('agent', '            - containerPort: 8080\n              hostPort: 20005'), { rules, config: { nodePortRange: { min: 20000, max: 22767 } } });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /range 20000-22767 \(config\).*static band 20000-20085/);
    assert.equal(findings[0].fixes[0].edits[0].newText, '19999');
  });

  it('reports a hostNetwork containerPort without a fix (the process must be reconfigured)', () => {
    const { findings } = lint(daemonSet('agent', '            - containerPort: 30500', true), { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /^hostNetwork port 30500\/TCP/);
    assert.deepEqual(findings[0].fixes, []);
  });

  it('stays silent outside the range, for a port a Service already uses as nodePort, and for plain containerPorts', () => {
    assert.deepEqual(lint(daemonSet('a', '            - containerPort: 8080\n              hostPort: 29999'), { rules }).findings, []);
    assert.deepEqual(lint(daemonSet('a', '            - containerPort: 8080\n              hostPort: 32768'), { rules }).findings, []);
    assert.deepEqual(lint(daemonSet('a', '            - containerPort: 31500'), { rules }).findings, []);
    const svc = `
    apiVersion: v1
    kind: Service
    metadata: {name: s, namespace: infra}
    spec:
      type: NodePort
      selector: {app: x}
      ports: [{port: 80, nodePort: 31500}]`;
    assert.deepEqual(lint({ 'a.yaml': daemonSet('a', '            - containerPort: 8080\n              hostPort: 31500'), 'b.yaml': svc }, { rules }).findings, []);
  });

  it('still warns when the only nodePort on the port is an ExternalName Service\'s, which holds no port', () => {
    const svc = `
    apiVersion: v1
    kind: Service
    metadata: {name: s, namespace: infra}
    spec:
      type: ExternalName
      externalName: db.example.com
      ports: [{port: 80, nodePort: 31500}]`;
    const { findings } = lint({ 'a.yaml': daemonSet('a', '            - containerPort: 8080\n              hostPort: 31500'), 'b.yaml': svc }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.text, f.severity]), [['a.yaml', 17, '31500', 'warning']]);
  });
});
