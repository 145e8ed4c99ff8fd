/**
 * The live-cluster feature in a real VS Code workbench (code-server + Chromium, same tools as
 * vscode-ui.e2e.ts, its own folders under test-results/e2e-cluster/): the packaged extension with
 * `kubeNetlint.cluster.*` in the user settings reads the local HTTPS API server of test/cluster/, and the
 * user sees the collision with an auto-allocated nodePort in Problems, the "kube-netlint: Cluster" view
 * with findings by cluster object, the read-only YAML of an object, and the cluster language status.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { clusterObjectFile } from '../../server/out/core/model/from-api-object';
import { clusterRoutes, fixture } from '../cluster/cluster-fixtures';
import { FakeApiServer, startFakeApiServer, writeKubeconfig } from '../cluster/fake-api-server';
import { CodeServer, installExtension, QUIET_SETTINGS, startCodeServer } from './code-server';
import { screenshotSteps } from './logs';
import { BrowserContext, launchBrowser, Page } from './playwright';
import { repoRoot, vsixPath } from './vsix';
import { openFromExplorer, problemsText, STEP_TIMEOUT_MS, until } from './workbench';

const OUT = path.join(repoRoot, 'test-results', 'e2e-cluster');
const PAYMENTS = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: payments\n  namespace: team-b\nspec:\n  type: NodePort\n  selector: {app: payments}\n  ports:\n    - name: http\n      port: 80\n      nodePort: 31234\n';

describe('VS Code workbench with a live cluster', function () {
  this.timeout(STEP_TIMEOUT_MS * 4 + 60_000);
  let api: FakeApiServer;
  let server: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;

  before(async function () {
    this.timeout(120_000);
    fs.rmSync(OUT, { recursive: true, force: true });
    const runDir = path.join(OUT, 'run');
    const workspace = path.join(OUT, 'workspace');
    fs.mkdirSync(runDir, { recursive: true });
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'payments.yaml'), PAYMENTS);
    api = await startFakeApiServer(clusterRoutes());
    installExtension(vsixPath(), runDir);
    server = await startCodeServer(runDir, workspace, {
      ...QUIET_SETTINGS,
      // User settings: the only place cluster access may come from.
      'kubeNetlint.cluster.enabled': true, 'kubeNetlint.cluster.kubeconfig': writeKubeconfig(api.url),
    });
    browser = await launchBrowser(path.join(runDir, 'chromium-profile'), server.home);
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').first().waitFor({ timeout: STEP_TIMEOUT_MS });
  });

  after(async function () {
    this.timeout(30_000);
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await api?.close();
    assert.deepEqual(api?.writes ?? [], [], 'the extension sent a non-GET request to the cluster');
  });

  const { shot, withLogs } = screenshotSteps(OUT, () => ({ page, server }));

  it('shows the collision with the nodePort the API server allocated to a cluster-only Service', () => withLogs(async () => {
    await openFromExplorer(page, 'payments.yaml');
    const problems = await until('nodeport-duplicate naming the cluster Service', async () => {
      const rows = await problemsText(page);
      return rows.some((r) => r.includes('nodePort 31234 is also claimed by Service shop/checkout')) ? rows : undefined;
    });
    // The related location is the cluster object's read-only document.
    assert.ok(problems.some((r) => r.includes('nodePort 31234 of Service shop/checkout')), problems.join('\n'));
  }, 'problems'));

  it('lists findings by cluster object in the "kube-netlint: Cluster" view and opens an object as read-only YAML', () => withLogs(async () => {
    const pane = page.locator('.pane:has(.pane-header:has-text("kube-netlint: Cluster"))').first();
    await pane.waitFor({ timeout: STEP_TIMEOUT_MS });
    if ((await pane.locator('.pane-header').first().getAttribute('aria-expanded')) !== 'true') await pane.locator('.pane-header').first().click();
    await pane.locator('.monaco-list-row', { hasText: 'Node node-3' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    // Groups are sorted by object; the last two are Service shop/checkout and Service shop/frontend (whose selector no
    // cluster Pod matches): End = frontend's finding, Left = its group, Up = checkout's finding, Left = its group.
    await pane.locator('.monaco-list-row').first().click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    assert.match(await pane.locator('.monaco-list-row.focused').first().innerText(), /^Service shop\/frontend\s*1 finding/);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    assert.match(await pane.locator('.monaco-list-row.focused').first().innerText(), /^Service shop\/checkout\s*1 finding/);
    await page.keyboard.press('Enter');
    await page.locator('.tab', { hasText: 'checkout.yaml' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.locator('.view-line', { hasText: 'nodePort: 31234' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    // The object opens on the field of its finding: the nodePort value of the view (the same text the server wrote) is selected.
    const view = clusterObjectFile(fixture('services').items.find((i) => (i.metadata as { name: string }).name === 'checkout'), 'prod-admin', { kind: 'Service', apiVersion: 'v1' })!;
    const lines = view.text.split('\n');
    const line = lines.findIndex((l) => /^\s+nodePort: 31234$/.test(l));
    const column = lines[line].indexOf('31234') + 1;
    const selection = page.locator('[id="status.editor.selection"]').first();
    const at = await until(`the cursor on the nodePort value (Ln ${line + 1}, Col ${column} or ${column + 5})`, async () => {
      const t = await selection.innerText().catch(() => '');
      return new RegExp(`Ln ${line + 1}, Col (${column}|${column + 5})\\b`).test(t) ? t : undefined;
    });
    assert.match(at, /\(5 selected\)/);
    // And the finding is a squiggle there: the Problems panel lists it on checkout.yaml at that line and column.
    const rows = await until('the finding on the cluster object in Problems', async () => {
      const r = await problemsText(page);
      return r.some((x) => x.includes('nodePort 31234 is also claimed by Service team-b/payments') && x.includes(`[Ln ${line + 1}, Col ${column}]`)) ? r : undefined;
    });
    assert.ok(rows.length > 0);
    await shot('cluster-view-field');
    // The view is the read-only YAML of the object, as kubectl get -o yaml prints it.
    await page.locator('.tab.active', { hasText: 'checkout.yaml' }).first().click();
    await page.keyboard.press('Control+Home');
    await page.locator('.view-line', { hasText: 'read-only: live cluster object' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  }, 'cluster-view'));

  it('shows the context and the last sync time in the language status', () => withLogs(async () => {
    const status = page.locator('[id="status.languageStatus"]').first();
    const text = await until('the cluster language status item', async () => {
      await status.hover({ timeout: 2000 });
      const items = page.locator('.hover-language-status', { hasText: 'cluster: prod-admin' });
      return (await items.count()) ? items.first().innerText() : undefined;
    });
    assert.match(text, /cluster: prod-admin · synced /);
    assert.match(text, /read 5 Services, 7 Pods, 3 Nodes/);
  }, 'status'));
});
