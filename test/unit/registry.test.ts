import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRules } from '../../server/out/core/rules/index';
import { renderRuleDoc, renderRuleIndex } from '../../server/out/core/rules/rule-docs';

const ROOT = join(__dirname, '..', '..');

// Completeness gates: every rule has metadata, its own file, a test file and an up-to-date docs page.
describe('rule registry', () => {
  it('has unique kebab-case ids, sorted', () => {
    const ids = allRules.map((r) => r.id);
    assert.deepEqual(ids, [...new Set(ids)].sort());
    for (const id of ids) assert.match(id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
  for (const rule of allRules) {
    describe(rule.id, () => {
      it('has a title, a severity, an explanation and sources', () => {
        assert.ok(rule.title.length > 5);
        assert.ok(['error', 'warning', 'info', 'hint'].includes(rule.severity));
        assert.ok(rule.explanation.length > 80, 'explanation too short');
        assert.ok(rule.sources.length > 0, 'no sources');
      });
      it('lives in its own file', () => assert.ok(existsSync(join(ROOT, 'server', 'src', 'core', 'rules', `${rule.id}.ts`))));
      it('has a test file', () => assert.ok(existsSync(join(ROOT, 'test', 'rules', `${rule.id}.test.ts`)), `test/rules/${rule.id}.test.ts missing`));
      it('has an up-to-date docs page (npm run docs)', () => {
        const path = join(ROOT, 'docs', 'rules', `${rule.id}.md`);
        assert.ok(existsSync(path), `docs/rules/${rule.id}.md missing: run npm run docs`);
        assert.equal(readFileSync(path, 'utf8'), renderRuleDoc(rule), `docs/rules/${rule.id}.md is stale: run npm run docs`);
      });
    });
  }
  it('has an up-to-date docs index', () => {
    assert.equal(readFileSync(join(ROOT, 'docs', 'rules', 'README.md'), 'utf8'), renderRuleIndex(allRules));
  });
});
