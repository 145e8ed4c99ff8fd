import { strict as assert } from 'node:assert';
import { JsonFinding, lintRendered, scratchTrees } from '../helpers/render';

// Unrendered (--no-render), kustomize's namespace and namePrefix/nameSuffix transformers and the Service references
// they rewrite are applied to the raw files as kustomize builds them: the findings must be those of the real build
// (`kubectl kustomize`, inside unshare -n), object names and namespaces included. Related locations may differ on
// purpose: a renamed object's name points at its metadata.name line unrendered, at the namePrefix line rendered.
type Finding = JsonFinding & { object?: { kind: string; namespace?: string; name: string } };
const row = (f: Finding): string => `${f.ruleId} ${f.file}:${f.line}:${f.column} ${f.object?.kind} ${f.object?.namespace}/${f.object?.name} | ${f.related.map((r) => `${r.file}:${r.line}`).join(' ')}`;
const rows = (findings: readonly JsonFinding[]): string[] => (findings as Finding[]).map(row).sort();

const app =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  type: NodePort\n  selector: {app: web}\n  ports:\n    - port: 80\n      targetPort: http\n      nodePort: 30100\n---\n' +
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n          ports:\n            - {name: http, containerPort: 8080}\n---\n' +
  'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n    - http:\n        paths:\n          - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 81}}}}\n          - {path: /api, pathType: Prefix, backend: {service: {name: api, port: {number: 80}}}}\n';

describe('kustomize transformers on raw files (--no-render) give the rendered findings', function () {
  this.timeout(120_000);
  const { tree } = scratchTrees();
  const withoutRelated = (list: readonly string[]): string[] => list.map((r) => r.slice(0, r.indexOf(' | ')));
  const both = (files: Record<string, string>): { raw: string[]; rendered: string[] } => {
    const dir = tree(files);
    const rendered = lintRendered(dir, ['.']);
    assert.match(rendered.stderr, /rendered [1-9]\d* kustomization/);
    return { raw: rows(lintRendered(dir, ['--no-render', '.']).findings), rendered: rows(rendered.findings) };
  };

  it('builds a base reached by two overlays of one entry point once per overlay, each in its namespace with its prefix and suffix', () => {
    const { raw, rendered } = both({
      'base/kustomization.yaml': 'resources: [app.yaml]\n',
      'base/app.yaml': app,
      'overlays/prod/kustomization.yaml': 'namespace: prod\nnamePrefix: prod-\nnameSuffix: -v1\nresources: [../../base]\n',
      'overlays/staging/kustomization.yaml': 'namespace: staging\nnamePrefix: stg-\nresources: [../../base]\n',
      'kustomization.yaml': 'resources: [overlays/prod, overlays/staging]\n',
    });
    assert.deepEqual(raw, [
      'ingress-backend-unresolved base/app.yaml:36:87 Ingress prod/prod-web-v1 | base/app.yaml:4',
      'ingress-backend-unresolved base/app.yaml:36:87 Ingress staging/stg-web | base/app.yaml:4',
      'ingress-backend-unresolved base/app.yaml:37:70 Ingress prod/prod-web-v1 | ',
      'ingress-backend-unresolved base/app.yaml:37:70 Ingress staging/stg-web | ',
      'nodeport-duplicate base/app.yaml:11:17 Service prod/prod-web-v1 | base/app.yaml:11',
      'nodeport-duplicate base/app.yaml:11:17 Service staging/stg-web | base/app.yaml:11',
    ]);
    assert.deepEqual(withoutRelated(raw), withoutRelated(rendered));
    // Rendered, each copy's renamed Service points at its own overlay's transformer line.
    assert.deepEqual(rendered.filter((r) => r.includes(':36:87')).map((r) => r.slice(r.indexOf(' | ') + 3)), ['overlays/prod/kustomization.yaml:3', 'overlays/staging/kustomization.yaml:2']);
  });

  it('renames Service references across branches only in the same namespace, as kustomize\'s name reference transformer does', () => {
    const ingress = (name: string, ns: string, port: number): string =>
      `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: ${name}, namespace: ${ns}}\nspec:\n  defaultBackend: {service: {name: web, port: {number: ${port}}}}\n`;
    const svc = 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {ports: [{port: 80}]}\n';
    const { raw, rendered } = both({
      'app/kustomization.yaml': 'namePrefix: p-\nresources: [svc.yaml]\n',
      'app/svc.yaml': svc,
      // Same namespace: the reference follows the renamed Service (port 81 is then reported against p-web).
      'same.yaml': ingress('same', 'shop', 81),
      // Another namespace: the reference stays `web`, which that namespace does not have.
      'other.yaml': ingress('other', 'blog', 80),
      'kustomization.yaml': 'resources: [same.yaml, other.yaml, app]\n',
    });
    assert.deepEqual(raw, [
      'ingress-backend-unresolved other.yaml:5:36 Ingress blog/other | ',
      'ingress-backend-unresolved same.yaml:5:56 Ingress shop/same | app/svc.yaml:3',
    ]);
    assert.deepEqual(withoutRelated(raw), withoutRelated(rendered));
  });

  it('builds a base reached with and without a prefix twice in one namespace (two Services on one nodePort)', () => {
    const { raw, rendered } = both({
      'base/kustomization.yaml': 'resources: [svc.yaml]\n',
      'base/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30200}]}\n',
      'a/kustomization.yaml': 'namePrefix: a-\nresources: [../base]\n',
      'kustomization.yaml': 'resources: [base, a]\n',
    });
    assert.deepEqual(raw, [
      'nodeport-duplicate base/svc.yaml:4:53 Service shop/a-web | base/svc.yaml:4',
      'nodeport-duplicate base/svc.yaml:4:53 Service shop/web | base/svc.yaml:4',
    ]);
    assert.deepEqual(withoutRelated(raw), withoutRelated(rendered));
  });
});
