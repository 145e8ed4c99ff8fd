// Bundles what ships (CLI, language server, VS Code client) with esbuild into dist/.
// Sources are type-checked by `tsc -b` first; this step only bundles.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const entries = [
  { in: 'server/src/cli/main.ts', out: 'dist/cli.js' },
  { in: 'server/src/lsp/main.ts', out: 'dist/server.js' },
  { in: 'client/src/extension.ts', out: 'dist/extension.js' },
].filter((e) => existsSync(e.in));

await Promise.all(
  entries.map((e) =>
    build({
      entryPoints: [e.in],
      outfile: e.out,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['vscode'],
      sourcemap: true,
      minify: false,
      logLevel: 'warning',
    }),
  ),
);
