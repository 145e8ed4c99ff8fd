import { strict as assert } from 'node:assert';
import { loadFile } from '../../server/out/core/load/load-file';
import type { Span } from '../../server/out/core/source/span';
import { frontCodings, packedPathsOfFile, packPaths } from '../../server/out/core/source/packed-paths';

const entries = (paths: ReadonlyMap<string, Span> | undefined): [string, number, number][] => [...(paths ?? [])].map(([k, s]) => [k, s.start, s.end]);

/** The objects' `paths` packed with the coding the loader's walk recorded, and packed by comparing keys: both must decode to the maps. */
function roundTrips(text: string): { coded: number; objects: number } {
  const objects = loadFile('f.yaml', text).objects;
  const maps = objects.map((o) => o.paths);
  const coded = maps.filter((m) => m && frontCodings.has(m)).length;
  const withCoding = packPaths(maps);
  const compared = packPaths(maps.map((m) => (m ? new Map(m) : undefined)));
  for (const { table, ranges } of [withCoding, compared]) {
    const decoded = packedPathsOfFile('f.yaml', table, ranges);
    maps.forEach((m, i) => assert.deepEqual(entries(decoded[i]), entries(m), `object ${i}`));
  }
  return { coded, objects: objects.length };
}

// The loader's paths walk records each key's front coding from the keys' segments (packing then copies it):
// decoding it must give every key back, whatever characters the keys hold and however they collide.
describe('paths: the front coding the loader records', () => {
  const head = (kind: string): string => `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: x\n`;
  it('decodes to every key of ordinary objects, and is recorded for them', () => {
    const text = `${head('Service')}  annotations:\n    a.b/c: "1"\n    a.b/cd: "2"\n    a.b: "3"\nspec:\n  ports:\n${Array.from({ length: 12 }, (_, i) => `  - port: ${80 + i}\n    name: p${i}\n`).join('')}  selector: {app: a, apps: b, ap: c}\n---\n${head('ConfigMap')}data:\n  port: "1"\n  portName: "2"\n  por: "3"\n  "x#key": g\n  y: h\n`;
    const { coded, objects } = roundTrips(text);
    assert.equal(objects, 2);
    assert.equal(coded, 2);
  });

  it('keys that collide in the dotted form (`a.b` beside `a: {b}`, `1` beside "1", `""` beside `"#key"`) are not coded, and still decode', () => {
    const dotted = `${head('ConfigMap')}data:\n  a:\n    b: 1\n  a.b: 2\n`;
    const numbers = `${head('ConfigMap')}data:\n  1: a\n  "1": b\n`;
    // `""`'s key entry is `data.#key`, the path of the value of `"#key"`.
    const marker = `${head('ConfigMap')}data:\n  "": e\n  "#key": f\n`;
    for (const text of [dotted, numbers, marker]) {
      const { coded, objects } = roundTrips(text);
      assert.equal(objects, 1);
      assert.equal(coded, 0, 'a map with a key set twice has fewer entries than the walk emitted');
    }
  });

  it('workload probe and lifecycle subtrees (several walks into one map) decode', () => {
    const text = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      initContainers:\n      - name: i\n        startupProbe: {tcpSocket: {port: 1}}\n      containers:\n${Array.from({ length: 11 }, (_, i) => `      - name: c${i}\n        readinessProbe:\n          httpGet: {path: /, port: ${8000 + i}}\n        lifecycle:\n          preStop:\n            httpGet: {port: http}\n`).join('')}`;
    const { coded, objects } = roundTrips(text);
    assert.equal(objects, 1);
    assert.equal(coded, 1);
    const paths = loadFile('f.yaml', text).objects[0].paths!;
    assert.ok(paths.has('spec.template.spec.containers.10.readinessProbe.httpGet.port'));
  });

  it('aliases and merge keys (paths through the anchors) decode', () => {
    const text = `${head('Service')}spec:\n  ports:\n  - &p {port: 80, name: a}\n  - <<: *p\n    name: b\n  - *p\n`;
    const { objects } = roundTrips(text);
    assert.equal(objects, 1);
  });
});
