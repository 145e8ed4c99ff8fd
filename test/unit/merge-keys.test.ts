import { strict as assert } from 'node:assert';
import { loadFile } from '../../server/out/core/load/load-file';
import { lint } from '../helpers/lint';

/** Findings as [object, line, column, text, related lines]. */
const where = (files: Record<string, string>, rules: string[]): unknown[] =>
  lint(files, { rules }).findings.map((f) => [f.object, f.line, f.column, f.text, f.related.map((r) => r.line)]);

describe('values brought into an object by a merge key or an alias are reported on that object\'s own line', () => {
  const list = (a: string[], b: string[]): string =>
    ['apiVersion: v1', 'kind: List', 'items:', '- apiVersion: v1', '  kind: Service', '  metadata: {name: a}', '  spec:', '    type: NodePort', ...a, '- apiVersion: v1', '  kind: Service', '  metadata: {name: b}', '  spec:', '    type: NodePort', ...b, ''].join('\n');

  it('a nodePort from `- <<: *p`: on the `*p` of the merging Service, related to the other one', () => {
    const text = list(['    ports:', '    - &p {name: http, port: 80, nodePort: 30700}'], ['    ports:', '    - <<: *p', '      name: web']);
    assert.deepEqual(where({ 'a2.yaml': text }, ['nodeport-duplicate']), [
      ['Service default/a', 10, 43, '30700', [17]],
      ['Service default/b', 17, 11, '*p', [10]],
    ]);
  });

  it('a whole ports list from an alias (`ports: *ports`): on the alias', () => {
    const text = list(['    ports: &ports', '    - {port: 80, nodePort: 30701}'], ['    ports: *ports']);
    assert.deepEqual(where({ 'l.yaml': text }, ['nodeport-duplicate']), [
      ['Service default/a', 10, 28, '30701', [16]],
      ['Service default/b', 16, 12, '*ports', [10]],
    ]);
  });

  it('a hostPort of a container merged from another Deployment\'s container', () => {
    const deploy = (name: string, container: string[]): string[] => [
      '- apiVersion: apps/v1', '  kind: Deployment', `  metadata: {name: ${name}}`, '  spec:', `    selector: {matchLabels: {app: ${name}}}`,
      '    template:', `      metadata: {labels: {app: ${name}}}`, '      spec:', '        containers:', ...container,
    ];
    const text = ['apiVersion: v1', 'kind: List', 'items:',
      ...deploy('a', ['        - &c {name: web, image: "nginx:1.27", ports: [{containerPort: 8080, hostPort: 31800}]}']),
      ...deploy('b', ['        - <<: *c', '          name: other']),
      '- {apiVersion: v1, kind: Service, metadata: {name: s}, spec: {type: NodePort, ports: [{port: 80, nodePort: 31800}]}}', ''].join('\n');
    const found = lint({ 'd.yaml': text }, { rules: ['host-port-conflicts-nodeport'] }).findings.filter((f) => f.object?.startsWith('Deployment'));
    assert.deepEqual(found.map((f) => [f.object, f.line, f.text]), [
      ['Deployment default/a', 13, '31800'],
      ['Deployment default/b', 23, '*c'],
    ]);
  });
});

describe('a merge key with an unknown anchor', () => {
  const problems = (text: string, parser: 'events' | 'yaml'): unknown[] => {
    const f = loadFile('m.yaml', text, { parser });
    return f.problems.map((p) => [p.code, f.lines.position(p.span.start).line, f.lines.position(p.span.start).column, f.text.slice(p.span.start, p.span.end), p.message]);
  };
  const unresolved = 'Unresolved alias (the anchor must be set before the alias, in the same document): p';

  for (const parser of ['events', 'yaml'] as const) {
    it(`is reported as an unresolved alias on the alias (${parser} parser)`, () => {
      const text = 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports:\n    - <<: *p\n      name: web\n      port: 80\n';
      assert.deepEqual(problems(text, parser), [['UNRESOLVED_ALIAS', 6, 11, '*p', unresolved]]);
    });

    it(`is reported on the alias when the anchor is in a previous document (${parser} parser)`, () => {
      const text = 'x: &p {port: 80}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports:\n    - <<: [*p]\n      name: web\n';
      assert.deepEqual(problems(text, parser), [['UNRESOLVED_ALIAS', 8, 12, '*p', unresolved]]);
    });
  }

  it('says so in yaml-syntax findings', () => {
    const f = lint({ 'm.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports:\n    - <<: *p\n      port: 80\n' }, { rules: ['yaml-syntax'] }).findings;
    assert.deepEqual(f.map((x) => [x.line, x.column, x.text]), [[6, 11, '*p']]);
    assert.match(f[0].message, /^Unresolved alias \(the anchor must be set before the alias, in the same document\): p/);
  });
});

describe('labels, selectors and node selectors brought by merge keys', () => {
  const deployment = (labels: string[]): string => [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web}', 'spec:',
    '  selector:', '    matchLabels: &sel', '      app: web', '  template:', '    metadata:', '      labels:', ...labels,
    '    spec:', '      containers:', '        - {name: web, image: nginx:1.25, ports: [{containerPort: 8080, name: http}]}',
    '---', 'apiVersion: v1', 'kind: Service', 'metadata: {name: web}', 'spec:', '  selector: {app: web}', '  ports: [{port: 80, targetPort: http}]', '',
  ].join('\n');

  for (const parser of ['events', 'yaml'] as const) {
    it(`reads merged pairs as the object's raw has them: own keys win wherever << stands, earlier sources win (${parser} parser)`, () => {
      const text = [
        'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: m', '  labels:',
        '    a: own', '    <<: [&x {a: p, b: p, c: p}, {b: q, d: q, <<: {e: r, d: r}}]', '    c: own', 'data: {}', '',
      ].join('\n');
      const [obj] = loadFile('m.yaml', text, { parser }).objects;
      assert.deepEqual({ ...obj.labels }, { a: 'own', c: 'own', b: 'p', d: 'q', e: 'r' });
      assert.deepEqual({ ...obj.labels }, (obj.raw as { metadata: { labels: object } }).metadata.labels);
    });
  }

  it('a pod template whose labels merge the selector\'s map is selected by the Service (no service-selector-unmatched)', () => {
    assert.deepEqual(where({ 'web.yaml': deployment(['        <<: *sel', '        tier: front']) }, ['service-selector-unmatched']), []);
  });

  it('still warns when the merged labels do not hold the selected pair', () => {
    const text = deployment(['        <<: *sel', '        tier: front']).replace('selector: {app: web}', 'selector: {app: api}');
    assert.deepEqual(where({ 'web.yaml': text }, ['service-selector-unmatched']), [['Service default/web', 21, 14, 'app: api', [3]]]);
  });
});

describe('a merge key whose value is not a mapping', () => {
  for (const parser of ['events', 'yaml'] as const) {
    it(`is reported at that value in kubectl's words, not as an alias bomb (${parser} parser)`, () => {
      for (const [value, column] of [['app', 9], ['[app, {a: b}]', 10]] as const) {
        const text = `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  selector:\n    <<: ${value}\n  ports: [{port: 80}]\n`;
        const problems = loadFile('m.yaml', text, { parser }).problems.map((p) => [p.code, text.slice(0, p.span.start).split('\n').length, p.span.start - text.lastIndexOf('\n', p.span.start - 1), p.message]);
        assert.deepEqual(problems, [['MERGE_SOURCE', 7, column, 'a merge key (<<) takes a mapping or a list of mappings, not this value: kubectl refuses the document ("yaml: map merge requires map or sequence of maps as the value"); merge an anchored mapping (<<: *base)']], value);
      }
    });
  }
});
