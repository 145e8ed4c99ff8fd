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

  it('stops where kubectl\'s JSON decoder stops: YAML after JSON, a comment, an unclosed object — one finding with file, line and Go\'s reason', () => {
    const rest = 'a file whose first character is "{" is read as a stream of JSON objects, so kubectl applies the objects before this one and refuses the rest; write it as JSON, or as YAML that does not start with "{" (e.g. a "---" line first)';
    const mixed = `${cm('c')}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: e}\n`;
    const f = loadFile('mixed.json', mixed);
    assert.deepEqual(f.objects.map((o) => o.name), ['c']);
    // kubectl 1.31 prints the same: "json: offset 71: invalid character '-' in numeric literal" (the first `-` starts a number).
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity, ...at(mixed, p.span.start), p.message]), [[
      'json-stream', 'error', 2, 2, `not JSON (json: offset 71: invalid character '-' in numeric literal): ${rest}`,
    ]]);
    const { findings } = lint({ 'mixed.json': mixed });
    assert.deepEqual(findings.map((x) => [x.ruleId, x.file, x.line, x.column]), [['yaml-syntax', 'mixed.json', 2, 2]]);
    assert.ok(findings[0].message.length <= 300, findings[0].message);

    const comment = `${cm('c')}\n// more\n${cm('d')}\n`;
    const g = loadFile('c.json', comment);
    assert.deepEqual([g.objects.map((o) => o.name), g.problems.map((p) => [...at(comment, p.span.start), p.message])], [['c'], [[2, 1, `not JSON (json: offset 70: invalid character '/' looking for beginning of value): ${rest}`]]]);

    const truncated = `${cm('c')}\n{"apiVersion": "v1", "kind": "ConfigMap",\n  "metadata": {"name": "d"}\n`;
    const h = loadFile('t.json', truncated);
    assert.deepEqual([h.objects.map((o) => o.name), h.problems.map((p) => [...at(truncated, p.span.start), p.message])], [['c'], [[2, 1, 'this JSON object is not closed before the end of the file: kubectl fails with "unexpected EOF" and does not read it; close its braces and brackets']]]);

    const inside = `${cm('c')}\n{"apiVersion": 'v1'}\n`;
    const i = loadFile('i.json', inside);
    assert.deepEqual([i.objects.map((o) => o.name), i.problems.map((p) => [...at(inside, p.span.start), p.message])], [['c'], [[2, 16, `not JSON (json: offset 85: invalid character '\\'' looking for beginning of value): ${rest}`]]]);
  });

  it('refuses a file that is not JSON from its first "{" (a YAML flow mapping, single quotes, a trailing comma): one error, no object, as kubectl 1.31', () => {
    const whole = 'a file whose first character is "{" is read as a stream of JSON objects, so kubectl refuses the whole file; write it as JSON, or as YAML that does not start with "{" (e.g. a "---" line first)';
    const flow = '{apiVersion: v1, kind: Service, metadata: {name: u}, spec: {type: NodePort, ports: [{port: 80, nodePort: 80}]}}\n';
    const trailing = '{"apiVersion":"v1","kind":"Service","metadata":{"name":"u"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":80,}]}}\n';
    const single = "{'apiVersion':'v1','kind':'Service','metadata':{'name':'u'}}\n";
    const { findings } = lint({ 'flow.yaml': flow, 'trail.json': trailing, 'single.json': single });
    // Exactly what kubectl prints for each file (json: offset N, Go's reason); nodePort 80 is not reported: nothing is read.
    assert.deepEqual(findings.map((x) => [x.file, x.line, x.column, x.ruleId, x.message]), [
      ['flow.yaml', 1, 2, 'yaml-syntax', `not JSON (json: offset 2: invalid character 'a' looking for beginning of object key string): ${whole}`],
      ['single.json', 1, 2, 'yaml-syntax', `not JSON (json: offset 2: invalid character '\\'' looking for beginning of object key string): ${whole}`],
      ['trail.json', 1, 121, 'yaml-syntax', `not JSON (json: offset 121: invalid character '}' looking for beginning of object key string): ${whole}`],
    ]);
    assert.ok(findings.every((x) => x.message.length <= 300), findings.map((x) => x.message.length).join());
    // A byte order mark is not counted, leading newlines and spaces are (kubectl 1.31: offset 5).
    const bom = `\uFEFF\n  ${flow}`;
    assert.deepEqual(loadFile('bom.yaml', bom).problems.map((p) => [...at(bom, p.span.start), p.message]), [[2, 4, `not JSON (json: offset 5: invalid character 'a' looking for beginning of object key string): ${whole}`]]);
    // A `---` line first makes it YAML for kubectl too: read, and nodePort 80 is reported.
    const yaml = lint({ 'flow.yaml': `---\n${flow}` }).findings;
    assert.deepEqual(yaml.map((x) => [x.ruleId, x.line, x.column]), [['nodeport-out-of-range', 2, 106]]);
  });

  it('leaves every other file to the YAML reader: one JSON object (with or without a BOM), YAML, a `{` after a comment or the first document, an array', () => {
    for (const text of [`${cm('one')}\n`, `\uFEFF${cm('one')}\n`, `  \n${cm('one')}\n`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n---\n{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "z"}}\n', '# a comment first\n{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n', `[${cm('a')}]\n`]) {
      assert.equal(jsonStream(text), undefined, text);
    }
    const flow = loadFile('f.yaml', '# YAML\n{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n');
    assert.deepEqual([flow.objects.map((o) => o.name), flow.problems], [['flow'], []]);
  });

  it('a file only kustomize reads (a resources: member) is read as YAML, as kustomize reads it: no JSON error, its objects are linted', () => {
    const flow = '{apiVersion: v1, kind: Service, metadata: {name: u}, spec: {type: NodePort, ports: [{port: 80, nodePort: 80}]}}\n';
    const { findings } = lint({ 'base/kustomization.yaml': 'resources:\n- flow.yaml\n', 'base/flow.yaml': flow, 'plain.yaml': flow.replace('name: u', 'name: p') });
    assert.deepEqual(findings.map((x) => [x.file, x.line, x.column, x.ruleId, x.object ?? '']), [
      ['base/flow.yaml', 1, 106, 'nodeport-out-of-range', 'Service default/u'],
      ['plain.yaml', 1, 2, 'yaml-syntax', ''],
    ]);
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

  it('an edit that makes one JSON object invalid JSON (or valid again) gives what a full load gives', () => {
    const one = `${svc('a', 80)}\n`;
    const file = new IncrementalFile('one.json', one);
    const view = (f: ReturnType<typeof loadFile>) => [f.objects.map((o) => [o.name, o.span.start]), f.problems.map((p) => [p.code, p.span.start, p.message])];
    for (const text of [one.replace('"nodePort":80', '"nodePort":80,'), one.replace('"kind"', "'kind'"), one, `${one}junk\n`, one]) {
      const { loaded } = file.update(text);
      assert.deepEqual(view(loaded), view(loadFile('one.json', text)), text);
    }
    assert.deepEqual(view(file.update(one.replace('"nodePort":80', '"nodePort":80,')).loaded)[1], [['json-stream', one.indexOf('}]') + 1, loadFile('x', one.replace('"nodePort":80', '"nodePort":80,')).problems[0].message]]);
  });
});
