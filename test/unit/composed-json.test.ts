import { strict as assert } from 'node:assert';
import { composeFromEvents } from '../../server/out/core/load/event-compose';
import { precomposedJSON } from '../../server/out/core/load/event-nodes';
import { loadFile } from '../../server/out/core/load/load-file';
import { loadedFileDifference } from '../helpers/loaded-diff';

const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';

/** The first document's root as the event composer builds it (the text must be one it takes). */
function composedRoot(text: string): unknown {
  const composed = composeFromEvents(text);
  assert.equal(composed.declined, undefined, `declined: ${composed.declined}`);
  return composed.docs![0].contents;
}

// The event composer makes `raw` while it composes a collection (no second walk of the nodes); it must be what
// `yaml`'s toJS gives, key by key, and it must leave aliases and merge keys to the reader.
describe('loader: raw made while composing from events', () => {
  const cases: Record<string, string> = {
    'keys an empty object inherits': `${head}data:\n  __proto__: a\n  constructor: b\n  toString: c\n  hasOwnProperty: d\n`,
    'number, boolean and null keys': `${head}data:\n  1: a\n  "1": b\n  true: c\n  "true": d\n  ~: e\n  "": f\n  1.50: g\n  0x1F: h\n  off: i\n`,
    'a string key then the number with its spelling': `${head}data:\n  "80": a\n  80: b\n`,
    'nested flow and block collections': `${head}data:\n  a: {b: [1, 2, {c: d}], e: []}\n  f:\n  - - x\n    - y\n  - {}\n`,
    'empty values': `${head}data:\n  a:\n  b: ~\n  c:\n  - \n  - null\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`${name}: equal to yaml's toJS`, () => {
      assert.equal(loadedFileDifference(loadFile('f.yaml', text, { parser: 'yaml' }), loadFile('f.yaml', text, { parser: 'events' })), undefined);
      const raw = loadFile('f.yaml', text).objects[0].raw;
      assert.deepEqual(raw, loadFile('f.yaml', text, { parser: 'yaml' }).objects[0].raw);
      assert.ok(precomposedJSON(composedRoot(text)) !== undefined, 'made while composing');
    });
  }

  it('the number key after its string spelling replaces the value in place, as toJS does', () => {
    const raw = loadFile('f.yaml', `${head}data:\n  "80": a\n  x: 1\n  80: b\n`).objects[0].raw as { data: Record<string, unknown> };
    assert.deepEqual(Object.entries(raw.data), [['80', 'b'], ['x', 1]]);
  });

  it('a `__proto__` key is an own property, not the prototype', () => {
    const raw = loadFile('f.yaml', `${head}data:\n  __proto__: {polluted: true}\n`).objects[0].raw as { data: Record<string, unknown> };
    assert.equal(Object.getPrototypeOf(raw.data), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(raw.data, '__proto__'), { value: { polluted: true }, writable: true, enumerable: true, configurable: true });
  });

  it('collections with an alias or a merge key below them are left to the reader (and equal yaml\'s)', () => {
    const aliased = `${head}data:\n  a: &x {p: 1}\n  b: *x\n`;
    const merged = `${head}data:\n  a: &x {p: 1}\n  b:\n    <<: *x\n    q: 2\n`;
    for (const text of [aliased, merged]) {
      const root = composedRoot(text) as { items: { key: { value: unknown }; value: unknown }[] };
      assert.equal(precomposedJSON(root), undefined);
      const data = root.items.find((p) => p.key.value === 'data')!.value as { items: { value: unknown }[] };
      assert.deepEqual(precomposedJSON(data.items[0].value), { p: 1 }, 'the anchored mapping itself has no alias below it');
      assert.equal(loadedFileDifference(loadFile('f.yaml', text, { parser: 'yaml' }), loadFile('f.yaml', text, { parser: 'events' })), undefined);
    }
    assert.deepEqual(loadFile('f.yaml', merged).objects[0].raw, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: { p: 1 }, b: { p: 1, q: 2 } } });
  });

  it('each object of a List gets its own raw, with the apiVersion and kind a typed list gives its items', () => {
    const text = 'apiVersion: v1\nkind: ServiceList\nitems:\n- metadata: {name: a}\n  spec: {ports: [{port: 80}]}\n- metadata: {name: b}\n';
    const objects = loadFile('f.yaml', text).objects;
    assert.deepEqual(objects.map((o) => o.raw), [
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { ports: [{ port: 80 }] } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'b' } },
    ]);
    assert.equal(loadedFileDifference(loadFile('f.yaml', text, { parser: 'yaml' }), loadFile('f.yaml', text, { parser: 'events' })), undefined);
  });
});
