/**
 * The packaged extension (.vsix, a zip built by scripts/package.mjs) as the e2e suite sees it: its path, its
 * file list and the bytes of each file, read with Info-ZIP `unzip` (installed by install-deps.sh).
 */
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  name: string; version: string; publisher: string; main: string;
};

/** `publisher.name`, the id VS Code gives the extension. */
export const extensionId = `${manifest.publisher}.${manifest.name}`;
/** The folder name code-server installs the extension as, inside --extensions-dir. */
export const installedFolderName = `${extensionId}-${manifest.version}`;

/**
 * dist/<name>-<version>.vsix, written by `npm run package` (same path as scripts/package.mjs);
 * KUBE_NETLINT_E2E_VSIX overrides it (to try the suite against another build of the same extension id).
 */
export function vsixPath(): string {
  const p = process.env.KUBE_NETLINT_E2E_VSIX || path.join(repoRoot, 'dist', `${manifest.name}-${manifest.version}.vsix`);
  if (!fs.existsSync(p)) throw new Error(`${p} does not exist; run \`npm run package\` first`);
  return p;
}

/** Entry names of the zip, e.g. `extension/dist/server.js`, sorted. */
export function vsixEntries(vsix = vsixPath()): string[] {
  return execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter((l) => l && !l.endsWith('/')).sort();
}

/** The bytes of one entry. */
export function vsixEntry(entry: string, vsix = vsixPath()): Buffer {
  return execFileSync('unzip', ['-p', vsix, entry], { maxBuffer: 64 * 1024 * 1024 });
}

export const sha256 = (data: Buffer): string => crypto.createHash('sha256').update(data).digest('hex');
