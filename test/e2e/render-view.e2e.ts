/**
 * Rendering in a real VS Code workbench (code-server + Chromium, same tools as vscode-ui.e2e.ts, its own folders
 * under test-results/e2e-render/): the packaged extension with `kubeNetlint.render.helmPath` /
 * `kubeNetlint.render.kustomizePath` in the user settings (the real helm and kubectl of
 * test/render/install-renderers.sh) renders a kustomize overlay; the user sees the collision on the patch line in
 * Problems, follows its related-information link to the rendered manifest, and gets a read-only document with
 * the squiggle on the rendered field.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CodeServer, installExtension, QUIET_SETTINGS, startCodeServer } from './code-server';
import { screenshotSteps } from './logs';
import { BrowserContext, launchBrowser, Page } from './playwright';
import { repoRoot, vsixPath } from './vsix';
import { openFromExplorer, problemsRows, STEP_TIMEOUT_MS, until } from './workbench';

const OUT = path.join(repoRoot, 'test-results', 'e2e-render');
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: http\n      port: 80\n      nodePort: ${nodePort}\n`;
const OVERLAY: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
  'base/web.yaml': svc('web', 30080),
  'prod/kustomization.yaml': 'resources:\n  - ../base\n  - api.yaml\npatches:\n  - path: np.yaml\n',
  'prod/np.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - name: http\n      port: 80\n      nodePort: 30090\n',
  'prod/api.yaml': svc('api', 30090),
};

describe('VS Code workbench rendering a kustomize overlay', function () {
  this.timeout(STEP_TIMEOUT_MS * 4 + 60_000);
  let server: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;

  before(async function () {
    this.timeout(180_000);
    fs.rmSync(OUT, { recursive: true, force: true });
    const runDir = path.join(OUT, 'run');
    const workspace = path.join(OUT, 'workspace');
    fs.mkdirSync(runDir, { recursive: true });
    for (const [rel, text] of Object.entries(OVERLAY)) {
      fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
      fs.writeFileSync(path.join(workspace, rel), text);
    }
    const install = spawnSync('bash', [path.join(repoRoot, 'test/render/install-renderers.sh')], { encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    const bin = install.stdout.trim().split('\n').pop()!;
    installExtension(vsixPath(), runDir);
    server = await startCodeServer(runDir, workspace, {
      ...QUIET_SETTINGS,
      // User settings: the only place a renderer binary may come from.
      'kubeNetlint.render.helmPath': path.join(bin, 'helm'), 'kubeNetlint.render.kustomizePath': path.join(bin, 'kubectl'),
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
  });

  const { shot, withLogs } = screenshotSteps(OUT, () => ({ page, server }));

  it('shows the collision on the patch line, from the render, in Problems', () => withLogs(async () => {
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'prod' }).first().click();
    await openFromExplorer(page, 'np.yaml');
    const rows = await until('nodeport-duplicate of the rendered overlay on np.yaml', async () => {
      const text = await (await problemsRows(page)).allInnerTexts();
      return text.some((r) => r.includes('nodePort 30090 is also claimed by Service default/api') && r.includes('(Service default/web, rendered by prod)') && r.includes('[Ln 9, Col 17]')) ? text : undefined;
    });
    assert.ok(rows.some((r) => r.includes('in the rendered manifest (rendered by prod)')), rows.join('\n'));
  }, 'problems'));

  it('opens the rendered manifest from the related-information link as a read-only document with the squiggle on the rendered field', () => withLogs(async () => {
    const link = (await problemsRows(page)).filter({ hasText: 'in the rendered manifest (rendered by prod)' }).first();
    await link.click();
    await page.locator('.tab.active', { hasText: 'kustomize:prod.yaml' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    // Re-serialised by kustomize: the rendered Service web with the patch's nodePort, and the squiggle on that line.
    const line = editor.locator('.view-line', { hasText: 'nodePort: 30090' }).first();
    await line.waitFor({ timeout: STEP_TIMEOUT_MS });
    await until('an error squiggle in the rendered manifest', async () => ((await editor.locator('.squiggly-error').count()) > 0 ? true : undefined));
    // Read-only: typing changes nothing (VS Code says it cannot edit a read-only editor).
    await line.click();
    await page.keyboard.type('x');
    await until('the read-only message', async () => ((await page.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).count()) > 0 ? true : undefined));
    assert.equal(await editor.locator('.view-line', { hasText: 'x' }).filter({ hasText: 'nodePort: 30090x' }).count(), 0);
  }, 'rendered-view'));
});
