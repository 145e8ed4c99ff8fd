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
      'settings (kubeNetlint): \'nodePortRange\': "31000-30000" must be MIN-MAX with 1 <= MIN <= MAX <= 65535',
      'settings (kubeNetlint): \'rules.no-such-rule\': unknown rule id ("kube-netlint rules" lists them)',
      'settings (kubeNetlint): \'rules.hostport-usage\': must be off, error, warning, info or hint (got "loud")',
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
  });

  it('reports a broken config file with its name and line, and falls back to the editor settings', () => {
    writeFileSync(join(dir, '.kube-netlint.yaml'), 'rules:\n  nodeport-duplicate: sometimes\n');
    const folder = resolveFolderConfig(dir, { rules: { 'nodeport-duplicate': 'info' } });
    assert.deepEqual(folder.config.rules, { 'nodeport-duplicate': 'info' });
    assert.deepEqual(folder.problems, [`${join(dir, '.kube-netlint.yaml')}:2: 'rules.nodeport-duplicate': must be off, error, warning, info or hint (got "sometimes")`]);
  });
});
