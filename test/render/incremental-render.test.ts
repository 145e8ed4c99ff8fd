import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { UNSHARE } from '../helpers/render';

// The incremental analysis with rendered objects and cluster groups equals the full analysis after every edit and
// every new render result. The check renders with the real helm and kustomize, so it runs as a child process
// inside `unshare -n` (incremental-render-check.ts).
describe('incremental analysis with renders', function () {
  this.timeout(120_000);
  const run = (mode: string, seed: number, edits: number): { ok: boolean; edits: number; modes: Record<string, number>; mismatch?: string; error?: string } => {
    const script = join(__dirname, 'incremental-render-check.js');
    const argv = [process.execPath, script, mode, String(seed), String(edits)];
    const r = UNSHARE ? spawnSync(UNSHARE, ['-n', ...argv], { encoding: 'utf8' }) : spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`no result (exit ${r.status}): ${r.stdout}\n${r.stderr}`);
    }
  };

  for (const [mode, seed] of [['kustomize', 11], ['clusters', 5]] as const) {
    it(`gives the full analysis' findings after random edits and re-renders (${mode === 'kustomize' ? 'kustomize entry points as clusters' : 'clusters: from the config'})`, () => {
      const r = run(mode, seed, 150);
      assert.equal(r.error, undefined, r.error);
      assert.equal(r.mismatch, undefined, r.mismatch);
      assert.equal(r.ok, true);
      // Most changes must take the incremental path (renders and edits alike), the failing chart the full one.
      assert.ok(r.modes.incremental > r.modes.full && r.modes.full > 0, `modes: ${JSON.stringify(r.modes)}`);
    });
  }
});
