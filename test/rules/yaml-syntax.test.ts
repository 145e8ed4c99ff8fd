import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

describe('yaml-syntax', () => {
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
});
