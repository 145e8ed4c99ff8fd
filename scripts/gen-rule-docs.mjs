// Writes docs/rules/<id>.md and docs/rules/README.md from the rule registry's metadata.
// Run through `npm run docs` (which builds first). test/unit/registry.test.ts fails when the pages are stale.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { allRules } = require('../server/out/core/rules/index.js');
const { renderRuleDoc, renderRuleIndex } = require('../server/out/core/rules/rule-docs.js');

mkdirSync('docs/rules', { recursive: true });
const wanted = new Set(allRules.map((r) => `${r.id}.md`).concat('README.md'));
for (const f of readdirSync('docs/rules')) if (!wanted.has(f)) rmSync(`docs/rules/${f}`);
for (const rule of allRules) writeFileSync(`docs/rules/${rule.id}.md`, renderRuleDoc(rule));
writeFileSync('docs/rules/README.md', renderRuleIndex(allRules));
console.log(`wrote ${allRules.length} rule pages to docs/rules/`);
