import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { clusterObjectFile, fromApiObject } from '../../server/out/core/model/from-api-object';
import { allRules } from '../../server/out/core/rules/index';
import { lint } from '../helpers/lint';
import { calicoNodeDaemonSet } from '../helpers/manifests';

const rules = ['calico-node-address-mismatch'];

const node = (name: string, annotation: string | undefined, internalIP: string) => `
apiVersion: v1
kind: Node
metadata:
  name: ${name}
  annotations:
${annotation ? `    projectcalico.org/IPv4Address: ${annotation}` : '    other: x'}
status:
  addresses:
    - type: InternalIP
      address: ${internalIP}
    - type: Hostname
      address: ${name}
`;

const calicoDaemonSet = (env: string, tag = 'v3.24.1') => `${calicoNodeDaemonSet(`docker.io/calico/node:${tag}`, env)}\n`;

describe('calico-node-address-mismatch', () => {
  it('reports a Node whose Calico address is a Docker bridge address, on the annotation value', () => {
    const { findings } = lint({ 'nodes.yaml': node('node-2', '172.18.0.1/16', '10.0.0.12') }, { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['nodes.yaml', 6, 36, '172.18.0.1/16', 'warning', 'Node node-2']);
    assert.equal(f.message, 'Node node-2: Calico uses 172.18.0.1 (a Docker bridge address), not its InternalIP 10.0.0.12: calico-node autodetected another interface, so BGP and tunnels to this node may fail; set IP_AUTODETECTION_METHOD=kubernetes-internal-ip (calico/node v3.22+; operator: nodeAddressAutodetectionV4)');
  });

  it('reports on the calico-node IP_AUTODETECTION_METHOD value when the DaemonSet is in the workspace, naming the Node', () => {
    const { findings } = lint(
      {
        'calico.yaml': calicoDaemonSet('            - {name: IP, value: autodetect}\n            - {name: IP_AUTODETECTION_METHOD, value: first-found}'),
        'nodes.yaml': node('node-2', '192.168.122.1/24', '10.0.0.12'),
      },
      { rules },
    );
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.file, f.line, f.text, f.severity, f.object], ['calico.yaml', 17, 'first-found', 'warning', 'DaemonSet kube-system/calico-node']);
    assert.equal(f.message, 'Node node-2: Calico uses 192.168.122.1, not its InternalIP 10.0.0.12: first-found picked another interface, so BGP and tunnels to this node may fail; set IP_AUTODETECTION_METHOD=kubernetes-internal-ip (calico/node v3.22+; operator: nodeAddressAutodetectionV4)');
    assert.doesNotMatch(f.message, /Docker/);
    assert.deepEqual(f.related.map((r) => [r.file, r.line]), [['nodes.yaml', 6]]);
  });

  it('points at the IP=autodetect value when no method is set', () => {
    const { findings } = lint({ 'calico.yaml': calicoDaemonSet('            - {name: IP, value: autodetect}'), 'n.yaml': node('n1', '172.17.0.1/16', '10.0.0.5') }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.text, f.severity]), [['calico.yaml', 16, 'autodetect', 'warning']]);
    assert.match(findings[0].message, /^Node n1: Calico uses 172\.17\.0\.1 \(a Docker bridge address\), not its InternalIP 10\.0\.0\.5: first-found \(the default\) picked another interface/);
  });

  it('suggests interface= or cidr= instead of kubernetes-internal-ip for calico/node older than v3.22', () => {
    const { findings } = lint({ 'calico.yaml': calicoDaemonSet('            - {name: IP, value: autodetect}', 'v3.11.2'), 'n.yaml': node('n1', '172.17.0.1/16', '10.0.0.5') }, { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /; set IP_AUTODETECTION_METHOD=interface=<NIC> or cidr=<subnet> \(v3\.11\.2 predates kubernetes-internal-ip\)$/);
    assert.doesNotMatch(findings[0].message, /=kubernetes-internal-ip/);
  });

  it('is info when an explicit method other than first-found is set (the address may be intended)', () => {
    const { findings } = lint({ 'calico.yaml': calicoDaemonSet('            - {name: IP_AUTODETECTION_METHOD, value: "interface=eth1"}'), 'n.yaml': node('n1', '10.1.0.5/24', '10.0.0.5') }, { rules });
    assert.deepEqual(findings.map((f) => [f.text, f.severity]), [['"interface=eth1"', 'info']]);
  });

  it('reports a cluster Node as a cluster finding when no calico manifest is in the workspace', () => {
    const clusterNode = fromApiObject(
      {
        apiVersion: 'v1', kind: 'Node',
        metadata: { name: 'worker-1', annotations: { 'projectcalico.org/IPv4Address': '172.17.0.1/16' } },
        status: { addresses: [{ type: 'InternalIP', address: '192.168.1.21' }] },
      },
      'prod',
    )!;
    const analysis = analyze([], DEFAULT_CONFIG, { rules: allRules.filter((r) => rules.includes(r.id)), extraObjects: [clusterNode] });
    assert.equal(analysis.findings.length, 1);
    const [f] = analysis.findings;
    // The finding is on the annotation's value in the Node's read-only view.
    const view = clusterObjectFile({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1', annotations: { 'projectcalico.org/IPv4Address': '172.17.0.1/16' } }, status: { addresses: [{ type: 'InternalIP', address: '192.168.1.21' }] } }, 'prod')!;
    assert.deepEqual([f.span.file, view.text.slice(f.span.start, f.span.end), f.severity], ['cluster:prod/Node/worker-1', '172.17.0.1/16', 'warning']);
    assert.match(f.message, /^Node worker-1: Calico uses 172\.17\.0\.1 \(a Docker bridge address\), not its InternalIP 192\.168\.1\.21: /);
  });

  it('stays silent when the annotation matches an InternalIP, is missing, or the Node has no InternalIP', () => {
    assert.deepEqual(lint(node('n1', '10.0.0.5/24', '10.0.0.5'), { rules }).findings, []);
    assert.deepEqual(lint(node('n1', undefined, '10.0.0.5'), { rules }).findings, []);
    assert.deepEqual(lint(node('n1', '10.0.0.5/24', 'fd00::5'), { rules }).findings, []);
    assert.deepEqual(lint(node('n1', 'not-an-ip', '10.0.0.5'), { rules }).findings, []);
  });
});
