import { strict as assert } from 'node:assert';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { IncrementalFile } from '../../server/out/core/load/incremental-file';
import { loadFile } from '../../server/out/core/load/load-file';
import { ChangedRanges } from '../../server/out/lsp/changed-ranges';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loadedFileDifference } from '../helpers/loaded-diff';
import { manifestFile, Random } from '../helpers/yaml-fuzz';

type Change = Extract<TextDocumentContentChangeEvent, { range: unknown }>;

/** The 0-based LSP position of a UTF-16 offset (`\r\n`, `\n` and a lone `\r` end lines, as in the editor). */
function positionOf(text: string, offset: number): { line: number; character: number } {
  return TextDocument.create('file:///x', 'yaml', 0, text).positionAt(offset);
}

/** A random range edit of `text`: characters typed or deleted, a line break, a line removed, a `---` line added or cut. */
function randomChange(random: Random, text: string): { change: Change; start: number; end: number; text: string } {
  const at = random.int(text.length + 1);
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const nextLine = text.indexOf('\n', at) + 1 || text.length;
  const pick = random.int(12);
  const [start, end, newText] =
    pick < 4 ? [at, at, random.pick(['x', '8', ' ', ':', '#', '\n', '\r\n', '"'])]
    : pick < 6 ? [at, Math.min(text.length, at + 1 + random.int(3)), '']
    : pick < 8 ? [lineStart, lineStart, '\n']
    : pick === 8 ? [lineStart, nextLine, '']
    : pick === 9 ? [lineStart, lineStart, '---\n']
    : pick === 10 ? [Math.max(0, at - 40), Math.min(text.length, at + 40), random.pick(['', 'a: b\n', '---\nkind: Service\n'])] // may cross a `---`
    : [lineStart, lineStart, '# kube-netlint-disable-next-line nodeport-duplicate\n'];
  // An editor never puts a position between the `\r` and the `\n` of a line end (vscode-languageserver-textdocument moves it before the `\r`).
  const inLineEnd = (o: number): number => (text[o - 1] === '\r' && text[o] === '\n' ? o - 1 : o);
  const [from, to] = [inLineEnd(start), inLineEnd(end)];
  return { change: { range: { start: positionOf(text, from), end: positionOf(text, to) }, text: newText }, start: from, end: to, text: newText };
}

/** `text` after `changes`, applied one after the other by their offsets (each in the text the previous ones left). */
function applied(text: string, changes: readonly { start: number; end: number; text: string }[]): string {
  for (const c of changes) text = text.slice(0, c.start) + c.text + text.slice(c.end);
  return text;
}

describe('edits as the editor sends them (didChange ranges, merged between analyses)', function () {
  this.timeout(120000);

  it('re-parses from the changed ranges to the same LoadedFile as a whole-file load: one or several changes, CRLF, across `---`', () => {
    const differences: string[] = [];
    const how = new Map<string, number>();
    const random = new Random(16);
    for (let n = 0; n < 40; n++) {
      let text = Array.from({ length: 4 }, (_, i) => manifestFile(random, n * 4 + i).replace(/^\uFEFF/, '')).map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n');
      if (n % 3 === 0) text = text.replace(/\r?\n/g, '\r\n');
      const uri = `file:///work/inc-${n}.yaml`;
      const ranges = new ChangedRanges();
      const doc = ranges.create(uri, 'yaml', 1, text);
      const inc = new IncrementalFile(`inc-${n}.yaml`, text);
      for (let e = 0; e < 10; e++) {
        // Several didChange notifications before one analysis, each with one or several changes.
        for (let notes = random.chance(0.7) ? 1 : 2, k = 0; k < notes; k++) {
          const changes: ReturnType<typeof randomChange>[] = [];
          for (let c = random.chance(0.7) ? 1 : 2, i = 0; i < c; i++) changes.push(randomChange(random, applied(doc.getText(), changes)));
          const expected = applied(doc.getText(), changes);
          ranges.update(doc, changes.map((c) => c.change), doc.version + 1);
          assert.equal(doc.getText(), expected);
        }
        text = doc.getText();
        const update = inc.update(text, [], ranges.take(uri));
        how.set(update.reparsed, (how.get(update.reparsed) ?? 0) + 1);
        const difference = loadedFileDifference(loadFile(`inc-${n}.yaml`, text, { parser: 'yaml' }), update.loaded);
        if (difference && differences.length < 10) differences.push(`file ${n} edit ${e}: ${difference}`);
      }
    }
    assert.deepEqual(differences, []);
    // Most edits stay in one document (so the ranges are what the re-parse used).
    assert.ok((how.get('document') ?? 0) > 40, [...how].join(' '));
  });

  it('merges the changes of several didChange notifications into one range, and forgets it after a full-text change or an open', () => {
    const ranges = new ChangedRanges();
    const uri = 'file:///work/a.yaml';
    const doc = ranges.create(uri, 'yaml', 1, 'a: 1\nb: 2\nc: 3\n');
    ranges.update(doc, [{ range: { start: { line: 1, character: 3 }, end: { line: 1, character: 4 } }, text: '20' }], 2); // b: 20
    ranges.update(doc, [{ range: { start: { line: 0, character: 4 }, end: { line: 0, character: 4 } }, text: '0' }, { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: '#' }], 3);
    assert.equal(doc.getText(), 'a: 10\nb: 20\n#c: 3\n');
    // Unchanged: `a: 1` before, `c: 3\n` after.
    assert.deepEqual(ranges.take(uri), { prefix: 4, suffix: 5, previousLength: 15 });
    assert.equal(ranges.take(uri), undefined); // taken
    ranges.update(doc, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }], 4);
    ranges.update(doc, [{ text: 'whole: text\n' }], 5);
    assert.equal(ranges.take(uri), undefined);
    ranges.update(doc, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }], 6);
    ranges.create(uri, 'yaml', 7, 'reopened: 1\n');
    assert.equal(ranges.take(uri), undefined);
  });

  it('compares the texts when a range does not fit the previous text (wrong length or edges)', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: b}\nspec: {ports: [{port: 81}]}\n';
    const inc = new IncrementalFile('f.yaml', text);
    const next = text.replace('port: 81', 'port: 82');
    // A range from another buffer: it would claim the edit sits in the first document.
    const update = inc.update(next, [], { prefix: 3, suffix: 3, previousLength: text.length + 1 });
    assert.equal(loadedFileDifference(loadFile('f.yaml', next), update.loaded), undefined);
    const again = next.replace('name: a', 'name: c');
    // Claims `name: a` unchanged: the code unit before the claimed range differs.
    const wrongEdges = inc.update(again, [], { prefix: again.indexOf('name: c') + 7, suffix: 2, previousLength: next.length });
    assert.equal(loadedFileDifference(loadFile('f.yaml', again), wrongEdges.loaded), undefined);
  });
});
