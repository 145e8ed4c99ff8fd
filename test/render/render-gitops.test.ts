import { strict as assert } from 'node:assert';
import { lintRendered, scratchTrees } from '../helpers/render';

// Argo CD Applications and Flux objects as releases, rendered with the real helm and kustomize inside unshare -n.
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: http\n      port: 80\n      nodePort: ${nodePort}\n`;
const chart = {
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/values.yaml': 'service:\n  nodePort: 30080\n  port: 80\n',
  'charts/web/values-prod.yaml': 'service:\n  nodePort: 30300\n',
  'charts/web/templates/service.yaml':
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  type: NodePort\n  ports:\n    - name: http\n      port: {{ .Values.service.port }}\n      nodePort: {{ .Values.service.nodePort }}\n',
};

describe('rendering GitOps releases (Argo CD, Flux)', function () {
  this.timeout(120_000);
  const { tree } = scratchTrees();

  it('renders an Argo CD Application: release = its name, helm.namespace, valueFiles then valuesObject then parameters', () => {
    const app =
      'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: shop\n  namespace: argocd\nspec:\n  destination:\n    namespace: dest\n  source:\n    repoURL: https://git.example.com/repo.git\n    path: charts/web\n    helm:\n      namespace: web-ns\n      valueFiles: [values-prod.yaml]\n      valuesObject:\n        service:\n          port: 8080\n      parameters:\n        - name: service.nodePort\n          value: "30400"\n';
    const dir = tree({ ...chart, 'apps/shop.yaml': app, 'other.yaml': svc('other', 30400) });
    const r = lintRendered(dir, ['.']);
    const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
    assert.deepEqual(dup.map((f) => [f.file, f.line]), [['apps/shop.yaml', 20], ['other.yaml', 11]]);
    assert.match(dup[0].message, /claimed by Service default\/other: .*\(Service web-ns\/shop, Helm release shop, values-prod\.yaml\)$/);
    assert.match(dup[1].message, /claimed by Service web-ns\/shop: /);
    // The chart is rendered once, by the Application (not again as a default release named after the chart).
    assert.match(r.stderr, /rendered 0 kustomizations, 1 Helm release in/);
  });

  it('reads a multi-source Application\'s $ref values file from this repository when the ref source is this repository', () => {
    const app = (name: string, refRepo: string) =>
      `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: ${name}\n  namespace: argocd\nspec:\n  destination:\n    namespace: ${name}\n  sources:\n    - repoURL: https://git.example.com/Org/repo.git\n      path: charts/web\n      helm:\n        valueFiles: [$values/envs/prod.yaml]\n    - repoURL: ${refRepo}\n      ref: values\n`;
    // Argo CD compares Git URLs without case, a trailing slash or .git: this is the same repository.
    const dir = tree({ ...chart, 'apps/shop.yaml': app('shop', 'https://git.example.com/org/repo/'), 'envs/prod.yaml': 'service:\n  nodePort: 30310\n', 'other.yaml': svc('other', 30310) });
    const r = lintRendered(dir, ['.']);
    const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
    assert.deepEqual(dup.map((f) => [f.file, f.line, f.column]), [['envs/prod.yaml', 2, 13], ['other.yaml', 11, 17]]);
    assert.match(dup[0].message, /claimed by Service default\/other: .*\(Service shop\/shop, Helm release shop, prod\.yaml\)$/);
    assert.deepEqual(r.findings.filter((f) => f.ruleId === 'render-incomplete'), []);
    // A ref source in another repository stays out of the render, and says so on the valueFiles entry.
    const elsewhere = lintRendered(tree({ ...chart, 'apps/shop.yaml': app('shop', 'https://git.example.com/org/values.git'), 'envs/prod.yaml': 'service:\n  nodePort: 30310\n', 'other.yaml': svc('other', 30310) }), ['.']);
    assert.deepEqual(elsewhere.findings.filter((f) => f.ruleId === 'nodeport-duplicate'), []);
    const left = elsewhere.findings.filter((f) => f.ruleId === 'render-incomplete');
    assert.deepEqual(left.map((f) => [f.file, f.line, f.column]), [['apps/shop.yaml', 13, 22]]);
    assert.equal(left[0].message, 'Argo CD Application shop: values file $values/envs/prod.yaml is not in this repository and is left out of the render (kube-netlint never downloads)');
  });

  it('renders a Flux HelmRelease: [targetNamespace-]name, valuesFiles replace values.yaml, valuesFrom named', () => {
    const hr =
      'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: web\n  namespace: flux-system\nspec:\n  targetNamespace: prod\n  chart:\n    spec:\n      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: repo}\n      valuesFiles: [charts/web/values-prod.yaml]\n  valuesFrom:\n    - kind: Secret\n      name: web-values\n';
    // values.yaml is replaced, so the values file gives the Service its port too (without one the API server rejects it).
    const dir = tree({ ...chart, 'charts/web/values-prod.yaml': 'service:\n  nodePort: 30300\n  port: 80\n', 'clusters/prod/web.yaml': hr, 'other.yaml': svc('other', 30300) });
    const r = lintRendered(dir, ['.']);
    const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
    assert.deepEqual(dup.map((f) => [f.file, f.line]), [['charts/web/values-prod.yaml', 2], ['other.yaml', 11]]);
    assert.match(dup[1].message, /claimed by Service prod\/prod-web: /);
    const left = r.findings.filter((f) => f.ruleId === 'render-incomplete');
    assert.deepEqual(left.map((f) => [f.file, f.line]), [['clusters/prod/web.yaml', 14]]);
    assert.match(left[0].message, /valuesFrom \(values kept in Secrets or ConfigMaps of the cluster\) is left out of the render/);
  });

  it('renders a Flux Kustomization of a folder without kustomization.yaml into its targetNamespace', () => {
    const ks =
      'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  path: ./apps\n  targetNamespace: team-a\n  sourceRef: {kind: GitRepository, name: repo}\n';
    const dir = tree({ 'flux/apps.yaml': ks, 'apps/a.yaml': svc('a', 30500), 'apps/b.yaml': svc('b', 30500) });
    const r = lintRendered(dir, ['.']);
    const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
    assert.deepEqual(dup.map((f) => [f.file, f.line]), [['apps/a.yaml', 11], ['apps/b.yaml', 11]]);
    assert.match(dup[0].message, /claimed by Service team-a\/b: .*\(Service team-a\/a, Flux Kustomization flux-system\/apps, apps\)/);
  });

  it('names a HelmRelease whose chart comes from a Helm repository, and renders nothing for it', () => {
    const hr = 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: redis\n  namespace: db\nspec:\n  chart:\n    spec:\n      chart: redis\n      sourceRef: {kind: HelmRepository, name: bitnami}\n';
    const r = lintRendered(tree({ 'hr.yaml': hr }), ['.']);
    assert.deepEqual(r.findings.map((f) => [f.ruleId, f.file, f.line]), [['render-incomplete', 'hr.yaml', 8]]);
    assert.match(r.findings[0].message, /^Flux HelmRelease db\/redis: its chart comes from a HelmRepository source, outside this repository/);
  });
});
