// Packages the VS Code extension as dist/<name>-<version>.vsix with @vscode/vsce.
// Run `npm run build` first (`npm run package` does). The package holds exactly VSIX_FILES: they are copied
// into a staging folder (dist/vsix/) and packed from there, because package.json's "files" describes the npm
// package (CLI + language server) and vsce refuses "files" next to a .vscodeignore. The staged package.json
// is the real one without "files", "scripts" and "devDependencies"; the extension page's README is
// client/README.md (the repository README is for the CLI and developers) with its images inlined
// (scripts/extension-readme.mjs says why).
import { createVSIX } from '@vscode/vsce';
import { inlineImages } from './extension-readme.mjs';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** What the .vsix ships (paths or `folder/*.ext`), besides package.json and the README; test/e2e/package.e2e.ts checks the result. */
const VSIX_FILES = [
  'LICENSE',
  'CHANGELOG.md',
  'images/icon.png',
  'dist/extension.js',
  'dist/server.js',
  'dist/load-worker.js', // the language server loads files on worker threads from it
  'dist/kube-client.js', // @kubernetes/client-node, loaded only with cluster access
  'dist/ports-view.js', // the Node Ports webview's script and stylesheet (the only resources it may load)
  'dist/ports-view.css',
  'syntaxes/*.json',
  'docs/rules/*.md', // opened by "Show Rule Documentation" and the hovers' "Read more"
  'schemas/*.json', // contributes.yamlValidation for .kube-netlint.yaml
];
const EXTENSION_README = 'client/README.md';

/** Where the package goes; test/e2e/vsix.ts computes the same path. */
const out = path.join(root, 'dist', `${manifest.name}-${manifest.version}.vsix`);
const stage = path.join(root, 'dist', 'vsix');

for (const bundle of [manifest.main, 'dist/server.js']) {
  if (!bundle || !existsSync(path.join(root, bundle))) {
    console.error(`package: ${bundle ?? 'package.json "main"'} does not exist; run \`npm run build\` first`);
    process.exit(1);
  }
}

function expand(pattern) {
  if (!pattern.includes('*')) return [pattern];
  const dir = path.dirname(pattern);
  const ext = path.basename(pattern).replace(/^\*/, '');
  return readdirSync(path.join(root, dir)).filter((f) => f.endsWith(ext)).sort().map((f) => `${dir}/${f}`);
}

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
for (const file of VSIX_FILES.flatMap(expand)) {
  mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
  cpSync(path.join(root, file), path.join(stage, file));
}
const readme = path.join(root, EXTENSION_README);
writeFileSync(path.join(stage, 'README.md'), inlineImages(readFileSync(readme, 'utf8'), path.dirname(readme), root));
const { files, scripts, devDependencies, ...staged } = manifest;
writeFileSync(path.join(stage, 'package.json'), JSON.stringify(staged, null, 2) + '\n');
writeFileSync(path.join(stage, '.vscodeignore'), '# everything in this staging folder ships (scripts/package.mjs copied it here)\n');

await createVSIX({
  cwd: stage,
  packagePath: out,
  dependencies: false, // everything is bundled by esbuild
  // The README has no relative links (the extension page opens only http(s) links; rule pages are opened by
  // commands) and its images are data: URIs; rewriting would point them at a web site.
  rewriteRelativeLinks: false,
  // The project has no public repository yet: package.json names none rather than an address that does not exist.
  allowMissingRepository: true,
});
console.log(`package: ${path.relative(root, out)} (${(statSync(out).size / 1024).toFixed(1)} KiB)`);
