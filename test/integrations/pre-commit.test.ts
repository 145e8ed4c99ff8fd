import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import MarkdownIt from 'markdown-it';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;

function hasPreCommit(): boolean {
  return spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
}

/**
 * The hook of .pre-commit-hooks.yaml run by the real pre-commit (Debian package `pre-commit`; .ci/run installs it)
 * on a fixture repository, with a kube-netlint on PATH that runs this checkout's build (the hook is
 * `language: system`: it uses the installed CLI).
 */
describe('pre-commit hook (.pre-commit-hooks.yaml, real pre-commit)', function () {
  this.timeout(120000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
  // git sends a hook's standard output to its standard error: `out` is both.
  const commit = (repo: string, message: string): { status: number | null; out: string } => {
    const r = spawnSync('git', ['commit', '-m', message], { cwd: repo, env, encoding: 'utf8' });
    return { status: r.status, out: r.stdout + r.stderr };
  };

  before(function () {
    if (!hasPreCommit()) {
      if (process.env.CI) assert.fail('pre-commit is not installed (apt-get install pre-commit)');
      this.skip();
    }
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) assert.fail('dist/ missing: run npm run build first');
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-precommit-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'kube-netlint'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'kube-netlint.js'))} "$@"\n`);
    chmodSync(join(bin, 'kube-netlint'), 0o755);
    env = {
      ...process.env,
      PATH: `${bin}${delimiter}${process.env.PATH}`,
      PRE_COMMIT_HOME: join(dir, 'cache'),
      HOME: dir,
      GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A hook repository holding this checkout's .pre-commit-hooks.yaml, and a fixture repository using `hookId`
   * from it — or, with `config`, a fixture repository with that .pre-commit-config.yaml.
   */
  function setUp(hookId: string, config?: string): string {
    const hooks = join(dir, 'hooks');
    mkdirSync(hooks);
    git(hooks, 'init', '-q');
    copyFileSync(join(ROOT, '.pre-commit-hooks.yaml'), join(hooks, '.pre-commit-hooks.yaml'));
    git(hooks, 'add', '.');
    git(hooks, 'commit', '-qm', 'hooks');
    const rev = git(hooks, 'rev-parse', 'HEAD').trim();
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'payments.yaml'), svc('payments', 30080));
    writeFileSync(join(repo, 'README.md'), 'manifests\n');
    writeFileSync(join(repo, '.pre-commit-config.yaml'), config ?? `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: ${hookId}\n`);
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'base');
    execFileSync('pre-commit', ['install'], { cwd: repo, env, encoding: 'utf8' });
    return repo;
  }

  for (const [how, config] of [['the hook of .pre-commit-hooks.yaml', undefined], ["the README's `repo: local` hook", readmeLocalHook()]] as const) {
    it(`blocks a commit that adds a nodePort collision with a file that is not staged, and lets the fixed one through (${how})`, () => {
      const repo = setUp('kube-netlint', config);
      const head = git(repo, 'rev-parse', 'HEAD');
      writeFileSync(join(repo, 'frontend.yaml'), svc('frontend', 30080));
      git(repo, 'add', 'frontend.yaml');
      const blocked = commit(repo, 'add frontend');
      assert.equal(blocked.status, 1, blocked.out);
      assert.match(blocked.out, /kube-netlint\.+Failed/);
      assert.match(blocked.out, /frontend\.yaml:6:32: error nodeport-duplicate: nodePort 30080 is also claimed by Service default\/payments/);
      assert.match(blocked.out, /payments\.yaml:6:32: error nodeport-duplicate: /);
      assert.equal(git(repo, 'rev-parse', 'HEAD'), head, 'the commit was blocked');

      writeFileSync(join(repo, 'frontend.yaml'), svc('frontend', 30081));
      git(repo, 'add', 'frontend.yaml');
      const passed = commit(repo, 'add frontend');
      assert.equal(passed.status, 0, passed.out);
      assert.match(passed.out, /kube-netlint\.+Passed/);
      assert.notEqual(git(repo, 'rev-parse', 'HEAD'), head);
    });
  }

  it('runs only when a YAML or JSON file is staged', () => {
    const repo = setUp('kube-netlint');
    writeFileSync(join(repo, 'README.md'), 'manifests, documented\n');
    git(repo, 'add', 'README.md');
    const r = commit(repo, 'docs');
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /kube-netlint\.+\(no files to check\)Skipped/);
  });

  it('defines the hook: the whole repository, when a YAML or JSON file is staged', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('yaml') as typeof import('yaml');
    const hooks = parse(require('node:fs').readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[];
    assert.deepEqual(hooks.map((h) => [h.id, h.language]), [['kube-netlint', 'system']]);
    for (const h of hooks) assert.deepEqual([h.entry, h.files, h.pass_filenames], ['kube-netlint .', '\\.(ya?ml|json)$', false]);
  });
});

/** The `.pre-commit-config.yaml` with `repo: local` that the README shows (its YAML block holding `repo: local`). */
function readmeLocalHook(): string {
  const blocks = new MarkdownIt().parse(readFileSync(join(ROOT, 'README.md'), 'utf8'), {}).filter((t) => t.type === 'fence' && t.info.trim() === 'yaml');
  const local = blocks.filter((t) => /^\s*- repo: local$/m.test(t.content));
  assert.equal(local.length, 1, 'the README shows one repo: local hook');
  return local[0].content;
}
