import { strict as assert } from 'node:assert';
import { loadFile } from '../../server/out/core/load/load-file';
import { PackedPaths } from '../../server/out/core/source/packed-paths';
import type { Span } from '../../server/out/core/source/span';
import { serializeLoadedFile } from '../../server/out/node/serialized-file';

const FILE = 'apps/web.yaml';
const entries = (paths: ReadonlyMap<string, Span> | undefined): [string, string, number, number][] =>
  [...(paths ?? [])].map(([k, s]) => [k, s.file, s.start, s.end]);

/** Loads `text` both ways: `paths` as maps (the default) and written packed (`packedPaths`, as a load worker does). */
function bothWays(text: string): { maps: (ReadonlyMap<string, Span> | undefined)[]; packed: (ReadonlyMap<string, Span> | undefined)[] } {
  const asMaps = loadFile(FILE, text);
  const asPacked = loadFile(FILE, text, { packedPaths: true });
  // Serialized for another thread, both give the same table (before any span is asked for: a packed map that
  // handed out spans is packed again from its entries).
  assert.deepEqual(serializeLoadedFile(asPacked).pathTable, serializeLoadedFile(asMaps).pathTable);
  const maps = asMaps.objects.map((o) => o.paths);
  const packed = asPacked.objects.map((o) => o.paths);
  packed.forEach((p, i) => assert.deepEqual(entries(p), entries(maps[i]), `object ${i}`));
  return { maps, packed };
}

const head = (kind: string): string => `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: x\n`;

describe('paths written packed by the loader (LoadOptions.packedPaths)', () => {
  it('gives every key, span and the order of the map the loader makes, label keys with dots included', () => {
    const text = `${head('Service')}  labels:\n    app.kubernetes.io/name: web\n    app.kubernetes.io/instance: web-1\n  annotations:\n    a.b/c: "1"\nspec:\n  ports:\n${Array.from({ length: 12 }, (_, i) => `  - port: ${80 + i}\n    name: p${i}\n`).join('')}  selector: {app: a, apps: b}\n---\n${head('ConfigMap')}data:\n  config.conf: |\n    a: 1\n  b: "2"\n`;
    const { packed } = bothWays(text);
    assert.equal(packed.length, 2);
    assert.ok(packed.every((p) => p instanceof PackedPaths));
    assert.deepEqual(entries(packed[0]).slice(0, 3), [['apiVersion#key', FILE, 0, 10], ['apiVersion', FILE, 12, 14], ['kind#key', FILE, 15, 19]]);
    assert.ok(packed[0]!.has('metadata.labels.app.kubernetes.io/name'));
    const block = text.indexOf('|\n    a: 1');
    assert.deepEqual(packed[1]!.get('data.config.conf'), { file: FILE, start: block, end: block + '|\n    a: 1\n'.length });
  });

  it('keys that could make one dotted path twice (`a` beside `a.b`, `1` beside "1", `""` beside `"#key"`) are left to a map, with the same entries', () => {
    const dotted = `${head('ConfigMap')}data:\n  a:\n    b: 1\n  a.b: 2\n`;
    const numbers = `${head('ConfigMap')}data:\n  1: a\n  "1": b\n`;
    const marker = `${head('ConfigMap')}data:\n  "": e\n  "#key": f\n`;
    const merge = `${head('ConfigMap')}data:\n  base: &b {x: 1}\n  other:\n    <<: *b\n    y: 2\n`;
    for (const text of [dotted, numbers, marker, merge]) {
      const { packed } = bothWays(text);
      assert.equal(packed.length, 1);
      assert.ok(!(packed[0] instanceof PackedPaths), text);
    }
    // Dots in keys that no sibling completes stay packed.
    const { packed } = bothWays(`${head('ConfigMap')}data:\n  a.b: 1\n  ab: 2\n  a.c#d: 3\n`);
    assert.ok(packed[0] instanceof PackedPaths);
  });

  it('workload probe and lifecycle subtrees (several walks into one table) and aliases give the same entries', () => {
    const workload = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      initContainers:\n      - name: i\n        startupProbe: {tcpSocket: {port: 1}}\n      containers:\n${Array.from({ length: 11 }, (_, i) => `      - name: c${i}\n        readinessProbe:\n          httpGet: {path: /, port: ${8000 + i}}\n        lifecycle:\n          preStop:\n            httpGet: {port: http}\n`).join('')}`;
    const { packed } = bothWays(workload);
    assert.ok(packed[0] instanceof PackedPaths);
    assert.ok(packed[0]!.has('spec.template.spec.containers.10.readinessProbe.httpGet.port'));
    const aliased = `${head('Service')}spec:\n  ports:\n  - &p {port: 80, name: a}\n  - *p\n`;
    const both = bothWays(aliased);
    assert.equal(both.packed.length, 1);
    assert.ok(both.packed[0] instanceof PackedPaths);
    // The alias's item has the anchor's keys, each with its span where it is written.
    const at = aliased.indexOf('*p');
    assert.deepEqual(entries(both.packed[0]).filter(([k]) => k.startsWith('spec.ports.1')), [
      ['spec.ports.1', FILE, at, at + 2],
      ['spec.ports.1.port#key', FILE, aliased.indexOf('port: 80'), aliased.indexOf('port: 80') + 4],
      ['spec.ports.1.port', FILE, aliased.indexOf('80'), aliased.indexOf('80') + 2],
      ['spec.ports.1.name#key', FILE, aliased.indexOf('name: a'), aliased.indexOf('name: a') + 4],
      ['spec.ports.1.name', FILE, aliased.indexOf('name: a') + 6, aliased.indexOf('name: a') + 7],
    ]);
  });
});
