import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['hostport-usage'];

describe('hostport-usage', () => {
  it('gives one notice per hostPort, at the hostPort value', () => {
    const { findings } = lint(`
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ingress
  namespace: edge
spec:
  selector: {matchLabels: {app: ingress}}
  template:
    metadata: {labels: {app: ingress}}
    spec:
      containers:
        - name: haproxy
          ports:
            - containerPort: 8080
              hostPort: 80
            - containerPort: 8443
              hostPort: 443
              hostIP: 10.0.0.5
            - containerPort: 1936`, { rules });
    assert.equal(findings.length, 2);
    const [a, b] = findings;
    assert.deepEqual([a.line, a.column, a.text, a.severity], [15, 25, '80', 'info']);
    assert.match(a.message, /^hostPort 80\/TCP of container "haproxy" in DaemonSet edge\/ingress maps the node's port on every node address to containerPort 8080: only one pod per node can hold it/);
    assert.match(a.message, /: only one pod per node can hold it, which limits scheduling and rollouts; prefer a NodePort or LoadBalancer Service$/);
    assert.deepEqual([b.line, b.text], [17, '443']);
    assert.match(b.message, /on 10\.0\.0\.5 to containerPort 8443/);
  });

  it('reports a hostPort shared by two containers through a YAML anchor once', () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - &c\n      name: a\n      ports: [{containerPort: 80, hostPort: 8080}]\n    - <<: *c\n      name: b\n';
    const { findings } = lint(text, { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].line, findings[0].text], [8, '8080']);
  });

  it('leaves hostNetwork pods to hostnetwork-usage and stays silent without hostPort', () => {
    const hostNet = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostNetwork: true\n  containers: [{name: a, ports: [{containerPort: 9100, hostPort: 9100}]}]\n';
    const plain = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, ports: [{containerPort: 80}, {containerPort: 81, hostPort: 0}]}]\n';
    assert.deepEqual(lint(hostNet, { rules }).findings, []);
    assert.deepEqual(lint(plain, { rules }).findings, []);
  });
});
