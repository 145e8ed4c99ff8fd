import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percent } from '../../server/out/cli/ports-format';
import { runCli } from '../../server/out/cli/run';
import type { ClaimJson, PortMapDocument } from '../../server/out/core/port-map/document';

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures', 'ports');

/** Runs `kube-netlint ports ...` in a fixture workspace; returns the exit code and what it printed. */
async function ports(fixture: string, args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['ports', ...args], { cwd: join(FIXTURES, fixture), stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => stdin });
  return { code, out, err };
}

async function json(fixture: string, args: string[] = []): Promise<PortMapDocument> {
  const r = await ports(fixture, ['.', '--format', 'json', ...args]);
  assert.deepEqual([r.code, r.err], [0, '']);
  return JSON.parse(r.out) as PortMapDocument;
}

/** The table lines of claims on `port` (text report). */
const linesOf = (out: string, port: number): string[] => out.split('\n').filter((l) => l.startsWith(`${port} `));

describe('kube-netlint ports', () => {
  it('prints every column for each kind of claim and collision (nodePort, healthCheckNodePort, hostPort, hostNetwork, externalIP, component)', async () => {
    const r = await ports('collisions', ['.']);
    assert.deepEqual([r.code, r.err], [0, '']);
    assert.deepEqual(r.out.split('\n'), [
      'Workspace (one cluster): NodePort range 30000-32767 (the Kubernetes default)',
      '',
      'PORT   PROTO  CLAIM                                     OWNER                                               LOCATION       NODES                                    COLLISION',
      '80     TCP    externalIP 198.51.100.7                   Service team-a/web (port http)                      web.yaml:11    every node                               error externalip-port-conflict',
      '80     TCP    externalIP 198.51.100.7                   Service team-b/api (port http)                      api.yaml:11    every node                               error externalip-port-conflict',
      '2379   TCP    component etcd client/peer                -                                                   -              control-plane nodes                      -',
      '2380   TCP    component etcd client/peer                -                                                   -              control-plane nodes                      -',
      '6443   TCP    component kube-apiserver                  -                                                   -              control-plane nodes                      -',
      '10248  TCP    component kubelet healthz (127.0.0.1)     -                                                   -              every node                               -',
      '10249  TCP    component kube-proxy metrics (127.0.0.1)  -                                                   -              every node                               -',
      '10250  TCP    hostPort                                  Deployment ops/agent (container agent)              agent.yaml:22  2 replicas on nodes the scheduler picks  error host-port-reserved',
      '10250  TCP    component kubelet API                     -                                                   -              every node                               error host-port-reserved',
      '10256  TCP    component kube-proxy healthz              -                                                   -              every node                               -',
      '10257  TCP    component kube-controller-manager         -                                                   -              control-plane nodes                      -',
      '10258  TCP    component cloud-controller-manager        -                                                   -              control-plane nodes                      -',
      '10259  TCP    component kube-scheduler                  -                                                   -              control-plane nodes                      -',
      '30080  TCP    nodePort                                  Service team-a/web (port http)                      web.yaml:15    every node                               error host-port-conflicts-nodeport, error nodeport-duplicate',
      '30080  TCP    nodePort                                  Service team-b/api (port http)                      api.yaml:15    every node                               error host-port-conflicts-nodeport, error nodeport-duplicate',
      '30080  TCP    hostPort                                  Deployment ops/agent (container agent)              agent.yaml:24  2 replicas on nodes the scheduler picks  error host-port-conflicts-nodeport',
      '30100  TCP    healthCheckNodePort                       Service edge/gateway                                lb.yaml:9      every node                               error host-port-conflicts-healthcheck-nodeport',
      '30100  TCP    hostNetwork                               DaemonSet monitoring/exporter (container exporter)  lb.yaml:37     every node                               error host-port-conflicts-healthcheck-nodeport',
      '30443  TCP    nodePort                                  Service edge/gateway (port https)                   lb.yaml:15     every node                               -',
      '',
      '  static band   30000-30085  86 ports    1 used (1.2%)  1 allocated  85 free: 30000-30079, 30081-30085',
      '  dynamic band  30086-32767  2682 ports  2 used (0.1%)  2 allocated  2680 free: 30086-30099, 30101-30442, 30444-32767',
      '',
    ]);
  });

  it('says which nodes a DaemonSet selection, a pinned pod and an every-node DaemonSet apply to, and collides only where they meet', async () => {
    const r = await ports('daemonsets', ['.']);
    assert.equal(r.code, 0);
    assert.deepEqual(linesOf(r.out, 443).map((l) => l.replace(/ {2,}/g, ' | ')), [
      '443 | TCP | hostPort | DaemonSet batch/batch-proxy (container proxy) | batch-proxy.yaml:21 | DaemonSet on role=batch (batch-1) | warning hostport-shadows-service-port',
      '443 | TCP | hostPort | DaemonSet ingress/ingress (container controller) | ingress.yaml:20 | DaemonSet on role=ingress (edge-1, edge-2) | warning hostport-shadows-service-port',
    ]);
    assert.deepEqual(linesOf(r.out, 9100).map((l) => l.replace(/ {2,}/g, ' | ')), [
      '9100 | TCP | hostPort | Pod ops/debug (container shell) | debug.yaml:14 | node edge-1 | error hostport-conflict',
      '9100 | TCP | hostNetwork | DaemonSet monitoring/node-exporter (container node-exporter) | node-exporter.yaml:21 | every node | error hostport-conflict',
    ]);
    const doc = await json('daemonsets');
    const claims = doc.clusterGroups[0].ports.flatMap((p) => p.claims);
    const ingress = claims.find((c) => c.owner?.name === 'ingress')!;
    assert.deepEqual(ingress.nodes, { scope: 'selection', text: 'DaemonSet on role=ingress (edge-1, edge-2)', selector: 'role=ingress', node: null, replicas: null, names: ['edge-1', 'edge-2'], addressOf: null });
    const debug = claims.find((c) => c.owner?.name === 'debug')!;
    assert.deepEqual([debug.nodes.scope, debug.nodes.node, debug.nodes.names], ['pinned', 'edge-1', ['edge-1']]);
    const exporter = claims.find((c) => c.owner?.name === 'node-exporter')!;
    assert.deepEqual(debug.collisions.map((c) => [c.rule, c.severity, c.with]), [['hostport-conflict', 'error', [exporter.id]]]);
    assert.deepEqual(exporter.nodes.names, ['edge-1', 'edge-2', 'batch-1']);
  });

  it('prints one map per cluster group; --cluster-group picks one; --free gives ports free in every group shown', async () => {
    const all = await ports('groups', ['.']);
    assert.equal(all.code, 0);
    const headings = all.out.split('\n').filter((l) => l.startsWith('Cluster group'));
    assert.deepEqual(headings, ['Cluster group dev: NodePort range 30000-32767 (the Kubernetes default)', 'Cluster group prod: NodePort range 30000-32767 (the Kubernetes default)']);
    const [dev, prod] = all.out.split('Cluster group prod');
    assert.deepEqual(linesOf(dev, 30002).map((l) => l.replace(/ {2,}/g, ' | ')), ['30002 | TCP | nodePort | Service payments/payments (port http) | dev/payments.yaml:13 | every node | -']);
    assert.deepEqual(linesOf(prod, 30002).map((l) => l.replace(/ {2,}/g, ' | ')), [
      '30002 | TCP | nodePort | Service payments/ledger (port http) | prod/ledger.yaml:13 | every node | error nodeport-duplicate',
      '30002 | TCP | nodePort | Service payments/payments (port http) | prod/payments.yaml:13 | every node | error nodeport-duplicate',
    ]);
    const one = await ports('groups', ['.', '--cluster-group', 'dev']);
    assert.equal(one.out.split('\n')[0], 'Cluster group dev: NodePort range 30000-32767 (the Kubernetes default)');
    assert.ok(!one.out.includes('prod'));
    assert.deepEqual(await ports('groups', ['.', '--free', '3']), { code: 0, out: '30000\n30003\n30004\n', err: '' });
    const bad = await ports('groups', ['.', '-g', 'staging']);
    assert.deepEqual([bad.code, bad.out], [2, '']);
    assert.equal(bad.err, 'kube-netlint ports: --cluster-group: no cluster group "staging" (the groups are dev, prod)\n');
    const doc = await json('groups', ['-g', 'prod']);
    assert.deepEqual(doc.clusterGroups.map((g) => g.name), ['prod']);
  });

  it('in a widened range, shows the component ports inside the bands and skips them for --free', async () => {
    const r = await ports('widened', ['.']);
    assert.equal(r.out.split('\n')[0], 'Workspace (one cluster): NodePort range 10240-10300 (nodePortRange in .kube-netlint.yaml)');
    assert.deepEqual(linesOf(r.out, 10250).map((l) => l.replace(/ {2,}/g, ' | ')), [
      '10250 | TCP | nodePort | Service ops/metrics (port http) | metrics.yaml:13 | every node | error host-port-reserved',
      '10250 | TCP | component kubelet API | - | - | every node | error host-port-reserved',
    ]);
    assert.deepEqual(r.out.trimEnd().split('\n').slice(-2), [
      '  static band   10240-10255  16 ports  4 used (25.0%)  2 allocated  12 free: 10240-10247, 10251, 10253-10255',
      '  dynamic band  10256-10300  45 ports  4 used (8.9%)   0 allocated  41 free: 10260-10300',
    ]);
    const free = await ports('widened', ['.', '--free', '13']);
    assert.deepEqual([free.code, free.out.split('\n').slice(7, 13)], [0, ['10247', '10251', '10253', '10254', '10255', '10260']]);
    assert.equal(free.err, 'kube-netlint ports: the static band has only 12 free nodePorts; the last one is from the dynamic band, where the API server allocates automatic nodePorts first\n');
    const short = await ports('widened', ['.', '--free', '60', '--format', 'json']);
    assert.equal(short.code, 1);
    assert.equal((JSON.parse(short.out) as PortMapDocument).free!.ports.length, 53);
    assert.match(short.err, /only 53 free nodePorts in the NodePort range \(asked for 60\)\n$/);
    const doc = await json('widened');
    assert.deepEqual(doc.clusterGroups[0].bands.map((b) => [b.band, b.min, b.max, b.size, b.used, b.allocated, b.free, b.fill, b.freeIntervals.length]), [
      ['static', 10240, 10255, 16, 4, 2, 12, 0.25, 3],
      ['dynamic', 10256, 10300, 45, 4, 0, 41, 0.0889, 1],
    ]);
  });

  it('prints a versioned JSON document whose collisions name claims of the same port', async () => {
    const doc = await json('collisions');
    assert.equal(doc.version, 1);
    assert.equal(doc.free, undefined);
    const [group] = doc.clusterGroups;
    assert.deepEqual([group.name, group.nodePortRange, group.automatic], ['', { min: 30000, max: 32767, source: 'default' }, { nodePorts: 0, healthCheckNodePorts: 0 }]);
    const row = group.ports.find((p) => p.port === 30100)!;
    assert.equal(row.collision, 'error');
    const [hc, hn] = row.claims;
    const expected: ClaimJson = {
      id: hc.id, port: 30100, protocol: 'TCP', kind: 'healthCheckNodePort', owner: { kind: 'Service', namespace: 'edge', name: 'gateway' },
      component: null, container: null, portName: null, hostIP: null, address: null,
      location: { file: 'lb.yaml', line: 9, column: 24, endLine: 9, endColumn: 29 }, rendered: null,
      nodes: { scope: 'every-node', text: 'every node', selector: null, node: null, replicas: null, names: null, addressOf: null },
      inactive: null, uncertain: null,
      collisions: [{ rule: 'host-port-conflicts-healthcheck-nodeport', severity: 'error', message: hc.collisions[0].message, with: [hn.id], others: [] }],
    };
    assert.deepEqual(hc, expected);
    assert.match(hc.collisions[0].message, /^healthCheckNodePort 30100 is also the hostNetwork port of DaemonSet monitoring\/exporter: /);
    assert.deepEqual([hn.kind, hn.container, hn.hostIP, hn.collisions[0].with], ['hostNetwork', 'exporter', '0.0.0.0', [hc.id]]);
    const ids = group.ports.flatMap((p) => p.claims.map((c) => c.id));
    assert.deepEqual(ids, ids.map((_, i) => i + 1));
    for (const p of group.ports) for (const c of p.claims) for (const x of c.collisions) for (const w of x.with) assert.ok(p.claims.some((o) => o.id === w), `claim ${c.id} names ${w}, not on port ${p.port}`);
  });

  it('takes --rule as lint does: a rule turned off or down collides no more, or less, in the map', async () => {
    const collisionOf = async (args: string[]) => (await json('collisions', args)).clusterGroups[0].ports.find((p) => p.port === 30100)!.collision;
    assert.equal(await collisionOf([]), 'error');
    assert.equal(await collisionOf(['--rule', 'host-port-conflicts-healthcheck-nodeport=warning']), 'warning');
    assert.equal(await collisionOf(['--rule', 'host-port-conflicts-healthcheck-nodeport=off']), null);
  });

  it('prints a band\'s fill with one decimal, never 0.0% with a port used or 100.0% with a port free', () => {
    assert.deepEqual([0, 1 / 2682, 2 / 2682, 0.5, 2681 / 2682, 1].map(percent), ['0.0%', '<0.1%', '0.1%', '50.0%', '>99.9%', '100.0%']);
  });

  it('prints Markdown tables', async () => {
    const r = await ports('groups', ['.', '--format', 'markdown', '-g', 'prod']);
    const lines = r.out.split('\n');
    assert.deepEqual(lines.slice(0, 4), [
      '## Cluster group prod: NodePort range 30000-32767 (the Kubernetes default)',
      '',
      '| Port | Proto | Claim | Owner | Location | Nodes | Collision |',
      '| --- | --- | --- | --- | --- | --- | --- |',
    ]);
    assert.ok(lines.includes('| 30002 | TCP | nodePort | Service payments/ledger (port http) | prod/ledger.yaml:13 | every node | error nodeport-duplicate |'));
    assert.ok(lines.includes('| 10250 | TCP | component kubelet API |  |  | every node |  |'));
    assert.ok(lines.includes('| static band | 30000-30085 | 86 ports | 2 used (2.3%) | 2 allocated | 84 free: 30000, 30003-30085 |'));
  });

  it('reads standard input, and says what is wrong with bad arguments', async () => {
    const svc = 'apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: x}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30005}]\n';
    const r = await ports('collisions', ['-', '--format', 'json'], svc);
    const claim = (JSON.parse(r.out) as PortMapDocument).clusterGroups[0].ports.find((p) => p.port === 30005)!.claims[0];
    assert.deepEqual(claim.location, { file: '<stdin>', line: 6, column: 32, endLine: 6, endColumn: 37 });
    const none = await ports('collisions', []);
    assert.deepEqual([none.code, none.out], [2, '']);
    assert.match(none.err, /^kube-netlint ports: no paths given\nRun "kube-netlint ports --help" for the options.\n$/);
    assert.match((await ports('collisions', ['.', '--free', '0'])).err, /^kube-netlint ports: --free must be a number of ports from 1 to 65535 \(got "0"\)/);
    assert.match((await ports('collisions', ['.', '--format', 'sarif'])).err, /^kube-netlint ports: --format must be text, json or markdown \(got "sarif"\)/);
    const missing = await ports('collisions', ['no-such-dir']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^kube-netlint ports: .*no-such-dir/);
    assert.equal((await ports('collisions', ['--help'])).code, 0);
  });

  it('escapes control and bidi characters and Markdown punctuation of names, so no name forges a line, a cell or a link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'knl-ports-forge-'));
    try {
      const forged = 'web\\n30081  TCP    nodePort  Service x/forged  a.yaml:6  every node  -\\u202e';
      writeFileSync(join(dir, 'a.yaml'), `apiVersion: v1\nkind: Service\nmetadata: {name: "${forged}", namespace: "a|b*c_[x](https://e)"}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]\n`);
      const run = async (args: string[]): Promise<string> => {
        let out = '';
        assert.equal(await runCli(['ports', '.', ...args], { cwd: dir, stdout: (t) => (out += t), stderr: () => undefined, readStdin: () => '' }), 0);
        return out;
      };
      const text = await run([]);
      assert.ok(!/[\u202e\r]/.test(text));
      assert.deepEqual(text.split('\n').filter((l) => /^3008\d /.test(l)).map((l) => l.replace(/ {2,}/g, ' | ')), [
        '30080 | TCP | nodePort | Service a|b*c_[x](https://e)/web\\n30081 | TCP | nodePort | Service x/forged | a.yaml:6 | every node | -\\u202e | a.yaml:6 | every node | -',
      ]);
      const markdown = await run(['--format', 'markdown']);
      assert.ok(!/[\u202e\r]/.test(markdown));
      assert.deepEqual(markdown.split('\n').filter((l) => l.startsWith('| 3008')), [
        '| 30080 | TCP | nodePort | Service a\\|b\\*c\\_\\[x\\](https://e)/web\\n30081  TCP    nodePort  Service x/forged  a.yaml:6  every node  -\\u202e | a.yaml:6 | every node |  |',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
