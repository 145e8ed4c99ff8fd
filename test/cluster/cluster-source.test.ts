import { strict as assert } from 'node:assert';
import { ClusterSource } from '../../server/out/cluster/cluster-source';
import type { ServiceObject } from '../../server/out/core/model/objects';
import { clusterRoutes, fixture } from './cluster-fixtures';
import { FakeApiServer, startFakeApiServer, statusBody, writeKubeconfig } from './fake-api-server';
import { assertNoSecrets } from './secrets';

/** Resolves on the next onChange of `source` whose snapshot satisfies `ok` (fails after `ms`). */
function changeWhere(source: ClusterSource, ok: () => boolean, ms = 8000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`no matching change within ${ms} ms (status: ${source.status.message})`));
    }, ms);
    const sub = source.onChange(() => {
      if (!ok()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

const newService = {
  kind: 'Service', apiVersion: 'v1',
  metadata: { name: 'search', namespace: 'shop', uid: '1b7e2c55-0d41-4b8e-9d63-4f8a1c2b3d4e', resourceVersion: '50400', creationTimestamp: '2026-11-30T08:00:00Z' },
  spec: { type: 'NodePort', clusterIP: '10.96.77.3', selector: { app: 'search' }, ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 9200, nodePort: 30555 }] },
};

describe('ClusterSource (kept current for the language server)', () => {
  let server: FakeApiServer;
  let source: ClusterSource | undefined;
  afterEach(async () => {
    source?.stop();
    source = undefined;
    assert.deepEqual(server.writes, []);
    await server.close();
  });

  it('lists, then follows watch events: an added Service with a new nodePort appears, a deleted one goes', async () => {
    server = await startFakeApiServer(clusterRoutes());
    const log: string[] = [];
    source = new ClusterSource({ path: writeKubeconfig(server.url), log: (l) => log.push(l) });
    await source.start();
    assert.equal(source.status.state, 'connected');
    assert.ok(source.status.lastSync instanceof Date);
    assert.equal(source.snapshot().objects.length, 18);
    // Every list was followed by a watch from the list's resourceVersion.
    assert.ok(server.requests.some((r) => r.path === '/api/v1/services?watch=true&resourceVersion=50342'), JSON.stringify(server.requests.map((r) => r.path)));
    const hasSearch = () => source!.snapshot().objects.some((o) => o.name === 'search');
    const added = changeWhere(source, hasSearch);
    server.push('/api/v1/services', 'ADDED', newService);
    await added;
    const search = source.snapshot().objects.find((o) => o.name === 'search') as ServiceObject;
    assert.deepEqual([search.file, search.ports[0].nodePort?.value], ['cluster:prod-admin/Service/shop/search', 30555]);
    assert.match(source.status.message, /read 6 Services/);
    const deleted = changeWhere(source, () => !hasSearch());
    server.push('/api/v1/services', 'DELETED', newService);
    await deleted;
    assert.deepEqual(log.length, 1);
    assert.match(log[0], /^cluster prod-admin: read 5 Services, 7 Pods, 3 Nodes/);
    assertNoSecrets(log.join('\n') + JSON.stringify(source.status));
  });

  it('re-lists on an interval when refreshSeconds is set', async () => {
    server = await startFakeApiServer(clusterRoutes());
    source = new ClusterSource({ path: writeKubeconfig(server.url), refreshSeconds: 0.3 });
    await source.start();
    assert.equal(source.snapshot().objects.filter((o) => o.kind === 'Service').length, 5);
    const list = fixture('services');
    server.routes.set('/api/v1/services', { body: { ...list, items: [...list.items, newService] } });
    await changeWhere(source, () => source!.snapshot().objects.some((o) => o.name === 'search'));
    assert.ok(!server.requests.some((r) => r.path.includes('watch=true')), 'interval mode must not watch');
  });

  it('keeps the other resources and says which is missing when a list is Forbidden; retries with backoff', async () => {
    const forbidden = { status: 403, body: statusBody(403, 'Forbidden', 'pods is forbidden: User "dev" cannot list resource "pods" in API group "" at the cluster scope') };
    server = await startFakeApiServer({ ...clusterRoutes(), '/api/v1/pods': forbidden });
    source = new ClusterSource({ path: writeKubeconfig(server.url), backoff: { initialMs: 200, maxMs: 400 } });
    await source.start();
    assert.equal(source.status.state, 'partial');
    assert.match(source.status.message, /missing Pods \(forbidden: RBAC does not allow list pods at the cluster scope \(pods is forbidden: User "dev" cannot list/);
    assert.equal(source.snapshot().objects.filter((o) => o.kind === 'Service').length, 5);
    // Once RBAC allows it, the next retry reads the Pods.
    server.routes.set('/api/v1/pods', { body: fixture('pods') });
    await changeWhere(source, () => source!.status.state === 'connected');
    assert.equal(source.snapshot().objects.filter((o) => o.kind === 'Pod').length, 7);
    const podLists = server.requests.filter((r) => r.path === '/api/v1/pods?limit=500').length;
    assert.ok(podLists >= 2 && podLists <= 6, `${podLists} pod lists`);
  });

  it('says when RBAC allows list but not watch, and how to do without watch', async () => {
    const denied = statusBody(403, 'Forbidden', 'nodes is forbidden: User "dev" cannot watch resource "nodes" in API group "" at the cluster scope');
    server = await startFakeApiServer({
      ...clusterRoutes(),
      'WATCH /api/v1/nodes': (_req, res) => {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify(denied));
      },
    });
    source = new ClusterSource({ path: writeKubeconfig(server.url), backoff: { initialMs: 5000, maxMs: 5000 } });
    await source.start();
    const nodes = source.status.resources.find((r) => r.id === 'nodes');
    assert.equal(nodes?.state, 'forbidden');
    assert.match(nodes?.detail ?? '', /^forbidden: RBAC does not allow watch nodes \(cluster-scoped\); set kubeNetlint\.cluster\.refreshSeconds to re-list instead/);
    // The objects of the successful list are kept.
    assert.equal(source.snapshot().objects.filter((o) => o.kind === 'Node').length, 3);
  });

  it('reports a kubeconfig without the chosen context once, and reads nothing', async () => {
    server = await startFakeApiServer(clusterRoutes());
    const path = writeKubeconfig(server.url);
    source = new ClusterSource({ path, context: 'gone' });
    await source.start();
    assert.equal(source.status.state, 'error');
    assert.equal(source.status.message, `cluster: kubeconfig ${path}: context "gone" not found (contexts: prod-admin, other)`);
    assert.deepEqual(source.snapshot().objects, []);
    assert.deepEqual(server.requests, []);
  });
});
