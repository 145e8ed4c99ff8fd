import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { JsonFinding, lintRendered, SHARED } from '../helpers/render';

// The real corpora (../shared/corpus) must not gain a false alarm from the port-reference rules: as written, as
// kustomize and Helm render them by default, and with a chart's Ingress, HTTPRoute, GRPCRoute and
// ServiceMonitor all turned on.
const RULES = new Set([
  'service-selector-unmatched', 'service-targetport-unresolved', 'probe-port-unresolved', 'ingress-backend-unresolved',
  'gateway-backend-unresolved', 'networkpolicy-port-unresolved', 'servicemonitor-port-unresolved',
]);
const ours = (fs: JsonFinding[]): string[] => fs.filter((f) => RULES.has(f.ruleId)).map((f) => `${f.ruleId} ${f.severity} ${f.file}:${f.line} ${f.message}`);

describe('port-reference rules on the real corpora', function () {
  this.timeout(180_000);

  it('report nothing on the real manifests', () => {
    assert.deepEqual(ours(lintRendered(join(SHARED, 'corpus/real'), ['.']).findings), []);
  });

  it('report nothing on the gitops trees, as written (the overlays set the bases\' namespace) or rendered', () => {
    // metallb's webhook Service is written in namespace system; native's `namespace: metallb-system` moves it beside
    // the controller it selects, as kustomize does, so it is not reported as selecting nothing.
    assert.deepEqual(ours(lintRendered(join(SHARED, 'corpus/gitops'), ['.', '--no-render']).findings), []);
    assert.deepEqual(ours(lintRendered(join(SHARED, 'corpus/gitops'), ['.']).findings), []);
  });

  it('report nothing on the podinfo chart with its Ingress, HTTPRoute, GRPCRoute, ServiceMonitor and redis on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'knl-refs-corpus-'));
    try {
      const chart = relative(dir, join(SHARED, 'corpus/gitops/podinfo/charts/podinfo'));
      writeFileSync(join(dir, '.kube-netlint.yaml'), [
        'render:',
        '  kustomize: false',
        '  helm:',
        `    - {chart: ${JSON.stringify(chart)}, release: pi, namespace: apps, set: {ingress.enabled: true, httpRoute.enabled: true, grpcRoute.enabled: true, serviceMonitor.enabled: true, redis.enabled: true}}`,
        '',
      ].join('\n'));
      const r = lintRendered(join(SHARED, 'corpus/gitops/podinfo'), ['--config', join(dir, '.kube-netlint.yaml'), 'charts']);
      assert.match(r.stderr, /rendered 0 kustomizations, 1 Helm release/);
      assert.deepEqual(r.findings.filter((f) => f.ruleId === 'render-failed'), []);
      assert.deepEqual(ours(r.findings), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
