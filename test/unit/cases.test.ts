import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText } from '../../server/out/node/config-file';
import { ruleIds } from '../../server/out/core/rules/index';
import { lint } from '../helpers/lint';
import { sharedDir } from '../helpers/shared';

// The field cases, read in place from the shared folder (never copied into the repository), each an acceptance
// test: header lines `# expect:` / `# expect-none:` / `# config:` as in shared/cases/README.md.
const CASES = join(sharedDir() ?? join(__dirname, 'no-shared-folder'), 'cases');
const kv = (s: string): Record<string, string> =>
  Object.fromEntries([...s.matchAll(/(\w[\w-]*)=("([^"]*)"|\S+)/g)].map((m) => [m[1], m[3] ?? m[2]]));

describe('field cases (shared/cases)', () => {
  const files = existsSync(CASES) ? readdirSync(CASES).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
  it('has cases', () => assert.ok(files.length >= 15, `only ${files.length} cases found in ${CASES}`));
  for (const name of files) {
    const text = readFileSync(join(CASES, name), 'utf8');
    const head = text.split('\n').filter((l) => l.startsWith('#'));
    const expects = head.filter((l) => l.startsWith('# expect:')).map((l) => kv(l.slice(9)));
    const nones = head.filter((l) => l.startsWith('# expect-none:')).map((l) => kv(l.slice(14)));
    const configText = head.filter((l) => l.startsWith('# config:')).map((l) => l.slice(9).trim()).join('\n');
    for (const e of expects) {
      // A case whose rule does not exist yet is pending, not passing.
      const title = `${name}: ${e.rule} ${e.severity ?? ''} at line ${e.line}${e.contains ? ` mentioning "${e.contains}"` : ''}`;
      if (!ruleIds.has(e.rule)) {
        it.skip(`${title} (rule not implemented yet)`);
        continue;
      }
      it(title, () => {
        const config = parseConfigText(configText, `${name} config`);
        const { findings } = lint({ [name]: text }, { config });
        const ofRule = findings.filter((f) => f.ruleId === e.rule);
        const hit = ofRule.find((f) => String(f.line) === e.line && (!e.severity || f.severity === e.severity) && (!e.contains || f.message.includes(e.contains)));
        assert.ok(hit, `expected ${e.rule} at line ${e.line}; got ${JSON.stringify(ofRule.map((f) => ({ line: f.line, severity: f.severity, message: f.message })), null, 1)}`);
      });
    }
    for (const e of nones) {
      it(`${name}: no ${e.rule}${e.line ? ` at line ${e.line}` : ''}`, () => {
        const config = parseConfigText(configText, `${name} config`);
        const { findings } = lint({ [name]: text }, { config });
        const bad = findings.filter((f) => f.ruleId === e.rule && (!e.line || String(f.line) === e.line));
        assert.deepEqual(bad.map((f) => `${f.line}: ${f.message}`), []);
      });
    }
  }
});
