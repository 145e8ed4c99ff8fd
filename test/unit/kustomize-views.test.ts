import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import { computeLayout, defaultRepoPath } from '../../server/out/core/repo/layout';
import { objectsAsBuilt } from '../../server/out/core/repo/kustomize-view';
import type { Finding } from '../../server/out/core/rules/rule';
import { IncrementalWorkspace } from '../../server/out/core/workspace/incremental';

// Raw kustomize members as each entry point builds them (namespace, namePrefix/nameSuffix, renamed Service
// references), one copy per overlay; the real builds are compared in test/render/kustomize-raw-view.test.ts.
const FILES: Record<string, string> = {
  'base/kustomization.yaml': 'resources: [app.yaml]\n',
  'base/app.yaml':
    'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: NodePort, selector: {app: web}, ports: [{port: 80, targetPort: 8080, nodePort: 30100}]}\n---\n' +
    'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n---\n' +
    'apiVersion: v1\nkind: Namespace\nmetadata: {name: tools}\n',
  'overlays/prod/kustomization.yaml': 'namespace: prod\nnamePrefix: prod-\nnameSuffix: -v1\nresources: [../../base]\n',
  'overlays/staging/kustomization.yaml': 'namespace: staging\nresources: [../../base]\n',
  'kustomization.yaml': 'resources: [overlays/prod, overlays/staging]\n',
};
const key = (f: Finding): string => JSON.stringify([f.ruleId, f.severity, f.message, f.span, f.object, f.related]);

describe('kustomize views of raw files (namespace, namePrefix/nameSuffix, Service references)', () => {
  const files = Object.entries(FILES).map(([p, t]) => loadFile(p, t));

  it('gives a base that two overlays list one view per overlay, and the Ingress the renamed Service', () => {
    const layout = computeLayout(files, DEFAULT_CONFIG, defaultRepoPath);
    const group = layout.groups!.find((g) => g.name === '.')!;
    assert.deepEqual(group.views?.get('base/app.yaml'), [
      { namespace: 'prod', namePrefix: 'prod-', nameSuffix: '-v1', services: [['prod', 'web', 'prod-web-v1']] },
      { namespace: 'staging', namePrefix: '', nameSuffix: '' },
    ]);
    const model = analyze(files, DEFAULT_CONFIG);
    const ids = model.findings.map((f) => `${f.ruleId} ${f.object?.namespace}/${f.object?.name}`).sort();
    assert.deepEqual(ids, ['nodeport-duplicate prod/prod-web-v1', 'nodeport-duplicate staging/web']);
  });

  it('keeps Namespace and CRD names and reports a missing Service under its built name', () => {
    const edited = files.map((f) => (f.file === 'base/app.yaml' ? loadFile(f.file, f.text.replace('service: {name: web', 'service: {name: api')) : f));
    const unresolved = analyze(edited, DEFAULT_CONFIG).findings.filter((f) => f.ruleId === 'ingress-backend-unresolved');
    assert.deepEqual(unresolved.map((f) => `${f.object?.namespace}/${f.object?.name}: ${f.message.slice(0, 28)}`).sort(), [
      'prod/prod-web-v1: Service "api" of the default',
      'staging/web: Service "api" of the default',
    ]);
    const views = computeLayout(files, DEFAULT_CONFIG, defaultRepoPath).groups![0].views!.get('base/app.yaml')!;
    const crd = loadFile('crd.yaml', 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n').objects[0];
    const namespace = files.find((f) => f.file === 'base/app.yaml')!.objects[2];
    assert.deepEqual([crd, namespace].flatMap((o) => objectsAsBuilt(o, views)).map((o) => [o.identity, o.uid]), [
      ['apiextensions.k8s.io/CustomResourceDefinition//widgets.example.com', `${crd.uid}@0`],
      ['/Namespace//tools', `${namespace.uid}@0`],
    ]);
  });

  it('gives the full analysis after every edit of the base, incrementally', () => {
    const texts = new Map(Object.entries(FILES));
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    for (const [p, t] of texts) ws.setText(p, t);
    const modes = new Set<string>();
    const edits: [string, string][] = [['30100', '30101'], ['port: 80}}', 'port: 81}}'], ['name: web}\nspec: {type', 'name: api}\nspec: {type'], ['30101', '30100'], ['port: 81}}', 'port: 80}}']];
    for (const [from, to] of edits) {
      const t = texts.get('base/app.yaml')!.replace(from, to);
      texts.set('base/app.yaml', t);
      ws.setText('base/app.yaml', t);
      const result = ws.analyze();
      modes.add(ws.lastRun.mode);
      const want = analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key);
      assert.deepEqual(result.findings.map(key), want, `${from} → ${to} (${ws.lastRun.mode})`);
    }
    assert.ok(modes.has('incremental'), `modes: ${[...modes]}`);
  });
});
