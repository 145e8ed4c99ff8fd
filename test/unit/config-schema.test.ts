import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../../server/out/core/config/config';
import { allRules, ruleIds } from '../../server/out/core/rules/index';
import { schemaErrors, validator07 } from '../helpers/json-schema';

const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildConfigSchema, SCHEMA_FILE } = require(join(ROOT, 'scripts', 'config-schema.cjs')) as {
  buildConfigSchema: (rules: readonly { id: string; title: string; severity: string }[]) => Record<string, unknown>;
  SCHEMA_FILE: string;
};

/** What parseConfig says about a value: undefined when valid, else the ConfigError's key. */
function parseVerdict(value: unknown): string | undefined {
  try {
    parseConfig(value, '.kube-netlint.yaml', ruleIds);
    return undefined;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.key || '(root)';
  }
}

describe('JSON Schema of .kube-netlint.yaml (schemas/kube-netlint.schema.json)', () => {
  const shipped = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as { properties: Record<string, unknown> };
  const validate = validator07(shipped);

  it('is generated from the config types and the rule registry, and current (`npm run docs`)', function () {
    this.timeout(60000); // the generator type-checks the config types
    assert.deepEqual(shipped, buildConfigSchema(allRules), 'schemas/kube-netlint.schema.json is stale: run `npm run docs`');
  });

  it('has exactly the keys parseConfig knows', () => {
    let known: string[] = [];
    try {
      parseConfig({ 'no-such-key': 1 }, 'x', ruleIds);
    } catch (err) {
      known = /known keys: ([^)]*)\)/.exec((err as Error).message)![1].split(', ');
    }
    assert.deepEqual(Object.keys(shipped.properties).sort(), [...known].sort());
  });

  it('lists every rule id under rules, with its title, so editors complete them', () => {
    const rules = shipped.properties.rules as { anyOf: { type: string; properties?: Record<string, { description: string; enum: string[] }> }[] };
    const map = rules.anyOf.find((s) => s.type === 'object')!;
    assert.deepEqual(Object.keys(map.properties!), allRules.map((r) => r.id));
    assert.equal(map.properties!['nodeport-duplicate'].description, 'nodePort claimed twice (default: error)');
    assert.deepEqual(map.properties!['nodeport-duplicate'].enum, ['error', 'warning', 'info', 'hint', 'off']);
  });

  // Each sample: what the user may write, and whether kube-netlint accepts it.
  const samples: [string, unknown][] = [
    ['an empty mapping', {}],
    ['the README example', {
      nodePortRange: '30000-32767', kubeProxyMode: 'ipvs', namespace: 'default', nodes: [{ name: 'node-1', addresses: ['192.0.2.18'] }],
      cni: ['calico'], exclude: ['vendor/**'], rules: { 'hostport-usage': 'off' }, clusters: { dev: ['envs/dev/**'], prod: ['envs/prod/**'] },
    }],
    ['a size range', { nodePortRange: '30000+2768' }],
    ['nulls for empty keys', { kubeProxyMode: null, nodes: null, cni: null, exclude: null, rules: null, clusters: null }],
    ['a node without addresses', { nodes: [{ name: 'n' }] }],
    ['an unknown key', { nodePortRanges: '30000-32767' }],
    ['a range that is not a range', { nodePortRange: '30000-' }],
    ['a number for the range', { nodePortRange: 30000 }],
    ['an unknown kube-proxy mode', { kubeProxyMode: 'userspace' }],
    ['an empty namespace', { namespace: '' }],
    ['a node without a name', { nodes: [{ addresses: ['192.0.2.1'] }] }],
    ['a node with an unknown key', { nodes: [{ name: 'n', address: '192.0.2.1' }] }],
    ['a string for exclude', { exclude: 'vendor/**' }],
    ['a number in cni', { cni: [1] }],
    ['an unknown rule id', { rules: { 'no-such-rule': 'off' } }],
    ['a bad severity', { rules: { 'hostport-usage': 'loud' } }],
    ['a cluster that is not a list', { clusters: { dev: 'envs/dev/**' } }],
    ['a list at the top', ['nodePortRange']],
  ];
  for (const [what, value] of samples) {
    it(`agrees with parseConfig on ${what}`, () => {
      const byParse = parseVerdict(value) === undefined;
      const errors = schemaErrors(validate, value);
      assert.equal(errors.length === 0, byParse, `parseConfig ${byParse ? 'accepts' : `rejects (${parseVerdict(value)})`}, the schema ${errors.length ? `rejects: ${errors.join('; ')}` : 'accepts'}`);
    });
  }

  it('is looser than parseConfig only where JSON Schema cannot say it (IP addresses, MIN <= MAX)', () => {
    for (const value of [{ nodes: [{ name: 'n', addresses: ['not-an-ip'] }] }, { nodePortRange: '32767-30000' }]) {
      assert.deepEqual(schemaErrors(validate, value), []);
      assert.notEqual(parseVerdict(value), undefined);
    }
  });
});

describe('VS Code settings in package.json', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { withRuleSettings } = require(join(ROOT, 'scripts', 'config-schema.cjs')) as { withRuleSettings: (m: unknown, r: typeof allRules) => unknown };
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { order?: number; pattern?: string; patternErrorMessage?: string; enum?: string[]; enumDescriptions?: string[]; properties?: Record<string, unknown> }> }; menus: { commandPalette: { command: string; when: string }[] }; yamlValidation: { fileMatch: string; url: string }[] };
  };
  const settings = manifest.contributes.configuration.properties;

  it('kubeNetlint.rules lists every rule id (completion in settings.json) and is current (`npm run docs`)', () => {
    assert.deepEqual(Object.keys(settings['kubeNetlint.rules'].properties!), allRules.map((r) => r.id));
    assert.deepEqual(manifest, withRuleSettings(manifest, allRules), 'package.json kubeNetlint.rules is stale: run `npm run docs`');
  });

  it('every setting has an order (main ones first), enums have enumDescriptions, patterns a patternErrorMessage', () => {
    const entries = Object.entries(settings);
    assert.deepEqual(entries.slice(0, 4).map(([k]) => k), ['kubeNetlint.rules', 'kubeNetlint.nodePortRange', 'kubeNetlint.kubeProxyMode', 'kubeNetlint.exclude']);
    for (const [key, s] of entries) {
      assert.equal(typeof s.order, 'number', `${key} has no order`);
      if (s.enum) assert.equal(s.enumDescriptions?.length, s.enum.length, `${key} enumDescriptions`);
      if (s.pattern) assert.ok(s.patternErrorMessage, `${key} patternErrorMessage`);
    }
  });

  it('Refresh Cluster is hidden in the palette while cluster access is off, the rendered-view steps outside a view; the config schema is registered', () => {
    const inView = 'resourceScheme == kube-netlint-rendered';
    assert.deepEqual(manifest.contributes.menus.commandPalette, [
      { command: 'kubeNetlint.refreshCluster', when: 'config.kubeNetlint.cluster.enabled' },
      { command: 'kubeNetlint.nextFindingInView', when: inView },
      { command: 'kubeNetlint.previousFindingInView', when: inView },
    ]);
    // F8 / Shift+F8 step over a rendered view's drawn findings too, only there (VS Code's own marker steps elsewhere).
    assert.deepEqual((manifest.contributes as unknown as { keybindings: unknown }).keybindings, [
      { command: 'kubeNetlint.nextFindingInView', key: 'f8', when: `editorTextFocus && ${inView}` },
      { command: 'kubeNetlint.previousFindingInView', key: 'shift+f8', when: `editorTextFocus && ${inView}` },
    ]);
    assert.deepEqual(manifest.contributes.yamlValidation, [{ fileMatch: '.kube-netlint.yaml', url: './schemas/kube-netlint.schema.json' }]);
  });
});
