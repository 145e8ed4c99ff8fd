import { strict as assert } from 'node:assert';
import { applyEdits, lint } from '../helpers/lint';

const rules = ['nodeport-duplicate'];

/** The preferred fix of the finding on `service`, applied; returns the new text and the findings after re-linting. */
function applyFixOf(text: string, service: string): { text: string; after: ReturnType<typeof lint>['findings'] } {
  const f = lint({ 'l.yaml': text }, { rules }).findings.find((x) => x.object === `Service default/${service}`);
  assert.ok(f, `finding on ${service}`);
  const fix = f.fixes.find((x) => x.preferred);
  assert.ok(fix, `a preferred fix for ${service}`);
  const out = applyEdits(text, fix.edits);
  return { text: out, after: lint({ 'l.yaml': out }, { rules }).findings };
}

const nodePorts = (text: string): Record<string, number | undefined> => {
  const { analysis } = lint({ 'l.yaml': text });
  return Object.fromEntries(analysis.model.services.filter((s) => s.file === 'l.yaml').map((s) => [s.name, s.ports[0]?.nodePort?.value]));
};

describe('value quick fixes on values shared through YAML anchors, aliases and merge keys', () => {
  const flow = [
    'apiVersion: v1',
    'kind: List',
    'items:',
    '- apiVersion: v1',
    '  kind: Service',
    '  metadata: {name: a}',
    '  spec: {type: NodePort, ports: [{port: 80, nodePort: &np 30090}]}',
    '- apiVersion: v1',
    '  kind: Service',
    '  metadata: {name: b}',
    '  spec: {type: NodePort, ports: [{port: 80, nodePort: *np}]}',
    '',
  ].join('\n');

  it('on the alias user, replaces the alias with the literal: the other object keeps its value', () => {
    const { text, after } = applyFixOf(flow, 'b');
    assert.equal(text, flow.replace('nodePort: *np', 'nodePort: 30000'));
    assert.deepEqual(after, []);
    assert.deepEqual(nodePorts(text), { a: 30090, b: 30000 });
  });

  it('on the anchor owner, writes the new value without the anchor and the old value in place of each alias', () => {
    const { text, after } = applyFixOf(flow, 'a');
    assert.equal(text, flow.replace('nodePort: &np 30090', 'nodePort: 30000').replace('nodePort: *np', 'nodePort: 30090'));
    assert.deepEqual(after, []);
    assert.deepEqual(nodePorts(text), { a: 30000, b: 30090 });
  });

  it('does the same in block style, for every alias of the anchor, keeping comments', () => {
    const svc = (name: string, nodePort: string): string[] => ['- apiVersion: v1', '  kind: Service', '  metadata:', `    name: ${name}`, '  spec:', '    type: NodePort', '    ports:', '    - port: 80', `      nodePort: ${nodePort}`];
    const block = ['apiVersion: v1', 'kind: List', 'items:', ...svc('a', '&np 30090 # shared'), ...svc('b', '*np'), ...svc('c', '*np  # same'), ''].join('\n');
    const { text, after } = applyFixOf(block, 'a');
    assert.equal(text, block.replace('&np 30090 # shared', '30000 # shared').replace('*np\n', '30090\n').replace('*np  # same', '30090  # same'));
    assert.deepEqual(nodePorts(text), { a: 30000, b: 30090, c: 30090 });
    assert.deepEqual(after.map((f) => [f.object, f.line]), [['Service default/b', 21], ['Service default/c', 30]]);
  });

  it('offers no value fix when the value sits in an anchored map another object merges (<<: *p)', () => {
    const merged = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: a}',
      '  spec:',
      '    type: NodePort',
      '    ports:',
      '    - &p {name: http, port: 80, nodePort: 30700}',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: b}',
      '  spec:',
      '    type: NodePort',
      '    ports:',
      '    - <<: *p',
      '      name: web',
      '',
    ].join('\n');
    const f = lint({ 'l.yaml': merged }, { rules }).findings;
    assert.deepEqual(f.map((x) => [x.object, x.line, x.text, x.fixes.map((y) => y.title)]), [
      ['Service default/a', 10, '30700', []],
      ['Service default/b', 17, '*p', []],
    ]);
  });
});
