import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['host-port-conflicts-healthcheck-nodeport'];

const lb = (healthCheck: number, type = 'LoadBalancer', policy = 'Local') => `
apiVersion: v1
kind: Service
metadata:
  name: broker-lb
  namespace: streaming
spec:
  type: ${type}
  externalTrafficPolicy: ${policy}
  healthCheckNodePort: ${healthCheck}
  selector: {app: broker}
  ports:
    - {name: client, port: 9092, nodePort: 31092}
`;

const broker = (port: string, hostNetwork = true) => `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: broker
  namespace: streaming
spec:
  replicas: 3
  selector: {matchLabels: {app: broker}}
  template:
    metadata: {labels: {app: broker}}
    spec:
      hostNetwork: ${hostNetwork}
      containers:
        - name: broker
          image: kafka
          ports:
${port}`;

describe('host-port-conflicts-healthcheck-nodeport', () => {
  it('flags a hostNetwork port equal to a healthCheckNodePort on both sides (the Kafka story)', () => {
    const { findings } = lint({ 'svc.yaml': lb(31990), 'sts.yaml': broker('            - {name: replication, containerPort: 31990}') }, { rules });
    assert.equal(findings.length, 2);
    const pod = findings.find((f) => f.file === 'sts.yaml')!;
    const svc = findings.find((f) => f.file === 'svc.yaml')!;
    assert.deepEqual([pod.line, pod.column, pod.text, pod.severity], [17, 50, '31990', 'error']);
    assert.equal(pod.message, 'hostNetwork port 31990/TCP is the healthCheckNodePort of Service streaming/broker-lb: kube-proxy serves the load balancer\'s health checks on 31990/TCP on every node, so whichever binds second fails ("address already in use" or FailedToStartServiceHealthcheck); move one port');
    assert.deepEqual(pod.related.map((r) => [r.file, r.line]), [['svc.yaml', 9]]);
    assert.deepEqual([svc.line, svc.column, svc.text], [9, 24, '31990']);
    assert.match(svc.message, /^healthCheckNodePort 31990 is also the hostNetwork port of StatefulSet streaming\/broker: kube-proxy serves /);
    // The hostNetwork port cannot be edited away; the real fix, offered on the broker too, moves the Service's port (other file).
    assert.deepEqual(pod.fixes.map((f) => f.title), ['Change the healthCheckNodePort of Service streaming/broker-lb from 31990 to free port 30000 (immutable: re-create the Service)']);
    assert.deepEqual(pod.fixes[0].edits.map((e) => [e.span.file, e.newText]), [['svc.yaml', '30000']]);
    assert.deepEqual(svc.fixes[0].edits, pod.fixes[0].edits);
  });

  it('is a warning on both sides, saying so, while the workload runs no pods (replicas: 0)', () => {
    const parked = broker('            - {name: replication, containerPort: 31990}').replace('replicas: 3', 'replicas: 0');
    const { findings } = lint({ 'svc.yaml': lb(31990), 'sts.yaml': parked }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.severity]), [['sts.yaml', 17, 'warning'], ['svc.yaml', 9, 'warning']]);
    assert.equal(findings[0].message, "hostNetwork port 31990/TCP is the healthCheckNodePort of Service streaming/broker-lb: StatefulSet streaming/broker runs no pods now (replicas: 0), but once it runs it and kube-proxy's health-check server on 31990/TCP collide on its nodes; move one port");
    assert.match(findings[1].message, /^healthCheckNodePort 31990 is also the hostNetwork port of StatefulSet streaming\/broker: StatefulSet streaming\/broker runs no pods now \(replicas: 0\)/);
  });

  it('explains the hostPort case (portmap diverts the probes) and offers both fixes', () => {
    const text = dedent(lb(31990)) + '---\n' + dedent(broker('            - containerPort: 8080\n              hostPort: 31990', false));
    const { findings } = lint(text, { rules });
    const pod = findings.find((f) => f.object === 'StatefulSet streaming/broker')!;
    assert.equal(pod.message, 'hostPort 31990/TCP is the healthCheckNodePort of Service streaming/broker-lb: kube-proxy serves the load balancer\'s health checks on 31990/TCP on every node, but on the pod\'s node the CNI portmap DNAT sends the probes to the pod; move one port');
    assert.equal(pod.fixes[0].title, 'Remove hostPort 31990 (leave the port to kube-proxy)');
    assert.deepEqual(lint(applyEdits(text, pod.fixes[0].edits), { rules }).findings, []);
    const svcFix = findings.find((f) => f.object === 'Service streaming/broker-lb')!.fixes[0];
    assert.equal(svcFix.title, 'Change healthCheckNodePort 31990 to free port 30000 (immutable: re-create the Service)');
    assert.deepEqual(lint(applyEdits(text, svcFix.edits), { rules }).findings, []);
  });

  it('stays silent for UDP host ports, other numbers, and Services that get no health check', () => {
    assert.deepEqual(lint({ a: lb(31990), b: broker('            - {containerPort: 31990, protocol: UDP}') }, { rules }).findings, []);
    assert.deepEqual(lint({ a: lb(31991), b: broker('            - {containerPort: 31990}') }, { rules }).findings, []);
    // healthCheckNodePort on a Cluster policy / NodePort Service is rejected by the API: kube-proxy never listens.
    assert.deepEqual(lint({ a: lb(31990, 'LoadBalancer', 'Cluster'), b: broker('            - {containerPort: 31990}') }, { rules }).findings, []);
    assert.deepEqual(lint({ a: lb(31990, 'NodePort'), b: broker('            - {containerPort: 31990}') }, { rules }).findings, []);
  });
});
