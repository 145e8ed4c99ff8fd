import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCluster } from '../../server/out/cluster/read-cluster';
import { clusterRoutes, fixture } from './cluster-fixtures';
import { FakeApiServer, startFakeApiServer, statusBody, TOKEN, writeKubeconfig } from './fake-api-server';
import { assertNoSecrets } from './secrets';

describe('readCluster (live cluster, against a local HTTPS API server)', () => {
  let server: FakeApiServer;
  afterEach(async () => {
    // Read-only: the fixture refuses and records anything but GET.
    assert.deepEqual(server?.writes ?? [], []);
    await server?.close();
  });

  it('lists Services, Pods, Nodes, the kube-proxy ConfigMap and kube-system DaemonSets with the bearer token', async () => {
    server = await startFakeApiServer(clusterRoutes());
    const snap = await readCluster({ path: writeKubeconfig(server.url) });
    assert.equal(snap.status.state, 'connected');
    assert.equal(snap.context, 'prod-admin');
    assert.match(snap.status.message, /^cluster prod-admin: read 5 Services, 7 Pods, 3 Nodes, 1 kube-proxy ConfigMap, 2 DaemonSets in kube-system \(synced \d\d:\d\d:\d\d UTC\)$/);
    assert.equal(snap.objects.length, 18);
    assert.ok(server.requests.every((r) => r.method === 'GET' && r.authorized));
    assert.deepEqual(server.requests.map((r) => r.path).sort(), [
      '/api/v1/namespaces/kube-system/configmaps?fieldSelector=metadata.name%3Dkube-proxy&limit=500',
      '/api/v1/nodes?limit=500',
      '/api/v1/pods?limit=500',
      '/api/v1/services?limit=500',
      '/apis/apps/v1/namespaces/kube-system/daemonsets?limit=500',
    ]);
  });

  it('reads big lists in chunks (limit + continue), each chunk within the timeout', async () => {
    const pods = fixture('pods');
    server = await startFakeApiServer({
      ...clusterRoutes(),
      '/api/v1/pods': (_req, res, url) => {
        const second = url.searchParams.get('continue') === 'eyJydiI6NTAzNDIsInN0YXJ0IjoiZGVmYXVsdCJ9';
        const body = second
          ? { ...pods, items: pods.items.slice(4) }
          : { ...pods, metadata: { resourceVersion: '50342', continue: 'eyJydiI6NTAzNDIsInN0YXJ0IjoiZGVmYXVsdCJ9', remainingItemCount: 3 }, items: pods.items.slice(0, 4) };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
    });
    const snap = await readCluster({ path: writeKubeconfig(server.url) });
    assert.equal(snap.objects.filter((o) => o.kind === 'Pod').length, 7);
    assert.deepEqual(server.requests.filter((r) => r.path.startsWith('/api/v1/pods')).map((r) => r.path), [
      '/api/v1/pods?limit=500',
      '/api/v1/pods?continue=eyJydiI6NTAzNDIsInN0YXJ0IjoiZGVmYXVsdCJ9&limit=500',
    ]);
  });

  it('reads Services and Pods per namespace when namespaces are given', async () => {
    server = await startFakeApiServer({ ...clusterRoutes(), '/api/v1/namespaces/shop/services': { body: { kind: 'ServiceList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: [] } }, '/api/v1/namespaces/shop/pods': { body: { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: [] } } });
    const snap = await readCluster({ path: writeKubeconfig(server.url), namespaces: ['shop'] });
    assert.match(snap.status.message, /read 0 Services in shop, 0 Pods in shop, 3 Nodes/);
    assert.ok(!server.requests.some((r) => r.path.startsWith('/api/v1/services') || r.path.startsWith('/api/v1/pods')));
  });

  it('continues with what it could read when a list is Forbidden, and says what is missing', async () => {
    const forbidden = statusBody(403, 'Forbidden', 'nodes is forbidden: User "system:serviceaccount:ci:netlint" cannot list resource "nodes" in API group "" at the cluster scope');
    server = await startFakeApiServer({ ...clusterRoutes(), '/api/v1/nodes': { status: 403, body: forbidden } });
    const snap = await readCluster({ path: writeKubeconfig(server.url) });
    assert.equal(snap.status.state, 'partial');
    assert.equal(snap.objects.filter((o) => o.kind === 'Node').length, 0);
    assert.equal(snap.objects.filter((o) => o.kind === 'Service').length, 5);
    assert.match(snap.status.message, /missing Nodes \(forbidden: RBAC does not allow list nodes \(cluster-scoped\) \(nodes is forbidden: User "system:serviceaccount:ci:netlint" cannot list resource "nodes" in API group "" at the cluster scope\)\)$/);
    assert.deepEqual(snap.status.resources.find((r) => r.id === 'nodes')?.state, 'forbidden');
  });

  it('gives up on a list that answers later than the timeout, keeps the others', async () => {
    server = await startFakeApiServer({ ...clusterRoutes(), '/api/v1/pods': { body: {}, delayMs: 10000 } });
    const started = Date.now();
    const snap = await readCluster({ path: writeKubeconfig(server.url), timeoutMs: 2500 });
    assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
    assert.equal(snap.status.state, 'partial');
    assert.deepEqual(snap.status.resources.find((r) => r.id === 'pods'), { id: 'pods', label: 'Pods', count: 0, state: 'timeout', detail: 'no answer within 2.5 s' });
    assert.equal(snap.objects.filter((o) => o.kind === 'Service').length, 5);
  });

  it('reports one clear status when the API server is unreachable', async () => {
    server = await startFakeApiServer({});
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const snap = await readCluster({ path: writeKubeconfig(`https://127.0.0.1:${port}`) });
    assert.equal(snap.status.state, 'unreachable');
    assert.equal(snap.status.message, `cluster prod-admin at https://127.0.0.1:${port} is unreachable: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}; analysing the workspace only`);
    assert.deepEqual(snap.objects, []);
  });

  it('reports a missing context with the contexts that exist, and a missing kubeconfig', async () => {
    server = await startFakeApiServer({});
    const path = writeKubeconfig(server.url);
    const snap = await readCluster({ path, context: 'staging' });
    assert.equal(snap.status.state, 'error');
    assert.equal(snap.status.message, `cluster: kubeconfig ${path}: context "staging" not found (contexts: prod-admin, other)`);
    const none = await readCluster({ env: { KUBECONFIG: '/nonexistent/kubeconfig' } });
    assert.equal(none.status.message, 'cluster: no kubeconfig found (looked at /nonexistent/kubeconfig); set KUBECONFIG (in the editor: the kubeNetlint.cluster.kubeconfig user setting)');
    assert.deepEqual(server.requests, []);
  });

  it('takes the kubeconfig from KUBECONFIG (several files, first current-context wins) and the chosen context', async () => {
    server = await startFakeApiServer(clusterRoutes());
    const first = writeKubeconfig(server.url);
    const snap = await readCluster({ env: { KUBECONFIG: `/nonexistent:${first}` }, context: 'prod-admin' });
    assert.equal(snap.status.state, 'connected');
  });

  it('never puts credentials or kubeconfig contents in status messages, even for a broken kubeconfig', async () => {
    server = await startFakeApiServer({ ...clusterRoutes(), '/api/v1/nodes': { status: 500, body: statusBody(500, 'InternalError', `etcd said Bearer ${TOKEN}`) } });
    const snap = await readCluster({ path: writeKubeconfig(server.url) });
    assert.match(snap.status.message, /missing Nodes \(HTTP 500: etcd said Bearer \[redacted\]\)/);
    assertNoSecrets(JSON.stringify(snap.status));
    // A kubeconfig that does not parse: the parser's message would quote the line with the token.
    const dir = mkdtempSync(join(tmpdir(), 'kn-bad-'));
    const bad = join(dir, 'config');
    writeFileSync(bad, `apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: ${TOKEN}\n   bad: [indent\n`);
    const broken = await readCluster({ path: bad });
    assert.equal(broken.status.state, 'error');
    assert.match(broken.status.message, /^cluster: .*config:\d+: not a valid kubeconfig \(not YAML\)$/);
    assertNoSecrets(JSON.stringify(broken.status));
  });
});
