import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { loadFile } from '../../server/out/core/load/load-file';
import { cacheEntryToFile, ParseCache, serializeForCache } from '../../server/out/node/parse-cache';
import { serializeLoadedFile } from '../../server/out/node/serialized-file';
import { tableSpans, untableSpans } from '../../server/out/node/span-table';

const FILE = 'apps/web.yaml';

/** Values shaped as the loader's: spans in objects, arrays and a Map, one span reachable twice, manifest JSON in `raw`. */
function sample() {
  const anchor = { file: FILE, start: 40, end: 43 };
  const objects = [
    {
      file: FILE,
      span: anchor,
      extent: { file: FILE, start: 0, end: 120 },
      raw: { spec: { looksLikeASpan: { file: FILE, start: 1, end: 2 } } },
      labels: { app: 'web' },
      ports: [{ index: 0, span: { file: FILE, start: 80, end: 95 }, protocol: { value: 'TCP', span: anchor } }],
      fieldSpans: new Map([['spec.type', { file: FILE, start: 60, end: 69 }]]),
      wide: { file: FILE, start: 5, end: 9, note: 'more keys than a span' },
      elsewhere: { file: 'values.yaml', start: 3, end: 4 },
      list: [{ file: FILE, start: 100, end: 104 }],
    },
  ];
  const problems = [{ message: 'x', span: { file: FILE, start: 7, end: 8 } }];
  return { objects, problems };
}

describe('span table (the spans of a parse-cache entry in one Int32Array)', () => {
  it('rebuilds every span of the file, equal and with shared spans still one object, and leaves the input as it was', () => {
    const input = sample();
    const before = structuredClone(input);
    const { table, restore } = tableSpans([input.objects, input.problems], FILE);
    assert.equal(input.objects[0].span, table.marker, 'a span of the file is replaced by the marker while tabled');
    assert.equal(input.objects[0].raw.spec.looksLikeASpan.file, FILE, 'manifest JSON is never walked');
    assert.equal(input.objects[0].elsewhere.file, 'values.yaml', 'spans of other files are left alone');
    assert.equal(input.objects[0].wide.file, '', 'a span with more keys keeps its place, without its name');
    // Six distinct spans of the file, and one of them (the anchor) met twice.
    assert.deepEqual([...table.ints], [40, 43, 0, 120, 80, 95, ~0, 0, 60, 69, 100, 104, 7, 8]);
    const bytes = serialize({ objects: input.objects, problems: input.problems, table });
    restore();
    assert.deepEqual(input, before);
    assert.equal(input.objects[0].ports[0].protocol.span, input.objects[0].span);

    const back = deserialize(bytes) as ReturnType<typeof sample> & { table: typeof table };
    untableSpans([back.objects, back.problems], back.table, FILE);
    assert.deepEqual(back.objects, before.objects);
    assert.deepEqual(back.problems, before.problems);
    assert.equal(back.objects[0].ports[0].protocol.span, back.objects[0].span, 'a span reachable twice is one object again');
    assert.deepEqual(Object.keys(back.objects[0].extent), ['file', 'start', 'end']);
  });

  it('throws for a table that does not fit the values (the cache entry is then loaded again)', () => {
    const input = sample();
    const { table } = tableSpans([input.objects, input.problems], FILE);
    const bytes = serialize({ objects: input.objects, problems: input.problems, table });
    const short = deserialize(bytes) as { objects: unknown[]; problems: unknown[]; table: { marker: object; ints: Int32Array } };
    assert.throws(() => untableSpans([short.objects, short.problems], { marker: short.table.marker, ints: short.table.ints.subarray(0, 4) }, FILE), /too short/);
    const long = deserialize(bytes) as typeof short;
    assert.throws(() => untableSpans([long.objects, long.problems], { marker: long.table.marker, ints: Int32Array.from([...long.table.ints, 1, 2]) }, FILE), /too long/);
  });

  it('gives back a loaded file equal to loading it; a cache file cut short or of the older form is an empty cache', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: &n web\nspec:\n  type: NodePort\n  ports:\n    - {port: 80, nodePort: 30080}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          ports: [{containerPort: 80, hostPort: 8080}]\n          readinessProbe: {httpGet: {port: 80}}\n---\nbad: [\n';
    const loaded = loadFile(FILE, text);
    const fromCache = cacheEntryToFile(serializeForCache(serializeLoadedFile(loaded)), text);
    const plain = (f: typeof loaded) => ({ ...f, lines: undefined, objects: f.objects.map((o) => ({ ...o, paths: o.paths && [...o.paths] })) });
    assert.deepEqual(plain(fromCache), plain(loaded));
    assert.ok(loaded.problems.length > 0, 'the sample has a syntax error, whose span goes through the table too');

    const dir = mkdtempSync(join(tmpdir(), 'knl-span-table-'));
    try {
      const path = join(dir, 'cache');
      const cache = ParseCache.open(path, '1.0.0');
      cache.set(FILE, text, '', serializeForCache(serializeLoadedFile(loaded)));
      assert.equal(cache.save(), undefined);
      assert.equal(ParseCache.open(path, '1.0.0').size, 1);
      assert.deepEqual(plain(ParseCache.open(path, '1.0.0').get(FILE, text, '')!), plain(loaded));
      const whole = readFileSync(path);
      writeFileSync(path, whole.subarray(0, whole.length - 1));
      assert.equal(ParseCache.open(path, '1.0.0').size, 0, 'cut short');
      writeFileSync(path, serialize({ format: 3, version: '1.0.0', entries: new Map() }));
      assert.equal(ParseCache.open(path, '1.0.0').size, 0, 'the older v8-serialized form');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
