/**
 * Editor end-to-end suite: the packaged extension in a real VS Code workbench (code-server 4.100.3 = VS Code
 * 1.100.3, in Debian's Chromium driven by playwright-core), asserting only what a user sees. The fixture
 * workspace (test/e2e/workspace) has two Services in two files that both claim nodePort 30080.
 *
 * Steps share one code-server and one browser; after the first failing step the others are skipped. Every step
 * saves a screenshot under test-results/e2e/ (CI keeps the folder as an artifact); a failure also saves one and
 * attaches the extension host, output channel and remote agent logs to the error.
 *
 * Environment: KUBE_NETLINT_E2E_HOME (tool cache), E2E_OUT (output folder), E2E_TIMEOUT_MS (per step, default 60000),
 * E2E_BREAK=server|client (negative control: replaces the installed dist/server.js or dist/extension.js with
 * a module that throws, so the suite must fail).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeportDuplicate } from '../../server/out/core/rules/nodeport-duplicate';
import { CodeServer, finishRun, installExtension, QUIET_SETTINGS, startCodeServer } from './code-server';
import { deadLinkReason } from '../helpers/links';
import { breakInstalledExtension, FIXTURE_DIR, fixtureLine } from './fixture';
import { activationState, extensionActivated, logExcerpt } from './logs';
import { BrowserContext, launchBrowser, Page } from './playwright';
import { installedFolderName, extensionId, repoRoot, sha256, vsixEntries, vsixEntry, vsixPath } from './vsix';
import { editorLine, editorToken, Fatal, goToLine, isWithin, openFromExplorer, problemsRows, problemsText, renderedLine, STEP_TIMEOUT_MS, until, visibleHoverText, webviewElement, workbenchSteps } from './workbench';

/** Screenshots and logs (the CI artifact); E2E_OUT moves it, e.g. for two runs in one working tree. */
const OUT = path.resolve(process.env.E2E_OUT || path.join(repoRoot, 'test-results', 'e2e'));
const RULE = 'nodeport-duplicate';
const NODE_PORT_LINE = 'nodePort: 30080 # the quick fix';
const NODE_PORT_AT = fixtureLine('frontend.yaml', NODE_PORT_LINE);
const OTHER_NODE_PORT_AT = fixtureLine('payments.yaml', 'nodePort: 30080');

describe('VS Code workbench (code-server + Chromium)', function () {
  this.timeout(STEP_TIMEOUT_MS * 2 + 60_000);
  let server: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  let screenshotNo = 0;
  const consoleLines: string[] = [];
  const runDir = path.join(OUT, 'run');
  const workspace = path.join(OUT, 'workspace');

  const screenshot = async (name: string): Promise<string> => {
    const file = path.join(OUT, `${String(++screenshotNo).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file, animations: 'disabled' });
    return file;
  };

  /** One UI step: skipped after an earlier failure; on failure, screenshot + logs attached to the error. */
  const step = workbenchSteps({
    page: () => page,
    screenshot,
    explain: (e, file) => {
      const activated = server ? extensionActivated(server.userDataDir, extensionId) : false;
      fs.writeFileSync(path.join(OUT, 'browser-console.log'), consoleLines.join('\n') + '\n');
      e.message = [
        e.message,
        activated ? `(extension ${extensionId} was activated)` : `THE EXTENSION ${extensionId} DID NOT ACTIVATE.`,
        `screenshot: ${file}`,
        'logs:',
        server ? logExcerpt(server.userDataDir, [server.logFile]) : '(code-server did not start)',
      ].join('\n');
    },
  });

  before(async function () {
    this.timeout(120_000);
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.mkdirSync(runDir, { recursive: true });
    // A fresh copy: the quick fix edits the buffer, and the fixture must stay as committed.
    fs.cpSync(FIXTURE_DIR, workspace, { recursive: true });
    installExtension(vsixPath(), runDir);
    breakInstalledExtension(path.join(runDir, 'extensions', installedFolderName));
    server = await startCodeServer(runDir, workspace, { ...QUIET_SETTINGS, 'kubeNetlint.trace.server': 'verbose' });
    browser = await launchBrowser(path.join(runDir, 'chromium-profile'), server.home);
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
    try {
      await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').first().waitFor({ timeout: STEP_TIMEOUT_MS });
    } catch (err) {
      const file = await screenshot('workbench-FAILED').catch(() => '(screenshot failed)');
      throw new Error(`the workbench did not load: ${String(err)}\nscreenshot: ${file}\n${logExcerpt(server.userDataDir, [server.logFile])}`);
    }
  });

  after(async function () {
    this.timeout(30_000);
    await finishRun({ browser, server, out: OUT, runDir, consoleLines });
  });

  it('installed the packaged .vsix unchanged (same files, same bytes)', function () {
    if (process.env.E2E_BREAK) this.skip(); // the negative control changes the installed copy on purpose
    const installed = path.join(runDir, 'extensions', installedFolderName);
    for (const entry of vsixEntries().filter((e) => e.startsWith('extension/'))) {
      const rel = entry.slice('extension/'.length);
      const file = path.join(installed, rel);
      assert.ok(fs.existsSync(file), `${rel} of the .vsix is not installed in ${installed}`);
      if (rel === 'package.json') continue; // code-server may add install metadata to the manifest
      assert.equal(sha256(fs.readFileSync(file)), sha256(vsixEntry(entry)), `${rel} differs from the .vsix`);
    }
  });

  step('activates on a YAML file and shows the object count in the language status', 'activated', async () => {
    await openFromExplorer(page, 'frontend.yaml');
    await until(`activation of ${extensionId} in the extension host log`, async () => {
      const state = activationState(server!.userDataDir, extensionId);
      if (state === 'failed') throw new Fatal(`activating ${extensionId} failed (see remoteexthost.log below)`);
      return state === 'activated' ? true : undefined;
    });
    // The language status ({} in the status bar) lists our item; its hover shows the count of objects.
    const status = page.locator('[id="status.languageStatus"]').first();
    const text = await until('the kube-netlint language status item with an object count', async () => {
      await status.hover({ timeout: 2000 });
      const stopped = page.locator('.hover-language-status', { hasText: 'kube-netlint: stopped' });
      if ((await stopped.count()) > 0) throw new Fatal(`the language server stopped: ${await stopped.first().innerText()}`);
      // The open file's own findings come first ("2 objects in 1 file"); wait for the workspace scan.
      const items = page.locator('.hover-language-status', { hasText: /object/ });
      if ((await items.count()) === 0) return undefined;
      const shown = await items.first().innerText();
      return /\b4 objects\b/.test(shown) ? shown : undefined;
    });
    // frontend.yaml: Deployment + Service; payments.yaml: Deployment + Service.
    assert.match(text, /\b4 objects\b/, `language status item: ${JSON.stringify(text)}`);
  });

  step(`lists ${RULE} for both files in the Problems panel`, 'problems', async () => {
    const rows = await problemsRows(page);
    await until(`two ${RULE} rows in the Problems panel`,
      async () => ((await rows.filter({ hasText: RULE }).count()) >= 2 ? true : undefined));
    const text = (await problemsText(page)).join('\n');
    assert.match(text, /frontend\.yaml/);
    assert.match(text, /payments\.yaml/);
    assert.match(text, /nodePort 30080 is also claimed by Service shop\/payments/);
    assert.match(text, /nodePort 30080 is also claimed by Service shop\/frontend/);
    assert.equal((text.match(new RegExp(RULE, 'g')) ?? []).length, 2, `Problems panel:\n${text}`);
    // Each finding points at the exact `30080` scalar.
    for (const [other, at] of [['payments', NODE_PORT_AT], ['frontend', OTHER_NODE_PORT_AT]] as const) {
      const row = (await rows.filter({ hasText: `claimed by Service shop/${other}` }).first().innerText()).replace(/\s+/g, ' ');
      assert.match(row, new RegExp(`${RULE}.*\\[Ln ${at.line}, Col ${at.column}\\]`), `Problems row: ${row}`);
    }
  });

  step('the rule code of a finding in the Problems panel opens the rule page shipped in the .vsix', 'problems-code-link', async () => {
    // codeDescription.href: the file: URI of docs/rules/<id>.md in the installed extension.
    const code = page.locator('.markers-panel .monaco-list-row a', { hasText: RULE }).first();
    await code.click({ timeout: STEP_TIMEOUT_MS });
    const tab = page.locator('.tabs-container .tab.active', { hasText: `${RULE}.md` }).first();
    await tab.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await until('the page to show in the editor', async () => ((await editorLine(page, `# ${RULE}`).count()) > 0 ? true : undefined));
  });

  step('hovering the nodePort value explains the rule and names the other Service', 'hover', async () => {
    await page.keyboard.press('Escape');
    await openFromExplorer(page, 'frontend.yaml');
    await goToLine(page, NODE_PORT_AT.line, NODE_PORT_AT.column); // reveals the line (only visible lines are in the DOM)
    await editorToken(page, NODE_PORT_LINE, '30080').hover({ timeout: STEP_TIMEOUT_MS });
    // The rule's explanation (its first sentence, as rendered from markdown), not only the diagnostic message.
    // The diagnostic part of the hover shows first; the server's hover arrives a moment later: wait for both.
    const sentence = nodeportDuplicate.explanation.split(/[:.]/)[0].replace(/\*\*|`/g, '').replace(/\s+/g, ' ');
    let last = '';
    const hover = await until(`the hover to contain "${sentence}"`, async () => {
      last = (await visibleHoverText(page, 'payments', 2000)).replace(/\s+/g, ' ');
      return last.includes(sentence) ? last : undefined;
    }).catch((err: Error) => { throw new Error(`${err.message}; the hover showed: ${last}`); });
    assert.match(hover, /shop\/payments/);
  });

  step('the hover shows the finding, a short explanation and a Read more link that opens the rule page shipped in the .vsix', 'read-more', async () => {
    await goToLine(page, NODE_PORT_AT.line, NODE_PORT_AT.column);
    await editorToken(page, NODE_PORT_LINE, '30080').hover({ timeout: STEP_TIMEOUT_MS });
    const link = page.locator('.monaco-hover a', { hasText: 'Read more' }).first();
    await link.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const box = page.locator('.monaco-editor .monaco-hover:visible', { has: page.locator('a', { hasText: 'Read more' }) }).first();
    const hover = (await box.innerText()).replace(/\s+/g, ' ');
    assert.match(hover, /nodePort 30080 is also claimed by Service shop\/payments/, 'the finding\'s message');
    assert.match(hover, /nodePort claimed twice \(nodeport-duplicate\)/, 'the rule');
    assert.doesNotMatch(hover, /Sources/, 'the hover shows a summary, not the whole page');
    // The link is on screen without scrolling the hover (the rule's part comes right under the message).
    assert.ok(await isWithin(link, box), 'the Read more link is below the visible part of the hover');
    await screenshot('hover-read-more');
    // The same view, editor and panel only: the picture of the extension page (client/README.md shows it as
    // images/screenshot.png; copy it there when the UI changes).
    const [editor, panel] = [await page.locator('.part.editor').first().boundingBox(), await page.locator('.part.panel').first().boundingBox()];
    if (editor && panel) {
      await page.screenshot({ path: path.join(OUT, 'extension-page-screenshot.png'), animations: 'disabled', clip: { x: editor.x, y: editor.y, width: editor.width, height: panel.y + panel.height - editor.y } });
    }
    await link.click();
    // The Markdown preview of docs/rules/<id>.md from the installed extension, once it has rendered.
    const tab = page.locator('.tabs-container .tab', { hasText: `Preview ${RULE}.md` }).first();
    await tab.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await webviewElement(page, 'h1', RULE, `the preview to show the page of ${RULE}`);
    await webviewElement(page, 'h2', 'Sources', 'the preview to show the page\'s Sources');
  });

  step('the language status item is short, with its details and the Show Output link in the hover', 'status-hover', async () => {
    await openFromExplorer(page, 'frontend.yaml');
    const status = page.locator('[id="status.languageStatus"]').first();
    await status.hover({ timeout: STEP_TIMEOUT_MS });
    const item = page.locator('.hover-language-status', { hasText: 'kube-netlint' }).first();
    await item.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const text = (await item.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /kube-netlint: 2 errors/);
    assert.match(text, /4 objects in 2 files/);
    assert.match(text, /Show Output/);
    // Cluster access is off: no "cluster: off" item.
    assert.equal(await page.locator('.hover-language-status', { hasText: 'cluster:' }).count(), 0);
    // Every item of the hover fits: VS Code puts an item's text and detail on one line of a narrow hover and cuts
    // what does not fit (the render item once said its counts twice, the second time cut off).
    const render = (await page.locator('.hover-language-status', { hasText: 'render:' }).first().innerText()).replace(/\s+/g, ' ');
    assert.match(render, /^render: 0 kustomizations, 0 Helm releases\b/);
    assert.doesNotMatch(render, /rendered/, 'the detail repeats the text');
    const clipped = await page.locator('.hover-language-status').evaluateAll((rows) => rows
      .flatMap((row) => [row, ...row.querySelectorAll('*')])
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && (globalThis as unknown as { getComputedStyle(e: unknown): { overflowX: string } }).getComputedStyle(el).overflowX !== 'visible')
      .map((el) => (el.textContent ?? '').trim()));
    assert.deepEqual(clipped, [], 'language status items cut off in the hover');
  });

  step('the quick fix from the lightbulb changes the value and clears both findings', 'quick-fix', async () => {
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');
    await editorToken(page, NODE_PORT_LINE, '30080').click({ timeout: STEP_TIMEOUT_MS });
    // VS Code 1.100 draws the lightbulb in the glyph margin (codicon-gutter-lightbulb-*) when the line has room,
    // else as a content widget (.lightBulbWidget).
    const lightbulb = page.locator('.editor-group-container.active :is(.lightBulbWidget, [class*="codicon-gutter-lightbulb"]):visible').first();
    await lightbulb.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await lightbulb.click();
    const action = page.locator('.action-widget .monaco-list-row', { hasText: /Change nodePort 30080 to/ }).first();
    await action.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const title = await action.innerText();
    const newPort = /to (?:free port )?(\d+)/.exec(title)?.[1];
    assert.ok(newPort, `quick fix title without a port: ${title}`);
    await screenshot('quick-fix-menu');
    // The action list takes the keyboard (a pointer-blocking layer covers it): move the focus to our fix, Enter.
    for (let i = 0; i < 10 && !/\bfocused\b/.test((await action.getAttribute('class')) ?? ''); i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    const line = await until(`the nodePort line to read ${newPort}`, async () => {
      const l = await renderedLine(page, '# the quick fix');
      return l.includes(`nodePort: ${newPort}`) ? l : undefined;
    });
    // Only the value changed: the indentation and the comment stay.
    assert.equal(line.trimEnd(), NODE_PORT_AT.text.replace('30080', newPort));
    const rows = await problemsRows(page);
    await until(`${RULE} to disappear from both files`,
      async () => ((await rows.filter({ hasText: RULE }).count()) === 0 ? true : undefined));
    assert.equal(await editorLine(page, 'nodePort: 30080').count(), 0);
  });

  step('the settings are ordered, main ones first, with descriptions', 'settings', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Comma');
    const search = page.locator('.settings-editor .suggest-input-container textarea, .settings-editor input').first();
    await search.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await page.waitForTimeout(500); // the search box (a Monaco editor) has the focus when the editor opens
    await page.keyboard.type('@ext:kube-netlint.kube-netlint');
    const first = page.locator('.settings-editor .setting-item-title').first();
    await until('the kube-netlint settings', async () => ((await first.innerText().catch(() => '')).includes('Rules') ? true : undefined));
    await page.waitForTimeout(1000);
  });

  step('the extension page shows the extension README with its icon and screenshot, and no dead link', 'extension-page', async () => {
    if (await page.locator('.markers-panel').isVisible()) await page.keyboard.press('Control+J'); // more room for the page
    await page.keyboard.press('Control+Shift+X');
    const search = page.locator('.extensions-viewlet .suggest-input-container textarea, .extensions-viewlet input').first();
    await search.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await page.waitForTimeout(500); // Ctrl+Shift+X focuses the search box (a Monaco editor)
    await page.keyboard.type('@installed kube-netlint');
    const item = page.locator('.extensions-viewlet .extension-list-item', { hasText: 'kube-netlint' }).first();
    await item.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    await item.click();
    const tab = page.locator('.tabs-container .tab', { hasText: 'Extension: kube-netlint' }).first();
    await tab.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    // The README renders in a webview that shows images only from https: and data: — the package inlines them.
    await webviewElement(page, 'h1', 'kube-netlint for VS Code', 'the extension README');
    const image = await webviewElement(page, 'img[alt^="A nodePort collision"]', undefined, 'the README screenshot');
    const [size] = await until('the README screenshot to load', async () => {
      const sizes = await image.evaluateAll((els: { complete: boolean; naturalWidth: number; naturalHeight: number }[]) => els.map((e) => (e.complete ? [e.naturalWidth, e.naturalHeight] : [0, 0])));
      return sizes[0]?.[0] ? sizes : undefined;
    });
    assert.deepEqual(size, pngSize(fs.readFileSync(path.join(repoRoot, 'images', 'screenshot.png'))));
    await page.mouse.move(700, 450); // away from the extension list's hover card
    // No link of the page leads nowhere: the README's (inside the webview) and the details beside it.
    const readmeLinks = await (await webviewElement(page, 'body', undefined, 'the README body')).evaluateAll((els: { querySelectorAll(s: string): { getAttribute(n: string): string | null }[] }[]) => [...els[0].querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''));
    const detailLinks = await page.locator('.extension-editor .additional-details-container a[href]').evaluateAll((els: { getAttribute(n: string): string | null }[]) => els.map((a) => a.getAttribute('href') ?? ''));
    assert.deepEqual([...readmeLinks, ...detailLinks].filter((l) => !l.startsWith('#')).map(deadLinkReason).filter(Boolean), []);
  });
});

/** Width and height of a PNG (its IHDR chunk). */
function pngSize(png: Buffer): [number, number] {
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}
