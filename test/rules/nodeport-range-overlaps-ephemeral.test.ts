import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['nodeport-range-overlaps-ephemeral'];
const apiserver = (range: string) => `
apiVersion: v1
kind: Pod
metadata: {name: kube-apiserver, namespace: kube-system}
spec:
  hostNetwork: true
  containers:
    - name: kube-apiserver
      image: registry.k8s.io/kube-apiserver:v1.30.2
      command:
        - kube-apiserver
        - --service-node-port-range=${range}
`;
const svc = `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  type: NodePort
  ports:
    - {name: a, port: 80, nodePort: 31000}
    - {name: b, port: 81, nodePort: 33000}
`;

describe('nodeport-range-overlaps-ephemeral', () => {
  it('warns at the kube-apiserver flag value, naming the overlap and ip_local_reserved_ports', () => {
    const { findings } = lint(apiserver('30000-40000'), { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.severity, f.line, f.column, f.text], ['warning', 11, 37, '30000-40000']);
    assert.equal(f.message, 'the NodePort range 30000-40000 (kube-apiserver flag in Pod kube-system/kube-apiserver) overlaps the Linux ephemeral ports 32768-60999: connections from source ports in 32768-40000 hang (kube-proxy takes the replies); reserve them in net.ipv4.ip_local_reserved_ports or keep the range below 32768');
    assert.ok(f.message.length <= 300, `${f.message.length} characters`);
  });

  it('reports the nodePorts inside the overlap when the range comes from the config only', () => {
    const { findings } = lint(svc, { rules, config: { nodePortRange: { min: 20000, max: 50000 } } });
    assert.deepEqual(findings.map((f) => [f.line, f.text, f.object]), [[8, '33000', 'Service shop/web']]);
    assert.match(findings[0].message, /^nodePort 33000 is in the overlap: the NodePort range 20000-50000 \(config\) overlaps the Linux ephemeral ports 32768-60999: connections from source ports in 32768-50000 hang/);
    // An ExternalName Service's nodePort is never allocated: kube-proxy opens nothing there.
    const external = svc.replace('type: NodePort', 'type: ExternalName\n  externalName: web.example.com');
    assert.deepEqual(lint(external, { rules, config: { nodePortRange: { min: 20000, max: 50000 } } }).findings, []);
  });

  it('stays silent for the default range and ranges below 32768', () => {
    assert.deepEqual(lint(svc, { rules }).findings, []);
    assert.deepEqual(lint(apiserver('30000-32767'), { rules }).findings, []);
    assert.deepEqual(lint(apiserver('20000-32000'), { rules }).findings, []);
  });
});
