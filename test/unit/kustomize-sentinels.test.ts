import { strict as assert } from 'node:assert';
import { inlineSentinelAt, kustomizeSentinelPlan } from '../../server/out/core/render/kustomize-sentinels';
import { parseDocument } from 'yaml';

// The sentinel copy of a kustomization with helmCharts valuesInline (the real builds run in test/render/render-sources.test.ts).
describe('kustomize helmCharts valuesInline sentinels', () => {
  const text = '# ports of the app\nhelmCharts:\n  - name: app\n    valuesInline:\n      service: {nodePort: 30401} # the NodePort\n      hostPort: 30401\n      replicas: 3\n      name: "30402"\n      ports: [8080]\n';

  it('gives each number above 16 its own sentinel, keeps comments, small numbers and strings, and skips numbers written elsewhere', () => {
    const plan = kustomizeSentinelPlan([{ path: 'k/kustomization.yaml', file: '/w/k/kustomization.yaml', text }], 'nodePort: 47000\n');
    assert.ok(plan);
    assert.equal(
      plan.texts.get('k/kustomization.yaml'),
      '# ports of the app\nhelmCharts:\n  - name: app\n    valuesInline:\n      service: { nodePort: 47001 } # the NodePort\n      hostPort: 47002\n      replicas: 3\n      name: "30402"\n      ports: [ 47003 ]\n',
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

  it('plans nothing without a valuesInline number to probe', () => {
    assert.equal(kustomizeSentinelPlan([{ path: 'k.yaml', file: 'k.yaml', text: 'helmCharts:\n  - name: app\n    valuesInline: {replicas: 2, host: a.example}\n' }], ''), undefined);
    assert.equal(kustomizeSentinelPlan([{ path: 'k.yaml', file: 'k.yaml', text: 'resources: [a.yaml]\n' }], ''), undefined);
    assert.equal(kustomizeSentinelPlan([{ path: 'k.yaml', file: 'k.yaml', text: 'helmCharts: [\n' }], ''), undefined);
  });
});
