import { strict as assert } from 'node:assert';
import { loadFile } from '../../server/out/core/load/load-file';
import { IncrementalFile } from '../../server/out/core/load/incremental-file';
import { jsonStream } from '../../server/out/core/load/json-stream';
import { LineIndex } from '../../server/out/core/source/line-index';
import { lint } from '../helpers/lint';

const svc = (name: string, nodePort: number) => `{"apiVersion":"v1","kind":"Service","metadata":{"name":"${name}"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":${nodePort}}]}}`;
const cm = (name: string) => `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "${name}"}}`;
const at = (text: string, offset: number) => {
  const p = LineIndex.of(text).position(offset);
  return [p.line, p.column];
};

// kubectl reads a file (or stdin) that starts with `{` as a stream of JSON values (apimachinery YAMLOrJSONDecoder →
// json.Decoder), checked with kubectl 1.31: `kubectl label --local -f stream.json x=y -o name` lists every object.
describe('loader: JSON streams (concatenated JSON objects), as kubectl reads them', () => {
  it('reads every object of a stream, with exact spans, and rules see them (nodePort 80 out of range)', () => {
    const text = `${svc('a', 80)}\n${svc('b', 30080)}\n`;
    const { findings } = lint({ 'stream.json': text });
    assert.deepEqual(findings.filter((f) => f.ruleId === 'yaml-syntax'), []);
    const range = findings.filter((f) => f.ruleId === 'nodeport-out-of-range');
    assert.deepEqual(range.map((f) => [f.file, f.line, f.column, f.text, f.object]), [['stream.json', 1, text.indexOf('"nodePort":80') + 12, '80', 'Service default/a']]);
    const f = loadFile('stream.json', text);
    assert.deepEqual(f.objects.map((o) => [o.name, o.docIndex, ...at(text, o.span.start)]), [['a', 0, 1, 56], ['b', 1, 2, 56]]);
    assert.deepEqual(f.problems, []);
    // kubectl drops a byte order mark before it looks for the `{`.
    const bom = loadFile('bom.json', `\uFEFF${text}`);
    assert.deepEqual([bom.objects.map((o) => [o.name, ...at(`\uFEFF${text}`, o.span.start)]), bom.problems], [[['a', 1, 57], ['b', 2, 56]], []]);
  });

  it('reads objects written back to back ({…}{…}), pretty-printed ones, and values kubectl skips (a number) as non-objects', () => {
    const pretty = JSON.stringify(JSON.parse(cm('p')), null, 2);
    const text = `\n  ${cm('x')}${cm('y')}\n${pretty}\n5\n`;
    const f = loadFile('s.json', text);
    assert.deepEqual(f.objects.map((o) => [o.name, ...at(text, o.span.start)]), [['x', 2, 66], ['y', 2, 134], ['p', 7, 13]]);
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity, ...at(text, p.span.start)]), [['OBJECT_NOT_MAPPING', 'info', 10, 1]]);
  });

  it('stops where kubectl\'s JSON decoder stops: YAML after JSON, a comment, an unclosed object — one finding with file and line', () => {
    const mixed = `${cm('c')}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: e}\n`;
    const f = loadFile('mixed.json', mixed);
    assert.deepEqual(f.objects.map((o) => o.name), ['c']);
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity, ...at(mixed, p.span.start), p.message]), [[
      'json-stream', 'error', 2, 1,
      '"---" is not JSON: kubectl reads a file that starts with "{" as a stream of JSON objects and fails here, so nothing from here on is read; write the rest as JSON, or the whole file as YAML',
    ]]);
    const { findings } = lint({ 'mixed.json': mixed });
    assert.deepEqual(findings.map((x) => [x.ruleId, x.file, x.line, x.column]), [['yaml-syntax', 'mixed.json', 2, 1]]);
    assert.ok(findings[0].message.length <= 300 && !findings[0].message.includes('('), findings[0].message);

    const comment = `${cm('c')}\n// more\n${cm('d')}\n`;
    const g = loadFile('c.json', comment);
    assert.deepEqual([g.objects.map((o) => o.name), g.problems.map((p) => [...at(comment, p.span.start), p.message])], [['c'], [[2, 1, '"// more" is a comment, which JSON does not allow: kubectl reads a file that starts with "{" as a stream of JSON objects and fails here, so nothing from here on is read; write the rest as JSON, or the whole file as YAML']]]);

    const truncated = `${cm('c')}\n{"apiVersion": "v1", "kind": "ConfigMap",\n  "metadata": {"name": "d"}\n`;
    const h = loadFile('t.json', truncated);
    assert.deepEqual([h.objects.map((o) => o.name), h.problems.map((p) => [...at(truncated, p.span.start), p.message])], [['c'], [[2, 1, 'this JSON object is not closed before the end of the file: kubectl fails with "unexpected EOF" and does not read it; close its braces and brackets']]]);

    const inside = `${cm('c')}\n{"apiVersion": 'v1'}\n`;
    const i = loadFile('i.json', inside);
    assert.deepEqual([i.objects.map((o) => o.name), i.problems.map((p) => [...at(inside, p.span.start), p.message])], [['c'], [[2, 16, '"\'v1\'}" is not JSON: kubectl reads a file that starts with "{" as a stream of JSON objects and fails here, so this object and the rest are not read; write the rest as JSON, or the whole file as YAML']]]);
  });

  it('leaves every other file to the YAML reader: one JSON object (with or without a BOM), a YAML flow mapping, YAML, an array', () => {
    for (const text of [`${cm('one')}\n`, `\uFEFF${cm('one')}\n`, '{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n---\n{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "z"}}\n', `[${cm('a')}]\n`]) {
      assert.equal(jsonStream(text), undefined, text);
    }
    const flow = loadFile('f.yaml', '{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n');
    assert.deepEqual([flow.objects.map((o) => o.name), flow.problems], [['flow'], []]);
  });

  it('the language server reads a JSON stream the same way, also after an edit', () => {
    const text = `${svc('a', 80)}\n${svc('b', 30080)}\n`;
    const file = new IncrementalFile('stream.json', text);
    assert.deepEqual(file.loaded.objects.map((o) => o.name), ['a', 'b']);
    assert.deepEqual(file.loaded.problems, []);
    const edited = text.replace('"name":"b"', '"name":"c"');
    const { loaded } = file.update(edited);
    assert.deepEqual(loaded.objects.map((o) => [o.name, o.span.start]), loadFile('stream.json', edited).objects.map((o) => [o.name, o.span.start]));
    assert.deepEqual(loaded.problems, []);
  });
});
