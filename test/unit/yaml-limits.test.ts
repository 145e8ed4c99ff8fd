import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { IncrementalFile } from '../../server/out/core/load/incremental-file';
import { loadFile, PARSE_OPTIONS } from '../../server/out/core/load/load-file';
import { MAX_NESTING_DEPTH, parseYamlValue } from '../../server/out/core/load/parse-documents';
import { cpuTimed } from '../helpers/cpu-time';
import { lint } from '../helpers/lint';

const ROOT = join(__dirname, '..', '..');
const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30080}]}\n';
/** A document of `depth` nested flow sequences: `[[[…]]]`. */
const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}\n`;
const timed = cpuTimed;

// Bounds here are generous and in CPU time (a loaded CI machine): they guard the complexity class, the benchmark records the time.
describe('YAML limits: aliases and nesting', () => {
  it('resolves 20,000 aliases of a kind: List in linear time (items `- *a`; took minutes when each alias walked the document)', () => {
    const items = ['- &a {apiVersion: v1, kind: ConfigMap, metadata: {name: shared}, data: {k: v}}', ...Array(19_999).fill('- *a')];
    const text = `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`;
    const [f, ms] = timed(() => loadFile('list.yaml', text));
    assert.equal(f.objects.length, 20_000);
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.objects[19_999].raw, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { k: 'v' } });
    // The last item's span is its alias, where it is written.
    assert.equal(text.slice(f.objects[19_999].extent.start, f.objects[19_999].extent.end), '*a');
    assert.ok(ms < 8000, `took ${ms} ms`);
  });

  it('resolves aliases inside 5,000 list items in linear time (took about a minute for 2,000)', () => {
    const items = ['- {apiVersion: v1, kind: ConfigMap, metadata: &m {name: shared, labels: {app: x}}}', ...Array(4_999).fill('- {apiVersion: v1, kind: ConfigMap, metadata: *m}')];
    const [f, ms] = timed(() => loadFile('list.yaml', `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`));
    assert.equal(f.objects.length, 5_000);
    assert.deepEqual(f.objects[4_999].labels, { app: 'x' });
    assert.deepEqual(f.objects[4_999].raw.metadata, { name: 'shared', labels: { app: 'x' } });
    assert.ok(ms < 8000, `took ${ms} ms`);
  });

  it('reads aliases, merge keys and anchors exactly as yaml toJS does (raw), including the alias-bomb limit', () => {
    const text = [
      'apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: m, labels: &l {a: "1", b: "2"}, annotations: {<<: *l, b: "3", "<<": quoted}}',
      'data:', '  base: &base {x: 1, w: [1, 2, &n 3]}', '  merged: {<<: [*base, {z: 4}], x: 0}', '  alias: *n', '  seq: &s [a, *n]', '  again: *s',
      '  nulls: {~: 1, n: null}', '  nums: {1: one, 0x10: hex, yes: on}', '  self: &self {inner: 1}',
    ].join('\n');
    const doc = parseAllDocuments(text, PARSE_OPTIONS)[0];
    const f = loadFile('m.yaml', text);
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.objects[0].raw, doc.toJS({ maxAliasCount: 100 }));
    assert.deepEqual((f.objects[0].raw.data as Record<string, unknown>).merged, { x: 0, w: [1, 2, 3], z: 4 });
  });

  it('refuses a document nested deeper than the limit with a yaml-syntax error at its line, and reads the other documents', () => {
    // Two such documents aborted Node (`FATAL ERROR: RegExpCompiler Allocation failed`, exit 134) inside yaml's composer.
    const text = `${nested(900)}---\n${nested(900)}---\n${SERVICE}`;
    const f = loadFile('deep.yaml', text);
    assert.deepEqual(f.problems.map((p) => [p.code, f.lines.position(p.span.start).line, f.lines.position(p.span.start).column]), [
      ['NESTING_TOO_DEEP', 1, MAX_NESTING_DEPTH + 1],
      ['NESTING_TOO_DEEP', 3, MAX_NESTING_DEPTH + 1],
    ]);
    assert.match(f.problems[0].message, new RegExp(`nested more than ${MAX_NESTING_DEPTH} levels`));
    assert.deepEqual(f.objects.map((o) => `${o.kind} ${o.name} #${o.docIndex}`), ['Service web #2']);
    const syntax = lint({ 'deep.yaml': text }).findings.filter((x) => x.ruleId === 'yaml-syntax');
    assert.deepEqual(syntax.map((x) => [x.file, x.line]), [['deep.yaml', 1], ['deep.yaml', 3]]);
  });

  it('reads a document exactly at the nesting limit, block or flow', () => {
    // A top-level flow list is read (not refused for its depth); it only gets the "not an object" note.
    assert.deepEqual(loadFile('ok.yaml', nested(MAX_NESTING_DEPTH)).problems.map((p) => p.code), ['OBJECT_NOT_MAPPING']);
    const block = Array.from({ length: MAX_NESTING_DEPTH }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' v\n';
    assert.deepEqual(loadFile('block.yaml', block).problems, []);
    const deeper = Array.from({ length: MAX_NESTING_DEPTH + 1 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' v\n';
    assert.deepEqual(loadFile('block.yaml', deeper).problems.map((p) => p.code), ['NESTING_TOO_DEEP']);
  });

  it('never composes a too-deep document in the language server re-parse or in embedded YAML', () => {
    const file = new IncrementalFile('deep.yaml', `${SERVICE}---\n${nested(400)}`);
    assert.deepEqual(file.loaded.problems.map((p) => p.code), ['NESTING_TOO_DEEP']);
    const u = file.update(`${SERVICE}---\n${nested(401)}`);
    assert.deepEqual(u.loaded.problems.map((p) => p.code), ['NESTING_TOO_DEEP']);
    assert.equal(u.loaded.objects.length, 1);
    assert.throws(() => parseYamlValue(`mode: ipvs\nx: ${nested(900)}`), /nested more than/);
    assert.deepEqual(parseYamlValue('mode: ipvs\n'), { mode: 'ipvs' });
  });

  it('the CLI reports two 900-deep documents (3.6 KB) as yaml-syntax errors and exits 1, not 134', () => {
    const dir = mkdtempSync(join(tmpdir(), 'knl-deep-'));
    try {
      writeFileSync(join(dir, 'deep.yaml'), `${nested(900)}---\n${nested(900)}`);
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'kube-netlint.js'), 'deep.yaml'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stdout, /^deep\.yaml:1:257: error yaml-syntax: collections nested more than 256 levels/m);
      assert.match(r.stdout, /^deep\.yaml:3:257: error yaml-syntax/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
