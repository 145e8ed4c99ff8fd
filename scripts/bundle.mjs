// Bundles what ships (CLI, language server, VS Code client) with esbuild into dist/.
// Sources are type-checked by `tsc -b` first; this step only bundles.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const entries = [
  { in: 'server/src/cli/main.ts', out: 'dist/cli.js' },
  // Worker thread that loads (reads + parses) files for the CLI's parallel loader; must sit next to cli.js.
  { in: 'server/src/node/load-worker.ts', out: 'dist/load-worker.js' },
  { in: 'server/src/lsp/main.ts', out: 'dist/server.js' },
  { in: 'client/src/extension.ts', out: 'dist/extension.js' },
  // @kubernetes/client-node (~14 MB) in a file of its own, loaded only with cluster access (server/src/cluster/client-node.ts).
  { in: 'server/src/cluster/kube-client-entry.ts', out: 'dist/kube-client.js' },
  // The Node Ports webview: a browser script and its stylesheet (client/webview/), loaded under the view's CSP.
  { in: 'client/webview/ports-view.ts', out: 'dist/ports-view.js', browser: true },
  { in: 'client/webview/ports-view.css', out: 'dist/ports-view.css', browser: true },
].filter((e) => existsSync(e.in));

// `yaml`'s Node build reads process.env (LOG_TOKENS / LOG_STREAM) for every token it parses; its browser
// build (same version, same code otherwise, ES modules) does not and parses 20-50% faster (see
// docs/performance.md). Bundle the browser build everywhere; tests keep using the Node build.
const yamlBrowser = join(dirname(dirname(createRequire(import.meta.url).resolve('yaml'))), 'browser', 'index.js');
const yamlBrowserBuild = {
  name: 'yaml-browser-build',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: yamlBrowser }));
  },
};

// js-yaml's ES module build makes its parser state with object spread (`{ ...DEFAULT_PARSER_OPTIONS, ...options,
// input, position, … }`); its CommonJS build (same version, same code) builds it with a helper that adds the
// properties one by one. On Node 20 `parseEvents` ran 3-4x slower with the first (medium corpus: ~800 ms against
// ~220 ms in one process; see docs/performance.md). Bundle the CommonJS build.
const jsYamlCjs = createRequire(import.meta.url).resolve('js-yaml');
const jsYamlCjsBuild = {
  name: 'js-yaml-cjs-build',
  setup(b) {
    b.onResolve({ filter: /^js-yaml$/ }, () => ({ path: jsYamlCjs }));
  },
};

// jsonc-parser's CommonJS entry is a UMD wrapper whose require() calls esbuild cannot follow; its ES module build
// (same version, same code) bundles normally.
const jsoncParser = join(dirname(createRequire(import.meta.url).resolve('jsonc-parser')), '..', 'esm', 'main.js');
const jsoncParserEsm = {
  name: 'jsonc-parser-esm-build',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: jsoncParser }));
  },
};

await Promise.all(
  entries.map((e) =>
    build({
      entryPoints: [e.in],
      outfile: e.out,
      bundle: true,
      platform: e.browser ? 'browser' : 'node',
      target: e.browser ? 'chrome120' : 'node20',
      format: e.browser ? 'iife' : 'cjs',
      external: e.out === 'dist/kube-client.js' ? ['vscode'] : ['vscode', '@kubernetes/client-node'],
      plugins: [yamlBrowserBuild, jsYamlCjsBuild, jsoncParserEsm],
      // Maps next to the bundles for debugging, without a sourceMappingURL comment: the packages do not ship them.
      sourcemap: 'external',
      // client-node is minified (3.5 MB instead of 14.5 MB) so the .vsix stays small; it is third-party code.
      minify: e.out === 'dist/kube-client.js',
      logLevel: 'warning',
    }),
  ),
);
