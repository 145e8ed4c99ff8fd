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
import { seenFixInputs } from '../helpers/seen-fixes';

// A quick fix must never turn an object the API server accepts into one it refuses: applying a fix and linting
// again may not add a finding of the rules that report what the API server (or kubectl's reader) refuses
// (service-spec-invalid, pod-spec-invalid, object-invalid, yaml-syntax, …, and the nodePort allocator's
// nodeport-duplicate / healthcheck-nodeport-duplicate) in the files the fix edits. Checked over
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

/**
 * Applies every quick fix the lint of `files` offers, one at a time, and lints again: each fix whose result gets a
 * rejecting finding its input did not have, as `file: fix title → rule: message`.
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
