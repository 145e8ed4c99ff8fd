import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { readManifestFile } from '../../server/out/node/read-file';

describe('file-skipped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'knl-skip-'));
  const run = (name: string, bytes: Uint8Array | string, maxBytes?: number) => {
    writeFileSync(join(dir, name), bytes);
    const file = readManifestFile(join(dir, name), name, { maxBytes });
    return analyze([file], DEFAULT_CONFIG).findings.filter((f) => f.ruleId === 'file-skipped');
  };

  it('reports files above the size limit, with sizes that differ', () => {
    assert.equal(run('big.yaml', 'a: 1\n'.repeat(300000), 1024 * 1024)[0].message, 'not analysed: the file is 1.4 MiB, above the limit of 1.0 MiB');
    assert.equal(run('near.yaml', 'a: 1\n'.repeat(210000), 1024 * 1024)[0].message, 'not analysed: the file is 1.001 MiB, above the limit of 1.000 MiB');
    assert.equal(run('small.yaml', 'a: 1\n'.repeat(10), 0.00001 * 1024 * 1024)[0].message, 'not analysed: the file is 50 bytes, above the limit of 10 bytes');
    assert.equal(run('kib.yaml', 'a: 1\n'.repeat(1000), 2048)[0].message, 'not analysed: the file is 4.9 KiB, above the limit of 2.0 KiB');
  });
  it('reports unreadable files as errors', () => {
    const file = readManifestFile(join(dir, 'missing.yaml'), 'missing.yaml');
    const f = analyze([file], DEFAULT_CONFIG).findings;
    assert.equal(f[0].severity, 'error');
    assert.match(f[0].message, /ENOENT/);
  });
  it('stays silent for ordinary UTF-8 files (a BOM included), and for UTF-16 files with a BOM', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n';
    assert.deepEqual(run('ok.yaml', `\uFEFF${text}`), []);
    assert.deepEqual(run('le.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), []);
  });
});

describe('file-skipped: Go templates outside a Helm chart', () => {
  it('names the file and the first template action instead of skipping it silently', () => {
    const { lint } = require('../helpers/lint') as typeof import('../helpers/lint');
    const text = 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  clusterIP: {{ .Values.ip }}\n';
    const { findings } = lint({ 'svc.yaml': text });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.line, f.column, f.text]), [['file-skipped', 'info', 5, 14, '{{']]);
    assert.match(findings[0].message, /^not analysed: Go template actions \(\{\{ … \}\}, line 5\) make this a template/);
  });
  it('gives chart templates no finding of their own (the chart has one)', () => {
    const { lint } = require('../helpers/lint') as typeof import('../helpers/lint');
    const { findings } = lint({ 'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n', 'c/templates/svc.yaml': 'port: {{ .Values.port }}\n' });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.file]), [['helm-chart-not-rendered', 'c/Chart.yaml']]);
  });
});

describe('file-skipped: Terraform templatefile() sources', () => {
  const { lint } = require('../helpers/lint') as typeof import('../helpers/lint');
  const kubeProxy = [
    'apiVersion: apps/v1', 'kind: DaemonSet', 'metadata: {name: kube-proxy, namespace: kube-system}', 'spec:',
    '  selector: {matchLabels: {k8s-app: kube-proxy}}', '  template:', '    metadata: {labels: {k8s-app: kube-proxy}}', '    spec:',
    '      containers:', '        - name: kube-proxy', '          image: registry.k8s.io/kube-proxy:${version}', '          command:',
    '            - kube-proxy', '            - --proxy-mode=ipvs', '%{ for flag in extra_flags ~}', '            - ${flag}', '%{ endfor ~}', '',
  ].join('\n');

  it('gives one info finding (no yaml-syntax errors) and says the --proxy-mode it holds is not read', () => {
    const { findings } = lint({ 'kube-proxy.yaml': kubeProxy });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.line]), [['file-skipped', 'info', 15]]);
    assert.equal(findings[0].message, 'not analysed: Terraform template syntax (%{ … } or ${ … }, line 15) makes this a template, not a manifest; lint what templatefile() renders, or set kubeProxyMode: ipvs in .kube-netlint.yaml (its --proxy-mode=ipvs is not read from the template)');
  });

  it('still reads a manifest whose values merely contain ${…} text', () => {
    const { findings, analysis } = lint({ 'env.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  url: "${BASE_URL}/api"\n  image: ${image}\n' });
    assert.deepEqual(findings, []);
    assert.equal(analysis.model.objects.filter((o) => o.kind === 'ConfigMap').length, 1);
  });
});
