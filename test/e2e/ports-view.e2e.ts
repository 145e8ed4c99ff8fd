/**
 * The "Node Ports" view in a real VS Code workbench (code-server + Chromium, as vscode-ui.e2e.ts), on a copy of
 * examples/: the command opens the webview; its rows are the map `kube-netlint ports --format json` prints for the
 * same folder; clicking a claim puts the editor on the claiming field; the hover's link focuses the port in the
 * view; an edit updates it without a refresh; and it follows the theme. Screenshots of the light, dark and
 * high-contrast themes go to test-results/e2e-ports/ (ports-light.png, ports-dark.png, ports-high-contrast.png).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../server/out/cli/run';
import type { PortMapDocument } from '../../server/out/core/port-map/document';
import { CodeServer, finishRun, installExtension, QUIET_SETTINGS, startCodeServer } from './code-server';
import { logExcerpt } from './logs';
import { BrowserContext, FrameLocator, launchBrowser, Page } from './playwright';
import { repoRoot, vsixPath } from './vsix';
import { editorToken, goToLine, openFromExplorer, problemsRows, STEP_TIMEOUT_MS, until, visibleHoverText, workbenchSteps } from './workbench';

const OUT = path.resolve(process.env.E2E_OUT ? path.join(process.env.E2E_OUT, '..', 'e2e-ports') : path.join(repoRoot, 'test-results', 'e2e-ports'));
/** Theme labels in "Preferences: Color Theme" (VS Code 1.100's built-in themes). */
const THEMES = { light: 'Light Modern', dark: 'Dark Modern', 'high-contrast': 'Dark High Contrast' } as const;

/** What the view shows of one claim, read from its chip. */
interface ShownClaim {
  port: number;
  id: number;
  kind: string;
  owner: string;
  location: string;
  collides: boolean;
}

describe('VS Code workbench: the Node Ports view on examples/', function () {
  this.timeout(STEP_TIMEOUT_MS * 3 + 60_000);
  let server: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  const consoleLines: string[] = [];
  const runDir = path.join(OUT, 'run');
  const workspace = path.join(OUT, 'workspace');

  const view = (): FrameLocator => page.frameLocator('iframe.webview').first().frameLocator('#active-frame');
  const step = workbenchSteps({
    page: () => page,
    screenshot: async (name) => {
      const file = path.join(OUT, `${name}.png`);
      await page.screenshot({ path: file, animations: 'disabled' });
      return file;
    },
    explain: (e, file) => {
      fs.writeFileSync(path.join(OUT, 'browser-console.log'), consoleLines.join('\n') + '\n');
      e.message += `\nscreenshot: ${file}\nlogs:\n${server ? logExcerpt(server.userDataDir, [server.logFile]) : '(code-server did not start)'}`;
    },
  });

  /** Switches the color theme as a user does: "Preferences: Color Theme", then the theme's name. */
  const theme = async (name: keyof typeof THEMES, workbenchClass: RegExp, webviewClass: string): Promise<void> => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await page.keyboard.type('Preferences: Color Theme');
    const command = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first();
    await command.waitFor({ timeout: STEP_TIMEOUT_MS });
    await command.click();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: THEMES[name] }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.keyboard.type(THEMES[name]);
    await until(`"${THEMES[name]}" to be the focused theme`, async () => {
      const focused = page.locator('.quick-input-widget .monaco-list-row.focused').first();
      return (await focused.innerText().catch(() => '')).trim().startsWith(THEMES[name]) ? true : undefined;
    });
    await page.keyboard.press('Enter');
    await until(`the workbench in the ${name} theme`, async () => (workbenchClass.test((await page.locator('.monaco-workbench').first().getAttribute('class')) ?? '') ? true : undefined));
    await until(`the view in the ${name} theme`, async () => ((await view().locator(`body.${webviewClass}`).count()) > 0 ? true : undefined));
    await view().locator('html').evaluateAll(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await page.waitForTimeout(300); // the theme's colours reach the webview's CSS variables right after the class
  };

  before(async function () {
    this.timeout(120_000);
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.mkdirSync(runDir, { recursive: true });
    fs.cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
    installExtension(vsixPath(), runDir);
    server = await startCodeServer(runDir, workspace, { ...QUIET_SETTINGS, 'workbench.colorTheme': 'Default Light Modern' });
    browser = await launchBrowser(path.join(runDir, 'chromium-profile'), server.home);
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').first().waitFor({ timeout: STEP_TIMEOUT_MS });
  });

  after(async function () {
    this.timeout(30_000);
    await finishRun({ browser, server, out: OUT, runDir, consoleLines });
  });

  step('opens the view with "kube-netlint: Show Node Ports", one row per port as kube-netlint ports prints them', 'ports-light', async () => {
    const folder = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'streaming' }).first();
    await folder.waitFor({ timeout: STEP_TIMEOUT_MS });
    await folder.click();
    await openFromExplorer(page, 'broker-lb.yaml');
    // The analysis is done once its findings are in the Problems panel.
    const rows = await problemsRows(page);
    await until('the findings of examples/ in the Problems panel', async () => ((await rows.filter({ hasText: 'host-port-conflicts-healthcheck-nodeport' }).count()) > 0 ? true : undefined));
    await page.keyboard.press('Control+J'); // hide the panel again: room for the view
    await until('the panel to be hidden', async () => ((await page.locator('.part.panel').first().isVisible()) ? undefined : true));
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await page.keyboard.type('kube-netlint: Show Node Ports');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Show Node Ports' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.keyboard.press('Enter');
    await view().locator('tr.row').first().waitFor({ timeout: STEP_TIMEOUT_MS });

    let out = '';
    assert.equal(await runCli(['ports', '.', '--format', 'json'], { cwd: workspace, stdout: (t) => (out += t), stderr: () => undefined, readStdin: () => '' }), 0);
    const cli = JSON.parse(out) as PortMapDocument;
    const expected: ShownClaim[] = cli.clusterGroups[0].ports.flatMap((p) => p.claims.map((c) => ({
      port: c.port, id: c.id, kind: c.kind,
      owner: c.owner ? `${c.owner.kind} ${c.owner.namespace}/${c.owner.name}${c.container ? ` (container ${c.container})` : c.portName ? ` (port ${c.portName})` : ''}` : '',
      location: c.location ? `${path.basename(c.location.file)}:${c.location.line}` : '',
      collides: c.collisions.length > 0,
    })));
    const shown = await view().locator('tr.row').evaluateAll((trs) => trs.flatMap((tr) => [...tr.querySelectorAll('button.chip')].map((chip) => ({
      port: Number(tr.getAttribute('data-port')),
      id: Number(chip.getAttribute('data-claim')),
      kind: chip.getAttribute('data-kind') ?? '',
      owner: chip.querySelector('.chip-owner')?.textContent ?? '',
      location: chip.querySelector('.chip-location')?.textContent ?? '',
      collides: chip.classList.contains('collides'),
    }))));
    assert.deepEqual(shown, expected);
    const rowPorts = await view().locator('tr.row').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-port'))));
    assert.deepEqual(rowPorts, cli.clusterGroups[0].ports.map((p) => p.port));
    // The collision of the story: the broker's hostNetwork port is the LoadBalancer's healthCheckNodePort.
    assert.equal(await view().locator('tr.row.collision-error[data-port="31990"]').count(), 1);
    const bands = await view().locator('.band-label').allInnerTexts();
    assert.match(bands[0], /^Static band 30000-30085 · 1 of 86 used \(1\.2%\) · 1 allocated · free: 30000-30079, 30081-30085$/);
    // A strict Content-Security-Policy: nothing loads but the extension's own script (by nonce) and stylesheet.
    const csp = await view().locator('meta[http-equiv="Content-Security-Policy"]').first().getAttribute('content');
    assert.match(csp ?? '', /^default-src 'none'; style-src [^;]+; script-src 'nonce-[A-Za-z0-9+/=]+'; img-src [^;]+ data:; font-src [^;]+$/);
    assert.doesNotMatch(csp ?? '', /unsafe-/);
    assert.deepEqual(consoleLines.filter((l) => /Content Security Policy|Refused to (load|execute|apply|connect)/.test(l)), []);
  });

  step('clicking a claim puts the editor on its field', 'ports-click', async () => {
    const hc = view().locator('tr.row[data-port="31990"] button.chip[data-kind="healthCheckNodePort"]');
    await hc.click();
    await page.locator('.tab.active', { hasText: 'broker-lb.yaml' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const selection = page.locator('[id="status.editor.selection"]').first();
    // healthCheckNodePort: 31990 is line 11, the value columns 24-28: the field is selected.
    const text = await until('the cursor on line 11 with the value selected', async () => {
      const t = await selection.innerText().catch(() => '');
      return /Ln 11, Col 2[49]/.test(t) ? t : undefined;
    });
    assert.match(text, /\(5 selected\)/);
    // Clicking the row (not a chip) opens its first claim: the broker's hostNetwork containerPort.
    await view().locator('tr.row[data-port="9092"] td.port').click();
    await page.locator('.tab.active', { hasText: 'broker.yaml' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await until('the cursor on the containerPort 9092 line', async () => (/Ln 24, Col (30|34)/.test(await selection.innerText().catch(() => '')) ? true : undefined));
  });

  step('follows the dark theme', 'ports-dark', async () => {
    await theme('dark', /\bvs-dark\b/, 'vscode-dark');
  });

  step('follows the high-contrast theme', 'ports-high-contrast', async () => {
    await theme('high-contrast', /\bhc-black\b/, 'vscode-high-contrast');
  });

  step('the hover\'s link focuses the port in the view, and an edit updates the view without a refresh', 'ports-live', async () => {
    await theme('light', /\bvs\b/, 'vscode-light');
    await openFromExplorer(page, 'broker-lb.yaml');
    await goToLine(page, 11, 24);
    await editorToken(page, 'healthCheckNodePort: 31990', '31990').hover({ timeout: STEP_TIMEOUT_MS });
    await visibleHoverText(page, 'Show port 31990 in the node-port map');
    await page.locator('.monaco-hover a', { hasText: 'Show port 31990 in the node-port map' }).first().click();
    await view().locator('tr.row.focused[data-port="31990"]').waitFor({ timeout: STEP_TIMEOUT_MS });
    // Edit the value in the editor: the view moves the claim to 31991 and the collision goes away.
    await page.mouse.move(0, 0);
    // The link moved the focus to the view's editor group: back to the editor beside it (the view stays visible).
    await page.locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: 'broker-lb.yaml' }) }).first().locator('.tab', { hasText: 'broker-lb.yaml' }).first().click();
    await page.locator('.editor-group-container.active .tab.active', { hasText: 'broker-lb.yaml' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await editorToken(page, 'healthCheckNodePort: 31990', '31990').dblclick({ timeout: STEP_TIMEOUT_MS });
    await page.keyboard.type('31991');
    await view().locator('tr.row[data-port="31991"] button.chip[data-kind="healthCheckNodePort"]').waitFor({ timeout: STEP_TIMEOUT_MS });
    await until('port 31990 to have no collision', async () => ((await view().locator('tr.row.collision-error[data-port="31990"]').count()) === 0 ? true : undefined));
    assert.equal(await view().locator('tr.row[data-port="31990"] button.chip').count(), 1);
    // The filter box: only the rows that match.
    await view().locator('#filter').click();
    await page.keyboard.type('broker-lb');
    await until('only the broker-lb rows', async () => {
      const ports = await view().locator('tr.row').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-port')));
      return ports.join() === '31092,31991' ? true : undefined;
    });
  });
});
