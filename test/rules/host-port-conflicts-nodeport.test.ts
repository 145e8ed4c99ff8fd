import { strict as assert } from 'node:assert';
import { parseAllDocuments } from 'yaml';
import { applyEdits, dedent, lint } from '../helpers/lint';
import { podWorkload } from '../helpers/manifests';

const rules = ['host-port-conflicts-nodeport'];

const service = (name: string, nodePort: number, protocol = 'TCP') => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: web
spec:
  type: NodePort
  selector: {app: ${name}}
  ports:
    - port: 80
      protocol: ${protocol}
      nodePort: ${nodePort}
`;

const deployment = (name: string, ports: string, extra = '') => podWorkload({ name, ns: 'web', container: 'app', image: 'nginx', ports, spec: extra });

describe('host-port-conflicts-nodeport', () => {
  it('flags a hostPort equal to a nodePort on both sides, each naming the other', () => {
    const { findings } = lint(
      {
        'svc.yaml': service('web-nodeport', 31123),
        'deploy.yaml': deployment('web-hostport', '            - containerPort: 80\n              hostPort: 31123'),
      },
      { rules },
    );
    assert.equal(findings.length, 2);
    const [svcSide, podSide] = [findings.find((f) => f.file === 'svc.yaml')!, findings.find((f) => f.file === 'deploy.yaml')!];
    assert.deepEqual([podSide.line, podSide.column, podSide.text, podSide.severity], [16, 25, '31123', 'error']);
    assert.equal(podSide.message, "hostPort 31123/TCP is also nodePort 31123 of Service web/web-nodeport: CNI portmap and kube-proxy both match it on the pod's node: the hostPort or the NodePort loses its traffic; move one port");
    assert.deepEqual(podSide.related.map((r) => [r.file, r.line]), [['svc.yaml', 12]]);
    assert.deepEqual([svcSide.line, svcSide.column, svcSide.text], [12, 17, '31123']);
    assert.equal(svcSide.message, "nodePort 31123/TCP is also the hostPort of Deployment web/web-hostport: CNI portmap and kube-proxy both match it on the pod's node: the hostPort or the NodePort loses its traffic; move one port");
    assert.equal(svcSide.object, 'Service web/web-nodeport');
  });

  it('explains the hostNetwork case (DNAT before the process, port opener before v1.24)', () => {
    const { findings } = lint(
      { 'a.yaml': service('broker', 30092) + '---' + deployment('broker', '            - containerPort: 30092', '\n      hostNetwork: true') },
      { rules },
    );
    assert.equal(findings.length, 2);
    const pod = findings.find((f) => f.object === 'Deployment web/broker')!;
    assert.equal(pod.text, '30092');
    assert.equal(pod.message, "hostNetwork port 30092/TCP is also nodePort 30092 of Service web/broker: kube-proxy sends connections to 30092/TCP on every node to the Service's endpoints, so the hostNetwork process gets none (before v1.24 it cannot even bind); move the nodePort");
    // No hostPort to remove on the hostNetwork side (the process itself listens there): only the nodePort move.
    assert.deepEqual(pod.fixes.map((f) => f.title), ['Change nodePort 30092 of Service web/broker to free port 30000']);
  });

  it('offers a free nodePort on both sides and, when the Service selects the pod, hostPort removal on the pod side, each leaving no collision', () => {
    // The Service selects the hostPort pod (app: web-nodeport).
    const text = dedent(service('web-nodeport', 31123)) + '---\n' + dedent(deployment('web-nodeport', '            - {containerPort: 80, hostPort: 31123}'));
    const { findings } = lint(text, { rules });
    const svcFix = findings.find((f) => f.object === 'Service web/web-nodeport')!.fixes[0];
    assert.equal(svcFix.title, 'Change nodePort 31123 to free port 30000');
    assert.deepEqual(lint(applyEdits(text, svcFix.edits), { rules }).findings, []);
    const podFixes = findings.find((f) => f.object === 'Deployment web/web-nodeport')!.fixes;
    assert.deepEqual(podFixes.map((f) => [f.title, f.preferred ?? false]), [
      ['Remove hostPort 31123 (reach the pod through Service web/web-nodeport instead)', false],
      ['Change nodePort 31123 of Service web/web-nodeport to free port 30000', false],
    ]);
    assert.deepEqual(podFixes[1].edits, svcFix.edits);
    const podFix = podFixes[0];
    const fixed = applyEdits(text, podFix.edits);
    assert.match(fixed, /- \{containerPort: 80\}/);
    for (const doc of parseAllDocuments(fixed) as unknown as { errors: unknown[] }[]) assert.deepEqual(doc.errors, []);
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('never names a Service that does not select the pod in the removal fix: a pod no Service selects gets only the nodePort move', () => {
    // A fluent-bit DaemonSet's hostPort equals the nodePort of Grafana's Service, which selects other pods.
    const logs = podWorkload({ kind: 'DaemonSet', name: 'log-agent', ns: 'logging', container: 'fluent-bit', ports: '            - {name: forward, containerPort: 24224, hostPort: 30500}' });
    const grafana = service('grafana', 30500).replace('namespace: web', 'namespace: monitoring');
    const text = dedent(logs) + '\n---\n' + dedent(grafana);
    const { findings } = lint(text, { rules });
    const pod = findings.find((f) => f.object === 'DaemonSet logging/log-agent')!;
    assert.deepEqual([pod.line, pod.text], [15, '30500']);
    assert.deepEqual(pod.fixes.map((f) => f.title), ['Change nodePort 30500 of Service monitoring/grafana to free port 30000']);
    assert.deepEqual(lint(applyEdits(text, pod.fixes[0].edits), { rules }).findings, []);
    // Another Service of the pod's namespace that selects it is the one named.
    const own = dedent(service('log-agent', 30080).replace('type: NodePort', 'type: ClusterIP').replace('      nodePort: 30080\n', '').replace('namespace: web', 'namespace: logging'));
    const withOwn = lint(text + '\n---\n' + own, { rules }).findings.find((f) => f.object === 'DaemonSet logging/log-agent')!;
    assert.deepEqual(withOwn.fixes.map((f) => f.title), ['Remove hostPort 30500 (reach the pod through Service logging/log-agent instead)', 'Change nodePort 30500 of Service monitoring/grafana to free port 30000']);
    // A hostNetwork pod gets the nodePort move only.
    const hostNet = lint(dedent(service('broker', 30092)) + '---\n' + dedent(deployment('broker', '            - containerPort: 30092', '\n      hostNetwork: true')), { rules }).findings.find((f) => f.object === 'Deployment web/broker')!;
    assert.deepEqual(hostNet.fixes.map((f) => f.title), ['Change nodePort 30092 of Service web/broker to free port 30000']);
  });

  it('is a warning on both sides, saying so, while the hostPort workload runs no pods (replicas: 0)', () => {
    const parked = deployment('web-hostport', '            - containerPort: 80\n              hostPort: 31123').replace('spec:\n  selector', 'spec:\n  replicas: 0\n  selector');
    const { findings } = lint({ 'svc.yaml': service('web-nodeport', 31123), 'deploy.yaml': parked }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.severity]), [['deploy.yaml', 17, 'warning'], ['svc.yaml', 12, 'warning']]);
    assert.equal(findings[0].message, 'hostPort 31123/TCP is also nodePort 31123 of Service web/web-nodeport: Deployment web/web-hostport runs no pods now (replicas: 0), but once it runs CNI portmap and kube-proxy both match it on its nodes and one loses the traffic; move one port');
    assert.match(findings[1].message, /^nodePort 31123\/TCP is also the hostPort of Deployment web\/web-hostport: Deployment web\/web-hostport runs no pods now \(replicas: 0\)/);
    // A running workload on the same port makes the Service side an error again, naming the running one first.
    const running = deployment('other', '            - containerPort: 80\n              hostPort: 31123');
    const both = lint({ 'svc.yaml': service('web-nodeport', 31123), 'deploy.yaml': parked, 'other.yaml': running }, { rules }).findings;
    const svc = both.find((f) => f.file === 'svc.yaml')!;
    assert.equal(svc.severity, 'error');
    assert.match(svc.message, /^nodePort 31123\/TCP is also the hostPort of Deployment web\/other and Deployment web\/web-hostport: CNI portmap/);
  });

  it('gives two Services in conflict two different free ports', () => {
    const text = service('a', 31000) + '---' + service('b', 31000).replace('name: b', 'name: b') + '---' + deployment('h', '            - containerPort: 80\n              hostPort: 31000');
    const ports = lint(text, { rules }).findings.filter((f) => f.object?.startsWith('Service')).map((f) => f.fixes[0].edits[0].newText);
    assert.deepEqual(ports, ['30000', '30001']);
  });

  it('stays silent for another protocol, another number, a healthCheckNodePort, and init containers', () => {
    const udp = lint({ 'a.yaml': service('dns', 31053, 'UDP'), 'b.yaml': deployment('h', '            - containerPort: 53\n              hostPort: 31053') }, { rules });
    assert.deepEqual(udp.findings, []);
    const other = lint({ 'a.yaml': service('a', 31054), 'b.yaml': deployment('h', '            - containerPort: 53\n              hostPort: 31053') }, { rules });
    assert.deepEqual(other.findings, []);
    const init = `
    apiVersion: v1
    kind: Pod
    metadata: {name: p, namespace: web}
    spec:
      initContainers:
        - name: setup
          image: busybox
          ports: [{containerPort: 80, hostPort: 31123}]
      containers: [{name: app, image: nginx}]`;
    assert.deepEqual(lint({ 'a.yaml': service('a', 31123), 'b.yaml': init }, { rules }).findings, []);
    const lb = service('lb', 31500).replace('type: NodePort', 'type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 31123');
    assert.deepEqual(lint({ 'a.yaml': lb, 'b.yaml': deployment('h', '            - containerPort: 80\n              hostPort: 31123') }, { rules }).findings, []);
  });

  it('stays silent for the nodePort of an ExternalName Service (never allocated, so kube-proxy opens nothing)', () => {
    const hostPort = deployment('h', '            - containerPort: 80\n              hostPort: 31123');
    const external = service('db', 31123).replace('type: NodePort', 'type: ExternalName\n  externalName: db.example.com');
    assert.deepEqual(lint({ 'a.yaml': external, 'b.yaml': hostPort }, { rules }).findings, []);
    // The same pair with the NodePort type does collide, on both sides.
    assert.deepEqual(lint({ 'a.yaml': service('db', 31123), 'b.yaml': hostPort }, { rules }).findings.map((f) => [f.file, f.text]), [['a.yaml', '31123'], ['b.yaml', '31123']]);
  });
});
