import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deadLinkReason, markdownLinks } from '../helpers/links';
import { TestClient } from '../lsp/lsp-client';

const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & { name: string; version: string; files: string[] };
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;

/** Every package folder under a node_modules tree (scoped ones included). */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const out: string[] = [];
  for (const name of readdirSync(nodeModules)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      for (const sub of readdirSync(join(nodeModules, name))) out.push(`${name}/${sub}`, ...installedPackages(join(nodeModules, name, sub, 'node_modules')));
    } else out.push(name, ...installedPackages(join(nodeModules, name, 'node_modules')));
  }
  return out;
}

function duBytes(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, f) => sum + duBytes(join(path, f)), 0);
}

describe('npm package kube-netlint (npm pack, then npm install -g into an empty prefix)', function () {
  this.timeout(120000);
  let dir: string;
  let prefix: string;
  let tarball: string;
  const bin = (name: string): string => join(prefix, 'bin', name);

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) assert.fail('dist/ missing: run npm run build first');
    dir = mkdtempSync(join(tmpdir(), 'knl-npm-'));
    prefix = join(dir, 'prefix');
    // --ignore-scripts: dist/ is already built by `npm run build` (pack would run prepare = the same build).
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[];
    tarball = join(dir, pack.filename);
    // --offline: nothing may come from the registry; the tarball must install on its own.
    execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is publishable: not private, a files whitelist, keywords, no install-time scripts, and no address of a home that does not exist', () => {
    assert.equal(manifest.private, undefined);
    assert.ok(Array.isArray(manifest.files) && manifest.files.length > 0);
    // The project has no public repository yet: no repository, homepage or bugs address rather than invented ones.
    assert.deepEqual([manifest.repository, manifest.homepage, manifest.bugs], [undefined, undefined, undefined]);
    assert.ok((manifest.keywords as string[]).includes('kubernetes'));
    assert.equal(manifest.dependencies, undefined, 'runtime libraries are bundled: they belong in devDependencies');
    const scripts = manifest.scripts as Record<string, string>;
    for (const hook of ['preinstall', 'install', 'postinstall']) assert.equal(scripts[hook], undefined, `${hook} would run on install`);
  });

  it('installs one package with nothing else, small', () => {
    const modules = join(prefix, 'lib', 'node_modules');
    assert.deepEqual(installedPackages(modules), ['kube-netlint']);
    const size = duBytes(join(modules, 'kube-netlint'));
    assert.ok(size < 10 * 1024 * 1024, `installed size ${size} bytes`);
    assert.ok(statSync(tarball).size < 3 * 1024 * 1024, `tarball ${statSync(tarball).size} bytes`);
    // Shipped: bins, bundles, rule pages, the config schema; not sources, maps or tests.
    const files = readdirSync(join(modules, 'kube-netlint', 'dist')).sort();
    assert.deepEqual(files, ['cli.js', 'kube-client.js', 'load-worker.js', 'server.js']);
    assert.ok(existsSync(join(modules, 'kube-netlint', 'schemas', 'kube-netlint.schema.json')));
    assert.ok(existsSync(join(modules, 'kube-netlint', 'docs', 'rules', 'nodeport-duplicate.md')));
    for (const f of files) assert.doesNotMatch(readFileSync(join(modules, 'kube-netlint', 'dist', f), 'utf8').slice(-300), /sourceMappingURL/, `${f} points at a map that is not shipped`);
  });

  it('ships what its README links to: every relative link of the README, and of the pages it links, is a file of the installed package', () => {
    const pkg = join(prefix, 'lib', 'node_modules', 'kube-netlint');
    const dead: string[] = [];
    const seen = new Set<string>();
    const pages = [join(pkg, 'README.md')];
    for (let page = pages.shift(); page; page = pages.shift()) {
      if (seen.has(page)) continue;
      seen.add(page);
      for (const link of markdownLinks(readFileSync(page, 'utf8'))) {
        if (link.startsWith('#')) continue;
        // Absolute links (Kubernetes sources) must not be the project's home; relative ones must be shipped.
        const target = /^[a-z][a-z0-9+.-]*:/i.test(link) ? undefined : join(dirname(page), decodeURIComponent(link.replace(/#.*$/, '')));
        const reason = target === undefined ? deadLinkReason(link) : existsSync(target) ? undefined : deadLinkReason(pathToFileURL(target).href);
        if (reason) dead.push(`${relative(pkg, page)}: ${reason}`);
        if (target?.endsWith('.md') && existsSync(target)) pages.push(target);
      }
    }
    assert.deepEqual(dead, []);
    // The walk reached the pages the README links: the rule index and through it every rule page, the port map's page.
    assert.ok(seen.has(join(pkg, 'docs', 'rules', 'nodeport-duplicate.md')) && seen.has(join(pkg, 'docs', 'ports.md')), [...seen].join(' '));
  });

  it('runs the CLI: version, a lint with its exit code, rules with links to the installed pages, the cluster client', () => {
    assert.equal(execFileSync(bin('kube-netlint'), ['--version'], { encoding: 'utf8' }).trim(), manifest.version);
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'a.yaml'), svc('a', 30080) + '---\n' + svc('b', 30080));
    const lint = spawnSync(bin('kube-netlint'), ['.'], { cwd: work, encoding: 'utf8' });
    assert.equal(lint.status, 1, lint.stderr);
    assert.match(lint.stdout, /^a\.yaml:6:32: error nodeport-duplicate: /);
    assert.match(lint.stdout, /1 file checked: 2 errors, 0 warnings, 0 notes\n$/);
    const rules = JSON.parse(execFileSync(bin('kube-netlint'), ['rules', '--format', 'json'], { encoding: 'utf8' })) as { rules: { id: string; docsFile: string }[] };
    assert.ok(rules.rules.every((r) => r.docsFile && r.docsFile.startsWith(join(prefix, 'lib', 'node_modules', 'kube-netlint')) && existsSync(r.docsFile)));
    // The text list links each rule to the page installed with it, never to a web address.
    const pages = execFileSync(bin('kube-netlint'), ['rules'], { encoding: 'utf8' }).trimEnd().split('\n').filter((_, i) => i % 2 === 1).map((l) => l.trim());
    assert.equal(pages.length, rules.rules.length);
    for (const page of pages) assert.ok(page.startsWith(join(prefix, 'lib', 'node_modules', 'kube-netlint', 'docs', 'rules')) && existsSync(page), page);
    // --cluster loads the bundled @kubernetes/client-node (dist/kube-client.js) and reports the missing context.
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
    const cluster = spawnSync(bin('kube-netlint'), ['--cluster', 'nowhere', 'a.yaml'], { cwd: work, encoding: 'utf8', env: { ...process.env, KUBECONFIG: kubeconfig } });
    assert.doesNotMatch(cluster.stderr, /Cannot find module/);
    assert.match(cluster.stderr, /nowhere/);
  });

  it('runs the language server over stdio: diagnostics for a collision', async () => {
    const work = join(dir, 'lsp');
    mkdirSync(work);
    writeFileSync(join(work, 'a.yaml'), svc('a', 30080));
    writeFileSync(join(work, 'b.yaml'), svc('b', 30080));
    const client = await TestClient.start([work], { server: join(prefix, 'lib', 'node_modules', 'kube-netlint', 'bin', 'kube-netlint-language-server.js') });
    try {
      const diagnostics = await client.waitFor(join(work, 'a.yaml'), (d) => d.length > 0);
      assert.deepEqual(diagnostics.map((d) => [d.code, d.range.start.line]), [['nodeport-duplicate', 5]]);
    } finally {
      await client.stop();
    }
    assert.ok(existsSync(bin('kube-netlint-language-server')));
  });
});
