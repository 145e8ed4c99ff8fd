import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { JsonFinding, lintRendered, writeTree } from '../helpers/render';

// Where findings on rendered objects land, and what a render leaves out: charts inflated by a kustomization's
// helmCharts, unvendored helmCharts entries, multi-document Helm templates. Real helm and kustomize, inside unshare -n.
type Finding = JsonFinding & { object?: { kind: string; namespace?: string; name: string } };
const row = (f: Finding): unknown[] => [f.ruleId, f.file, f.line, f.column, `${f.object?.kind} ${f.object?.namespace}/${f.object?.name}`];

const chart = (name: string, version: string, values: string): Record<string, string> => ({
  [`Chart.yaml`]: `apiVersion: v2\nname: ${name}\nversion: ${version}\n`,
  [`values.yaml`]: values,
  [`templates/svc.yaml`]: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-controller\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: {{ .Values.np }}\n',
});
const under = (prefix: string, files: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(files).map(([k, v]) => [`${prefix}/${k}`, v]));
const svcC = 'apiVersion: v1\nkind: Service\nmetadata: {name: svc-c}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30501}]}\n';
const helmKustomization = (np: number, extra = ''): string =>
  `resources:\n  - svc.yaml\n${extra}helmCharts:\n  - name: ingress-nginx\n    repo: https://kubernetes.github.io/ingress-nginx\n    version: 4.11.0\n    releaseName: ingress\n    valuesInline:\n      np: ${np}\n`;

describe('rendered sources: helmCharts, left-out entries, multi-document templates', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const tree = (files: Record<string, string>): string => {
    const d = writeTree(files);
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  describe('a chart vendored for a kustomization helmCharts entry', () => {
    const vendored = (np: number): Record<string, string> => ({
      'c/kustomization.yaml': helmKustomization(np),
      'c/svc.yaml': svcC,
      ...under('c/charts/ingress-nginx-4.11.0/ingress-nginx', chart('ingress-nginx', '4.11.0', 'np: 5000\n')),
    });

    it('is rendered only through the kustomization, with its valuesInline (the chart\'s own values.yaml is not a release)', () => {
      const r = lintRendered(tree(vendored(30509)), ['.']);
      assert.deepEqual(r.findings.map(row), []);
      assert.equal(r.code, 0);
      assert.match(r.stderr, /rendered 1 kustomization, 0 Helm releases/);
    });

    it('puts a finding on an inflated object on the valuesInline line that set the value', () => {
      const r = lintRendered(tree(vendored(30501)), ['.']);
      const dup = (r.findings as Finding[]).filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map(row), [
        ['nodeport-duplicate', 'c/kustomization.yaml', 9, 11, 'Service default/ingress-controller'],
        ['nodeport-duplicate', 'c/svc.yaml', 4, 53, 'Service default/svc-c'],
      ]);
      assert.deepEqual(dup[0].related.map((x) => [x.file, x.line]), [['c/svc.yaml', 4]]);
      assert.deepEqual(dup[1].related.map((x) => [x.file, x.line]), [['c/kustomization.yaml', 9]]);
      assert.equal(r.findings.filter((f) => f.ruleId === 'helm-chart-not-rendered' || f.ruleId === 'nodeport-out-of-range').length, 0);
    });

    it('puts an inflated object\'s finding on its helmCharts entry when no valuesInline line holds the value', () => {
      const files = vendored(30509);
      files['c/kustomization.yaml'] = helmKustomization(30509).replace('    valuesInline:\n      np: 30509\n', '');
      files['c/charts/ingress-nginx-4.11.0/ingress-nginx/values.yaml'] = 'np: 30501\n';
      const dup = (lintRendered(tree(files), ['.']).findings as Finding[]).filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map(row), [
        ['nodeport-duplicate', 'c/kustomization.yaml', 4, 5, 'Service default/ingress-controller'],
        ['nodeport-duplicate', 'c/svc.yaml', 4, 53, 'Service default/svc-c'],
      ]);
    });
  });

  describe('a helmCharts entry that is not vendored', () => {
    it('is left out with an info finding, and the rest of the overlay is rendered and linted', () => {
      const dir = tree({ 'c/kustomization.yaml': helmKustomization(30509, 'namePrefix: p-\n'), 'c/svc.yaml': svcC.replace('30501', '5000') });
      const r = lintRendered(dir, ['.']);
      assert.deepEqual(r.findings.map(row), [
        ['render-incomplete', 'c/kustomization.yaml', 5, 5, 'undefined undefined/undefined'],
        ['nodeport-out-of-range', 'c/svc.yaml', 4, 53, 'Service default/p-svc-c'],
      ]);
      assert.match(r.findings[0].message, /^helmCharts entry ingress-nginx left out of the render \(rendered by c\)/);
      assert.equal(r.code, 1);
    });

    it('leaves out only the unvendored entry when another one is vendored', () => {
      const k = `resources:\n  - svc.yaml\nhelmCharts:\n  - name: missing\n    repo: https://charts.example.com\n    version: 1.0.0\n  - name: ingress-nginx\n    version: 4.11.0\n    releaseName: ingress\n    valuesInline:\n      np: 30501\n`;
      // Without repo, kustomize inflates <chartHome>/<name> whatever the version.
      const dir = tree({ 'c/kustomization.yaml': k, 'c/svc.yaml': svcC, ...under('c/charts/ingress-nginx', chart('ingress-nginx', '4.11.0', 'np: 5000\n')) });
      const r = lintRendered(dir, ['.']);
      assert.deepEqual(r.findings.map(row), [
        ['render-incomplete', 'c/kustomization.yaml', 4, 5, 'undefined undefined/undefined'],
        ['nodeport-duplicate', 'c/kustomization.yaml', 11, 11, 'Service default/ingress-controller'],
        ['nodeport-duplicate', 'c/svc.yaml', 4, 53, 'Service default/svc-c'],
      ]);
    });
  });

  describe('a Helm template with several documents', () => {
    const two = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: 30601\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: 30601\n';
    it('puts each object\'s finding on its own document, and the related location on the other one', () => {
      const dir = tree({ 'c/Chart.yaml': 'apiVersion: v2\nname: two\nversion: 0.1.0\n', 'c/values.yaml': '', 'c/templates/svc.yaml': two });
      const dup = (lintRendered(dir, ['.']).findings as Finding[]).filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map(row), [
        ['nodeport-duplicate', 'c/templates/svc.yaml', 9, 17, 'Service default/a'],
        ['nodeport-duplicate', 'c/templates/svc.yaml', 19, 17, 'Service default/b'],
      ]);
      assert.deepEqual(dup.map((f) => f.related.map((x) => [x.file, x.line])), [[['c/templates/svc.yaml', 19]], [['c/templates/svc.yaml', 9]]]);
    });

    it('finds the document by kind when helm sorts a template\'s objects (a ConfigMap written after a Service)', () => {
      const tpl = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-a\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: 5000\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  nodePort: "5000"\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-b\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: 5001\n';
      const dir = tree({ 'c/Chart.yaml': 'apiVersion: v2\nname: two\nversion: 0.1.0\n', 'c/values.yaml': '', 'c/templates/svc.yaml': tpl });
      const out = (lintRendered(dir, ['.']).findings as Finding[]).filter((f) => f.ruleId === 'nodeport-out-of-range');
      assert.deepEqual(out.map(row), [
        ['nodeport-out-of-range', 'c/templates/svc.yaml', 9, 17, 'Service default/two-a'],
        ['nodeport-out-of-range', 'c/templates/svc.yaml', 26, 17, 'Service default/two-b'],
      ]);
    });
  });
});
