// Builds the JSON Schema of .kube-netlint.yaml from its TypeScript types
// (server/src/core/config/config-file-shape.ts, with ts-json-schema-generator) and the rule registry (each
// rule id becomes a property of `rules`, so editors complete the ids and flag unknown ones).
// `npm run docs` writes it to schemas/kube-netlint.schema.json; test/unit/config-schema.test.ts checks it is current.
const { createGenerator } = require('ts-json-schema-generator');
const { PROJECT_URL, ruleDocsUrl: docsUrl } = require('../server/out/core/rules/docs-url.js');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const SCHEMA_FILE = path.join(root, 'schemas', 'kube-netlint.schema.json');
const SCHEMA_ID = `${PROJECT_URL}/blob/main/schemas/kube-netlint.schema.json`;

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
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', $id: SCHEMA_ID, title: '.kube-netlint.yaml', ...generated };
  delete schema.$schema; // re-added first, in draft-07 form
  const rulesKey = schema.properties.rules;
  const setting = rulesKey.anyOf ? rulesKey.anyOf.find((s) => s.type === 'object') : rulesKey;
  const value = setting.additionalProperties;
  setting.properties = Object.fromEntries(
    rules.map((r) => [r.id, { ...value, description: `${r.title} (default: ${r.severity})`, markdownDescription: `${r.title} (default: \`${r.severity}\`). [Rule page](${docsUrl(r.id)})` }]),
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

module.exports = { buildConfigSchema, SCHEMA_FILE };

if (require.main === module) {
  const { writeFileSync, mkdirSync } = require('node:fs');
  const { allRules } = require('../server/out/core/rules/index.js');
  mkdirSync(path.dirname(SCHEMA_FILE), { recursive: true });
  writeFileSync(SCHEMA_FILE, JSON.stringify(buildConfigSchema(allRules), null, 2) + '\n');
  console.log(`wrote ${path.relative(root, SCHEMA_FILE)}`);
}
