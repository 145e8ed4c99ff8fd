/**
 * Loads playwright-core from the e2e tool cache (installed by install-deps.sh, outside the repository) and
 * declares the small part of its API the suite uses. playwright-core is deliberately not a dependency of the
 * repository: it is only needed by this suite, next to code-server, in the same cache folder.
 */
import * as path from 'node:path';

/** Where install-deps.sh puts code-server and playwright-core (same default as the script). */
export function e2eHome(): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || '/root', '.cache');
  return process.env.KUBE_NETLINT_E2E_HOME || path.join(cache, 'kube-netlint-e2e');
}

export interface Locator {
  first(): Locator;
  nth(index: number): Locator;
  filter(options: { hasText?: string | RegExp }): Locator;
  count(): Promise<number>;
  click(options?: { timeout?: number; button?: 'left' | 'right' }): Promise<void>;
  dblclick(options?: { timeout?: number }): Promise<void>;
  hover(options?: { timeout?: number }): Promise<void>;
  innerText(options?: { timeout?: number }): Promise<string>;
  allInnerTexts(): Promise<string[]>;
  isVisible(): Promise<boolean>;
  getAttribute(name: string): Promise<string | null>;
  boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null>;
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  locator(selector: string, options?: { hasText?: string | RegExp; has?: Locator }): Locator;
  /** Runs `fn` in the page on every matching element (the function is sent as source: no closures). */
  evaluateAll<T>(fn: (elements: any[]) => T): Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Elements inside an iframe (webviews are two nested iframes in the workbench). */
export interface FrameLocator {
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
  first(): FrameLocator;
  nth(index: number): FrameLocator;
}

export interface Page {
  goto(url: string, options?: { waitUntil?: 'load' | 'domcontentloaded'; timeout?: number }): Promise<unknown>;
  locator(selector: string, options?: { hasText?: string | RegExp; has?: Locator }): Locator;
  getByText(text: string | RegExp, options?: { exact?: boolean }): Locator;
  frameLocator(selector: string): FrameLocator;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
  mouse: { move(x: number, y: number, options?: { steps?: number }): Promise<void> };
  screenshot(options: { path: string; animations?: 'disabled' | 'allow'; fullPage?: boolean; clip?: { x: number; y: number; width: number; height: number } }): Promise<unknown>;
  waitForTimeout(ms: number): Promise<void>;
  evaluate<T>(fn: string | (() => T)): Promise<T>;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
}

export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
  browser(): { version(): string } | null;
}

interface Chromium {
  launchPersistentContext(userDataDir: string, options: {
    executablePath: string; headless: boolean; viewport: { width: number; height: number }; args: string[];
    env?: Record<string, string | undefined>;
  }): Promise<BrowserContext>;
}

/** Loads `chromium` from the cached playwright-core; throws with the installer's name when it is missing. */
export function loadChromium(): Chromium {
  const modulePath = path.join(e2eHome(), 'node_modules', 'playwright-core');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require(modulePath) as { chromium: Chromium }).chromium;
  } catch (err) {
    throw new Error(`playwright-core not found at ${modulePath}; run test/e2e/install-deps.sh first (${String(err)})`);
  }
}

/** Launches Debian's Chromium headless with a throw-away profile and HOME (flags from the feasibility probe). */
export async function launchBrowser(profileDir: string, home: string): Promise<BrowserContext> {
  return loadChromium().launchPersistentContext(profileDir, {
    // Chromium writes ~/.config/chromium and ~/.cache/dconf: keep them in the run's folder.
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}
