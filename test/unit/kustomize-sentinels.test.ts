import { strict as assert } from 'node:assert';
import { inlineSentinelAt, kustomizeSentinelPlan } from '../../server/out/core/render/kustomize-sentinels';
import { parseDocument } from 'yaml';

// The sentinel copy of a kustomization with helmCharts valuesInline (the real builds run in test/render/render-sources.test.ts).
describe('kustomize helmCharts values sentinels', () => {
  const text = '# ports of the app\nhelmCharts:\n  - name: app\n    valuesInline:\n      service: {nodePort: 30401} # the NodePort\n      hostPort: 30401\n      replicas: 3\n      name: "30402"\n      ports: [8080]\n';

  it('gives each number above 16 its own sentinel, keeps comments, small numbers and strings, and skips numbers written elsewhere', () => {
    const plan = kustomizeSentinelPlan([{ path: 'k/kustomization.yaml', file: '/w/k/kustomization.yaml', text }], 'nodePort: 47000\n');
    assert.ok(plan);
    assert.equal(
      plan.texts.get('k/kustomization.yaml'),
      '# ports of the app\nhelmCharts:\n  - name: app\n    valuesInline:\n      service: {nodePort: 47001} # the NodePort\n      hostPort: 47002\n      replicas: 3\n      name: "30402"\n      ports: [47003]\n',
    );
    const where = [...plan.bySentinel].map(([n, s]) => [n, s.text, text.slice(s.span.start, s.span.end), s.span.file]);
    assert.deepEqual(where, [
      [47001, '30401', '30401', '/w/k/kustomization.yaml'],
      [47002, '30401', '30401', '/w/k/kustomization.yaml'],
      [47003, '8080', '8080', '/w/k/kustomization.yaml'],
    ]);
    assert.equal(text.indexOf('30401', text.indexOf('hostPort')), plan.bySentinel.get(47002)!.span.start);
  });

  it('finds the key whose sentinel the field took, only when the real build wrote that key\'s value', () => {
    const plan = kustomizeSentinelPlan([{ path: 'kustomization.yaml', file: 'kustomization.yaml', text }], '')!;
    const probe = parseDocument('spec: {ports: [{nodePort: 47000}, {nodePort: 30401}]}\n').contents;
    assert.equal(inlineSentinelAt(plan, probe, ['spec', 'ports', 0, 'nodePort'], '30401')?.span.start, text.indexOf('30401'));
    assert.equal(inlineSentinelAt(plan, probe, ['spec', 'ports', 0, 'nodePort'], '30402'), undefined);
    assert.equal(inlineSentinelAt(plan, probe, ['spec', 'ports', 1, 'nodePort'], '30401'), undefined);
    assert.equal(inlineSentinelAt(plan, undefined, ['spec'], '30401'), undefined);
  });

  it('replaces the numbers of the values files the charts read (hex too: Helm reads it as the number), keeping every other byte, each file once', () => {
    const values = '# values\r\nservice:\r\n  nodePort: 30401   # NodePort\r\n  port: 80\r\nhostPort: 0x7A\r\nlist: [30401, "30402", 8080]\r\n';
    const k = 'helmCharts:\n  - name: app\n    valuesInline: {hostPort: 30401}\n';
    const v = { path: 'app/values-prod.yaml', file: '/w/app/values-prod.yaml', text: values };
    const plan = kustomizeSentinelPlan([{ path: 'app/kustomization.yaml', file: '/w/app/kustomization.yaml', text: k }], '', [v, v]);
    assert.ok(plan);
    assert.equal(plan.texts.get('app/kustomization.yaml'), 'helmCharts:\n  - name: app\n    valuesInline: {hostPort: 47000}\n');
    assert.equal(plan.texts.get('app/values-prod.yaml'), '# values\r\nservice:\r\n  nodePort: 47001   # NodePort\r\n  port: 47002\r\nhostPort: 47003\r\nlist: [47004, "30402", 47005]\r\n');
    const where = [...plan.bySentinel].map(([n, s]) => [n, s.text, s.span.file, s.span.file === v.file ? values.slice(s.span.start, s.span.end) : k.slice(s.span.start, s.span.end)]);
    assert.deepEqual(where, [
      [47000, '30401', '/w/app/kustomization.yaml', '30401'],
      [47001, '30401', '/w/app/values-prod.yaml', '30401'],
      [47002, '80', '/w/app/values-prod.yaml', '80'],
      [47003, '122', '/w/app/values-prod.yaml', '0x7A'],
      [47004, '30401', '/w/app/values-prod.yaml', '30401'],
      [47005, '8080', '/w/app/values-prod.yaml', '8080'],
    ]);
  });

  it('leaves a values file that does not parse, or holds no number to probe, as written', () => {
    const plan = kustomizeSentinelPlan([], '', [
      { path: 'bad.yaml', file: 'bad.yaml', text: 'service: {nodePort: 30401\n' },
      { path: 'small.yaml', file: 'small.yaml', text: 'replicas: 3\nname: web\n' },
      { path: 'ok.yaml', file: 'ok.yaml', text: 'nodePort: 30401\n' },
    ]);
    assert.deepEqual([...plan!.texts.keys()], ['ok.yaml']);
    assert.equal(kustomizeSentinelPlan([], '', [{ path: 'small.yaml', file: 'small.yaml', text: 'replicas: 3\n' }]), undefined);
  });

  it('plans nothing without a valuesInline number to probe', () => {
    assert.equal(kustomizeSentinelPlan([{ path: 'k.yaml', file: 'k.yaml', text: 'helmCharts:\n  - name: app\n    valuesInline: {replicas: 2, host: a.example}\n' }], ''), undefined);
    assert.equal(kustomizeSentinelPlan([{ path: 'k.yaml', file: 'k.yaml', text: 'resources: [a.yaml]\n' }], ''), undefined);
    assert.equal(kustomizeSentinelPlan([{ path: 'k.yaml', file: 'k.yaml', text: 'helmCharts: [\n' }], ''), undefined);
  });
});
