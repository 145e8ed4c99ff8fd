import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

// bench/run.mjs takes minutes and builds and generates corpora: its options are checked before any of that, so
// these runs end at once (a wrong flag must never start the benchmark).
const BENCH = join(resolve(__dirname, '..', '..'), 'bench', 'run.mjs');
const bench = (...args: string[]) => spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('bench/run.mjs options', function () {
  this.timeout(120_000); // one node start per case on a busy machine
  it('--help (and -h) prints every option and exits 0 without running anything', () => {
    for (const flag of ['--help', '-h']) {
      const r = bench(flag);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '');
      const lines = r.stdout.split('\n');
      assert.equal(lines[0], 'usage: node bench/run.mjs [options]   (npm run bench -- [options])');
      assert.deepEqual(lines.filter((l) => l.startsWith('  --')).map((l) => l.trim().split(/\s{2,}/)[0]), [
        '--reps N', '--edits N', '--only SECTION', '--out FILE', '--no-large', '--peers', '--monokle', '--install-peers', '--build', '--help, -h',
      ]);
      assert.ok(r.stdout.includes('startup, cli, cache, hostile, open-first, lsp, render, render-lsp'));
    }
  });

  it('refuses an unknown flag, a stray argument, a missing or bad value with exit 2 and the usage', () => {
    const cases: [string[], string][] = [
      [['--bogus'], "bench/run.mjs: Unknown option '--bogus'"],
      [['extra'], "bench/run.mjs: Unexpected argument 'extra'"],
      [['--reps'], "bench/run.mjs: Option '--reps <value>' argument missing"],
      [['--reps', '0'], 'bench/run.mjs: --reps takes a positive integer, not "0"'],
      [['--edits', 'many'], 'bench/run.mjs: --edits takes a positive integer, not "many"'],
      [['--only', 'foo'], 'bench/run.mjs: --only takes one of startup, cli, cache, hostile, open-first, lsp, render, render-lsp, not "foo"'],
    ];
    for (const [args, first] of cases) {
      const r = bench(...args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.startsWith(first), r.stderr);
      assert.match(r.stderr, /\nusage: node bench\/run\.mjs \[options\]/);
    }
  });
});
