import { strict as assert } from 'node:assert';
import { parseYamlValue } from '../../server/out/core/load/parse-documents';
import { lint } from '../helpers/lint';

/** The warnings the process emits (yaml's log goes to process.emitWarning, printed on stderr) while `run` runs. */
async function warningsOf(run: () => void): Promise<string[]> {
  const seen: string[] = [];
  const listener = (w: Error): void => void seen.push(w.message);
  process.on('warning', listener);
  try {
    run();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

describe('yaml-syntax', () => {
  // What kubectl v1.32 / kustomize v5.5 print for a file with a directive (go-yaml v2 reads each `---` part alone).
  const svc = (name: string, nodePort: number) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, namespace: x}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;
  const ids = (text: string) => lint({ 'd.yaml': text }).findings.map((f) => [f.ruleId, f.line, f.column, f.text, f.severity]);

  it('reports a %YAML or %TAG directive, which kubectl and kustomize refuse, and reads none of the objects after it', () => {
    for (const [directive, error] of [
      ['%YAML 1.2', 'found incompatible YAML document'],
      ['%YAML 1.1', 'did not find expected <document start>'],
      ['%TAG !e! tag:example.com,2000:', 'did not find expected <document start>'],
      ['%FOO bar', 'found unknown directive name'],
    ]) {
      const text = `${directive}\n---\n${svc('a', 30080)}---\n${svc('b', 30080)}`;
      const { findings, analysis } = lint({ 'd.yaml': text });
      assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.text, f.severity]), [['yaml-syntax', 1, 1, directive, 'error']], directive);
      assert.equal(findings[0].message, `${directive.split(' ')[0]} directive: kubectl and kustomize refuse it ("yaml: ${error}"), so kubectl apply reads none of this file and kustomize builds nothing; delete the line (they read YAML 1.1 anyway)`);
      assert.deepEqual(analysis.model.services.filter((s) => s.origin.type === 'file'), [], 'no object of the file is analysed');
    }
  });

  it('keeps the documents before a directive, which kubectl still reads, and drops the rest', () => {
    const text = `${svc('a', 30080)}---\n${svc('b', 30080)}...\n%YAML 1.2\n---\n${svc('c', 30080)}`;
    assert.deepEqual(ids(text), [
      ['nodeport-duplicate', 6, 32, '30080', 'error'],
      ['nodeport-duplicate', 13, 32, '30080', 'error'],
      ['yaml-syntax', 15, 1, '%YAML 1.2', 'error'],
    ]);
    assert.match(lint({ 'd.yaml': text }).findings[2].message, /, so kubectl apply reads only the 2 documents before it and kustomize builds nothing; /);
  });

  it('stays silent on a % that is not a directive: in a scalar, a comment, a block scalar', () => {
    const text = `# %YAML 1.2 in a comment\n${svc('a', 30080).replace('namespace: x}', 'namespace: x, annotations: {v: "%YAML 1.2"}}')}`;
    assert.deepEqual(ids(text), []);
    assert.equal(lint({ 'd.yaml': text }).analysis.model.services.filter((s) => s.origin.type === 'file').length, 1);
    const block = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: x}\ndata:\n  f: |\n    %YAML 1.2\n    ---\n';
    assert.deepEqual(ids(block), []);
  });

  it('reports a syntax error at its position and still analyses the other documents', () => {
    const text = [
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: a}',
      'spec:',
      '  type: NodePort',
      '  ports: [{port: 80, nodePort: 30080}]',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: b',
      ' bad: indentation',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: c}',
      'spec:',
      '  type: NodePort',
      '  ports: [{port: 80, nodePort: 30080}]',
    ].join('\n');
    const { findings } = lint(text);
    const syntax = findings.filter((f) => f.ruleId === 'yaml-syntax');
    assert.ok(syntax.length >= 1);
    assert.equal(syntax[0].line, 12);
    assert.equal(syntax[0].severity, 'error');
    // Documents 1 and 3 are still read: their collision is found.
    assert.equal(findings.filter((f) => f.ruleId === 'nodeport-duplicate').length, 2);
  });

  it('reports the same syntax error once per document, saying how often it repeats', () => {
    // 200 unclosed brackets: many repeats of one error, below the loader's nesting limit (a deeper document is
    // refused whole with one NESTING_TOO_DEEP finding instead, see yaml-limits.test.ts).
    const { findings } = lint(`a: ${'['.repeat(200)}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 3008}]}\n`);
    const syntax = findings.filter((f) => f.ruleId === 'yaml-syntax');
    assert.ok(syntax.length <= 3, `${syntax.length} syntax findings`);
    assert.equal(new Set(syntax.map((f) => f.message)).size, syntax.length);
    assert.match(syntax[0].message, /\(and \d+ more times in this document\)/);
    assert.equal(findings.filter((f) => f.ruleId === 'nodeport-out-of-range').length, 1, 'the next document is still read');
  });

  it('reports an alias inside the value its anchor names (a value that contains itself) at the alias, and analyses every other document', () => {
    const cyclic = `apiVersion: v1
kind: Service
metadata: {name: a}
spec: &s
  type: NodePort
  selector: *s
  ports: [{port: 80, nodePort: 30080}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: m}
data: &d
  x: "1"
  <<: *d
---
apiVersion: v1
kind: ConfigMap
metadata: {name: fine}
data: &e {x: "1"}
binaryData: *e
`;
    const twin = (name: string): string => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30090}]\n`;
    const { findings, analysis } = lint({ 'cyclic.yaml': cyclic, 'b.yaml': twin('b'), 'c.yaml': twin('c') }, { rules: ['yaml-syntax', 'nodeport-duplicate'] });
    assert.deepEqual(analysis.failures, []);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.file, f.line, f.column, f.text]), [
      ['nodeport-duplicate', 'b.yaml', 6, 32, '30090'],
      ['nodeport-duplicate', 'c.yaml', 6, 32, '30090'],
      ['yaml-syntax', 'cyclic.yaml', 6, 13, '*s'],
      ['yaml-syntax', 'cyclic.yaml', 14, 7, '*d'],
    ]);
    assert.equal(findings[2].message, 'alias *s is inside the value its anchor names, so the value would contain itself: kubectl refuses the document ("yaml: anchor \'s\' value contains itself"); copy the values instead');
  });

  it('reports a duplicate key', () => {
    const { findings } = lint('apiVersion: v1\nkind: Service\nkind: Pod\nmetadata: {name: a}\n', { rules: ['yaml-syntax'] });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].line, 3);
    assert.match(findings[0].message, /DUPLICATE_KEY|unique/i);
  });

  it('stays silent on valid YAML, comments, empty documents and non-Kubernetes YAML', () => {
    const { findings } = lint('# just a comment\n---\n---\nfoo: bar\nlist: [1, 2]\n---\n', { rules: ['yaml-syntax'] });
    assert.deepEqual(findings, []);
  });
  it('reports a mapping key that is a list or a mapping at the key, as kubectl refuses it, and reads nothing of that document', async () => {
    const text = `apiVersion: v1
kind: Service
metadata: {name: c}
spec:
  type: NodePort
  ports:
  - {port: 81, [nodePort]: 30081}
---
${svc('d', 30082)}`;
    let result: ReturnType<typeof lint> | undefined;
    const warnings = await warningsOf(() => (result = lint({ 'd.yaml': text })));
    assert.deepEqual(warnings, [], 'no library warning reaches stderr');
    const { findings, analysis } = result!;
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.text, f.severity]), [['yaml-syntax', 7, 16, '[nodePort]', 'error']]);
    assert.equal(findings[0].message, 'this mapping key is a list, which JSON cannot have: kubectl refuses the document ("error converting YAML to JSON: yaml: invalid map key: []interface {}{"nodePort"}"), so nothing of it is applied; write it as nodePort:');
    assert.deepEqual(analysis.model.services.filter((x) => x.origin.type === 'file').map((x) => x.name), ['d'], 'the document after it is read');
  });

  it('reports a mapping or alias as a key, one in a merge source, and drops every item of a List that has one', async () => {
    const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n';
    const cases: [string, string, number, number, string, RegExp][] = [
      ['mapping key', `${head}data:\n  ? {a: 1, b: [x]}\n  : v\n`, 5, 5, '{a: 1, b: [x]}', /is a mapping, .*invalid map key: map\[interface \{\}\]interface \{\}\{"a":1, "b":\[\]interface \{\}\{"x"…"\), .*; use a plain string key$/],
      ['alias of a list', `${head}x: &k [a, 2]\ndata:\n  *k : v\n`, 6, 3, '*k', /invalid map key: \[\]interface \{\}\{"a", 2\}"\)/],
      ['merge source', `${head}x: &s {[p]: 1}\ndata:\n  <<: *s\n`, 4, 8, '[p]', /write it as p:$/],
    ];
    for (const [name, text, line, column, key, message] of cases) {
      const { findings, analysis } = lint({ 'd.yaml': text });
      assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.text]), [['yaml-syntax', line, column, key]], name);
      assert.match(findings[0].message, message, name);
      assert.deepEqual(analysis.model.objects.filter((o) => o.origin.type === 'file').map((o) => o.name), [], name);
    }
    const list = 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: {[k]: v}}\n';
    const { findings, analysis } = lint({ 'l.yaml': list });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.text]), [['yaml-syntax', 5, '[k]']]);
    assert.deepEqual(analysis.model.objects.filter((o) => o.origin.type === 'file').map((o) => o.name), [], 'kubectl refuses the whole List');
  });

  it('never lets the yaml library print a warning: embedded configs with a collection key are read quietly', async () => {
    assert.deepEqual(await warningsOf(() => parseYamlValue('mode: ipvs\n[a]: 1\n')), []);
  });
});
