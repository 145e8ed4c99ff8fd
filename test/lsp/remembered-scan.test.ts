import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TestClient } from './lsp-client';

const svc = (name: string, nodePort: number): string =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports:\n    - {port: 80, nodePort: ${nodePort}}\n`;
/** A Deployment whose hostPort is a string: pod-spec-invalid. */
const badDeployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bad}\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          image: nginx\n          ports:\n            - {containerPort: 80, hostPort: "8080"}\n    metadata: {labels: {app: bad}}\n  selector: {matchLabels: {app: bad}}\n';
const SHOWN_EARLY = /unchanged since the last analysis: its \d+ findings shown before loading/;

// A reopened folder (parse cache in the editor's storage folder) whose files are all unchanged since the first
// analysis after an earlier scan shows that analysis's diagnostics and status before its files are loaded; anything
// that could make the analysis differ (a changed file, something to render) makes it load and analyse first.
describe('language server: a reopened folder shows its last findings before loading', function () {
  this.timeout(120_000);
  let dir: string;
  let storage: string;
  let client: TestClient | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-recall-'));
    storage = mkdtempSync(join(tmpdir(), 'knl-recall-storage-'));
    mkdirSync(join(dir, 'apps'));
    // 40 Services on 20 nodePorts: each port shared by two files (nodeport-duplicate, with the other file related).
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, 'apps', `s${String(i).padStart(2, '0')}.yaml`), svc(`s${i}`, 30000 + (i % 20)));
    writeFileSync(join(dir, 'bad.yaml'), badDeployment);
  });
  afterEach(async () => {
    await client?.stop();
    client = undefined;
    rmSync(dir, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  });

  /** Starts the server on `dir` with the storage folder; resolves once the scan has loaded every file and the analysis after it ran. */
  const start = async (): Promise<{ client: TestClient; atFirstStatus: Map<string, unknown>; firstStatus: unknown }> => {
    const c = await TestClient.start([dir], { initializationOptions: { cacheFolder: storage } });
    client = c;
    const started = Date.now();
    while (c.statuses.length === 0 && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 5));
    const atFirstStatus = new Map(c.diagnostics);
    const firstStatus = c.statuses[0];
    while (!c.logs.some((l) => / YAML files /.test(l)) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 400)); // the analysis after the load, and its publishes
    return { client: c, atFirstStatus, firstStatus };
  };
  // The render line of the status says what the renders found: at the first status the renderers may not be found yet.
  const withoutTime = (status: unknown): unknown => ({ ...(status as object), durationMs: 0, render: undefined });
  const lastStatus = (c: TestClient): unknown => ({ ...(c.statuses[c.statuses.length - 1] as object), durationMs: 0 });
  const nonEmpty = (diagnostics: ReadonlyMap<string, unknown[]>): Map<string, unknown[]> => new Map([...diagnostics].filter(([, d]) => d.length > 0));
  const uri = (file: string): string => pathToFileURL(file).href;

  it('shows the diagnostics and status of the last analysis at once, equal to those of a cold start, and they stand after the load', async () => {
    const cold = await start();
    const coldDiagnostics = nonEmpty(cold.client.diagnostics);
    assert.equal(coldDiagnostics.size, 41, 'every Service file and bad.yaml');
    assert.deepEqual(coldDiagnostics.get(uri(join(dir, 'bad.yaml')))?.map((d) => (d as { code: string }).code), ['pod-spec-invalid']);
    const shared = coldDiagnostics.get(uri(join(dir, 'apps', 's00.yaml'))) as { code: string; relatedInformation?: { location: { uri: string } }[] }[];
    assert.deepEqual(shared.map((d) => d.code).filter((c) => c === 'nodeport-duplicate'), ['nodeport-duplicate']);
    assert.equal(shared.find((d) => d.code === 'nodeport-duplicate')?.relatedInformation?.[0].location.uri, uri(join(dir, 'apps', 's20.yaml')));
    assert.ok(!cold.client.logs.some((l) => SHOWN_EARLY.test(l)), 'nothing stored yet');
    await cold.client.stop();

    const warm = await start();
    assert.ok(warm.client.logs.some((l) => SHOWN_EARLY.test(l)), warm.client.logs.join('\n'));
    assert.deepEqual(nonEmpty(warm.atFirstStatus as Map<string, unknown[]>), coldDiagnostics, 'every diagnostic with the first status');
    assert.deepEqual(withoutTime(warm.firstStatus), withoutTime(cold.client.statuses[cold.client.statuses.length - 1]));
    assert.deepEqual(nonEmpty(warm.client.diagnostics), coldDiagnostics, 'unchanged by the analysis after the load');
    assert.deepEqual(lastStatus(warm.client), lastStatus(cold.client));
  });

  it('loads and analyses first when a file changed, and shows the new state early on the next start', async () => {
    await (await start()).client.stop();
    writeFileSync(join(dir, 'apps', 's39.yaml'), svc('s39', 30100)); // s19 no longer shares 30019
    const changed = await start();
    assert.ok(!changed.client.logs.some((l) => SHOWN_EARLY.test(l)), changed.client.logs.join('\n'));
    assert.equal(changed.client.diagnostics.get(uri(join(dir, 'apps', 's19.yaml')))?.length ?? 0, 0);
    const after = nonEmpty(changed.client.diagnostics);
    assert.equal(after.size, 39);
    await changed.client.stop();
    const again = await start();
    assert.ok(again.client.logs.some((l) => SHOWN_EARLY.test(l)), again.client.logs.join('\n'));
    assert.deepEqual(nonEmpty(again.atFirstStatus as Map<string, unknown[]>), after);
  });

  it('never shows early a folder with something to render (a kustomization), whatever renderers are installed', async () => {
    writeFileSync(join(dir, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - bad.yaml\n');
    await (await start()).client.stop();
    const second = await start();
    assert.ok(second.client.logs.some((l) => / YAML files /.test(l)), second.client.logs.join('\n'));
    assert.ok(!second.client.logs.some((l) => SHOWN_EARLY.test(l)), second.client.logs.join('\n'));
  });
});
