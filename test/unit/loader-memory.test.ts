import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Loads `files` generated manifests of about `padKiB` KiB each in a fresh `node --expose-gc`, one after the other,
 * dropping each result, and returns how many MiB of heap are still in use after a full collection (against
 * before the first load). Each file holds a long plain scalar that only it has (a timestamp): what the loader
 * keeps between files (its caches) must not keep the file's text alive.
 */
function heapKeptMiB(files: number, padKiB: number): { kept: number; resolved: string } {
  const loader = join(__dirname, '../../server/out/core/load/load-file.js');
  const script = `
    const { loadFile } = require(${JSON.stringify(loader)});
    const used = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
    const pad = '#'.repeat(78) + '\\n';
    const before = used();
    let resolved = '';
    for (let i = 0; i < ${files}; i++) {
      const stamp = '2026-12-02T01:' + String(i).padStart(6, '0') + 'Z';
      const text = 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: cm-' + i + '\\n  annotations:\\n    at: ' + stamp + '\\n' + pad.repeat(${padKiB} * 13) + 'data:\\n  k: v\\n';
      const loaded = loadFile('f' + i + '.yaml', text);
      if (i === 0) resolved = String(loaded.objects[0].raw.metadata.annotations.at);
    }
    process.stdout.write(JSON.stringify({ kept: (used() - before) / 1048576, resolved }));
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { kept: number; resolved: string };
}

describe('loader memory between files', () => {
  it('keeps no file text alive after the file is loaded (long plain scalars are not cached as slices of it)', () => {
    // 300 files of ~100 KiB: ~30 MiB of texts, all of them kept when a cache holds a slice of each.
    const { kept, resolved } = heapKeptMiB(300, 100);
    assert.equal(resolved, '2026-12-02T01:000000Z');
    assert.ok(kept < 8, `${kept.toFixed(1)} MiB of heap kept after loading 300 files and dropping them`);
  });
});
