import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { CoreConfig, DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { parseConfigText } from '../../server/out/node/config-file';
import { readManifestFile } from '../../server/out/node/read-file';
import { sharedDir } from '../helpers/shared';

// The developers' guide: a message is the fact, the consequence and the fix in at most ~300 characters; the
// details belong in the rule's page. These rules had grown past it and were rewritten to fit; this keeps them there.
const MAX = 300;
const RULES = [
  'calico-ip-autodetection', 'externaltrafficpolicy-local-healthcheck', 'externaltrafficpolicy-local-coverage',
  'host-port-conflicts-healthcheck-nodeport', 'healthcheck-nodeport-duplicate', 'kube-proxy-ipvs-nodeport-interfaces',
  'nodeport-out-of-range', 'externalip-is-node-ip', 'kube-proxy-ipvs-strict-arp', 'hostport-usage', 'externalip-usage',
  'hostnetwork-undeclared-ports', 'hostport-conflict',
];

const ROOT = resolve(__dirname, '..', '..'); // test-out/unit → the repository root
const SHARED = sharedDir();

/** The .yaml/.yml files below a folder, sorted. */
function manifests(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return manifests(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** The findings of {@link RULES} longer than {@link MAX}, as `file: (length) message`. */
function tooLong(paths: readonly string[], config: CoreConfig = DEFAULT_CONFIG): string[] {
  const files = paths.map((p) => readManifestFile(p, relative(ROOT, p)));
  const analysis = analyze(files, config);
  return analysis.findings
    .filter((f) => RULES.includes(f.ruleId) && f.message.length > MAX)
    .map((f) => `${f.span.file}: ${f.ruleId} (${f.message.length}) ${f.message}`);
}

/** The `# config:` header lines of a field case as its config. */
function caseConfig(path: string): CoreConfig {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('# config:')).map((l) => l.slice(9).trim());
  return lines.length ? parseConfigText(lines.join('\n'), path) : DEFAULT_CONFIG;
}

describe(`messages of the rewritten rules stay within ${MAX} characters`, () => {
  before(() => assert.ok(SHARED, 'the shared folder (../shared beside the repository, or KUBE_NETLINT_SHARED) is missing'));

  it('checks rules that exist', () => {
    const { allRules } = require('../../server/out/core/rules/index') as typeof import('../../server/out/core/rules/index');
    const ids = new Set(allRules.map((r) => r.id));
    assert.deepEqual(RULES.filter((id) => !ids.has(id)), []);
  });

  it('over examples/ as one workspace', () => {
    const files = manifests(join(ROOT, 'examples'));
    assert.ok(files.length >= 9, `only ${files.length} example files`);
    assert.deepEqual(tooLong(files), []);
  });

  it('over each test fixture folder and each fixture file alone', () => {
    const dirs = readdirSync(join(ROOT, 'test', 'fixtures')).map((d) => join(ROOT, 'test', 'fixtures', d));
    const files = dirs.flatMap(manifests);
    assert.ok(files.length >= 38, `only ${files.length} fixture files`);
    assert.deepEqual([...dirs.flatMap((d) => tooLong(manifests(d))), ...files.flatMap((f) => tooLong([f]))], []);
  });

  it('over each field case with its config, and the cases, examples and real corpus together', () => {
    const cases = manifests(join(SHARED!, 'cases'));
    assert.ok(cases.length >= 15, `only ${cases.length} cases`);
    const together = [...manifests(join(SHARED!, 'corpus', 'real')), ...manifests(join(ROOT, 'examples')), ...cases];
    assert.deepEqual([...cases.flatMap((c) => tooLong([c], caseConfig(c))), ...tooLong(together)], []);
  });

  it('the rules fire on those inputs, so the bound is really checked', () => {
    const together = [...manifests(join(SHARED!, 'corpus', 'real')), ...manifests(join(ROOT, 'examples')), ...manifests(join(SHARED!, 'cases'))];
    const cases = manifests(join(SHARED!, 'cases'));
    const seen = new Set(analyze(together.map((p) => readManifestFile(p, p)), DEFAULT_CONFIG).findings.map((f) => f.ruleId));
    for (const c of cases) for (const f of analyze([readManifestFile(c, c)], caseConfig(c)).findings) seen.add(f.ruleId);
    assert.deepEqual(RULES.filter((id) => !seen.has(id)), []);
  });
});
