// Builds the JSON Schema of .kube-netlint.yaml from its TypeScript types
// (server/src/core/config/config-file-shape.ts, with ts-json-schema-generator) and the rule registry (each
// rule id becomes a property of `rules`, so editors complete the ids and flag unknown ones).
// `npm run docs` writes it to schemas/kube-netlint.schema.json; test/unit/config-schema.test.ts checks it is current.
const { createGenerator } = require('ts-json-schema-generator');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const SCHEMA_FILE = path.join(root, 'schemas', 'kube-netlint.schema.json');

/** @param {readonly {id: string, title: string, severity: string}[]} rules the rule registry (server/out/core/rules/index.js) */
function buildConfigSchema(rules) {
  const generated = createGenerator({
    path: path.join(root, 'server', 'src', 'core', 'config', 'config-file-shape.ts'),
    tsconfig: path.join(root, 'server', 'tsconfig.json'),
    type: 'KubeNetlintConfigFile',
    expose: 'none',
    topRef: false,
    jsDoc: 'extended',
    sortProps: false,
    additionalProperties: false,
    skipTypeCheck: true,
  }).createSchema('KubeNetlintConfigFile');
  // No $id: the schema is found by its path (contributes.yamlValidation, `# yaml-language-server: $schema=`), and
  // an id naming a web address would be a link that leads nowhere.
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', title: '.kube-netlint.yaml', ...generated };
  delete schema.$schema; // re-added first, in draft-07 form
  const rulesKey = schema.properties.rules;
  const setting = rulesKey.anyOf ? rulesKey.anyOf.find((s) => s.type === 'object') : rulesKey;
  const value = setting.additionalProperties;
  setting.properties = Object.fromEntries(
    rules.map((r) => [r.id, { ...value, description: `${r.title} (default: ${r.severity})`, markdownDescription: `${r.title} (default: \`${r.severity}\`)` }]),
  );
  setting.additionalProperties = false;
  addMarkdownDescriptions(schema);
  splitUnionTypes(schema);
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
}

/** `type: [string, number]` (ts-json-schema-generator's form of a primitive union) as `anyOf`, which strict validators accept. */
function splitUnionTypes(node) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node.type)) {
    node.anyOf = node.type.map((type) => ({ type }));
    delete node.type;
  }
  for (const child of Object.values(node)) splitUnionTypes(child);
}

/** Editors (VS Code, yaml-language-server) render `markdownDescription`: give every described node one. */
function addMarkdownDescriptions(node) {
  if (!node || typeof node !== 'object') return;
  if (typeof node.description === 'string' && node.markdownDescription === undefined) node.markdownDescription = node.description;
  for (const child of Object.values(node)) addMarkdownDescriptions(child);
}

/**
 * package.json's `kubeNetlint.rules` setting with one property per rule id, so VS Code completes the ids in
 * settings.json (the values come from the setting's additionalProperties).
 */
function withRuleSettings(manifest, rules) {
  const setting = manifest.contributes.configuration.properties['kubeNetlint.rules'];
  const value = setting.additionalProperties;
  const properties = Object.fromEntries(rules.map((r) => [r.id, { ...value, markdownDescription: `${r.title} (default: \`${r.severity}\`)` }]));
  return { ...manifest, contributes: { ...manifest.contributes, configuration: { ...manifest.contributes.configuration, properties: { ...manifest.contributes.configuration.properties, 'kubeNetlint.rules': { ...setting, properties } } } } };
}

module.exports = { buildConfigSchema, withRuleSettings, SCHEMA_FILE };

if (require.main === module) {
  const { writeFileSync, mkdirSync } = require('node:fs');
  const { allRules } = require('../server/out/core/rules/index.js');
  mkdirSync(path.dirname(SCHEMA_FILE), { recursive: true });
  writeFileSync(SCHEMA_FILE, JSON.stringify(buildConfigSchema(allRules), null, 2) + '\n');
  const manifestFile = path.join(root, 'package.json');
  const manifest = JSON.parse(require('node:fs').readFileSync(manifestFile, 'utf8'));
  writeFileSync(manifestFile, JSON.stringify(withRuleSettings(manifest, allRules), null, 2) + '\n');
  console.log(`wrote ${path.relative(root, SCHEMA_FILE)} and the kubeNetlint.rules ids in package.json`);
}
