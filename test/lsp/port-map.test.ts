import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { runCli } from '../../server/out/cli/run';
import type { ClaimJson, PortMapDocument } from '../../server/out/core/port-map/document';
import { PORT_MAP_CHANGED_NOTIFICATION, PORT_MAP_REQUEST, PortMapResponse, showPortsCommandUri } from '../../server/out/protocol/port-map-messages';
import { UNSHARE, writeTree } from '../helpers/render';
import { TestClient, uriOf } from './lsp-client';

const ROOT = resolve(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const BROKER_LB = join(EXAMPLES, 'streaming', 'broker-lb.yaml');

/** `port kind owner file:line` of every claim, file relative to examples/. */
function claimKeys(doc: PortMapDocument, fileOf: (f: string) => string): string[] {
  return doc.clusterGroups[0].ports.flatMap((p) => p.claims.map((c: ClaimJson) =>
    `${c.id} ${c.port}/${c.protocol} ${c.kind} ${c.owner ? `${c.owner.kind} ${c.owner.namespace}/${c.owner.name}` : c.component} ${c.location ? `${fileOf(c.location.file)}:${c.location.line}` : '-'} ${c.nodes.text} ${c.collisions.map((x) => `${x.rule}>${x.with.join(',')}`).join(' ')}`));
}

describe('language server: the node-port map for the editor view', function () {
  this.timeout(30000);
  let client: TestClient;
  const versions: number[] = [];

  before(async () => {
    client = await TestClient.start([EXAMPLES], { initializationOptions: { portMapView: true } });
    client.connection.onNotification(PORT_MAP_CHANGED_NOTIFICATION, (p: { version: number }) => versions.push(p.version));
    await client.waitFor(BROKER_LB, (d) => d.length > 0);
  });
  after(async () => {
    assert.ok(client.alive);
    await client.stop();
  });

  const request = (): Promise<PortMapResponse> => client.connection.sendRequest(PORT_MAP_REQUEST) as Promise<PortMapResponse>;

  it('answers with the map kube-netlint ports prints, plus where the editor opens each claim', async () => {
    const response = await request();
    assert.deepEqual(response.folders.map((f) => [f.name, f.uri]), [['examples', uriOf(EXAMPLES)]]);
    let out = '';
    assert.equal(await runCli(['ports', 'examples', '--format', 'json'], { cwd: ROOT, stdout: (t) => (out += t), stderr: () => undefined, readStdin: () => '' }), 0);
    const cli = JSON.parse(out) as PortMapDocument;
    const served = response.folders[0].document;
    assert.deepEqual(claimKeys(served, (f) => relative(EXAMPLES, f)), claimKeys(cli, (f) => relative('examples', f)));
    assert.deepEqual(served.clusterGroups[0].bands, cli.clusterGroups[0].bands);
    const hc = served.clusterGroups[0].ports.find((p) => p.port === 31990)!.claims.find((c) => c.kind === 'healthCheckNodePort')!;
    assert.deepEqual(hc.link, { uri: uriOf(BROKER_LB), line: 10, character: 23, endLine: 10, endCharacter: 28 });
    assert.equal(readFileSync(BROKER_LB, 'utf8').split('\n')[10].slice(23, 28), '31990');
    // Component ports that nothing in the workspace declares have no location and no link.
    const kubelet = served.clusterGroups[0].ports.find((p) => p.port === 10250)!.claims[0];
    assert.deepEqual([kubelet.location, kubelet.link], [null, undefined]);
  });

  it('tells the client when an edit changes the map, and the next answer shows the edit', async () => {
    const before = versions.length ? versions[versions.length - 1] : 0;
    const text = readFileSync(BROKER_LB, 'utf8');
    client.open(BROKER_LB, text);
    client.change(BROKER_LB, text.replace('healthCheckNodePort: 31990', 'healthCheckNodePort: 31991'));
    const deadline = Date.now() + 15000;
    while (!versions.some((v) => v > before) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    let response = await request();
    while (!response.folders[0].document.clusterGroups[0].ports.some((p) => p.port === 31991) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      response = await request();
    }
    assert.ok(versions.some((v) => v > before), `no ${PORT_MAP_CHANGED_NOTIFICATION} after the edit: ${versions}`);
    const ports = response.folders[0].document.clusterGroups[0].ports;
    const moved = ports.find((p) => p.port === 31991)!;
    assert.deepEqual(moved.claims.map((c) => [c.kind, c.collisions.length]), [['healthCheckNodePort', 0]]);
    const left = ports.find((p) => p.port === 31990)!;
    assert.deepEqual([left.collision, left.claims.map((c) => c.kind)], [null, ['hostNetwork']]);
  });

  it('links the hover of a node-level port into the view', async () => {
    const hover = await client.hover(BROKER_LB, 10, 25);
    const text = (hover?.contents as { value: string }).value;
    assert.ok(text.includes(`[Show port 31991 in the node-port map](${showPortsCommandUri({ port: 31991, uri: uriOf(BROKER_LB) })})`), text);
    assert.match(showPortsCommandUri({ port: 31991 }), /^command:kubeNetlint\.showPorts\?%5B%7B%22port%22%3A31991%7D%5D$/);
  });

  it('leaves the link out for clients without the view', async () => {
    const plain = await TestClient.start([EXAMPLES]);
    try {
      await plain.waitFor(BROKER_LB, (d) => d.length > 0);
      const text = ((await plain.hover(BROKER_LB, 10, 25))?.contents as { value: string }).value;
      assert.match(text, /^\*\*healthCheckNodePort 31990\*\*/m);
      assert.doesNotMatch(text, /command:/);
    } finally {
      await plain.stop();
    }
  });
});

describe('language server: the node-port map of a rendered kustomize overlay', function () {
  this.timeout(60_000);
  let dir = '';
  let client: TestClient | undefined;
  after(async () => {
    await client?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('links the claims of rendered objects to the source lines the user edits', async () => {
    const svc = (name: string, nodePort: number) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: http\n      port: 80\n      nodePort: ${nodePort}\n`;
    dir = writeTree({
      'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'base/web.yaml': svc('web', 30080),
      'prod/kustomization.yaml': 'resources:\n  - ../base\n  - api.yaml\npatches:\n  - path: np.yaml\n',
      'prod/np.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - name: http\n      port: 80\n      nodePort: 30090\n',
      'prod/api.yaml': svc('api', 30090),
    });
    client = await TestClient.start([dir], { prefix: UNSHARE ? [UNSHARE, '-n'] : [] });
    await client.waitFor(join(dir, 'prod/np.yaml'), (d) => d.some((x) => x.code === 'nodeport-duplicate' && x.message.endsWith('(Service default/web, rendered by prod)')));
    const response = (await client.connection.sendRequest(PORT_MAP_REQUEST)) as PortMapResponse;
    const [group] = response.folders[0].document.clusterGroups;
    assert.equal(group.name, 'prod');
    const row = group.ports.find((p) => p.port === 30090)!;
    assert.deepEqual(row.claims.map((c) => [c.owner?.name, c.link?.uri, c.link?.line, c.rendered?.render, c.collisions.map((x) => x.rule)]), [
      ['api', uriOf(join(dir, 'prod/api.yaml')), 10, 'rendered by prod', ['nodeport-duplicate']],
      ['web', uriOf(join(dir, 'prod/np.yaml')), 8, 'rendered by prod', ['nodeport-duplicate']],
    ]);
  });
});
