import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { renderBin, SHARED, UNSHARE } from '../helpers/render';

const CHILD = join(__dirname, '..', 'helpers', 'rendered-loads.js');

interface Loads {
  files: number;
  rendered: number;
  objects: number;
  differences: string[];
}

/** Runs the child in `cwd` inside `unshare -n` (when the machine can), with only the test renderers and system folders on PATH. */
function loads(cwd: string, args: string[]): Loads {
  const env = { PATH: `${renderBin()}${delimiter}/usr/bin${delimiter}/bin`, HOME: process.env.HOME ?? '/root' };
  const argv = [CHILD, ...args];
  const r = UNSHARE ? spawnSync(UNSHARE, ['-n', process.execPath, ...argv], { cwd, env, encoding: 'utf8' }) : spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Loads;
}

// Every finding is computed from the LoadedFiles alone, so equal LoadedFiles for every text the analysis reads —
// the files as written and what kustomize and Helm render from them — mean identical findings with either parser.
describe('loader: js-yaml events equal yaml on rendered manifests (kustomize builds, Helm templates)', function () {
  this.timeout(300_000);

  it('on the gitops corpus as kube-netlint renders it', () => {
    const r = loads(join(SHARED, 'corpus/gitops'), ['.']);
    assert.deepEqual(r.differences, []);
    assert.ok(r.rendered >= 12 && r.objects > 300, JSON.stringify(r));
  });
});
