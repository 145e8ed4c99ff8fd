// Packages the VS Code extension as dist/<name>-<version>.vsix with @vscode/vsce.
// Run `npm run build` first (`npm run package` does): the package ships only the esbuild bundles
// dist/extension.js + dist/server.js (no node_modules, hence --no-dependencies) plus what .vscodeignore lets in.
import { createVSIX } from '@vscode/vsce';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Where the package goes; test/e2e/vsix.ts computes the same path. */
const out = path.join(root, 'dist', `${manifest.name}-${manifest.version}.vsix`);

for (const bundle of [manifest.main, 'dist/server.js']) {
  if (!bundle || !existsSync(path.join(root, bundle))) {
    console.error(`package: ${bundle ?? 'package.json "main"'} does not exist; run \`npm run build\` first`);
    process.exit(1);
  }
}
if (!manifest.main.replace(/^\.\//, '').startsWith('dist/')) {
  console.error(`package: package.json "main" (${manifest.main}) must point into dist/, the only code .vscodeignore ships`);
  process.exit(1);
}

await createVSIX({
  cwd: root,
  packagePath: out,
  dependencies: false, // everything is bundled by esbuild
  allowMissingRepository: true, // not published to a repository host yet
  rewriteRelativeLinks: false, // README links (docs/rules/...) stay relative; the pages ship in the package
});
console.log(`package: ${path.relative(root, out)} (${(statSync(out).size / 1024).toFixed(1)} KiB)`);
