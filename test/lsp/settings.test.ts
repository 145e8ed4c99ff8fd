import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorConfig, resolveFolderConfig } from '../../server/out/lsp/settings';

describe('lsp settings: editor settings and .kube-netlint.yaml', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kube-netlint-settings-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each editor setting on its own: a bad value is reported, the others still apply', () => {
    const problems: string[] = [];
    const config = editorConfig({ nodePortRange: '31000-30000', kubeProxyMode: 'ipvs', rules: { 'nodeport-duplicate': 'warning', 'no-such-rule': 'off', 'hostport-usage': 'loud' }, exclude: ['vendor/**'], trace: { server: 'verbose' } }, problems);
    assert.deepEqual(config, { kubeProxyMode: 'ipvs', rules: { 'nodeport-duplicate': 'warning' }, exclude: ['vendor/**'] });
    assert.deepEqual(problems, [
      'settings (kubeNetlint): \'nodePortRange\': "31000-30000" must be MIN-MAX with 1 <= MIN <= MAX <= 65535 (this setting is ignored)',
      'settings (kubeNetlint): \'rules.no-such-rule\': unknown rule id ("kube-netlint rules" lists them) (this setting is ignored)',
      'settings (kubeNetlint): \'rules.hostport-usage\': must be off, error, warning, info or hint (got "loud") (this setting is ignored)',
    ]);
  });

  it('treats an empty nodePortRange and kubeProxyMode "auto" as "take it from the workspace"', () => {
    const problems: string[] = [];
    assert.deepEqual(editorConfig({ nodePortRange: '', kubeProxyMode: 'auto' }, problems), {});
    assert.deepEqual(problems, []);
  });

  it('lets .kube-netlint.yaml win for the keys it sets and keeps the editor\'s other keys', () => {
    writeFileSync(join(dir, '.kube-netlint.yaml'), 'nodePortRange: 20000-22767\nexclude: [generated/**]\n');
    const folder = resolveFolderConfig(dir, { nodePortRange: '30000-32767', kubeProxyMode: 'nftables', exclude: ['vendor/**'] });
    assert.deepEqual(folder.config.nodePortRange, { min: 20000, max: 22767 });
    assert.equal(folder.config.kubeProxyMode, 'nftables');
    assert.deepEqual(folder.config.exclude, ['generated/**']);
    assert.equal(folder.configFile, join(dir, '.kube-netlint.yaml'));
    assert.equal(folder.baseDir, dir);
    assert.deepEqual(folder.problems, []);
    // Messages name where each value came from, as the CLI's do.
    assert.deepEqual(folder.config.settingSources, { nodePortRange: 'nodePortRange in .kube-netlint.yaml', kubeProxyMode: 'kubeNetlint.kubeProxyMode setting' });
    assert.deepEqual(resolveFolderConfig(join(dir, 'sub'), {}).config.settingSources, { nodePortRange: `nodePortRange in ${join('..', '.kube-netlint.yaml')}`, kubeProxyMode: undefined });
  });

  it('reports a broken config file with its name and line, and falls back to the editor settings', () => {
    writeFileSync(join(dir, '.kube-netlint.yaml'), 'rules:\n  nodeport-duplicate: sometimes\n');
    const folder = resolveFolderConfig(dir, { rules: { 'nodeport-duplicate': 'info' } });
    assert.deepEqual(folder.config.rules, { 'nodeport-duplicate': 'info' });
    assert.deepEqual(folder.problems, [`${join(dir, '.kube-netlint.yaml')}:2: 'rules.nodeport-duplicate': must be off, error, warning, info or hint (got "sometimes") (this rule setting is ignored; the rest of the file applies)`]);
  });

  it('ignores only the bad value of .kube-netlint.yaml and keeps the rest of the file, saying so', () => {
    writeFileSync(join(dir, '.kube-netlint.yaml'), 'kubeProxyMode: IPVS\nrules:\n  nodeport-duplicate: warning\n  hostport-usage: sometimes\nnamespace: shop\n');
    const folder = resolveFolderConfig(dir, { kubeProxyMode: 'nftables', rules: { 'hostport-usage': 'off' } });
    assert.equal(folder.config.kubeProxyMode, 'nftables', 'the bad kubeProxyMode falls back to the editor setting');
    assert.equal(folder.config.settingSources?.kubeProxyMode, 'kubeNetlint.kubeProxyMode setting');
    assert.deepEqual(folder.config.rules, { 'nodeport-duplicate': 'warning', 'hostport-usage': 'off' });
    assert.equal(folder.config.namespace, 'shop');
    const file = join(dir, '.kube-netlint.yaml');
    assert.deepEqual(folder.problems, [
      `${file}:1: 'kubeProxyMode': must be one of iptables, ipvs, nftables (got "IPVS") ('kubeProxyMode' is ignored; the rest of the file applies)`,
      `${file}:4: 'rules.hostport-usage': must be off, error, warning, info or hint (got "sometimes") (this rule setting is ignored; the rest of the file applies)`,
    ]);
  });

  it('says the config file is not used when it is not one YAML mapping', () => {
    writeFileSync(join(dir, '.kube-netlint.yaml'), 'rules:\n  nodeport-duplicate: [off\n');
    const folder = resolveFolderConfig(dir, { rules: { 'nodeport-duplicate': 'info' } });
    assert.deepEqual(folder.config.rules, { 'nodeport-duplicate': 'info' });
    assert.equal(folder.problems.length, 1);
    assert.match(folder.problems[0], new RegExp(`^${join(dir, '.kube-netlint.yaml').replace(/[.]/g, '\\.')}:\\d+: not valid YAML: .* \\(the config file is not used\\)$`));
  });
});
