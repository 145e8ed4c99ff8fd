import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { renderBin, UNSHARE } from '../helpers/render';

// The language server's render cache with the real helm: a values save that only changes a number a sentinel
// render overrides runs helm once (the main render), an unchanged save not at all, and the cached render gives
// exactly the uncached one's objects, source maps and findings. Runs inside `unshare -n` (render-cache-check.ts).
describe('render cache with the real helm', function () {
  this.timeout(120_000);

  it('runs only the main render when a values edit changes only a number, and gives what an uncached render gives', () => {
    const argv = [process.execPath, join(__dirname, 'render-cache-check.js'), join(renderBin(), 'helm')];
    const r = UNSHARE ? spawnSync(UNSHARE, ['-n', ...argv], { encoding: 'utf8' }) : spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { steps: { step: string; runs: number; hits: number; same: boolean; findings: string[] }[]; error?: string };
    assert.equal(out.error, undefined, out.error);
    assert.deepEqual(out.steps.map((s) => [s.step, s.runs, s.hits, s.same]), [
      ['first render', 2, 0, true],
      ['nothing changed', 0, 2, true],
      ['nodePort changed', 1, 1, true],
      ['nodePort and a comment changed', 1, 1, true],
      ['type changed', 2, 0, true],
      ['template changed', 2, 0, true],
    ]);
    // The collision with plain/other.yaml (nodePort 30081, line 9) is found on the values line, cached or not.
    assert.deepEqual(out.steps.map((s) => s.findings), [
      [],
      [],
      ['charts/web/values.yaml:4', 'plain/other.yaml:9'],
      [],
      ['charts/web/values.yaml:5', 'plain/other.yaml:9'],
      ['charts/web/values.yaml:5', 'plain/other.yaml:9'],
    ]);
  });
});
