import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/out/cli/run';
import { IncrementalFile } from '../../server/out/core/load/incremental-file';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import { decodeManifestBytes } from '../../server/out/core/load/manifest-bytes';
import { readerStop } from '../../server/out/core/load/reader-stops';
import { loadFiles } from '../../server/out/node/parallel-load';
import { ParseCache } from '../../server/out/node/parse-cache';
import { readManifestFile } from '../../server/out/node/read-file';

// How kubectl 1.31 turns a file into documents, checked by running it (`kubectl label --local -f FILE a=b -o name`):
// a BOM picks UTF-8 or UTF-16, bytes that are not UTF-8 become U+FFFD, go-yaml refuses control characters, and a
// `---` line with content after it stops the stream ("invalid Yaml document separator").

const svc = (name: string, nodePort: number): string => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n  - port: 80\n    nodePort: ${nodePort}\n`;
const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Buffer => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
const at = (f: LoadedFile, offset: number): [number, number] => {
  const p = f.lines.position(offset);
  return [p.line, p.column];
};
const problems = (f: LoadedFile) => f.problems.map((p) => [p.code, p.severity, ...at(f, p.span.start)]);

describe('reading files as kubectl does: encodings', () => {
  it('decodes UTF-16LE and UTF-16BE by their byte order mark, and UTF-8 with or without one', () => {
    const text = svc('a', 30080);
    assert.deepEqual(decodeManifestBytes(utf16le(text)), { text, encoding: 'utf-16le', bom: true });
    assert.deepEqual(decodeManifestBytes(utf16be(text)), { text, encoding: 'utf-16be', bom: true });
    assert.deepEqual(decodeManifestBytes(Buffer.from(`\uFEFF${text}`)), { text, encoding: 'utf-8', bom: true });
    assert.deepEqual(decodeManifestBytes(Buffer.from(text)), { text, encoding: 'utf-8', bom: false });
  });

  it('reads bytes that are not UTF-8 as U+FFFD and says where the first one is (a U+FFFD written as UTF-8 is no such byte)', () => {
    const bytes = Buffer.concat([Buffer.from('a: "\uFFFD"\nb: caf'), Buffer.from([0xe9]), Buffer.from('\nc: \u00e9'), Buffer.from([0xff])]);
    assert.deepEqual(decodeManifestBytes(bytes), { text: 'a: "\uFFFD"\nb: caf\uFFFD\nc: \u00e9\uFFFD', encoding: 'utf-8', bom: false, notUtf8: { offset: 13, value: 0xe9 } });
  });

  const dir = mkdtempSync(join(tmpdir(), 'knl-encodings-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const read = (name: string, bytes: Uint8Array): LoadedFile => {
    writeFileSync(join(dir, name), bytes);
    return readManifestFile(join(dir, name), name);
  };

  it('loads a UTF-16 file\'s objects with lines and columns of its text', () => {
    for (const [name, bytes] of [['le.yaml', utf16le(svc('a', 30080))], ['be.yaml', utf16be(svc('a', 30080))]] as const) {
      const f = read(name, bytes);
      assert.deepEqual(f.problems, []);
      const [obj] = f.objects;
      assert.deepEqual([obj.name, ...at(f, obj.span.start)], ['a', 4, 9]);
    }
  });

  it('warns at the first byte that is not UTF-8 (Latin-1), and still reads the objects kubectl reads', () => {
    const f = read('latin1.yaml', Buffer.from(`${svc('a', 30080)}---\n# caf\u00e9\n`, 'latin1'));
    assert.deepEqual(problems(f), [['TEXT_NOT_UTF8', 'warning', 11, 6]]);
    assert.equal(f.problems[0].message, 'byte 0xE9 is not UTF-8 (the file is in another encoding, e.g. Latin-1): kubectl reads U+FFFD (\uFFFD) in its place and kustomize refuses the file; save the file as UTF-8');
    assert.deepEqual(f.objects.map((o) => o.name), ['a']);
  });

  it('refuses NUL bytes (binary data, UTF-16 without a BOM, UTF-32) with a yaml-syntax error at the first, instead of the warning', () => {
    const binary = read('bin.yaml', new Uint8Array([0x61, 0x3a, 0x20, 0xe9, 0x00, 0x62]));
    assert.deepEqual(problems(binary), [['YAML_CONTROL_CHARACTER', 'error', 1, 5]]);
    assert.equal(binary.problems[0].message, 'control character U+0000 (binary data, or text in an encoding kubectl does not read: UTF-16 without a byte order mark, UTF-32): kubectl and kustomize refuse it ("yaml: control characters are not allowed"), so kubectl applies none of this file; delete it, or save the file as UTF-8');
    assert.deepEqual(problems(read('nobom.yaml', Buffer.from(svc('a', 30080), 'utf16le'))), [['YAML_CONTROL_CHARACTER', 'error', 1, 2]]);
    // UTF-32LE's BOM FF FE 00 00 reads as UTF-16LE's, then U+0000: refused at the first character.
    const utf32 = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), ...[...'a: 1\n'].map((c) => Buffer.from([c.charCodeAt(0), 0, 0, 0]))]);
    assert.deepEqual(problems(read('utf32.yaml', utf32)), [['YAML_CONTROL_CHARACTER', 'error', 1, 1]]);
  });

  it('gives the same objects and problems through the parse cache as without it, for UTF-16 and Latin-1 files', async () => {
    const files = [
      ['le.yaml', utf16le(svc('a', 30080))],
      ['latin1.yaml', Buffer.from(`${svc('b', 30081)}# caf\u00e9\n`, 'latin1')],
    ] as const;
    for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
    const list = files.map(([name]) => [join(dir, name), name] as const);
    const plainLoad = await loadFiles(list, { workers: 0 });
    const cache = ParseCache.open(join(dir, 'cache'), 'test');
    for (let round = 0; round < 2; round++) {
      const cached = await loadFiles(list, { workers: 0, cache });
      assert.deepEqual(cached.map((f) => [f.objects.map((o) => o.name), f.problems.map((p) => p.code)]), [[['a'], []], [['b'], ['TEXT_NOT_UTF8']]]);
      assert.deepEqual(cached.map((f) => f.text), plainLoad.map((f) => f.text));
    }
  });
});

describe('reading files as kubectl does: where its YAML reading stops', () => {
  const two = `${svc('a', 30080)}---\n${svc('b', 30081)}`;

  it('refuses the characters go-yaml refuses (C0 but tab, LF, CR; DEL; C1 but NEL; U+FFFE, U+FFFF), in comments too', () => {
    for (const c of ['\u0001', '\u001b', '\u007f', '\u0080', '\u0090', '\u009f', '\ufffe', '\uffff']) {
      assert.deepEqual(readerStop(`a: 1\n# x${c}\n`), { offset: 8, end: 9, kind: 'character', codePoint: c.charCodeAt(0) }, `U+${c.charCodeAt(0).toString(16)}`);
    }
    for (const c of ['\t', '\r', '\u0085', '\u00a0', '\ufeff', '\ufffd', '\u{1f600}']) assert.equal(readerStop(`a: "x${c}y"\n`), undefined, `U+${c.codePointAt(0)!.toString(16)}`);
  });

  it('splits only at a --- line with nothing but spaces or a comment after it', () => {
    for (const line of ['---', '---   ', '---\t', '--- # next', '---#x', '---\r']) assert.equal(readerStop(`a: 1\n${line}\nb: 2\n`), undefined, JSON.stringify(line));
    for (const line of ['--- {a: 1}', '--- !!map', '----', '---x', '--- |', '--- "s"']) {
      assert.deepEqual(readerStop(`a: 1\n${line}\nb: 2\n`), { offset: 5, end: 5 + line.length, kind: 'separator', line }, line);
    }
    assert.equal(readerStop('a: |\n  --- {b: 1}\n'), undefined, 'indented: not a separator line');
  });

  it('reads the documents before a --- line with content, not the one it ends nor any after it', () => {
    const flow = '--- {apiVersion: v1, kind: Service, metadata: {name: c}, spec: {type: NodePort, ports: [{port: 80, nodePort: 30082}]}}\n';
    const f = loadFile('s.yaml', `${two}${flow}${svc('d', 30083)}`);
    assert.deepEqual(f.objects.map((o) => o.name), ['a']);
    assert.deepEqual(problems(f), [['YAML_SEPARATOR', 'error', 20, 1]]);
    assert.equal(f.problems[0].message, '"--- {apiVersion: v1, kind: Se…": kubectl and kustomize split documents only at a "---" line with nothing but a comment after it, so they stop here ("invalid Yaml document separator") and kubectl applies only the 1 document before it; move what follows "---" to the next line');
    const first = loadFile('f.yaml', flow);
    assert.deepEqual([first.objects.length, problems(first)], [0, [['YAML_SEPARATOR', 'error', 1, 1]]]);
    assert.match(first.problems[0].message, /and kubectl applies none of this file;/);
  });

  it('reads the documents before a control character, with the error at its line and column', () => {
    const f = loadFile('c.yaml', `${two}---\n# leading comment\n${svc('c', 30082).replace('name: c', 'name: c\n  annotations: {note: "a\u001bb"}')}`);
    assert.deepEqual(f.objects.map((o) => o.name), ['a', 'b']);
    assert.deepEqual(problems(f), [['YAML_CONTROL_CHARACTER', 'error', 26, 25]]);
    assert.equal(f.problems[0].message, 'control character U+001B: kubectl and kustomize refuse it ("yaml: control characters are not allowed"), so kubectl applies only the 2 documents before it; delete it, or write it as an escape in double quotes');
  });

  it('leaves a file that kubectl reads as JSON to the JSON decoder (DEL is allowed in a JSON string)', () => {
    const json = '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "\u007f"}}\n{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "y"}}\n';
    const f = loadFile('j.json', json);
    assert.deepEqual([f.objects.map((o) => o.name), f.problems], [['x', 'y'], []]);
    assert.deepEqual(problems(loadFile('k.yaml', json, { kustomizeInput: true })), [['YAML_CONTROL_CHARACTER', 'error', 1, 85]], 'kustomize reads it as YAML');
  });

  it('an edited document in the editor gives what loading the whole text gives, as edits add and remove stops', () => {
    const base = `${two}---\n${svc('c', 30082)}`;
    const inc = new IncrementalFile('e.yaml', base);
    const edits: [string, number, number][] = [
      ['\u001b', base.indexOf('name: b') + 6, 0],
      ['', -1, 1],
      [' {x: 1}', base.indexOf('---') + 3, 0],
      ['', -1, 7],
      ['-', base.lastIndexOf('---'), 0],
      ['', -1, 1],
      ['x', base.indexOf('---') + 3, 0],
    ];
    let text = base;
    let last = 0;
    for (const [insert, pos, del] of edits) {
      const p = pos === -1 ? last : pos;
      text = text.slice(0, p) + insert + text.slice(p + del);
      last = p;
      const update = inc.update(text);
      const whole = loadFile('e.yaml', text);
      assert.deepEqual([update.loaded.objects.map((o) => o.name), update.loaded.problems], [whole.objects.map((o) => o.name), whole.problems], JSON.stringify(insert));
    }
    // The last edit makes the line between a and b `---x`: kubectl loses a (the document it was collecting) and all after.
    assert.deepEqual([inc.loaded.objects.length, inc.loaded.problems.map((p) => p.code)], [0, ['YAML_SEPARATOR']]);
  });
});

describe('reading files as kubectl does: the CLI', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'knl-kubectl-read-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const cli = async (argv: string[], stdin: Uint8Array | string = ''): Promise<{ code: number; out: string }> => {
    let out = '';
    const code = await runCli(argv, { cwd: dir, stdout: (t) => (out += t), stderr: (t) => (out += t), readStdin: () => stdin });
    return { code, out };
  };

  it('finds a collision in a UTF-16 file at its line and column, from a file and from standard input', async () => {
    writeFileSync(join(dir, 'a.yaml'), utf16le(svc('a', 30080)));
    writeFileSync(join(dir, 'b.yaml'), svc('b', 30080));
    const r = await cli(['.']);
    assert.equal(r.code, 1);
    assert.match(r.out, /^a\.yaml:9:15: error nodeport-duplicate: /m);
    const piped = await cli(['-'], utf16be(`${svc('a', 30080)}---\n${svc('b', 30080)}`));
    assert.match(piped.out, /^<stdin>:9:15: error nodeport-duplicate: /m);
  });

  it('prints the file, line and column of the first byte that is not UTF-8 and of a stop', async () => {
    writeFileSync(join(dir, 'l.yaml'), Buffer.from(svc('l', 30080).replace('name: l', 'name: l\n  annotations: {note: caf\u00e9}'), 'latin1'));
    writeFileSync(join(dir, 's.yaml'), `${svc('s', 30081)}--- !!map\n${svc('t', 30081)}`);
    const r = await cli(['.']);
    assert.deepEqual(r.out.split('\n').map((l) => l.split(': ').slice(0, 2).join(': ')), [
      'l.yaml:5:26: warning yaml-syntax',
      's.yaml:10:1: error yaml-syntax',
      '2 files checked: 1 error, 1 warning, 0 notes',
      '',
    ]);
  });
});
