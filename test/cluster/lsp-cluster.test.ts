import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLUSTER_FINDINGS_REQUEST, CLUSTER_OBJECT_REQUEST, CLUSTER_REFRESH_REQUEST, CLUSTER_SETTINGS_NOTIFICATION, CLUSTER_STATUS_NOTIFICATION,
  ClusterObjectGroup, ClusterStatusParams,
} from '../../server/out/protocol/cluster-messages';
import { TestClient, uriOf } from '../lsp/lsp-client';
import { clusterRoutes } from './cluster-fixtures';
import { FakeApiServer, startFakeApiServer, writeKubeconfig } from './fake-api-server';
import { assertNoSecrets } from './secrets';

const PAYMENTS = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: payments\n  namespace: team-b\nspec:\n  type: NodePort\n  selector: {app: payments}\n  ports:\n    - name: http\n      port: 80\n      nodePort: 31234\n';

const CHECKOUT_VIEW = 'kube-netlint-cluster:/prod-admin/Service/shop/checkout.yaml';

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kn-lsp-cluster-'));
  writeFileSync(join(dir, 'payments.yaml'), PAYMENTS);
  return dir;
}

/** Starts the server on a folder and records cluster status notifications and log lines. */
async function start(dir: string, options: { trusted: boolean; settings?: Record<string, unknown> }): Promise<{ client: TestClient; statuses: ClusterStatusParams[]; logs: string[] }> {
  const client = await TestClient.start([dir], { initializationOptions: { workspaceTrusted: options.trusted }, settings: options.settings });
  const statuses: ClusterStatusParams[] = [];
  const logs: string[] = [];
  client.connection.onNotification(CLUSTER_STATUS_NOTIFICATION, (p: ClusterStatusParams) => statuses.push(p));
  client.connection.onNotification('window/logMessage', (p: { message: string }) => logs.push(p.message));
  return { client, statuses, logs };
}

async function until(check: () => boolean, what: string, ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timeout waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('language server with the live cluster', function () {
  this.timeout(30000);
  let server: FakeApiServer;
  let client: TestClient | undefined;
  beforeEach(async () => {
    server = await startFakeApiServer(clusterRoutes());
  });
  afterEach(async () => {
    await client?.stop();
    assert.deepEqual(server.writes, []);
    await server.close();
  });

  it('merges cluster objects: a workspace nodePort colliding with an auto-allocated one, cluster findings by object, read-only YAML', async () => {
    const dir = folder();
    const started = await start(dir, { trusted: true });
    client = started.client;
    await client.connection.sendNotification(CLUSTER_SETTINGS_NOTIFICATION, { enabled: true, kubeconfig: writeKubeconfig(server.url) });
    const d = (await client.waitFor(join(dir, 'payments.yaml'), (ds) => ds.some((x) => x.code === 'nodeport-duplicate'))).find((x) => x.code === 'nodeport-duplicate')!;
    assert.deepEqual(d.range, { start: { line: 11, character: 16 }, end: { line: 11, character: 21 } });
    assert.match(d.message, /^nodePort 31234 is also claimed by Service shop\/checkout/);
    // The related location is the nodePort value in the cluster object's read-only view, the exact text the client shows.
    const view = (await client.connection.sendRequest(CLUSTER_OBJECT_REQUEST, { file: 'cluster:prod-admin/Service/shop/checkout' })) as string;
    const nodePortLine = view.split('\n').findIndex((l) => /^\s+nodePort: 31234$/.test(l));
    const nodePortValue = { start: { line: nodePortLine, character: view.split('\n')[nodePortLine].indexOf('31234') }, end: { line: nodePortLine, character: view.split('\n')[nodePortLine].indexOf('31234') + 5 } };
    assert.ok(nodePortLine > 5, view);
    assert.deepEqual(d.relatedInformation, [{ location: { uri: CHECKOUT_VIEW, range: nodePortValue }, message: 'nodePort 31234 of Service shop/checkout' }]);
    // The finding on the cluster Service is a squiggle on that value in its view, naming the workspace Service.
    const onView = (await client.waitFor(CHECKOUT_VIEW, (ds) => ds.some((x) => x.code === 'nodeport-duplicate'))).find((x) => x.code === 'nodeport-duplicate')!;
    assert.deepEqual(onView.range, nodePortValue);
    assert.match(onView.message, /^nodePort 31234 is also claimed by Service team-b\/payments/);
    assert.deepEqual(onView.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uriOf(join(dir, 'payments.yaml')), 11]]);

    // Every list has arrived (watch mode reads the resources in parallel) and the analysis ran with them.
    await until(() => started.statuses.some((s) => s.state === 'connected' && s.objects === 18), 'a connected cluster status');
    let groups: ClusterObjectGroup[] = [];
    for (let i = 0; i < 100 && !groups.some((g) => g.kind === 'Node'); i++) {
      groups = (await client.connection.sendRequest(CLUSTER_FINDINGS_REQUEST)) as ClusterObjectGroup[];
      await new Promise((r) => setTimeout(r, 100));
    }
    const checkout = groups.find((g) => g.file === 'cluster:prod-admin/Service/shop/checkout');
    assert.deepEqual(checkout?.findings.map((f) => [f.ruleId, f.severity, f.range, f.related.map((r) => [r.uri, r.line])]), [['nodeport-duplicate', 'error', nodePortValue, [[uriOf(join(dir, 'payments.yaml')), 11]]]]);
    const node3 = groups.find((g) => g.file === 'cluster:prod-admin/Node/node-3');
    assert.deepEqual(node3?.findings.map((f) => [f.ruleId, f.severity]), [['calico-node-address-mismatch', 'warning']]);
    assert.deepEqual([node3?.kind, node3?.namespace, node3?.name], ['Node', '', 'node-3']);

    client.open(join(dir, 'payments.yaml'));
    const hover = await client.hover(join(dir, 'payments.yaml'), 11, 18);
    assert.ok((hover?.contents as { value: string }).value.includes(`[cluster:prod-admin/Service/shop/checkout:${nodePortLine + 1}](${CHECKOUT_VIEW}#L${nodePortLine + 1})`), (hover?.contents as { value: string }).value);

    const yaml = view;
    assert.match(yaml, /^# cluster:prod-admin\/Service\/shop\/checkout \(read-only: live cluster object\)\napiVersion: v1\nkind: Service\nmetadata:\n/);
    assert.match(yaml, /nodePort: 31234/);
    assert.equal(await client.connection.sendRequest(CLUSTER_OBJECT_REQUEST, { file: 'cluster:prod-admin/Service/x/y' }), null);

    const status = started.statuses.filter((s) => s.state === 'connected').pop()!;
    assert.equal(status.context, 'prod-admin');
    assert.equal(status.objects, 18);
    assert.ok(!Number.isNaN(Date.parse(status.lastSync!)));

    const before = server.requests.length;
    const message = (await client.connection.sendRequest(CLUSTER_REFRESH_REQUEST)) as string;
    assert.match(message, /^cluster prod-admin: read 5 Services/);
    assert.ok(server.requests.length > before, 'refresh did not list again');
    assertNoSecrets(started.logs.join('\n') + JSON.stringify(started.statuses) + client.stderr.join(''));
    assert.ok(started.logs.some((l) => l.startsWith('kube-netlint: cluster prod-admin: read')), started.logs.join('\n'));
  });

  it('never reaches the cluster in an untrusted workspace, nor from workspace settings', async () => {
    const dir = folder();
    const kubeconfig = writeKubeconfig(server.url);
    // workspace/configuration answers with cluster settings: they must be ignored.
    const started = await start(dir, { trusted: false, settings: { cluster: { enabled: true, kubeconfig } } });
    client = started.client;
    await client.connection.sendNotification(CLUSTER_SETTINGS_NOTIFICATION, { enabled: true, kubeconfig });
    await until(() => client!.statuses.length > 0, 'the first analysis');
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(server.requests, []);
    assert.deepEqual((await client.connection.sendRequest(CLUSTER_FINDINGS_REQUEST)) as unknown[], []);
    assert.ok(started.logs.some((l) => l.includes('cluster access is off in an untrusted workspace')));
  });

  it('ignores cluster settings that come only from workspace/configuration in a trusted workspace', async () => {
    const dir = folder();
    const started = await start(dir, { trusted: true, settings: { cluster: { enabled: true, kubeconfig: writeKubeconfig(server.url) } } });
    client = started.client;
    await until(() => client!.statuses.length > 0, 'the first analysis');
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(server.requests, []);
  });
});
