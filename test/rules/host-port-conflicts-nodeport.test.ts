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
    assert.match(podSide.message, /^hostPort 31123\/TCP is also nodePort 31123 of Service web\/web-nodeport: .*CVE-2019-9946/);
    assert.deepEqual(podSide.related.map((r) => [r.file, r.line]), [['svc.yaml', 12]]);
    assert.deepEqual([svcSide.line, svcSide.column, svcSide.text], [12, 17, '31123']);
    assert.match(svcSide.message, /nodePort 31123\/TCP is also the hostPort of Deployment web\/web-hostport/);
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
    assert.match(pod.message, /^hostNetwork port 30092\/TCP is also nodePort 30092 of Service web\/broker: kube-proxy DNATs .* before v1\.24/);
    // No fix on the hostNetwork side: the process itself listens there.
    assert.deepEqual(pod.fixes, []);
  });

  it('offers a free nodePort on the Service side and hostPort removal on the pod side, both leaving no collision', () => {
    const text = dedent(service('web-nodeport', 31123)) + '---\n' + dedent(deployment('web-hostport', '            - {containerPort: 80, hostPort: 31123}'));
    const { findings } = lint(text, { rules });
    const svcFix = findings.find((f) => f.object === 'Service web/web-nodeport')!.fixes[0];
    assert.equal(svcFix.title, 'Change nodePort 31123 to free port 30000');
    assert.deepEqual(lint(applyEdits(text, svcFix.edits), { rules }).findings, []);
    const podFix = findings.find((f) => f.object === 'Deployment web/web-hostport')!.fixes[0];
    assert.equal(podFix.title, 'Remove hostPort 31123 (reach the pod through Service web/web-nodeport instead)');
    const fixed = applyEdits(text, podFix.edits);
    assert.match(fixed, /- \{containerPort: 80\}/);
    for (const doc of parseAllDocuments(fixed) as unknown as { errors: unknown[] }[]) assert.deepEqual(doc.errors, []);
    assert.deepEqual(lint(fixed, { rules }).findings, []);
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
});
