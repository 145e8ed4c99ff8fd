import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFile, type LoadedFile } from '../../server/out/core/load/load-file';
import { withCompactText } from '../../server/out/node/compact-text';
import { loadFiles } from '../../server/out/node/parallel-load';
import { deserializeLoadedFile, dropSpanNames, serializeLoadedFile, transferables, withTextDeflated } from '../../server/out/node/serialized-file';

/** A loaded file as plain data (paths as their entries in order, the line index as its line starts). */
function comparable(file: LoadedFile): unknown {
  const lines = Array.from({ length: file.lines.lineCount }, (_, i) => file.lines.lineStart(i + 1));
  return { ...file, lines, objects: file.objects.map((o) => ({ ...o, paths: o.paths && [...o.paths] })) };
}

const manifest = (name: string, extra = ''): string =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  annotations: {note: "${extra}"}\nspec:\n  type: NodePort\n  ports:\n${Array.from({ length: 40 }, (_, i) => `    - {name: p${i}, port: ${1000 + i}, nodePort: ${30000 + i}}\n`).join('')}`;

describe('compact texts (what a command-line run keeps of each file it loaded on the workers)', () => {
  it('gives back exactly the text, in the file and in a spread copy, for ASCII, accented and astral text', () => {
    for (const extra of ['plain', 'café über straße', 'emoji 🚀 and 中文']) {
      const text = manifest('web', extra);
      const file = loadFile('web.yaml', text);
      const compact = withCompactText(file);
      assert.notEqual(compact, file, 'a text of more than 1 KiB is held compactly');
      assert.equal(compact.text, text);
      assert.equal(compact.text, text, 'read again (from the recent texts)');
      assert.deepEqual(Object.keys(compact).sort(), Object.keys(file).sort());
      assert.deepEqual(comparable(compact), comparable(file));
      const copy = { ...compact, objects: [] };
      assert.equal(copy.text, text, 'a spread copy gets the text as a string');
      assert.equal(Object.getOwnPropertyDescriptor(copy, 'text')?.value, text);
    }
  });

  it('reads back the right text when many files are read in turn (more than it keeps as strings)', () => {
    const files = Array.from({ length: 40 }, (_, i) => withCompactText(loadFile(`f${i}.yaml`, manifest(`s${i}`))));
    for (let round = 0; round < 2; round++) files.forEach((f, i) => assert.equal(f.text, manifest(`s${i}`)));
  });

  it('leaves short texts and texts with a lone surrogate as they are', () => {
    const short = loadFile('s.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
    assert.equal(withCompactText(short), short);
    const lone = loadFile('l.yaml', manifest('web', 'x\uD800y'));
    assert.equal(withCompactText(lone), lone);
  });

  it('loads a workspace on the workers to the same files with compactTexts as without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'knl-compact-'));
    try {
      const files = Array.from({ length: 30 }, (_, i) => {
        const path = join(dir, `s${i}.yaml`);
        writeFileSync(path, manifest(`s${i}`, i % 2 ? 'ünïcode' : ''));
        return [path, `s${i}.yaml`] as const;
      });
      const plain = await loadFiles(files, { workers: 2 });
      const compact = await loadFiles(files, { workers: 2, compactTexts: true });
      assert.equal(compact.length, 30);
      compact.forEach((f, i) => {
        assert.ok(!Object.getOwnPropertyDescriptor(f, 'text')?.value, 'held compactly');
        assert.deepEqual(comparable(f), comparable(plain[i]));
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rebuilds a file a worker posted with its text deflated, and one posted with its span names kept', () => {
    for (const extra of ['plain', 'café 🚀']) {
      const text = manifest('web', extra);
      const want = loadFile('web.yaml', text);
      const posted = withTextDeflated(dropSpanNames(serializeLoadedFile(loadFile('web.yaml', text))));
      assert.equal(posted.text, '', 'the text crosses deflated only');
      assert.equal(posted.textLength, text.length);
      assert.ok(transferables(posted).includes(posted.deflatedText!.buffer as ArrayBuffer), 'the deflated text is transferred');
      assert.equal(posted.lineStarts.length, 0, 'the line starts cross deflated too');
      assert.ok(transferables(posted).includes(posted.deflatedLineStarts!.buffer as ArrayBuffer));
      const got = deserializeLoadedFile(structuredClone(posted));
      assert.ok(!Object.getOwnPropertyDescriptor(got, 'text')?.value, 'held compactly');
      assert.equal(got.text, text);
      assert.equal(got.lines.lineCount, want.lines.lineCount);
      assert.equal(got.lines, got.lines, 'the line index is made once');
      assert.deepEqual(got.lines.position(text.indexOf('nodePort: 30039')), want.lines.position(text.indexOf('nodePort: 30039')));
      assert.deepEqual(comparable(got), comparable(want));
      const named = deserializeLoadedFile(structuredClone(serializeLoadedFile(loadFile('web.yaml', text))), null, true);
      assert.equal(named.objects[0].span.file, 'web.yaml');
      assert.deepEqual(comparable(named), comparable(want));
    }
    const short = serializeLoadedFile(loadFile('s.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n'));
    assert.equal(withTextDeflated(short), short, 'a short text crosses as a string');
  });

  it('keeps texts compact and pools strings only from leanFromBytes on, with the same files either side', async function () {
    this.timeout(120_000); // two loads on worker threads, on a crowded machine
    const dir = mkdtempSync(join(tmpdir(), 'knl-lean-'));
    try {
      const texts = Array.from({ length: 30 }, (_, i) => manifest(`s${i}`, i % 2 ? 'ünïcode 🚀' : ''));
      const files = texts.map((text, i) => {
        const path = join(dir, `s${i}.yaml`);
        writeFileSync(path, text);
        return [path, `s${i}.yaml`] as const;
      });
      const total = texts.reduce((n, text) => n + Buffer.byteLength(text), 0);
      const below = await loadFiles(files, { workers: 2, compactTexts: true, leanFromBytes: total + 1 });
      const at = await loadFiles(files, { workers: 2, compactTexts: true, leanFromBytes: total });
      texts.forEach((text, i) => {
        const want = comparable(loadFile(`s${i}.yaml`, text));
        assert.equal(Object.getOwnPropertyDescriptor(below[i], 'text')?.value, text, 'below the threshold: a plain text');
        assert.ok(!Object.getOwnPropertyDescriptor(at[i], 'text')?.value, 'at the threshold: held compactly');
        assert.equal(at[i].text, text);
        assert.equal(below[i].objects[0].span.file, `s${i}.yaml`);
        assert.deepEqual(comparable(below[i]), want);
        assert.deepEqual(comparable(at[i]), want);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
