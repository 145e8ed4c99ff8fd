/**
 * `npm run test:vscode`: the standard VS Code integration suite (@vscode/test-electron + mocha). It downloads a
 * VS Code build from update.code.visualstudio.com, so it needs general internet access and is NOT part of
 * `npm test` (CI machines reach only the npm registry and Debian's mirrors; the editor is covered there by the
 * code-server suite in test/e2e/). The extension runs from the repository (package.json main = dist/extension.js,
 * built by `npm run build`), on a copy of the e2e fixture workspace.
 *
 * VSCODE_TEST_VERSION picks the VS Code version (default: the engines.vscode minimum, 1.100.3's line).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-netlint-vscode-'));
  fs.cpSync(path.join(repoRoot, 'test', 'e2e', 'workspace'), workspace, { recursive: true });
  try {
    await runTests({
      version: process.env.VSCODE_TEST_VERSION || '1.100.3',
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(__dirname, 'suite', 'index.js'),
      // --disable-extensions disables the other installed extensions, not the one under development.
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`test:vscode failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
