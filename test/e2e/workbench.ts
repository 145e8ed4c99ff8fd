/**
 * What the e2e suite does in the VS Code workbench (code-server 4.100.3 = VS Code 1.100.3), through the UI only:
 * selectors are VS Code's own DOM classes, the ones the feasibility probe found stable (FEASIBILITY.md).
 */
import type { Locator, Page } from './playwright';

/** Per-step timeout; the first diagnostics need about 10 s on a 2-core machine. */
export const STEP_TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS) || 60_000;

/** Thrown by an `until` probe to stop waiting at once (the UI already shows a definite failure). */
export class Fatal extends Error {}

/**
 * Polls `probe` until it returns a value that is not undefined, or throws `what` after `timeoutMs`.
 * Errors thrown by the probe are retried, except `Fatal`.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = STEP_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      if (err instanceof Fatal) throw err;
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** Opens `fileName` by clicking its row in the Explorer; resolves when its editor tab is active. */
export async function openFromExplorer(page: Page, fileName: string): Promise<void> {
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: fileName }).first();
  await row.waitFor({ timeout: STEP_TIMEOUT_MS });
  await row.click();
  await page.locator(`.tab.active[aria-label*="${fileName}"]`).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.locator('.monaco-editor .view-lines .view-line').first().waitFor({ timeout: STEP_TIMEOUT_MS });
}

/** Shows the Problems panel (View: Focus Problems, Ctrl+Shift+M) and returns its rows' locator. */
export async function problemsRows(page: Page): Promise<Locator> {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible().catch(() => false))) await page.keyboard.press('Control+Shift+M');
  await panel.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  return page.locator('.markers-panel .monaco-list-row');
}

/** The text of every row of the Problems panel (file rows and marker rows), in display order. */
export async function problemsText(page: Page): Promise<string[]> {
  return (await problemsRows(page)).allInnerTexts();
}

/** The rendered line of the active editor that contains `text` (only lines on screen are in the DOM). */
export function editorLine(page: Page, text: string): Locator {
  return page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line', { hasText: text }).first();
}

/** The token `token` (exact text) on the rendered line that contains `lineText`. */
export function editorToken(page: Page, lineText: string, token: string): Locator {
  return editorLine(page, lineText).locator(`span > span:text-is("${token}")`).first();
}

/** The text of the active editor's line that contains `text`, as rendered (non-breaking spaces normalised). */
export async function renderedLine(page: Page, text: string): Promise<string> {
  return (await editorLine(page, text).innerText({ timeout: STEP_TIMEOUT_MS })).replace(/\u00a0/g, ' ');
}

/** Visible hover widgets' text (VS Code keeps several `.monaco-hover` elements; only the shown ones count). */
export async function visibleHoverText(page: Page, mustContain: string, timeoutMs = STEP_TIMEOUT_MS): Promise<string> {
  const hover = page.locator('.monaco-editor .monaco-hover', { hasText: mustContain }).first();
  await hover.waitFor({ state: 'visible', timeout: timeoutMs });
  return hover.innerText();
}

/** Moves the cursor of the active editor to `line`:`column` (1-based) with Go to Line (Ctrl+G), revealing it. */
export async function goToLine(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
}

/**
 * The steps of a suite that shares one workbench: a step is skipped after an earlier one failed (the UI is then in
 * an unknown state); each saves a screenshot; a failing one saves `<name>-FAILED` and lets `explain` add what the
 * logs say to the error.
 */
export function workbenchSteps(ctx: {
  page(): Page | undefined;
  screenshot(name: string): Promise<string>;
  explain(err: Error, screenshot: string): void;
}): (title: string, shot: string, body: () => Promise<void>) => void {
  let failed = false;
  return (title, shot, body) =>
    it(title, async function () {
      if (failed || !ctx.page()) this.skip();
      try {
        await body();
        await ctx.screenshot(shot);
      } catch (err) {
        failed = true;
        const file = await ctx.screenshot(`${shot}-FAILED`).catch(() => '(screenshot failed)');
        const e = err instanceof Error ? err : new Error(String(err));
        ctx.explain(e, file);
        throw e;
      }
    });
}

/**
 * The content of the webview (a Markdown preview, the extension page) that shows `selector` with `hasText`, once
 * it has rendered: webviews are two nested iframes (`iframe.webview` > `#active-frame`), and a workbench may hold
 * several. Resolves with that element's locator.
 */
export async function webviewElement(page: Page, selector: string, hasText: string | RegExp | undefined, what: string): Promise<Locator> {
  return until(what, async () => {
    const count = await page.locator('iframe.webview').count();
    for (let i = 0; i < count; i++) {
      const element = page.frameLocator('iframe.webview').nth(i).frameLocator('#active-frame').locator(selector, hasText === undefined ? {} : { hasText }).first();
      if ((await element.count()) > 0 && (await element.isVisible())) return element;
    }
    return undefined;
  });
}

/** Whether `inner` lies within the visible box of `outer` (e.g. a link inside a hover that scrolls). */
export async function isWithin(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  return !!a && !!b && a.y >= b.y && a.y + a.height <= b.y + b.height && a.x >= b.x && a.x + a.width <= b.x + b.width;
}
