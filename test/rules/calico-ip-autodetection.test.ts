import { strict as assert } from 'node:assert';
import { loadFile } from '../../server/out/core/load/load-file';
import { applyEdits, dedent, lint } from '../helpers/lint';
import { calicoNodeDaemonSet } from '../helpers/manifests';

const rules = ['calico-ip-autodetection'];
const ds = (image: string, env: string, containerName = 'calico-node') => calicoNodeDaemonSet(image, env, containerName);
const AUTODETECT = '            - name: DATASTORE_TYPE\n              value: kubernetes\n            # Auto-detect the BGP IP address.\n            - name: IP\n              value: "autodetect" # keep me\n            - name: CALICO_IPV4POOL_IPIP\n              value: Always';

/** The env of the calico-node container after loading `text`. */
const envOf = (text: string) => {
  const w = loadFile('x.yaml', text).objects.find((o) => o.category === 'workload');
  assert.ok(w && w.category === 'workload');
  return w.pod.containers[0].env.map((e) => `${e.name}=${e.value?.value ?? ''}`);
};

describe('calico-ip-autodetection', () => {
  it('is an error for calico/node older than v3.25 with IP=autodetect and no method, at the autodetect value', () => {
    const { findings } = lint(ds('docker.io/calico/node:v3.11.2', AUTODETECT), { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.severity, f.line, f.column, f.text, f.object], ['error', 20, 22, '"autodetect"', 'DaemonSet kube-system/calico-node']);
    assert.match(f.message, /: IP=autodetect, no IP_AUTODETECTION_METHOD \(first-found\): /);
    assert.match(f.message, / \(v3\.11\.2 < v3\.25: br-\* not skipped\); /);
    assert.deepEqual(f.related.map((r) => r.line), [14]);
  });

  it('offers only can-reach (with a placeholder) before v3.22, inserted after IP with the same indentation and comments kept', () => {
    const text = ds('docker.io/calico/node:v3.11.2', AUTODETECT);
    const { findings } = lint(text, { rules });
    assert.deepEqual(findings[0].fixes.map((x) => [x.title.slice(0, 44), x.preferred]), [['Set IP_AUTODETECTION_METHOD=can-reach=… (pla', false]]);
    assert.match(findings[0].fixes[0].title, /placeholder: replace it/);
    const fixed = applyEdits(dedent(text), findings[0].fixes[0].edits);
    assert.ok(fixed.includes('              value: "autodetect" # keep me\n            - name: IP_AUTODETECTION_METHOD\n              value: "can-reach=REPLACE-WITH-AN-IP-ON-THE-NODE-NETWORK"\n            - name: CALICO_IPV4POOL_IPIP\n'));
    assert.ok(fixed.includes('            # Auto-detect the BGP IP address.\n'));
    assert.deepEqual(envOf(fixed), ['DATASTORE_TYPE=kubernetes', 'IP=autodetect', 'IP_AUTODETECTION_METHOD=can-reach=REPLACE-WITH-AN-IP-ON-THE-NODE-NETWORK', 'CALICO_IPV4POOL_IPIP=Always']);
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('compares a pre-release tag as coming before its release (v3.25.0-0.dev is not v3.25), a build suffix as the release', () => {
    const dev = lint(ds('docker.io/calico/node:v3.25.0-0.dev', AUTODETECT), { rules }).findings;
    assert.deepEqual(dev.map((f) => f.severity), ['error']);
    assert.match(dev[0].message, / \(v3\.25\.0-0\.dev < v3\.25: br-\* not skipped\); /);
    assert.deepEqual(lint(ds('docker.io/calico/node:v3.25.0-rc.1', AUTODETECT), { rules }).findings.map((f) => f.severity), ['error']);
    assert.deepEqual(lint(ds('docker.io/calico/node:v3.25.0-amd64', AUTODETECT), { rules }).findings.map((f) => f.severity), ['warning']);
  });

  it('is a warning from v3.25 and prefers kubernetes-internal-ip (v3.22+)', () => {
    const text = ds('quay.io/calico/node:v3.26.1', AUTODETECT);
    const { findings } = lint(text, { rules });
    assert.equal(findings[0].severity, 'warning');
    assert.doesNotMatch(findings[0].message, /< v3\.25|version unknown/);
    assert.deepEqual(findings[0].fixes.map((x) => x.preferred), [true, false]);
    assert.match(findings[0].fixes[0].title, /^Set IP_AUTODETECTION_METHOD=kubernetes-internal-ip/);
    const fixed = applyEdits(dedent(text), findings[0].fixes[0].edits);
    assert.ok(envOf(fixed).includes('IP_AUTODETECTION_METHOD=kubernetes-internal-ip'));
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('says the version is unknown for a non-version tag or a digest (warning)', () => {
    const master = lint(ds('quay.io/calico/node:master', AUTODETECT), { rules }).findings[0];
    assert.equal(master.severity, 'warning');
    assert.match(master.message, /wrong NIC \(calico\/node version unknown\); /);
    assert.deepEqual(master.fixes.map((x) => x.preferred), [false, false]);
    const digest = lint(ds('calico/node@sha256:0123456789abcdef', AUTODETECT), { rules }).findings[0];
    assert.match(digest.message, /wrong NIC \(calico\/node version unknown\); /);
  });

  it('points at the container name when IP is not set', () => {
    const { findings } = lint(ds('calico/node:v3.20.0', '            - name: DATASTORE_TYPE\n              value: kubernetes'), { rules });
    assert.deepEqual([findings[0].severity, findings[0].line, findings[0].text], ['error', 13, 'calico-node']);
    assert.match(findings[0].message, /: IP unset, no IP_AUTODETECTION_METHOD \(first-found\): /);
    const fixed = applyEdits(dedent(ds('calico/node:v3.20.0', '            - name: DATASTORE_TYPE\n              value: kubernetes')), findings[0].fixes[0].edits);
    assert.deepEqual(envOf(fixed), ['DATASTORE_TYPE=kubernetes', 'IP_AUTODETECTION_METHOD=can-reach=REPLACE-WITH-AN-IP-ON-THE-NODE-NETWORK']);
  });

  it('points at an explicit first-found and replaces only that value (quotes kept)', () => {
    const text = ds('calico/node:v3.27.0', '            - name: IP\n              value: autodetect\n            - name: IP_AUTODETECTION_METHOD\n              value: "first-found"');
    const { findings } = lint(text, { rules });
    assert.deepEqual([findings[0].line, findings[0].text], [19, '"first-found"']);
    assert.match(findings[0].message, /IP_AUTODETECTION_METHOD=first-found/);
    assert.deepEqual(findings[0].fixes[0].edits.map((e) => e.newText), ['"kubernetes-internal-ip"']);
  });

  it('offers no fix it cannot verify (flow-style env) but still reports', () => {
    const { findings } = lint(ds('calico/node:v3.27.0', '            [{name: IP, value: autodetect}]').replace('env:\n', 'env:\n'), { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual(findings[0].fixes, []);
  });

  it('stays silent for a method, an explicit address, valueFrom, policy-only mode, other containers and init containers', () => {
    const silent = [
      ds('calico/node:v3.11.2', '            - {name: IP, value: autodetect}\n            - {name: IP_AUTODETECTION_METHOD, value: "interface=eth.*"}'),
      ds('calico/node:v3.11.2', '            - {name: IP, value: 10.0.0.5}'),
      ds('calico/node:v3.11.2', '            - name: IP\n              valueFrom: {fieldRef: {fieldPath: status.hostIP}}'),
      ds('calico/node:v3.11.2', '            - {name: IP, value: none}'),
      ds('calico/node:v3.11.2', '            - {name: CALICO_NETWORKING_BACKEND, value: none}\n            - {name: IP, value: autodetect}'),
      ds('example/app:1', '            - {name: IP, value: autodetect}', 'app'),
      ds('example/app:1', '            - {name: A, value: b}', 'app').replace('      containers:', '      initContainers:\n        - name: ebpf-bootstrap\n          image: calico/node:v3.11.2\n          env: [{name: IP, value: autodetect}]\n      containers:'),
    ];
    for (const text of silent) assert.deepEqual(lint(text, { rules }).findings, [], text);
  });

  describe('operator Installation', () => {
    const inst = (calicoNetwork: string) => `
apiVersion: operator.tigera.io/v1
kind: Installation
metadata:
  name: default
spec:
  calicoNetwork:
${calicoNetwork}`;

    it('warns when nodeAddressAutodetectionV4 is not set, and inserts kubernetes: NodeInternalIP', () => {
      const text = inst('    # pools\n    ipPools:\n      - cidr: 192.168.0.0/16');
      const { findings } = lint(text, { rules });
      assert.deepEqual([findings[0].severity, findings[0].line, findings[0].text], ['warning', 6, 'calicoNetwork']);
      assert.match(findings[0].message, /^Installation default: nodeAddressAutodetectionV4 unset \(operator default firstFound: true\): /);
      const fixed = applyEdits(dedent(text), findings[0].fixes[0].edits);
      assert.ok(fixed.includes('  calicoNetwork:\n    # pools\n    nodeAddressAutodetectionV4:\n      kubernetes: NodeInternalIP\n    ipPools:\n'));
      assert.deepEqual(lint(fixed, { rules }).findings, []);
      assert.deepEqual(findings[0].fixes.map((x) => [x.title.slice(0, 50), x.preferred]), [['Set nodeAddressAutodetectionV4 to kubernetes: Node', false], ['Set nodeAddressAutodetectionV4 to canReach: … (pla', false]]);
    });

    it('warns on firstFound: true at its value, and replaces the pair', () => {
      const text = inst('    nodeAddressAutodetectionV4:\n      firstFound: true');
      const { findings } = lint(text, { rules });
      assert.deepEqual([findings[0].line, findings[0].text], [8, 'true']);
      const fixed = applyEdits(dedent(text), findings[0].fixes[0].edits);
      assert.ok(fixed.endsWith('    nodeAddressAutodetectionV4:\n      kubernetes: NodeInternalIP'));
    });

    it('stays silent for another method', () => {
      assert.deepEqual(lint(inst('    nodeAddressAutodetectionV4:\n      interface: "ens.*"'), { rules }).findings, []);
    });
  });
});
