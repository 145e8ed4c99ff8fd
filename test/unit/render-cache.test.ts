import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sentinelNeutralText } from '../../server/out/core/render/helm-values';
import { InputDigest, RenderCache } from '../../server/out/node/render/render-cache';

describe('sentinel render cache keys', () => {
  it('writes the numbers a sentinel render overrides as # and leaves comments out, keeping everything else', () => {
    const text = '# chart defaults\nservice:\n  port: 80   # http\n  nodePort: 30080\n  replicas: 3\n  ratio: 30000.5\n  name: "30080"\nlist: [8080, # first\n  9090]\nblock: |\n  x # not a comment\n';
    assert.equal(sentinelNeutralText(text), 'service:\n  port: #\n  nodePort: #\n  replicas: 3\n  ratio: 30000.5\n  name: "30080"\nlist: [#,\n  #]\nblock: |\n  x # not a comment\n');
    // Two texts that differ only in probed numbers and comments share a key; a string, a small number or a type do not.
    const key = (nodePort: string) => sentinelNeutralText(`service:\n  nodePort: ${nodePort}\n`);
    assert.equal(key('30080'), key('31000 # moved'));
    assert.notEqual(key('30080'), key('"30080"'));
    assert.notEqual(key('30080'), key('16'));
    assert.notEqual(key('30080'), key('yes'));
  });

  it('returns a text that does not parse as it is', () => {
    assert.equal(sentinelNeutralText('a: [1, 30080\n'), 'a: [1, 30080\n');
  });
});

describe('RenderCache', () => {
  it('keeps the most recently used outputs within its entry and size limits', () => {
    const cache = new RenderCache(2, 400);
    cache.set('a', 'A');
    cache.set('b', 'B');
    assert.equal(cache.get('a'), 'A'); // a is now the most recent
    cache.set('c', 'C');
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c')], ['A', undefined, 'C']);
    assert.deepEqual([cache.hits, cache.misses], [3, 1]);
    // An output over a quarter of the size limit is never kept; a big one pushes older ones out.
    cache.set('huge', 'x'.repeat(101));
    assert.equal(cache.get('huge'), undefined);
    cache.set('d', 'y'.repeat(100));
    cache.set('e', 'z'.repeat(100));
    assert.deepEqual([cache.get('c'), cache.get('d')?.length, cache.get('e')?.length], [undefined, 100, 100]);
  });
});

describe('InputDigest', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-digest-'));
    mkdirSync(join(dir, 'chart/templates'), { recursive: true });
    writeFileSync(join(dir, 'chart/values.yaml'), 'nodePort: 30080\n');
    writeFileSync(join(dir, 'chart/templates/svc.yaml'), 'kind: Service\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const digest = (overlay?: Map<string, string>, neutral = false): string =>
    new InputDigest(overlay, neutral ? (p) => (p.endsWith('values.yaml') ? sentinelNeutralText : undefined) : undefined).add('helm template', 'web').addTree(join(dir, 'chart')).digest();

  it('hashes a tree as the renderer reads it: an unsaved buffer counts as the file, a transform only where asked', () => {
    const base = digest();
    assert.equal(digest(), base);
    assert.equal(digest(new Map([[join(dir, 'chart/values.yaml'), 'nodePort: 30080\n']])), base); // the same text as on disk
    assert.notEqual(digest(new Map([[join(dir, 'chart/values.yaml'), 'nodePort: 30081\n']])), base);
    assert.equal(digest(new Map([[join(dir, 'chart/values.yaml'), 'nodePort: 30081\n']]), true), digest(undefined, true));
    // A buffer of a file that is not on disk yet is part of the tree.
    assert.notEqual(digest(new Map([[join(dir, 'chart/templates/new.yaml'), 'kind: Service\n']])), base);
  });
});
