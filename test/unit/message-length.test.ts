import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { CoreConfig, DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { allRules } from '../../server/out/core/rules/index';
import { parseConfigText } from '../../server/out/node/config-file';
import { readManifestFile } from '../../server/out/node/read-file';
import { JsonFinding, lintRendered } from '../helpers/render';
import { seenMessages } from '../helpers/seen-messages';
import { sharedDir } from '../helpers/shared';

// The developers' guide: a message is the fact, the consequence and the fix in at most ~300 characters; the
// details belong in the rule's page. This holds every registered rule to it — the cluster suffix ("(in clusters
// …)") included — over every input the project has: examples/, the test fixtures, the field cases, the real
// corpus, workspaces of the benchmark's generator, the GitOps corpus as written and as helm and kustomize render it, and the inputs of every test that
// lints (the rule tests above all; a root hook below, once all test files have run).
const MAX = 300;
const RULES = allRules.map((r) => r.id);

const ROOT = resolve(__dirname, '..', '..'); // test-out/unit → the repository root
const SHARED = sharedDir();

/**
 * Registered rules that none of these inputs trigger, so this test cannot bound them: their messages are asserted
 * in their own rule tests. A rule that starts firing here must leave this list (the last test fails until it does).
 */
const NOT_TRIGGERED: readonly string[] = [
  'calico-node-address-mismatch', 'container-port-duplicate', 'disable-comment-unknown-rule', 'file-skipped', 'hostnetwork-hostport-mismatch',
  'ingress-spec-invalid', 'internaltrafficpolicy-local-coverage', 'kustomize-cycle', 'kustomize-patch-no-effect', 'lifecycle-hook-tcpsocket', 'networkpolicy-port-unresolved', 'networkpolicy-spec-invalid',
  'nodeport-range-invalid', 'nodeport-range-overlaps-ephemeral', 'object-invalid', 'pod-spec-invalid', 'probe-port-unresolved',
  'render-failed', 'service-spec-invalid', 'servicemonitor-port-unresolved', 'yaml-syntax',
];

/**
 * Messages over {@link MAX} among those the tests linted (recorded by test/helpers/lint.ts and render.ts), as
 * `rule (length) message`.
 */
function tooLongSeen(): string[] {
  return seenMessages().filter((m) => m.message.length > MAX).map((m) => `${m.ruleId} (${m.message.length}) ${m.message}`).sort();
}

/** The .yaml/.yml files below a folder, sorted. */
function manifests(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return manifests(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

interface Seen {
  readonly ruleId: string;
  readonly where: string;
  readonly message: string;
}

/** The findings longer than {@link MAX}, as `where: rule (length) message`. */
function tooLong(found: readonly Seen[]): string[] {
  return found.filter((f) => f.message.length > MAX).map((f) => `${f.where}: ${f.ruleId} (${f.message.length}) ${f.message}`);
}

/** The findings of the core over files read from disk (paths shown relative to `base`), as written. */
function analyzed(paths: readonly string[], config: CoreConfig = DEFAULT_CONFIG, base = ROOT): Seen[] {
  const files = paths.map((p) => readManifestFile(p, relative(base, p)));
  return analyze(files, config).findings.map((f) => ({ ruleId: f.ruleId, where: `${relative(ROOT, join(base, f.span.file))}`, message: f.message }));
}

/** The findings of the CLI run in `cwd` (inside `unshare -n`, the test renderers on PATH). */
function linted(cwd: string, args: string[]): Seen[] {
  return lintRendered(cwd, args).findings.map((f: JsonFinding) => ({ ruleId: f.ruleId, where: `${relative(ROOT, join(cwd, f.file))}:${f.line}`, message: f.message }));
}

/** Computes `make` once (each input set below is linted once, for its own test and for the coverage check). */
function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

/** The `# config:` header lines of a field case as its config. */
function caseConfig(path: string): CoreConfig {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('# config:')).map((l) => l.slice(9).trim());
  return lines.length ? parseConfigText(lines.join('\n'), path) : DEFAULT_CONFIG;
}

const FIXTURES = join(ROOT, 'test', 'fixtures');
const fixtureDirs = (): string[] => readdirSync(FIXTURES).map((d) => join(FIXTURES, d));
const gitops = (): string => join(SHARED!, 'corpus', 'gitops');
const gitopsTrees = (): string[] => readdirSync(gitops()).filter((d) => statSync(join(gitops(), d)).isDirectory()).sort();
const renderers = (): boolean => !!process.env.KUBE_NETLINT_RENDER_BIN; // set by test/helpers/render-setup.ts

/**
 * Workspaces of the benchmark's generator (bench/gen-corpus.mjs: realistic names and long app.kubernetes.io label
 * selectors, planted collisions), written to a temporary folder: two seeds of 600 files.
 */
function generated(): Seen[] {
  return [1, 7].flatMap((seed) => {
    const dir = mkdtempSync(join(tmpdir(), 'knl-msg-corpus-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'bench', 'gen-corpus.mjs'), '--files', '600', '--seed', String(seed), '--out', dir, '--force', '--quiet', '--no-manifest'], { stdio: 'ignore' });
      return analyzed(manifests(dir), DEFAULT_CONFIG, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

const inputs = {
  examples: once(() => analyzed(manifests(join(ROOT, 'examples')))),
  fixtures: once(() => [...fixtureDirs().flatMap((d) => analyzed(manifests(d))), ...fixtureDirs().flatMap(manifests).flatMap((f) => analyzed([f]))]),
  cases: once(() => {
    const cases = manifests(join(SHARED!, 'cases'));
    const together = [...manifests(join(SHARED!, 'corpus', 'real')), ...manifests(join(ROOT, 'examples')), ...cases];
    return [...cases.flatMap((c) => analyzed([c], caseConfig(c))), ...analyzed(together)];
  }),
  real: once(() => analyzed(manifests(join(SHARED!, 'corpus', 'real')), DEFAULT_CONFIG, join(SHARED!, 'corpus', 'real'))),
  gitopsRaw: once(() => [
    ...analyzed(manifests(gitops()), DEFAULT_CONFIG, gitops()),
    ...linted(gitops(), ['--no-render', '.']),
    ...gitopsTrees().flatMap((t) => linted(join(gitops(), t), ['--no-render', '.'])),
  ]),
  generated: once(generated),
  gitopsRendered: once(() => (renderers() ? [...linted(gitops(), ['.']), ...gitopsTrees().flatMap((t) => linted(join(gitops(), t), ['.']))] : [])),
};

describe(`every rule's messages stay within ${MAX} characters`, function () {
  this.timeout(600_000);
  before(() => assert.ok(SHARED, 'the shared folder (../shared beside the repository, or KUBE_NETLINT_SHARED) is missing'));

  it('over examples/ as one workspace', () => {
    assert.ok(manifests(join(ROOT, 'examples')).length >= 9, 'too few example files');
    assert.deepEqual(tooLong(inputs.examples()), []);
  });

  it('over each test fixture folder and each fixture file alone', () => {
    // The field cases are checked in place below (they are not copied into the fixtures).
    assert.ok(fixtureDirs().flatMap(manifests).length >= 23, 'too few fixture files');
    assert.deepEqual(tooLong(inputs.fixtures()), []);
  });

  it('over each field case with its config, and the cases, examples and real corpus together', () => {
    assert.ok(manifests(join(SHARED!, 'cases')).length >= 15, 'too few field cases');
    assert.deepEqual(tooLong(inputs.cases()), []);
  });

  it('over the real corpus alone', () => {
    assert.ok(manifests(join(SHARED!, 'corpus', 'real')).length >= 14, 'too few real manifests');
    assert.deepEqual(tooLong(inputs.real()), []);
  });

  it('over workspaces of the benchmark\'s generator (long label selectors and names)', () => {
    const found = inputs.generated();
    assert.ok(found.length >= 100, `only ${found.length} findings`);
    assert.deepEqual(tooLong(found), []);
  });

  it('over the GitOps corpus as written (all trees together, and each tree alone)', () => {
    assert.ok(gitopsTrees().length >= 3, 'too few GitOps trees');
    assert.deepEqual(tooLong(inputs.gitopsRaw()), []);
  });

  it('over the GitOps corpus as helm and kustomize render it (all trees together, and each tree alone)', function () {
    if (!renderers()) this.skip(); // run the suite through mocha (.mocharc.json requires render-setup)
    const found = inputs.gitopsRendered();
    assert.ok(found.some((f) => f.message.includes('(rendered by ')), 'nothing was rendered');
    assert.deepEqual(tooLong(found), []);
  });

  it('every registered rule fires on those inputs, so the bound is checked for each', () => {
    const fired = new Set(Object.values(inputs).flatMap((get) => get().map((f) => f.ruleId)));
    assert.deepEqual([...fired].filter((id) => !RULES.includes(id)), [], 'findings of unregistered rules');
    assert.deepEqual(RULES.filter((id) => !fired.has(id)), NOT_TRIGGERED);
  });
});

// A root hook: it runs after every test file of the run, so it sees the messages of the rule tests' own inputs
// (test/rules/*: each rule's positive and negative cases) and of every other test that lints through the helpers.
// Run alone (this file only), nothing was recorded and there is nothing to bound.
after('every message the tests\' inputs produced stays within 300 characters, for every rule', () => {
  const seen = seenMessages();
  if (seen.length === 0) return;
  assert.deepEqual(tooLongSeen(), []);
  // The rules the corpora do not trigger are bounded here: each must fire on its own tests' inputs (checked for the
  // rules whose test files this run loaded, so a run of a few files does not fail for the others).
  const fired = new Set(seen.map((m) => m.ruleId));
  const ruleTests = Object.keys(require.cache).filter((p) => basename(dirname(p)) === 'rules' && p.endsWith('.test.js')).map((p) => basename(p, '.test.js'));
  const tested = (id: string) => ruleTests.some((t) => t === id || t.startsWith(`${id}-`));
  assert.deepEqual(NOT_TRIGGERED.filter((id) => tested(id) && !fired.has(id)), [], 'rules whose messages no input bounds');
});
