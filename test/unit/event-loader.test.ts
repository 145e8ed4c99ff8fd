import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeFromEvents } from '../../server/out/core/load/event-compose';
import { MAX_NESTING_DEPTH } from '../../server/out/core/load/parse-documents';
import { IncrementalFile } from '../../server/out/core/load/incremental-file';
import { loadFile } from '../../server/out/core/load/load-file';
import { loadedFileDifference } from '../helpers/loaded-diff';
import { sharedDir } from '../helpers/shared';
import { manifestFile, mutate, Random } from '../helpers/yaml-fuzz';

const repo = join(__dirname, '..', '..');

function yamlFiles(root: string): string[] {
  try {
    return readdirSync(root, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(root, f));
  } catch {
    return [];
  }
}

interface Tally {
  compared: number;
  objects: number;
  fast: number;
  declined: Map<string, number>;
  differences: string[];
}

/** Loads `text` with both parsers and records whether the LoadedFiles differ and why the fast path declined. */
function compare(tally: Tally, name: string, text: string): void {
  const declined = composeFromEvents(text).declined;
  if (declined) tally.declined.set(declined, (tally.declined.get(declined) ?? 0) + 1);
  else tally.fast++;
  const expected = loadFile(name, text, { parser: 'yaml' });
  const actual = loadFile(name, text, { parser: 'events' });
  tally.compared++;
  tally.objects += expected.objects.length;
  const difference = loadedFileDifference(expected, actual);
  if (difference && tally.differences.length < 10) tally.differences.push(`${name}: ${difference}`);
}

const newTally = (): Tally => ({ compared: 0, objects: 0, fast: 0, declined: new Map(), differences: [] });
const summary = (t: Tally): string =>
  `${t.compared} files, ${t.objects} objects; composed from events: ${t.fast}; left to yaml: ${[...t.declined].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`;

// The loader composes documents from js-yaml's events and leaves what it does not reproduce exactly to `yaml`;
// either way the LoadedFile (objects, raw, paths, spans, problems, suppressions, lines) must be the one `yaml` gives.
describe('loader: documents from js-yaml events equal yaml\'s, file by file', function () {
  this.timeout(180_000);

  it('on every corpus: examples, fixtures, shared cases, real manifests, gitops trees and a generated workspace', () => {
    const shared = sharedDir();
    const generated = mkdtempSync(join(tmpdir(), 'knl-events-'));
    try {
      const gen = spawnSync(process.execPath, [join(repo, 'bench', 'gen-corpus.mjs'), '--preset', 'small', '--out', generated, '--force', '--quiet'], { encoding: 'utf8' });
      assert.equal(gen.status, 0, gen.stderr);
      const roots = [join(repo, 'examples'), join(repo, 'test', 'fixtures'), generated, ...(shared ? [join(shared, 'cases'), join(shared, 'corpus')] : [])];
      const tally = newTally();
      for (const file of roots.flatMap(yamlFiles)) compare(tally, file, readFileSync(file, 'utf8'));
      console.log(`      ${summary(tally)}`);
      assert.deepEqual(tally.differences, []);
      assert.ok(tally.compared > 400 && tally.objects > 1000, summary(tally));
      // The fast path must carry the corpora: every file it declines is one `yaml` refuses too or a rare construct.
      assert.ok(tally.fast > tally.compared * 0.75, summary(tally));
    } finally {
      rmSync(generated, { recursive: true, force: true });
    }
  });

  it('on 1,200 generated files, about 3,000 documents (anchors, merge keys, flow and block styles, quoting, comments, edits, CRLF, BOM, tabs)', () => {
    const tally = newTally();
    for (const seed of [1, 2, 3]) {
      const random = new Random(seed);
      for (let n = 0; n < 400; n++) compare(tally, `gen-${seed}-${n}.yaml`, manifestFile(random, n));
    }
    console.log(`      ${summary(tally)}`);
    assert.deepEqual(tally.differences, []);
    assert.ok(tally.fast > 400 && tally.objects > 1800, summary(tally));
  });

  it('on odd YAML: tabs, CRLF, BOM, flow collections, multi-line and block scalars, tags, explicit keys, merge lists, comment-only documents, deep nesting, alias counts', () => {
    const head = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n';
    const nested = (depth: number): string => `${head}spec:\n${Array.from({ length: depth }, (_, i) => `${' '.repeat(2 + 2 * i)}k${i}:\n`).join('')}${' '.repeat(2 + 2 * depth)}port: 1\n`;
    const odd: Record<string, string> = {
      'tab indentation': `${head}spec:\n\tports:\n  - port: 80\n`,
      'tab in a value': `${head}spec:\n  ports:\n  - port: 80\t# c\n    name: "a\tb"\n`,
      'CRLF': `${head}spec:\n  ports:\n  - port: 80 # c\n    nodePort: 30080\n  x: |\n    a\n\n  y: >-\n    b\n`.replace(/\n/g, '\r\n'),
      'CRLF and LF mixed': `${head}spec:\r\n  type: NodePort\n  ports:\r\n  - port: 1\n`,
      'lone CR': `${head}spec:\r  type: x\n`,
      'BOM': `\uFEFF${head}spec:\n  ports:\n  - port: 80\n`,
      'flow collections over lines': `${head}spec: {ports: [{port: 80, nodePort: 30080}, {port: 81,\n    nodePort: 30081}], type: NodePort}\n`,
      'flow trailing commas': `${head}spec: {ports: [{port: 80, nodePort: 30080,},], type: NodePort,}\n`,
      'flow closed at the parent indentation': `${head}spec:\n  ports: [\n    {port: 80},\n    {port: 81}\n  ]\n`,
      'flow pair in a sequence': `${head}spec:\n  ports: [port: 80]\n`,
      'flow comment': `${head}spec: {a: 1, # c\n  b: 2}\n`,
      'flow implicit null': `${head}spec: {a, b: 1}\n`,
      'multi-line plain': `${head}data:\n  a: one\n    two\n\n    three\n  b: x\n`,
      'multi-line double-quoted': `${head}data:\n  a: "one\n    two \\\n    three"\n`,
      'multi-line single-quoted': `${head}data:\n  a: 'one\n\n    two'''\n`,
      'block scalar indentation indicator': `${head}data:\n  a: |2\n     x\n    y\n  b: >2-\n      x\n    y\n`,
      'block scalar keep and strip': `${head}data:\n  a: |+\n    x\n\n\n  b: |-\n    y\n\n\n  c: 1\n`,
      'block scalar leading empty lines': `${head}data:\n  a: |\n\n    x\n  b: |\n      \n    y\n`,
      'block scalar header comment, no final newline': `${head}data:\n  a: | # c\n    x\n  # after\n  b: |\n    x`,
      '--- and # inside block scalars': `${head}data:\n  a: |\n    ---\n    # not a comment\n---\n${head}`,
      '--- inside a quoted scalar': `${head}data:\n  a: "x\n---\n  y"\n`,
      'tags': `${head}spec:\n  ports:\n  - port: !!int "80"\n    name: !!str 80\n    nodePort: !!float 30080\n  x: !custom {a: 1}\n`,
      'explicit key': `${head}spec:\n  ? ports\n  : - port: 80\n`,
      'complex key': `${head}spec:\n  ? [a, b]\n  : 1\n`,
      'merge key lists of aliased maps': `apiVersion: v1\nkind: Service\nmetadata: &m\n  name: s\n  labels: &l {a: b}\nspec:\n  ports:\n  - &p1\n    port: 80\n  - <<: [*p1, *l]\n    name: x\n  - <<:\n    - *p1\n    port: 81\n`,
      'merge of a map that merges': `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nbase: &b\n  port: 80\n  inner: &i\n    <<: *b\n    x: 1\nspec:\n  ports:\n  - <<: *i\n  - <<: {port: 82}\n    port: 83\n`,
      'merge of a scalar, quoted <<': `b: &b 5\n${head}spec:\n  <<: *b\n  "<<": x\n`,
      'duplicate keys (1.1 spellings)': `${head}data:\n  1: a\n  0x1: b\n  yes: c\n  true: d\n`,
      'anchors on keys, aliases as keys': `${head}data:\n  &k a: 1\n  *k : 2\n`,
      'undefined alias': `${head}data:\n  a: *nope\n`,
      'comment-only documents': `# just a comment\n---\n# only comment\n---\n${head}---\n# trailing\n`,
      'comment-only file': '# one\n# two\n',
      'empty documents and end markers': `---\n---\n${head}...\n---\n${head}---\n`,
      'directives': `%YAML 1.1\n---\n${head}`,
      'empty values with comments': `${head}spec:\n  a:\n  b: ~\n  c:\n  # comment\n  d:\n`,
      'last empty value of a document, comments, next document': `${head}b:  # x1\n\n# more\n---\n${head}c:\n  # x\n\n--- # d\n${head}`,
      'empty sequence items': `${head}spec:\n  ports:\n  -\n  - # c\n  - port: 1\n`,
      'syntax errors': `${head}spec:\n  ports:\n  - port: 80\n   name: x\n---\n${head}spec: [a, b\n`,
      'unicode and escapes': `${head}data:\n  ünï: "çödé 💥 \\x41\\u00e9\\N\\_\\L\\P\\e"\n  k: 💥 plain\n  "\\ud83d\\udca5": a\n  l: b\u2028c\n`,
      'YAML 1.1 scalars': `${head}data:\n  a: 0b1010\n  b: 0o17\n  c: 017\n  d: 1_000\n  e: 1:20\n  f: .Inf\n  g: -.nan\n  h: Yes\n  i: oN\n  j: 2024-01-01\n  k: 190:20:30.15\n  l: y\n  m: NO\n  n: ~\n`,
      'Go integer prefixes': `${head}data:\n  a: 0O17\n  b: 0X1f\n  c: 0B11\n  d: +0o1_7\n  e: 0_o17\n  f: -0x_1\n  g: 0o8\n  h: 0o\n  i: 0b_\n  j: 1:20:30\n  k: 0_\n`,
      'nesting one below the limit': nested(MAX_NESTING_DEPTH - 3),
      'nesting at the limit': nested(MAX_NESTING_DEPTH - 2),
      'nesting over the limit': nested(MAX_NESTING_DEPTH + 5),
      'flow nesting over the limit, then a document': `${head}spec: ${'['.repeat(MAX_NESTING_DEPTH + 1)}${']'.repeat(MAX_NESTING_DEPTH + 1)}\n---\n${head}`,
      'alias bomb': `a0: &a0 [x]\n${Array.from({ length: 4 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]\n`).join('')}${head}data:\n  z: *a4\n`,
      '101 aliases in a List': `apiVersion: v1\nkind: List\nx: &a {apiVersion: v1, kind: ConfigMap, metadata: {name: q}}\nitems:\n${'- *a\n'.repeat(101)}`,
    };
    const tally = newTally();
    for (const [name, text] of Object.entries(odd)) compare(tally, `${name}.yaml`, text);
    console.log(`      ${summary(tally)}`);
    assert.deepEqual(tally.differences, []);
    // Many of these are composed from events (not all declined), so the equality above tests the composer too.
    assert.ok(tally.fast >= 20, summary(tally));
  });
  // The language server re-parses only the edited document of a file (IncrementalFile), from js-yaml's events too,
  // leaving the document to `yaml` when the composer declines it: after every edit the LoadedFile must still be
  // the one `yaml` gives for the whole new text.
  it('in the editor\'s one-document re-parse: random edits of generated multi-document files equal yaml\'s whole-file load', () => {
    const parsers = new Map<string, number>();
    const differences: string[] = [];
    let edits = 0;
    for (const seed of [11]) {
      const random = new Random(seed);
      for (let n = 0; n < 60; n++) {
        // Several documents, so that most edits stay inside one of them.
        let text = Array.from({ length: 4 }, (_, i) => manifestFile(random, n * 4 + i).replace(/^\uFEFF/, '')).map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n');
        const name = `inc-${seed}-${n}.yaml`;
        const inc = new IncrementalFile(name, text);
        for (let e = 0; e < 8; e++) {
          text = random.chance(0.5) ? mutate(random, text) : insertNewline(random, text);
          const update = inc.update(text);
          const how = update.reparsed === 'document' ? `document (${update.parser})` : update.reparsed;
          parsers.set(how, (parsers.get(how) ?? 0) + 1);
          edits++;
          const difference = loadedFileDifference(loadFile(name, text, { parser: 'yaml' }), update.loaded);
          if (difference && differences.length < 10) differences.push(`${name} edit ${e}: ${difference}`);
        }
      }
    }
    const summary = `${edits} edits: ${[...parsers].map(([k, v]) => `${k} ${v}`).join(', ')}`;
    console.log(`      ${summary}`);
    assert.deepEqual(differences, []);
    assert.ok((parsers.get('document (events)') ?? 0) > 50 && (parsers.get('document (yaml)') ?? 0) > 50, summary);
  });
});

/** `text` with a line break inserted at the start of a random line (what the editor benchmark types). */
function insertNewline(random: Random, text: string): string {
  const at = text.lastIndexOf('\n', random.int(text.length)) + 1;
  return text.slice(0, at) + '\n' + text.slice(at);
}
