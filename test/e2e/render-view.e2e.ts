/**
 * Rendering in a real VS Code workbench (code-server + Chromium, same tools as vscode-ui.e2e.ts, its own folders
 * under test-results/e2e-render/): the packaged extension with `kubeNetlint.render.helmPath` /
 * `kubeNetlint.render.kustomizePath` in the user settings (the real helm and kubectl of
 * test/render/install-renderers.sh) renders a kustomize overlay; the user sees the collision on the patch line in
 * Problems, follows its related-information link to the rendered manifest, and gets a read-only document with
 * the squiggle on the rendered field. Problems lists each rendered finding once, on the source line: the view's own
 * copy is drawn as a decoration (squiggle and hover), not as a second Problems entry.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lintRendered } from '../helpers/render';
import { CodeServer, installExtension, QUIET_SETTINGS, startCodeServer } from './code-server';
import { screenshotSteps } from './logs';
import { BrowserContext, launchBrowser, Page } from './playwright';
import { repoRoot, vsixPath } from './vsix';
import { openFromExplorer, problemsRows, STEP_TIMEOUT_MS, until, visibleHoverText } from './workbench';

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
  /** The CLI's findings of the workspace (on the files the user edits) that Problems lists: all but hints. */
  let sourceFindings: number;

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
    process.env.KUBE_NETLINT_RENDER_BIN = bin;
    // What Problems must list: the CLI's findings on the files the user edits (Problems never lists hints). Both
    // nodeport-duplicate findings of the overlay map back to source lines (none stays on the rendered manifest only).
    const cli = lintRendered(workspace, ['.']).findings.filter((f) => f.severity !== 'hint');
    sourceFindings = cli.filter((f) => !f.file.startsWith('render:')).length;
    assert.deepEqual(cli.map((f) => `${f.ruleId} ${f.file}:${f.line}`).sort(), ['nodeport-duplicate prod/api.yaml:11', 'nodeport-duplicate prod/np.yaml:9']);
    assert.equal(sourceFindings, 2);
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
    await assertProblemsCountIsSourceFindings();
  }, 'problems'));

  it('opens the rendered manifest from the related-information link as a read-only document with the squiggle on the rendered field', () => withLogs(async () => {
    const link = (await problemsRows(page)).filter({ hasText: 'in the rendered manifest (rendered by prod)' }).first();
    await link.click();
    await page.locator('.tab.active', { hasText: 'kustomize:prod.yaml' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    // Re-serialised by kustomize: the rendered Services api and web, both with nodePort 30090 (web's from the patch).
    const line = editor.locator('.view-line', { hasText: 'nodePort: 30090' }).first();
    await line.waitFor({ timeout: STEP_TIMEOUT_MS });
    // The view's findings are decorations, not diagnostics (Problems lists them on the source lines): a wavy
    // underline in the theme's error colour on each rendered nodePort, none of VS Code's own squiggles, and the
    // finding in the hover of each.
    const tokens = editor.locator('.view-line', { hasText: 'nodePort: 30090' });
    await until('a wavy underline in the error colour on both rendered nodePorts', async () => {
      if ((await tokens.count()) !== 2) return undefined;
      for (let i = 0; i < 2; i++) {
        const underlined = await tokens.nth(i).locator('span > span').evaluateAll((els) => els.filter((e) => {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          const g = globalThis as any;
          const probe = g.document.createElement('span');
          probe.style.color = 'var(--vscode-editorError-foreground)';
          e.parentElement.appendChild(probe);
          const error = g.getComputedStyle(probe).color;
          probe.remove();
          const c = g.getComputedStyle(e);
          return c.textDecorationLine.includes('underline') && c.textDecorationStyle === 'wavy' && c.textDecorationColor === error;
        }).map((e) => e.textContent));
        if (underlined.join('') !== '30090') return undefined;
      }
      return true;
    });
    assert.equal(await editor.locator('.squiggly-error, .squiggly-warning, .squiggly-info').count(), 0, 'a diagnostic squiggle in the rendered view');
    const hovers: string[] = [];
    const shown = page.locator('.monaco-editor .monaco-hover', { hasText: 'nodePort 30090 is also claimed by Service default/' }).first();
    for (let i = 0; i < 2; i++) {
      // Away from the editor first, so the second hover is not the first one still shown.
      await page.mouse.move(5, 5);
      await shown.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
      await tokens.nth(i).locator('span > span:text-is("30090")').first().hover({ timeout: STEP_TIMEOUT_MS });
      hovers.push(await visibleHoverText(page, 'nodePort 30090 is also claimed by Service default/'));
    }
    // One per rendered Service (kustomize orders them), each naming the other, with severity and rule.
    assert.deepEqual(hovers.map((h) => h.replace(/\s+/g, ' ')).map((h) => /claimed by (Service default\/\w+).*\((Service default\/\w+), rendered by [^)]*\) error · kube-netlint\(nodeport-duplicate\)/.exec(h)?.slice(1).join(' in ')).sort(),
      ['Service default/api in Service default/web', 'Service default/web in Service default/api'], hovers.join('\n---\n'));
    await page.mouse.move(5, 5);
    await assertProblemsCountIsSourceFindings();
    // F8 / Shift+F8 step over the drawn findings as over markers (VS Code's own F8 sees no marker in the view): from
    // the top, F8 puts the cursor on the first rendered nodePort value and shows its finding, F8 again on the second,
    // then wraps to the first; Shift+F8 from there goes back round to the second.
    const column = (await tokens.nth(0).innerText()).indexOf('30090') + 1;
    const selection = page.locator('[id="status.editor.selection"]').first();
    await tokens.nth(0).click();
    await page.keyboard.press('Control+Home');
    const stepTo = async (key: string, previous?: string): Promise<{ at: string; other: string }> => {
      await page.keyboard.press('Escape');
      await page.keyboard.press(key);
      const at = await until(`${key} to put the cursor on a nodePort value (Col ${column})`, async () => {
        const t = (await selection.innerText().catch(() => '')).trim();
        return new RegExp(`^Ln \\d+, Col ${column}$`).test(t) && t !== previous ? t : undefined;
      });
      const text = (await visibleHoverText(page, 'nodePort 30090 is also claimed by Service default/')).replace(/\s+/g, ' ');
      return { at, other: /claimed by (Service default\/\w+)/.exec(text)?.[1] ?? text };
    };
    const first = await stepTo('F8');
    const second = await stepTo('F8', first.at);
    assert.notEqual(second.other, first.other, 'F8 twice showed the same finding');
    assert.deepEqual([first.other, second.other].sort(), ['Service default/api', 'Service default/web']);
    assert.deepEqual(await stepTo('F8', second.at), first, 'F8 did not wrap to the first finding');
    assert.deepEqual(await stepTo('Shift+F8', first.at), second, 'Shift+F8 did not wrap back to the last finding');
    await page.keyboard.press('Escape');
    // Read-only: typing changes nothing (VS Code says it cannot edit a read-only editor).
    await line.click();
    await page.keyboard.type('x');
    await until('the read-only message', async () => ((await page.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).count()) > 0 ? true : undefined));
    assert.equal(await editor.locator('.view-line', { hasText: 'x' }).filter({ hasText: 'nodePort: 30090x' }).count(), 0);
  }, 'rendered-view'));

  /**
   * Problems lists exactly the CLI's findings on the source files: as many marker rows (rows with a severity icon;
   * related-information rows have none), and the same total in the Problems tab's badge (errors, warnings and infos
   * of every URI, the rendered view's included).
   */
  async function assertProblemsCountIsSourceFindings(): Promise<void> {
    let last: string[] = [];
    let counts = '';
    await until(`Problems to list the ${sourceFindings} source findings`, async () => {
      const rows = await problemsRows(page);
      last = await rows.allInnerTexts();
      const markers = await page.locator('.markers-panel .monaco-list-row .marker-icon').count();
      const badge = (await page.locator('.part.panel .composite-bar .action-item', { hasText: /problems/i }).locator('.badge-content').first().innerText().catch(() => '')).trim();
      counts = `${markers} marker rows, badge ${JSON.stringify(badge)}`;
      return markers === sourceFindings && badge === String(sourceFindings) ? true : undefined;
    }).catch((err: Error) => { throw new Error(`${err.message}; saw ${counts}; Problems showed:\n${last.join('\n')}`); });
  }
});
