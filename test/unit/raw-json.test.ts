import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFile } from '../../server/out/core/load/load-file';
import { StringPool } from '../../server/out/core/source/string-pool';
import { cacheEntryToFile, LOADER_FORMAT, ParseCache, serializeForCache } from '../../server/out/node/parse-cache';
import { jsonExact, RAW_IN_JSON, rawFromJson } from '../../server/out/node/raw-json';
import { deserializeLoadedFile, dropSpanNames, serializeLoadedFile } from '../../server/out/node/serialized-file';

const FILE = 'apps/web.yaml';
const TEXT = [
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n  selector: {app: web}\n  ports:\n    - {name: http, port: 80, targetPort: 8080}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata:\n  mode: "ipvs"\n  note: "caf\u00e9 \ud83d\ude00"\n',
  // YAML values JSON cannot give back: they stay in their object as they were.
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd}\ndata:\n  inf: .inf\n  nan: .nan\n  zero: -0\n  shared: &s {p: 1}\n  again: *s\n',
].join('---\n');

const plainObjects = (objects: readonly object[]) => objects.map((o) => ({ ...o, paths: undefined }));

describe('raw-json: the objects\u2019 raw crosses threads and the parse cache as JSON, parsed when first read', () => {
  it('posts and stores raw as one JSON text per file, and gives back equal raws, keys in the same order', () => {
    const loaded = loadFile(FILE, TEXT);
    const serialized = serializeLoadedFile(loaded);
    assert.ok(serialized.rawJson, 'the file carries its raws as JSON');
    assert.deepEqual([...serialized.rawJson.ends].map((end) => end >= 0), [true, true, false]);
    assert.equal(serialized.objects[0].raw as unknown, RAW_IN_JSON);
    assert.equal(typeof serialized.objects[2].raw, 'object', 'a raw with .inf, .nan, -0 or a shared alias stays in place');
    assert.equal(typeof loaded.objects[0].raw, 'object', 'serializing leaves the loaded file as it was');

    const posted = deserializeLoadedFile(structuredClone(serializeLoadedFile(loadFile(FILE, TEXT))), null, true);
    const cached = cacheEntryToFile(serializeForCache(serializeLoadedFile(loaded)), TEXT, null);
    for (const back of [posted, cached]) {
      assert.deepEqual(plainObjects(back.objects), plainObjects(loaded.objects));
      back.objects.forEach((o, i) => assert.deepEqual(Object.keys(o), Object.keys(loaded.objects[i]), 'raw keeps its place among the keys'));
      const [service, settings, odd] = back.objects;
      assert.equal(typeof Object.getOwnPropertyDescriptor(service, 'raw')?.get, 'function', 'parsed when first read');
      assert.equal(service.raw, service.raw, 'the same raw every time it is read');
      assert.deepEqual((service.raw.spec as { ports: unknown[] }).ports, [{ name: 'http', port: 80, targetPort: 8080 }]);
      assert.equal((settings.raw.data as { note: string }).note, 'caf\u00e9 \ud83d\ude00');
      const copy = { ...service };
      assert.equal(copy.raw, service.raw, 'a spread copy gets raw as a value');
      const data = odd.raw.data as Record<string, unknown>;
      assert.equal(data.inf, Infinity);
      assert.ok(Number.isNaN(data.nan));
      assert.ok(Object.is(data.zero, -0));
      assert.equal(data.shared, data.again, 'an alias\u2019s value shared by two places stays one object');
    }
  });

  it('parses raw at once when the strings are pooled (the arrival walk reads every value)', () => {
    const pool = new StringPool();
    const got = deserializeLoadedFile(structuredClone(dropSpanNames(serializeLoadedFile(loadFile(FILE, TEXT)))), pool);
    assert.ok('value' in Object.getOwnPropertyDescriptor(got.objects[0], 'raw')!);
    assert.deepEqual(plainObjects(got.objects), plainObjects(loadFile(FILE, TEXT).objects));
  });

  it('accepts exactly the values JSON gives back unchanged', () => {
    assert.equal(jsonExact({ a: [1, 'x', null, true, { b: 2.5 }], c: {} }), true);
    const shared = { p: 1 };
    const hole: unknown[] = [1];
    hole[2] = 3;
    for (const value of [{ a: Infinity }, { a: NaN }, { a: -0 }, { a: undefined }, { a: new Date(0) }, { a: new Map() }, [shared, shared], hole, JSON.parse('{"__proto__": 1}'), { a: 1n }]) {
      assert.equal(jsonExact(value), false, String(value));
    }
  });

  it('refuses raw JSON that does not fit the objects (a damaged entry is loaded again)', () => {
    const serialized = serializeLoadedFile(loadFile(FILE, TEXT));
    const { text, ends } = serialized.rawJson!;
    assert.throws(() => rawFromJson([...serialized.objects], { text, ends: ends.subarray(1) }, false), /does not fit/);
    assert.throws(() => rawFromJson([...serialized.objects], { text: text + ' ', ends }, false), /does not fit/);
  });

  it('reads a cache file of the format before raw was JSON as an empty cache', () => {
    const dir = mkdtempSync(join(tmpdir(), 'knl-raw-json-'));
    try {
      const path = join(dir, 'cache');
      const cache = ParseCache.open(path, '1.0.0');
      cache.set(FILE, TEXT, '', serializeForCache(serializeLoadedFile(loadFile(FILE, TEXT))));
      assert.equal(cache.save(), undefined);
      assert.equal(ParseCache.open(path, '1.0.0').size, 1);
      // The same file with the header of format 6 (entries whose raw is in each object).
      const whole = readFileSync(path);
      const magic = 'kube-netlint cache\n'.length;
      const length = whole.readUInt32LE(magic);
      const header = JSON.parse(whole.toString('utf8', magic + 4, magic + 4 + length)) as { format: number };
      assert.equal(header.format, LOADER_FORMAT);
      const older = Buffer.from(JSON.stringify({ ...header, format: 6 }), 'utf8');
      const size = Buffer.alloc(4);
      size.writeUInt32LE(older.length);
      writeFileSync(path, Buffer.concat([whole.subarray(0, magic), size, older, whole.subarray(magic + 4 + length)]));
      assert.equal(ParseCache.open(path, '1.0.0').size, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parse cache: a hit\u2019s text is decoded when first asked for', () => {
  it('builds the loaded file without calling for the text, then calls once and keeps it', () => {
    const loaded = loadFile(FILE, TEXT);
    let calls = 0;
    const got = cacheEntryToFile(serializeForCache(serializeLoadedFile(loaded)), () => {
      calls++;
      return TEXT;
    }, null);
    assert.equal(calls, 0);
    assert.equal(got.lines.lineCount, loaded.lines.lineCount);
    const at = TEXT.lastIndexOf('again');
    assert.deepEqual(got.lines.position(at), loaded.lines.position(at));
    assert.deepEqual(plainObjects(got.objects), plainObjects(loaded.objects));
    assert.equal(calls, 0, 'objects, problems and line starts come from the entry');
    assert.equal(got.text, TEXT);
    assert.equal({ ...got }.text, TEXT, 'a spread copy gets the text as a string');
    assert.equal(calls, 1);
  });
});
