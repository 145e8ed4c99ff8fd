#!/usr/bin/env node
// compare-findings.mjs — byte-for-byte check that a change to the loader, the worker transfer or the parse cache
// leaves the CLI's `--format json` output alone: run once with --save on the build before the change, then with
// --check on the build after it. Each target runs cold, and (with --cache) twice more with a fresh cache file: once
// filling it, once reading it, and all three outputs must equal the saved one.
// Usage: node bench/compare-findings.mjs --save DIR | --check DIR [--cache] [--only NAME,...]
// Targets: the shared corpora (real manifests, gitops rendered and --no-render, field cases), examples/,
// test/fixtures, and the bench's medium corpus when it was generated (.bench/corpus/medium). The renderers are
// taken from PATH or KUBE_NETLINT_RENDER_BIN (test/render/install-renderers.sh prints that folder); the render
// runs are inside `unshare -n` when it is available, so nothing can reach the network.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const shared = path.resolve(process.env.KUBE_NETLINT_SHARED ?? path.join(root, '..', 'shared'));
const args = process.argv.slice(2);
const arg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const saveDir = arg('--save');
const checkDir = arg('--check');
if (!saveDir === !checkDir) {
  process.stderr.write('usage: node bench/compare-findings.mjs --save DIR | --check DIR [--cache] [--only NAME,...]\n');
  process.exit(2);
}
const only = arg('--only')?.split(',');
const withCache = args.includes('--cache');
const sharedRoot = fs.existsSync(shared) ? shared : path.resolve('/work/shared');

const targets = [
  { name: 'real', cwd: path.join(sharedRoot, 'corpus/real'), args: ['.'] },
  { name: 'gitops-no-render', cwd: path.join(sharedRoot, 'corpus/gitops'), args: ['--no-render', '.'] },
  { name: 'gitops', cwd: path.join(sharedRoot, 'corpus/gitops'), args: ['.'], render: true },
  { name: 'cases', cwd: path.join(sharedRoot, 'cases'), args: ['--no-render', '.'] },
  { name: 'examples', cwd: path.join(root, 'examples'), args: ['.'], render: true },
  { name: 'fixtures', cwd: path.join(root, 'test/fixtures'), args: ['--no-render', '.'] },
  { name: 'medium', cwd: path.join(root, '.bench/corpus/medium'), args: ['.'] },
].filter((t) => fs.existsSync(t.cwd) && (!only || only.includes(t.name)));

const bin = process.env.KUBE_NETLINT_RENDER_BIN;
const env = { ...process.env, ...(bin ? { PATH: `${bin}${path.delimiter}${process.env.PATH}` } : {}) };
const unshare = spawnSync('unshare', ['-n', 'true']).status === 0;
const cli = path.join(root, 'bin/kube-netlint.js');

function run(target, extra) {
  const argv = [cli, '--format', 'json', ...extra, ...target.args];
  const [cmd, cmdArgs] = target.render && unshare ? ['unshare', ['-n', process.execPath, ...argv]] : [process.execPath, argv];
  const r = spawnSync(cmd, cmdArgs, { cwd: target.cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return `exit ${r.status}\n${r.stdout}`;
}

let failed = 0;
for (const target of targets) {
  const out = run(target, []);
  const file = path.join(saveDir ?? checkDir, `${target.name}.out`);
  if (saveDir) {
    fs.mkdirSync(saveDir, { recursive: true });
    fs.writeFileSync(file, out);
    process.stdout.write(`saved ${target.name} (${out.length} bytes)\n`);
    continue;
  }
  const want = fs.readFileSync(file, 'utf8');
  const runs = [['cold', out]];
  if (withCache) {
    const cacheFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'knl-compare-')), 'cache');
    runs.push(['filling the cache', run(target, ['--cache', '--cache-location', cacheFile])]);
    runs.push(['from the cache', run(target, ['--cache', '--cache-location', cacheFile])]);
    fs.rmSync(path.dirname(cacheFile), { recursive: true, force: true });
  }
  for (const [how, got] of runs) {
    const same = got === want;
    if (!same) failed++;
    process.stdout.write(`${same ? 'same' : 'DIFFERENT'} ${target.name} (${how}, ${got.length} bytes)\n`);
  }
}
process.exit(failed ? 1 : 0);
