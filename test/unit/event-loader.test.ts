import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeFromEvents } from '../../server/out/core/load/event-compose';
import { loadFile } from '../../server/out/core/load/load-file';
import { loadedFileDifference } from '../helpers/loaded-diff';
import { sharedDir } from '../helpers/shared';
import { manifestFile, Random } from '../helpers/yaml-fuzz';

const repo = join(__dirname, '..', '..');

function yamlFiles(root: string): string[] {
  try {
    return readdirSync(root, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(root, f));
  } catch {
    return [];
  }
}

interface Tally {
  compared: number;
  objects: number;
  fast: number;
  declined: Map<string, number>;
  differences: string[];
}

/** Loads `text` with both parsers and records whether the LoadedFiles differ and why the fast path declined. */
function compare(tally: Tally, name: string, text: string): void {
  const declined = composeFromEvents(text).declined;
  if (declined) tally.declined.set(declined, (tally.declined.get(declined) ?? 0) + 1);
  else tally.fast++;
  const expected = loadFile(name, text, { parser: 'yaml' });
  const actual = loadFile(name, text, { parser: 'events' });
  tally.compared++;
  tally.objects += expected.objects.length;
  const difference = loadedFileDifference(expected, actual);
  if (difference && tally.differences.length < 10) tally.differences.push(`${name}: ${difference}`);
}

const newTally = (): Tally => ({ compared: 0, objects: 0, fast: 0, declined: new Map(), differences: [] });
const summary = (t: Tally): string =>
  `${t.compared} files, ${t.objects} objects; composed from events: ${t.fast}; left to yaml: ${[...t.declined].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`;

// The loader composes documents from js-yaml's events and leaves what it does not reproduce exactly to `yaml`;
// either way the LoadedFile (objects, raw, paths, spans, problems, suppressions, lines) must be the one `yaml` gives.
describe('loader: documents from js-yaml events equal yaml\'s, file by file', function () {
  this.timeout(180_000);

  it('on every corpus: examples, fixtures, shared cases, real manifests, gitops trees and a generated workspace', () => {
    const shared = sharedDir();
    const generated = mkdtempSync(join(tmpdir(), 'knl-events-'));
    try {
      const gen = spawnSync(process.execPath, [join(repo, 'bench', 'gen-corpus.mjs'), '--preset', 'small', '--out', generated, '--force', '--quiet'], { encoding: 'utf8' });
      assert.equal(gen.status, 0, gen.stderr);
      const roots = [join(repo, 'examples'), join(repo, 'test', 'fixtures'), generated, ...(shared ? [join(shared, 'cases'), join(shared, 'corpus')] : [])];
      const tally = newTally();
      for (const file of roots.flatMap(yamlFiles)) compare(tally, file, readFileSync(file, 'utf8'));
      console.log(`      ${summary(tally)}`);
      assert.deepEqual(tally.differences, []);
      assert.ok(tally.compared > 400 && tally.objects > 1000, summary(tally));
      // The fast path must carry the corpora: every file it declines is one `yaml` refuses too or a rare construct.
      assert.ok(tally.fast > tally.compared * 0.75, summary(tally));
    } finally {
      rmSync(generated, { recursive: true, force: true });
    }
  });

  it('on 1,200 generated files, about 3,000 documents (anchors, merge keys, flow and block styles, quoting, comments, edits, CRLF, BOM, tabs)', () => {
    const tally = newTally();
    for (const seed of [1, 2, 3]) {
      const random = new Random(seed);
      for (let n = 0; n < 400; n++) compare(tally, `gen-${seed}-${n}.yaml`, manifestFile(random, n));
    }
    console.log(`      ${summary(tally)}`);
    assert.deepEqual(tally.differences, []);
    assert.ok(tally.fast > 400 && tally.objects > 1800, summary(tally));
  });
});
