import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['hostnetwork-undeclared-ports'];
const ds = (podSpec: string) => `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: cni
  namespace: kube-system
spec:
  selector: {matchLabels: {app: cni}}
  template:
    metadata: {labels: {app: cni}}
    spec:
${podSpec}`;

describe('hostnetwork-undeclared-ports', () => {
  it('flags a hostNetwork pod without any port, at the hostNetwork value, naming its containers', () => {
    const { findings } = lint(ds(`      hostNetwork: true
      initContainers:
        - name: install-cni
      containers:
        - name: agent
        - name: monitor`), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [11, 20, 'true', 'info', 'DaemonSet kube-system/cni']);
    assert.match(f.message, /^DaemonSet kube-system\/cni uses hostNetwork but none of its containers \("agent" and "monitor"\) declares a port/);
    assert.match(f.message, /: the scheduler's free-port check cannot see what they listen on, so port clashes on the node show up only at runtime; list those ports as containerPorts$/);
  });

  it('reports once per object, for a bare Pod too', () => {
    const { findings } = lint(`
apiVersion: v1
kind: Pod
metadata: {name: debug}
spec:
  hostNetwork: true
  containers: [{name: a}, {name: b}]`, { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].line, findings[0].object], [5, 'Pod default/debug']);
  });

  it('stays silent when any container declares a port, or without hostNetwork', () => {
    const silent = [
      ds(`      hostNetwork: true
      containers:
        - name: agent
        - name: metrics
          ports: [{containerPort: 9099}]`),
      ds(`      hostNetwork: false
      containers: [{name: agent}]`),
      ds(`      containers: [{name: agent}]`),
    ];
    for (const text of silent) assert.deepEqual(lint(text, { rules }).findings, [], text);
  });
});
