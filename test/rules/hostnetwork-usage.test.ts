import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['hostnetwork-usage'];

describe('hostnetwork-usage', () => {
  it('gives one notice per hostNetwork object, at the hostNetwork value, listing its ports', () => {
    const { findings } = lint(`
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-exporter
  namespace: monitoring
spec:
  selector: {matchLabels: {app: ne}}
  template:
    metadata: {labels: {app: ne}}
    spec:
      hostNetwork: true
      containers:
        - name: exporter
          ports: [{containerPort: 9100}]
        - name: rbac-proxy
          ports: [{containerPort: 9443}, {containerPort: 9100}]`, { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity], [11, 20, 'true', 'info']);
    assert.equal(f.message, "DaemonSet monitoring/node-exporter runs in the node's network namespace (hostNetwork: true): its ports (9100/TCP, 9443/TCP) are ports of the node; avoid hostNetwork unless the pod must see the node's network (CNI, node agents)");
  });

  it('says every bound port is a node port when none is declared', () => {
    const { findings } = lint('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostNetwork: true\n  containers: [{name: a}]\n', { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].line, 5);
    assert.match(findings[0].message, /every port it binds is a port of the node/);
  });

  it('stays silent for hostNetwork false or absent', () => {
    assert.deepEqual(lint('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostNetwork: false\n  containers: [{name: a}]\n', { rules }).findings, []);
    assert.deepEqual(lint('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, ports: [{containerPort: 80, hostPort: 80}]}]\n', { rules }).findings, []);
  });
});
