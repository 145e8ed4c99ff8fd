import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFile, type LoadedFile } from '../../server/out/core/load/load-file';
import { withCompactText } from '../../server/out/node/compact-text';
import { loadFiles } from '../../server/out/node/parallel-load';

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
});
