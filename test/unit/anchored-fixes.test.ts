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

  describe('the case fix of an enum value (protocol tcp → TCP) and the quote fix of a string value', () => {
    const shared = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: a}',
      '  spec:',
      '    ports:',
      '    - {name: x, port: 80, protocol: &proto tcp}',
      '    - &p {name: w, port: 81, protocol: udp}',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: b}',
      '  spec:',
      '    ports:',
      '    - {name: x, port: 80, protocol: *proto}',
      '    - <<: *p',
      '      name: z',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: c}',
      '  spec:',
      '    ports: &ports',
      '    - {port: 80, protocol: sctp}',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: d}',
      '  spec:',
      '    ports: *ports',
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata: {name: e}',
      '  spec:',
      '    selector: {matchLabels: {app: e}}',
      '    template:',
      '      metadata: {labels: {app: e}}',
      '      spec:',
      '        containers:',
      '        - name: c',
      '          image: nginx',
      '          ports:',
      '          - &cp {containerPort: 80, protocol: tcp}',
      '          - <<: *cp',
      '            containerPort: 81',
      '- apiVersion: networking.k8s.io/v1',
      '  kind: NetworkPolicy',
      '  metadata: {name: np}',
      '  spec:',
      '    podSelector: {}',
      '    ingress:',
      '    - ports:',
      '      - {port: 53, protocol: *proto}',
      '',
    ].join('\n');
    const specRules = ['service-spec-invalid', 'pod-spec-invalid', 'networkpolicy-spec-invalid'];

    it('replaces a scalar alias with the literal, rewrites an anchor\'s aliases to the old value, and offers none for a merged or collection-aliased value', () => {
      const fs = lint({ 'l.yaml': shared }, { rules: specRules }).findings;
      assert.deepEqual(fs.map((f) => [f.object, f.line, f.column, f.text, f.fixes.map((x) => [x.title, applyEdits(shared, x.edits)])]), [
        ['Service default/a', 9, 44, 'tcp', [['Change protocol "tcp" to "TCP"', shared.replace('protocol: &proto tcp', 'protocol: TCP').replace(/protocol: \*proto/g, 'protocol: tcp')]]],
        ['Service default/a', 10, 40, 'udp', []],
        ['Service default/b', 16, 37, '*proto', [['Change protocol "tcp" to "TCP"', shared.replace('{name: x, port: 80, protocol: *proto}', '{name: x, port: 80, protocol: TCP}')]]],
        ['Service default/b', 17, 11, '*p', []],
        ['Service default/c', 24, 28, 'sctp', []],
        ['Service default/d', 29, 12, '*ports', []],
        ['Deployment default/e', 42, 47, 'tcp', []],
        ['Deployment default/e', 42, 47, 'tcp', []],
        ['NetworkPolicy default/np', 52, 30, '*proto', [['Change protocol "tcp" to "TCP"', shared.replace('{port: 53, protocol: *proto}', '{port: 53, protocol: TCP}')]]],
      ]);
    });

    it('quotes an anchored plain value without changing its aliases, and offers nothing for a tagged anchored one', () => {
      const text = [
        'apiVersion: v1',
        'kind: List',
        'items:',
        '- apiVersion: v1',
        '  kind: Service',
        '  metadata: {name: a}',
        '  spec: {selector: {tier: &t 1, rank: &r !!int 2}, ports: [{port: 80}]}',
        '- apiVersion: v1',
        '  kind: Service',
        '  metadata: {name: b}',
        '  spec: {selector: {tier: *t, rank: *r}, ports: [{port: 80}]}',
        '',
      ].join('\n');
      const fs = lint({ 'l.yaml': text }, { rules: ['service-spec-invalid'] }).findings;
      assert.deepEqual(fs.map((f) => [f.object, f.line, f.column, f.text, f.fixes.map((x) => [x.title, applyEdits(text, x.edits)])]), [
        ['Service default/a', 7, 30, '1', [['Quote "1"', text.replace('tier: &t 1', 'tier: "1"').replace('tier: *t', 'tier: 1')]]],
        ['Service default/a', 7, 48, '2', []],
        ['Service default/b', 11, 27, '*t', []],
        ['Service default/b', 11, 37, '*r', []],
      ]);
    });
  });
});
