import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/out/cli/run';
import { lint } from '../helpers/lint';

const rules = ['nodeport-range-invalid'];
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
const kubeadm = (value: string) => `
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
apiServer:
  extraArgs:
    service-node-port-range: ${value}
`;
const svc = `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  type: NodePort
  ports: [{port: 80, nodePort: 31000}]
`;

describe('nodeport-range-invalid', () => {
  it('reports a kube-apiserver flag value it cannot parse at the value, and says which range is used instead', () => {
    const { findings } = lint(apiserver('20000-garbage'), { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.line, f.column, f.text, f.object]), [['error', 11, 37, '20000-garbage', 'Pod kube-system/kube-apiserver']]);
    assert.equal(findings[0].message, '--service-node-port-range in Pod kube-system/kube-apiserver: "20000-garbage" is not a port range like 30000-32767 (or 30000+2767, or one port): kube-apiserver exits at start; write MIN-MAX, e.g. 30000-32767 (nodePorts are checked against the default 30000-32767 until then)');
    assert.ok(findings[0].message.length <= 300, `${findings[0].message.length} characters`);
  });

  it('reports an end below the start and a port above 65535, and uses the range of the config or of another object instead', () => {
    const { findings } = lint({ 'a.yaml': apiserver('32767-30000'), 'b.yaml': kubeadm('"20000-22767"') }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.text]), [['a.yaml', 11, '32767-30000']]);
    assert.match(findings[0].message, /"32767-30000" must be MIN-MAX with 1 <= MIN <= MAX <= 65535: kube-apiserver exits at start; write MIN-MAX, e.g. 30000-32767 \(nodePorts are checked against 20000-22767 \(kubeadm ClusterConfiguration\) until then\)$/);
    const config = lint(apiserver('30000-70000'), { rules, config: { nodePortRange: { min: 30000, max: 40000 } } }).findings;
    assert.match(config[0].message, /"30000-70000" must be MIN-MAX .*checked against 30000-40000 \(config\) until then\)$/);
  });

  it('reports a kubeadm ClusterConfiguration value that is not a port range, or not a string', () => {
    const bad = lint(kubeadm('"40000-30000"'), { rules }).findings;
    assert.deepEqual(bad.map((f) => [f.line, f.text]), [[5, '40000-30000']]);
    assert.match(bad[0].message, /^service-node-port-range in kubeadm ClusterConfiguration apiServer\.extraArgs: "40000-30000" must be MIN-MAX .*: its kube-apiserver exits at start; write MIN-MAX, e\.g\. 30000-32767 \(nodePorts are checked against /);
    const number = lint(kubeadm('30000'), { rules }).findings;
    assert.deepEqual(number.map((f) => [f.line, f.text]), [[5, '30000']]);
    assert.match(number[0].message, /: 30000 is a number, not a string: kubeadm refuses the ClusterConfiguration \(extraArgs values are strings\); quote it \(nodePorts are checked against the default 30000-32767 until then\)$/);
    const list = lint('apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n    - {name: service-node-port-range, value: "30000-"}\n', { rules }).findings;
    assert.deepEqual(list.map((f) => [f.line, f.text]), [[5, '30000-']]);
  });

  it('stays silent for valid ranges (MIN-MAX, MIN+OFFSET, one port) and an empty value (kube-apiserver uses the default)', () => {
    for (const range of ['30000-32767', '30000+2767', '31000', '']) assert.deepEqual(lint(apiserver(range), { rules }).findings, [], range);
    assert.deepEqual(lint(kubeadm('"30000-32767"'), { rules }).findings, []);
    assert.deepEqual(lint(svc, { rules }).findings, []);
  });

  it('the CLI names the file and line, exits 1, and checks nodePorts against the default range', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'knl-range-'));
    try {
      writeFileSync(join(dir, 'apiserver.yaml'), apiserver('20000-garbage').trimStart());
      writeFileSync(join(dir, 'svc.yaml'), svc.trimStart().replace('31000', '20500'));
      let out = '';
      const code = await runCli(['.'], { cwd: dir, stdout: (t) => (out += t), stderr: () => undefined, readStdin: () => '' });
      assert.equal(code, 1);
      assert.match(out, /^apiserver\.yaml:11:37: error nodeport-range-invalid: --service-node-port-range in Pod kube-system\/kube-apiserver: "20000-garbage" is not a port range/m);
      assert.match(out, /^svc\.yaml:6:32: error nodeport-out-of-range: nodePort 20500 of Service shop\/web is outside the NodePort range 30000-32767 \(the Kubernetes default/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
