import { strict as assert } from 'node:assert';
import { deserialize } from 'node:v8';
import { loadFile } from '../../server/out/core/load/load-file';
import { moveSpans } from '../../server/out/core/load/shift-spans';
import { PackedPaths, packedPathsOfFile, packPaths } from '../../server/out/core/source/packed-paths';
import { serializeForCache } from '../../server/out/node/parse-cache';
import { deserializeLoadedFile, dropSpanNames, serializeLoadedFile } from '../../server/out/node/serialized-file';
import { StringPool } from '../../server/out/core/source/string-pool';

const FILE = 'apps/web.yaml';
const span = (start: number, end: number) => ({ file: FILE, start, end });

describe('packed paths (the loaded files workers and the parse cache hand over)', () => {
  it('reads back every key, span and the order of each map, with objects without paths left out', () => {
    const a = new Map([
      ['spec', span(10, 90)],
      ['spec.ports#key', span(12, 17)],
      ['spec.ports', span(19, 60)],
      ['spec.ports.0', span(21, 40)],
      ['spec.ports.0.port#key', span(23, 27)],
      ['spec.ports.0.port', span(29, 31)],
      ['metadata.annotations.kubernetes.io/ingress.class', span(95, 100)],
      ['metadata.annotations.ünïcode ✓', span(101, 102)],
      ['', span(0, 1)],
    ]);
    const b = new Map([['data.config.conf', span(200, 260)]]);
    const { table, ranges } = packPaths([a, undefined, b, new Map()]);
    assert.deepEqual(ranges, [{ from: 0, count: 9 }, undefined, { from: 9, count: 1 }, { from: 10, count: 0 }]);
    const [pa, none, pb, empty] = packedPathsOfFile(FILE, table, ranges);
    assert.equal(none, undefined);
    assert.deepEqual([...pa!], [...a]);
    assert.deepEqual([...pa!.keys()], [...a.keys()]);
    assert.deepEqual([...pb!], [...b]);
    assert.deepEqual([...empty!], []);
    assert.equal(pa!.size, 9);
    assert.deepEqual(pa!.get('spec.ports.0.port'), span(29, 31));
    assert.equal(pa!.get('spec.ports.0.portX'), undefined);
    assert.equal(pa!.has('spec.ports#key'), true);
    assert.equal(pb!.get('spec'), undefined, 'keys of one object are not another\'s');
    // A span handed out is the same object every time (findings hold it, edits move it in place).
    assert.equal(pa!.get('spec'), pa!.get('spec'));
    assert.ok(pa instanceof PackedPaths);
  });

  it('moves its spans in place with an edit, those not yet asked for too, each once', () => {
    const { table, ranges } = packPaths([new Map([['spec', span(10, 90)], ['spec.ports', span(19, 60)], ['kind', span(2, 5)]])]);
    const [paths] = packedPathsOfFile(FILE, table, ranges);
    const held = paths!.get('spec')!; // made before the edit, and also held by a "finding"
    moveSpans([[{ paths }], [{ span: held }]], 7, FILE, 8);
    assert.deepEqual([...paths!], [['spec', span(17, 97)], ['spec.ports', span(26, 67)], ['kind', span(2, 5)]]);
    assert.equal(paths!.get('spec'), held);
  });

  it('survives the structured clone and the v8 serialization of the parse cache, equal to the loaded file', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations: {a.b/c: x}\nspec:\n  ports:\n    - {port: 80, targetPort: http}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          image: nginx\n';
    const loaded = loadFile(FILE, text);
    const before = structuredClone(loaded.objects.map((o) => ({ ...o, paths: undefined })));
    // As a load worker sends a file (span names dropped in place: the worker drops its copy) and as the cache stores one.
    const back = deserializeLoadedFile(structuredClone(dropSpanNames(serializeLoadedFile(loadFile(FILE, text)))));
    const fromCache = deserializeLoadedFile({ ...(deserialize(serializeForCache(serializeLoadedFile(loaded))) as object), text } as never);
    assert.deepEqual(loaded.objects.map((o) => ({ ...o, paths: undefined })), before, 'storing in the cache leaves the loaded file as it was');
    for (const other of [back, fromCache]) {
      assert.equal(other.objects.length, 2);
      other.objects.forEach((o, i) => {
        const want = loaded.objects[i];
        assert.deepEqual(o.paths && [...o.paths], want.paths && [...want.paths]);
        assert.deepEqual({ ...o, paths: undefined }, { ...want, paths: undefined });
      });
      assert.equal(other.objects[1].paths, undefined, 'a Deployment without probes has no paths');
      assert.equal(other.lines.lineCount, loaded.lines.lineCount);
      assert.deepEqual(other.lines.position(text.indexOf('targetPort')), loaded.lines.position(text.indexOf('targetPort')));
      assert.equal(other.objects[0].span.file, FILE);
      assert.equal(other.objects[1].span.file, FILE);
    }
  });

  it('hands every equal string of the files of one load the same copy, and leaves span-like user data alone', () => {
    // A ConfigMap whose data looks like a span with no file name: it is manifest data, not a span to rename.
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels: {app: web}\ndata:\n  span: {file: "", start: 1, end: 2}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n  selector: {app: web}\n  ports:\n    - {port: 80, protocol: TCP, targetPort: http}\n';
    const pool = new StringPool();
    const files = ['a.yaml', 'b.yaml'].map((name) => {
      const want = loadFile(name, text);
      const got = deserializeLoadedFile(structuredClone(dropSpanNames(serializeLoadedFile(loadFile(name, text)))), pool);
      assert.deepEqual({ ...got, lines: undefined, objects: got.objects.map((o) => ({ ...o, paths: o.paths && [...o.paths] })) },
        { ...want, lines: undefined, objects: want.objects.map((o) => ({ ...o, paths: o.paths && [...o.paths] })) });
      return got;
    });
    const [a, b] = files.map((f) => f.objects);
    assert.deepEqual((a[0].raw.data as { span: unknown }).span, { file: '', start: 1, end: 2 });
    assert.equal(a[1].span.file, 'a.yaml');
    assert.equal(b[1].span.file, 'b.yaml');
    assert.equal(pool.intern('web'), 'web');
    const service = b[1] as import('../../server/out/core/model/objects').ServiceObject;
    assert.equal(service.ports[0].protocol.value, 'TCP');
    assert.equal(service.selector?.app, 'web');
  });

  it('pools strings up to its length limit and starts over when full', () => {
    const pool = new StringPool(4, 2);
    const long = 'x'.repeat(5);
    assert.equal(pool.intern(long), long);
    const first = pool.intern('ab');
    assert.equal(pool.intern(['a', 'b'].join('')), first);
    pool.intern('cd');
    pool.intern('ef'); // full: starts over, still returns an equal string
    assert.equal(pool.intern('ab'), 'ab');
  });
});
