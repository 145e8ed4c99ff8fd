import { strict as assert } from 'node:assert';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { CoreConfig, DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import { allRules } from '../../server/out/core/rules/index';
import type { Fix } from '../../server/out/core/rules/rule';
import { applyEdits } from '../helpers/lint';
import { sharedDir } from '../helpers/shared';
import { isAlias, isCollection, isMap, isScalar, parseAllDocuments, type Document, type Node } from 'yaml';
import { PARSE_OPTIONS } from '../../server/out/core/load/parse-options';
import { seenFixInputs } from '../helpers/seen-fixes';

// A quick fix must never turn an object the API server accepts into one it refuses, nor change what it does not name:
// applying a fix and linting again may not add a finding of the rules that report what the API server (or kubectl's
// reader) refuses (service-spec-invalid, pod-spec-invalid, object-invalid, yaml-syntax, …, and the nodePort
// allocator's nodeport-duplicate / healthcheck-nodeport-duplicate) in the files the fix edits, and every key and
// value the fix does not edit must read the same after it (otherChangedValues). Checked over
// examples/, each test fixture folder and — in a root hook, once every test file has run — the input of every
// test that linted through test/helpers/lint.ts and got a fix (each rule's positive and negative cases).

const ROOT = resolve(__dirname, '..', '..'); // test-out/unit → the repository root
/** The rules of what the API server refuses. */
const REJECTING = new Set(allRules.filter((r) => r.reportsRejection).map((r) => r.id));
/**
 * The nodePort allocator's refusals (a number another Service holds), counted per rule rather than by message (a fix
 * may change which other Service a message names). Not judged for a fix of a rejected object: once accepted, it may
 * meet the collisions its rejection hid.
 */
const ALLOCATOR = new Set(['nodeport-duplicate', 'healthcheck-nodeport-duplicate']);

/** The .yaml/.yml/.json files below a folder, sorted, relative to it. */
function manifests(dir: string, base = dir): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return manifests(path, base);
    return /\.(ya?ml|json)$/.test(name) ? [relative(base, path)] : [];
  });
}

/**
 * The rejecting findings of a lint of `files`, in the files of `only`, as `rule: message` (with `allocator`, also one
 * `rule` entry per allocator finding): a multiset, as a sorted list.
 */
function rejections(files: ReadonlyMap<string, string>, config: CoreConfig, only: ReadonlySet<string>, allocator: boolean): string[] {
  const loaded = [...files].map(([name, text]) => loadFile(name, text, { defaultNamespace: config.namespace }));
  return analyze(loaded, config)
    .findings.filter((f) => only.has(f.span.file) && (REJECTING.has(f.ruleId) || (allocator && ALLOCATOR.has(f.ruleId))))
    .map((f) => (ALLOCATOR.has(f.ruleId) ? f.ruleId : `${f.ruleId}: ${f.message}`))
    .sort();
}

/** What `after` holds more of than `before` (multisets as sorted lists). */
function added(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  return after.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** A key or value of a parsed document (JSON of a scalar, an alias's target, an empty collection), with its node's range. */
interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The keys and leaf values of every document of `text` in document order, as `yaml` parses them with the loader's
 * options (a document's start is a token too); undefined when a document has errors.
 */
function tokens(text: string): Token[] | undefined {
  const docs = parseAllDocuments(text, PARSE_OPTIONS) as Document.Parsed[] | { errors: unknown[] };
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length)) return undefined;
  const out: Token[] = [];
  const walk = (doc: Document.Parsed, node: unknown, at: [number, number]): void => {
    const range = (node as Node | null)?.range;
    const [start, end] = range ? [range[0], range[1]] : at;
    if (isAlias(node)) out.push({ text: JSON.stringify(node.resolve(doc)?.toJSON() ?? null), start, end });
    else if (isScalar(node)) out.push({ text: JSON.stringify(node.value), start, end });
    else if (isCollection(node) && node.items.length) {
      for (const item of node.items) {
        if (!isMap(node)) {
          walk(doc, item, [start, end]);
          continue;
        }
        const pair = item as { key: unknown; value: unknown };
        const key = (pair.key as Node | null)?.range;
        const keyAt: [number, number] = key ? [key[0], key[1]] : [start, end];
        out.push({ text: `key ${JSON.stringify(isScalar(pair.key) ? pair.key.value : (pair.key as Node | null)?.toJSON())}`, start: keyAt[0], end: keyAt[1] });
        walk(doc, pair.value, keyAt);
      }
    } else out.push({ text: isMap(node) ? '{}' : isCollection(node) ? '[]' : 'null', start, end });
  };
  for (const d of docs) {
    out.push({ text: '---', start: d.range[0], end: d.range[0] });
    walk(d, d.contents, [d.range[0], d.range[1]]);
  }
  return out;
}

/**
 * What a fix changes in one file besides what it edits: the keys and values whose nodes meet no edit (before) nor
 * any edit's new text (after) must be the same, in the same order, as `before → after` at the first difference. A
 * fix must change only what it names: replacing a block scalar together with its line break, for one, joins the
 * next line to the new value. Files that did not parse before are not judged.
 */
function otherChangedValues(text: string, edits: readonly Fix['edits'][number][]): string[] {
  const before = tokens(text);
  if (!before) return [];
  const after = tokens(applyEdits(text, edits));
  if (!after) return ['the edited text does not parse'];
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start);
  let shift = 0;
  const written = sorted.map((e) => {
    const start = e.span.start + shift;
    shift += e.newText.length - (e.span.end - e.span.start);
    return { start, end: start + e.newText.length };
  });
  const untouched = (list: Token[], spans: readonly { start: number; end: number }[]): Token[] => list.filter((t) => !spans.some((s) => t.start <= s.end && s.start <= t.end));
  const [was, now] = [untouched(before, sorted.map((e) => e.span)), untouched(after, written)];
  const i = was.findIndex((t, k) => t.text !== now[k]?.text);
  if (i < 0 && was.length === now.length) return [];
  const at = i < 0 ? was.length : i;
  return [`${was[at]?.text ?? '(nothing)'} → ${now[at]?.text ?? '(nothing)'}`];
}

/**
 * Applies every quick fix the lint of `files` offers, one at a time, and lints again: each fix whose result gets a
 * rejecting finding its input did not have, as `file: fix title → rule: message`, and each value a fix changes that
 * it does not edit ({@link otherChangedValues}), as `file: fix title changes path: before → after`.
 */
function rejectedFixResults(files: ReadonlyMap<string, string>, config: CoreConfig): string[] {
  const loaded = [...files].map(([name, text]) => loadFile(name, text, { defaultNamespace: config.namespace }));
  const fixes: { fix: Fix; ofRejected: boolean }[] = analyze(loaded, config).findings.flatMap((f) => f.fixes.map((fix) => ({ fix, ofRejected: REJECTING.has(f.ruleId) })));
  const out: string[] = [];
  for (const { fix, ofRejected } of fixes) {
    const edited = new Set(fix.edits.map((e) => e.span.file));
    const after = new Map(files);
    for (const name of edited) after.set(name, applyEdits(files.get(name) ?? '', fix.edits.filter((e) => e.span.file === name)));
    for (const r of added(rejections(files, config, edited, !ofRejected), rejections(after, config, edited, !ofRejected))) out.push(`${[...edited].join(', ')}: ${fix.title} → ${r}`);
    for (const name of edited) for (const c of otherChangedValues(files.get(name) ?? '', fix.edits.filter((e) => e.span.file === name))) out.push(`${name}: ${fix.title} changes ${c}`);
  }
  return out;
}

/** The files of a folder (names relative to it) as one workspace. */
function folder(dir: string): Map<string, string> {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  return new Map(manifests(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

describe('quick fixes never produce an object the API server rejects', function () {
  this.timeout(600_000);

  it('over examples/ as one workspace (the fixes it offers include the externalTrafficPolicy one)', () => {
    const files = folder(join(ROOT, 'examples'));
    const loaded = [...files].map(([name, text]) => loadFile(name, text));
    const titles = analyze(loaded, DEFAULT_CONFIG).findings.flatMap((f) => f.fixes.map((x) => x.title));
    assert.ok(titles.some((t) => t.startsWith('Set externalTrafficPolicy to Cluster and remove healthCheckNodePort 31990')), titles.join('\n'));
    assert.deepEqual(rejectedFixResults(files, DEFAULT_CONFIG), []);
  });

  it('over each test fixture folder and the field cases', () => {
    const shared = sharedDir();
    const dirs = [...readdirSync(join(ROOT, 'test', 'fixtures')).map((d) => join(ROOT, 'test', 'fixtures', d)), ...(shared ? [join(shared, 'cases')] : [])];
    assert.ok(dirs.length >= 4, 'the test fixtures and the shared field cases');
    assert.deepEqual(dirs.flatMap((d) => rejectedFixResults(folder(d), DEFAULT_CONFIG).map((r) => `${relative(ROOT, d)}/${r}`)), []);
  });
});

// A root hook: it runs after every test file of the run, so it sees the inputs of the rule tests (test/rules/*).
// Run alone (this file only), nothing was recorded and there is nothing to check.
after("every quick fix offered on the tests' inputs keeps its object acceptable to the API server", function () {
  this.timeout(600_000);
  const inputs = seenFixInputs();
  const bad = inputs.flatMap((i) => rejectedFixResults(new Map(Object.entries(i.files)), i.config));
  assert.deepEqual(bad, []);
});
