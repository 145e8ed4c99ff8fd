import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['externaltrafficpolicy-local-healthcheck'];
const lb = (extra = '', type = 'LoadBalancer') => `
apiVersion: v1
kind: Service
metadata: {name: broker-lb, namespace: streaming}
spec:
  type: ${type}
  externalTrafficPolicy: Local${extra}
  selector: {app: broker}
  ports: [{port: 9092}]
`;
const hostNet = (ports: string) => `
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: ops}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      hostNetwork: true
      containers:
        - name: agent
          ports: ${ports}
`;

describe('externaltrafficpolicy-local-healthcheck', () => {
  it('names the written healthCheckNodePort and the host-level port on the same number', () => {
    const { findings } = lint(lb('\n  healthCheckNodePort: 31990') + hostNet('[{containerPort: 31990}]'), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity], [6, 26, 'Local', 'hint']);
    assert.equal(f.message, 'kube-proxy listens on healthCheckNodePort 31990/TCP on every node for Service streaming/broker-lb: it answers 200 only where a local endpoint runs, so the load balancer uses only those nodes; host-level port 31990 (DaemonSet ops/agent) is the same port');
    assert.deepEqual(f.related.map((r) => r.line), [7, 23]);
  });

  it('when not written, says it is allocated at apply time and lists TCP host-level ports inside the range', () => {
    const { findings } = lint(lb() + hostNet('[{containerPort: 9100}, {containerPort: 30500}, {containerPort: 30600, protocol: UDP}, {containerPort: 32000}]'), { rules, config: { nodePortRange: { min: 30000, max: 31999 } } });
    assert.equal(findings.length, 1);
    const m = findings[0].message;
    assert.equal(m, 'kube-proxy will listen on every node on the healthCheckNodePort allocated to Service streaming/broker-lb; in 30000-31999 it may hit host ports 30500 (DaemonSet ops/agent); pin a free one');
    assert.deepEqual(findings[0].related.map((r) => r.message), ['host-level port 30500 (DaemonSet ops/agent, container "agent")']);
  });

  it('says so when no host-level port lies in the range', () => {
    const { findings } = lint(lb() + hostNet('[{containerPort: 9100}]'), { rules });
    assert.equal(findings[0].message, 'kube-proxy will listen on every node on the healthCheckNodePort allocated to Service streaming/broker-lb: it answers 200 only where a local endpoint runs, so the load balancer uses only those nodes; no host-level port of the workspace is in 30000-32767');
  });

  it('stays silent for non-LoadBalancer Services and Cluster policy', () => {
    assert.deepEqual(lint(lb('', 'NodePort'), { rules }).findings, []);
    assert.deepEqual(lint(lb().replace('Local', 'Cluster'), { rules }).findings, []);
  });
});
