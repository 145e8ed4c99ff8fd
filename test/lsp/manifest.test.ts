import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KUBE_PROXY_MODES, SEVERITIES } from '../../server/out/core/config/config';
import { DISABLE_NEXT_LINE } from '../../server/out/core/engine/suppress';

const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('extension manifest (package.json) and injection grammar', () => {
  it('activates on YAML and on JSON (a workspace of Kubernetes *.json manifests only), accepts VS Code 1.100 and runs the bundled client in untrusted workspaces (limited)', () => {
    assert.equal(pkg.main, './dist/extension.js');
    assert.equal(pkg.engines.vscode, '^1.100.0');
    // JSON activates when a JSON file is opened, not on every workspace holding one (package.json, .vscode/*.json).
    assert.deepEqual(pkg.activationEvents, ['onLanguage:yaml', 'workspaceContains:**/*.{yaml,yml}', 'onLanguage:json']);
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.equal(pkg.bin['kube-netlint-language-server'], 'bin/kube-netlint-language-server.js');
  });

  it('contributes the two commands and the settings the server reads, with the core\'s values', () => {
    const commands = pkg.contributes.commands.map((c: { command: string; category: string; title: string }) => `${c.category}: ${c.title} (${c.command})`);
    assert.ok(commands.includes('kube-netlint: Restart Server (kubeNetlint.restartServer)'));
    assert.ok(commands.includes('kube-netlint: Show Output (kubeNetlint.showOutput)'));
    const props = pkg.contributes.configuration.properties;
    assert.deepEqual(props['kubeNetlint.kubeProxyMode'].enum, ['auto', ...KUBE_PROXY_MODES]);
    assert.deepEqual(props['kubeNetlint.rules'].additionalProperties.enum, ['off', ...SEVERITIES]);
    assert.equal(props['kubeNetlint.exclude'].type, 'array');
    assert.equal(props['kubeNetlint.nodePortRange'].type, 'string');
    assert.deepEqual(props['kubeNetlint.trace.server'].enum, ['off', 'messages', 'verbose']);
    const pattern = new RegExp(props['kubeNetlint.nodePortRange'].pattern);
    assert.ok(pattern.test('30000-32767') && pattern.test('') && pattern.test('31000') && !pattern.test('30000-'));
  });

  it('injects a grammar into YAML comments that marks the directive and its rule ids', () => {
    const [grammar] = pkg.contributes.grammars;
    assert.deepEqual(grammar.injectTo, ['source.yaml']);
    const json = JSON.parse(readFileSync(join(ROOT, grammar.path), 'utf8'));
    assert.equal(json.scopeName, grammar.scopeName);
    assert.match(json.injectionSelector, /comment\.line\.number-sign/);
    const directive = new RegExp(json.repository.directive.match);
    const m = directive.exec('# kube-netlint-disable-next-line nodeport-duplicate, hostport-usage  ');
    assert.ok(m);
    assert.equal(m[1], DISABLE_NEXT_LINE);
    const ids = m[2].match(new RegExp(json.repository.directive.captures['2'].patterns[0].match, 'g'));
    assert.deepEqual(ids, ['nodeport-duplicate', 'hostport-usage']);
  });
});
