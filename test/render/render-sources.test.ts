import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { JsonFinding, lintRendered, runRendered, scratchTrees } from '../helpers/render';

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
  const { tree } = scratchTrees();

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

    it('puts an inflated object\'s finding on the line of the vendored chart\'s values.yaml when no valuesInline key sets the value', () => {
      const files = vendored(30509);
      files['c/kustomization.yaml'] = helmKustomization(30509).replace('    valuesInline:\n      np: 30509\n', '');
      files['c/charts/ingress-nginx-4.11.0/ingress-nginx/values.yaml'] = '# defaults\nnp: 30501\n';
      const dup = (lintRendered(tree(files), ['.']).findings as Finding[]).filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map(row), [
        ['nodeport-duplicate', 'c/charts/ingress-nginx-4.11.0/ingress-nginx/values.yaml', 2, 5, 'Service default/ingress-controller'],
        ['nodeport-duplicate', 'c/svc.yaml', 4, 53, 'Service default/svc-c'],
      ]);
    });

    it('puts it on its helmCharts entry when the value is written in no values file (a template literal)', () => {
      const files = vendored(30509);
      files['c/kustomization.yaml'] = helmKustomization(30509).replace('    valuesInline:\n      np: 30509\n', '');
      files['c/charts/ingress-nginx-4.11.0/ingress-nginx/values.yaml'] = 'other: 1\n';
      files['c/charts/ingress-nginx-4.11.0/ingress-nginx/templates/svc.yaml'] = chart('x', '1', '')['templates/svc.yaml'].replace('{{ .Values.np }}', '30501');
      const dup = (lintRendered(tree(files), ['.']).findings as Finding[]).filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map(row), [
        ['nodeport-duplicate', 'c/kustomization.yaml', 4, 5, 'Service default/ingress-controller'],
        ['nodeport-duplicate', 'c/svc.yaml', 4, 53, 'Service default/svc-c'],
      ]);
    });
  });

  describe('helmCharts valuesInline keys that hold the same number', () => {
    // A Service nodePort and a container hostPort of the chart, both fed by valuesInline with the same value.
    const appChart = chart('app', '0.1.0', 'service:\n  nodePort: 30000\nhostPort: 8080\n');
    appChart['templates/svc.yaml'] = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-svc\nspec:\n  type: NodePort\n  selector: {app: web}\n  ports:\n    - port: 80\n      targetPort: 8080\n      nodePort: {{ .Values.service.nodePort }}\n';
    appChart['templates/deploy.yaml'] =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-web\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n          ports:\n            - containerPort: 8080\n              hostPort: {{ .Values.hostPort }}\n';
    const other = 'apiVersion: v1\nkind: Service\nmetadata: {name: other}\nspec: {type: NodePort, selector: {app: web}, ports: [{port: 80, targetPort: 8080, nodePort: 30401}]}\n';
    const k = (before = ''): string => `resources:\n  - other.yaml\nhelmCharts:\n${before}  - name: app\n    releaseName: app\n    valuesInline:\n      service: {nodePort: 30401}\n      hostPort: 30401\n`;
    const rows = (r: { findings: JsonFinding[] }, rule: string): unknown[] =>
      (r.findings as Finding[]).filter((f) => f.ruleId === rule).map((f) => [...row(f), f.related.map((x) => `${x.file}:${x.line}`).join(' ')]);

    it('puts each finding on the valuesInline key that feeds the field (proved by a sentinel build), and leaves the kustomization as written', () => {
      const dir = tree({ 'kustomization.yaml': k(), 'other.yaml': other, ...under('charts/app', appChart) });
      const r = lintRendered(dir, ['.']);
      assert.deepEqual(rows(r, 'nodeport-duplicate'), [
        ['nodeport-duplicate', 'kustomization.yaml', 7, 27, 'Service default/app-svc', 'other.yaml:4'],
        ['nodeport-duplicate', 'other.yaml', 4, 93, 'Service default/other', 'kustomization.yaml:7'],
      ]);
      assert.deepEqual(rows(r, 'host-port-conflicts-nodeport'), [
        ['host-port-conflicts-nodeport', 'kustomization.yaml', 7, 27, 'Service default/app-svc', 'kustomization.yaml:8'],
        ['host-port-conflicts-nodeport', 'kustomization.yaml', 8, 17, 'Deployment default/app-web', 'kustomization.yaml:7 other.yaml:4'],
        ['host-port-conflicts-nodeport', 'other.yaml', 4, 93, 'Service default/other', 'kustomization.yaml:8'],
      ]);
      assert.equal(readFileSync(`${dir}/kustomization.yaml`, 'utf8'), k());
      assert.deepEqual(readdirSync(dir).sort(), ['charts', 'kustomization.yaml', 'other.yaml']);
    });

    it('maps them the same when the build runs on a copy (an unvendored helmCharts entry left out)', () => {
      const missing = '  - name: missing\n    repo: https://charts.example.com\n    version: 1.0.0\n';
      const r = lintRendered(tree({ 'kustomization.yaml': k(missing), 'other.yaml': other, ...under('charts/app', appChart) }), ['.']);
      assert.deepEqual(rows(r, 'host-port-conflicts-nodeport').map((x) => (x as unknown[]).slice(1, 4)), [
        ['kustomization.yaml', 10, 27],
        ['kustomization.yaml', 11, 17],
        ['other.yaml', 4, 93],
      ]);
      assert.deepEqual(rows(r, 'render-incomplete').map((x) => (x as unknown[]).slice(1, 3)), [['kustomization.yaml', 4]]);
    });
  });

  describe('helmCharts valuesFile and additionalValuesFiles', () => {
    // The chart's own values.yaml is replaced by valuesFile; additionalValuesFiles merge after it, key by key.
    const appChart = chart('app', '0.1.0', 'np: 30000\nhostPort: 8080\n');
    appChart['templates/deploy.yaml'] =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-web\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n          ports:\n            - containerPort: 8080\n              hostPort: {{ .Values.hostPort }}\n';
    const other = 'apiVersion: v1\nkind: Service\nmetadata: {name: other}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30401}]}\n';
    const k = (extra = ''): string => `resources:\n  - other.yaml\n${extra}helmCharts:\n  - name: app\n    releaseName: app\n    valuesFile: values/prod.yaml\n    additionalValuesFiles:\n      - values/extra.yaml\n`;
    const files = (extra = ''): Record<string, string> => ({
      'kustomization.yaml': k(extra),
      'other.yaml': other,
      'values/prod.yaml': '# production\nnp: 30401\nhostPort: 30401\n',
      'values/extra.yaml': 'hostPort: 30401 # the node port of other, by mistake\n',
      ...under('charts/app', appChart),
    });
    const rows = (r: { findings: JsonFinding[] }, rule: string): unknown[] =>
      (r.findings as Finding[]).filter((f) => f.ruleId === rule).map((f) => [...row(f), f.related.map((x) => `${x.file}:${x.line}`).join(' ')]);

    it('puts each finding on the values-file key that feeds the field, the last file that sets it winning', () => {
      const r = lintRendered(tree(files()), ['.']);
      assert.deepEqual(rows(r, 'nodeport-duplicate'), [
        ['nodeport-duplicate', 'other.yaml', 4, 53, 'Service default/other', 'values/prod.yaml:2'],
        ['nodeport-duplicate', 'values/prod.yaml', 2, 5, 'Service default/app-controller', 'other.yaml:4'],
      ]);
      assert.deepEqual(rows(r, 'host-port-conflicts-nodeport').map((x) => (x as unknown[]).slice(1, 4)), [
        ['other.yaml', 4, 53],
        ['values/extra.yaml', 1, 11],
        ['values/prod.yaml', 2, 5],
      ]);
      // The root kustomization is the only cluster group, and "rendered by ./kustomization.yaml" already names it.
      assert.deepEqual(r.findings.filter((f) => f.message.includes('(in cluster')).map((f) => f.message), []);
      assert.match(r.findings.find((f) => f.ruleId === 'host-port-conflicts-nodeport' && f.file === 'values/extra.yaml')!.message, /\(Deployment default\/app-web, rendered by \.\/kustomization\.yaml\)$/);
    });

    it('maps them the same when the build runs on a copy (values files in a subfolder are copied)', () => {
      const r = lintRendered(tree(files('  - https://github.com/example/base//deploy?ref=v1\n')), ['.']);
      assert.deepEqual(rows(r, 'nodeport-duplicate').map((x) => (x as unknown[]).slice(1, 4)), [
        ['other.yaml', 4, 53],
        ['values/prod.yaml', 2, 5],
      ]);
      assert.deepEqual(rows(r, 'render-incomplete').map((x) => (x as unknown[]).slice(1, 3)), [['kustomization.yaml', 3]]);
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
  describe('kustomize build failures', () => {
    const web = 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}\n';
    it('gives kustomize\'s own message on the inline patch that matches nothing, without temp paths, naming the root kustomization', () => {
      const k = 'resources: [svc.yaml]\npatches:\n  - patch: |-\n      apiVersion: v1\n      kind: Service\n      metadata: {name: typo}\n      spec: {type: NodePort}\n';
      const r = lintRendered(tree({ 'kustomization.yaml': k, 'svc.yaml': web }), ['.']);
      const failed = r.findings.filter((f) => f.ruleId === 'render-failed');
      assert.deepEqual(failed.map((f) => [f.file, f.line, f.column, f.message]), [[
        'kustomization.yaml', 3, 5,
        'kustomize build failed (rendered by ./kustomization.yaml): no resource matches strategic merge patch "Service.v1.[noGrp]/typo.[noNs]": no matches for Id Service.v1.[noGrp]/typo.[noNs]; failed to find unique target for patch Service.v1.[noGrp]/typo.[noNs]',
      ]]);
    });

    it('names the base folder of a missing resource by its repository path, on the base\'s line', () => {
      const dir = tree({ 'base/kustomization.yaml': 'resources:\n  - web.yaml\n  - missing.yaml\n', 'base/web.yaml': web, 'ov/kustomization.yaml': 'namespace: x\nresources:\n  - ../base\n' });
      const message = "kustomize build failed (rendered by ov): in base: accumulating resources from 'missing.yaml': lstat base/missing.yaml: no such file or directory";
      const failed = (paths: string[]): unknown[] => lintRendered(dir, paths).findings.filter((f) => f.ruleId === 'render-failed').map((f) => [f.file, f.line, f.column, f.message]);
      assert.deepEqual(failed(['ov', 'base']), [['base/kustomization.yaml', 3, 5, message]]);
      // The base is not among the linted paths: the overlay's entry that leads to it.
      assert.deepEqual(failed(['ov']), [['ov/kustomization.yaml', 3, 5, message]]);
    });

    it('puts a kustomization field kustomize cannot read on that field', () => {
      const dir = tree({ 'ov/kustomization.yaml': 'resources:\n  - web.yaml\nnamePrefix: [x]\n', 'ov/web.yaml': web });
      const failed = lintRendered(dir, ['.']).findings.filter((f) => f.ruleId === 'render-failed');
      assert.deepEqual(failed.map((f) => [f.file, f.line, f.column, f.message]), [[
        'ov/kustomization.yaml', 3, 1, 'kustomize build failed (rendered by ov): invalid Kustomization: json: cannot unmarshal array into Go struct field Kustomization.namePrefix of type string',
      ]]);
    });
  });

  describe('a base rendered by several overlays', () => {
    const api = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: api\nspec:\n  type: NodePort\n  selector: {app: api}\n  ports:\n    - name: http\n      port: 80\n      nodePort: 30101\n';
    const overlays = {
      'base/kustomization.yaml': 'resources:\n  - api.yaml\n',
      'base/api.yaml': api,
      'overlays/prod/kustomization.yaml': 'namespace: prod\nresources:\n  - ../../base\n',
      'overlays/staging/kustomization.yaml': 'namespace: staging\nnamePrefix: stg-\nresources:\n  - ../../base\n',
    };

    it('says which rendered copy each finding on the shared base line is about', () => {
      const dir = tree({ ...overlays, '.kube-netlint.yaml': 'clusters: {shared: ["overlays/**", "base/**"]}\n' });
      const dup = (lintRendered(dir, ['.']).findings as Finding[]).filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map((f) => [f.file, f.line, f.column, f.message.replace(/^.*?; pick another port /, '')]), [
        ['base/api.yaml', 11, 17, '(Service staging/stg-api, rendered by overlays/staging) (in cluster shared)'],
        ['base/api.yaml', 11, 17, '(Service prod/api, rendered by overlays/prod) (in cluster shared)'],
      ]);
      assert.deepEqual(dup.map((f) => /claimed by (\S+ \S+?):/.exec(f.message)?.[1]), ['Service prod/api', 'Service staging/stg-api']);
    });

    it('does not repeat the object in a message that already names it', () => {
      const files = { ...overlays, 'base/api.yaml': api.replace('30101', '5000') };
      const out = lintRendered(tree(files), ['.']).findings.filter((f) => f.ruleId === 'nodeport-out-of-range');
      assert.deepEqual(out.map((f) => [f.file, f.line, /^nodePort 5000 of (\S+ \S+) /.exec(f.message)?.[1], /\(rendered by [^)]*\)/.exec(f.message)?.[0]]), [
        ['base/api.yaml', 11, 'Service prod/api', '(rendered by overlays/prod)'],
        ['base/api.yaml', 11, 'Service staging/stg-api', '(rendered by overlays/staging)'],
      ]);
    });

    it('names cluster groups and renders from the workspace root whatever the working directory', () => {
      const dir = tree(overlays);
      const parent = dirname(dir);
      const ports = runRendered(parent, ['ports', '--cluster-group', 'overlays/prod', basename(dir)]);
      assert.equal(ports.status, 0, ports.stderr);
      assert.match(ports.stdout, /^Cluster group overlays\/prod: /m);
      const wrong = runRendered(parent, ['ports', '--cluster-group', `${basename(dir)}/overlays/prod`, basename(dir)]);
      assert.equal(wrong.status, 2);
      assert.match(wrong.stderr, /the groups are overlays\/prod, overlays\/staging/);
      // From the parent folder and from a folder inside the workspace, renders have the same names.
      const low = tree({ ...overlays, 'base/api.yaml': api.replace('30101', '5000') });
      const labels = (fs: JsonFinding[]): unknown[] => fs.filter((f) => f.ruleId === 'nodeport-out-of-range').map((f) => /\(rendered by [^)]*\)/.exec(f.message)?.[0]);
      assert.deepEqual(labels(lintRendered(dirname(low), [basename(low)]).findings), ['(rendered by overlays/prod)', '(rendered by overlays/staging)']);
      assert.deepEqual(labels(lintRendered(`${low}/overlays`, ['..']).findings), ['(rendered by overlays/prod)', '(rendered by overlays/staging)']);
    });
  });
  describe('messages about charts that are not rendered or fail', () => {
    const bad = { 'c/Chart.yaml': 'apiVersion: v2\nname: bad\nversion: 0.1.0\n', 'c/templates/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }\n' };
    it('keeps helm\'s error and drops its advice about its own --debug flag', () => {
      const failed = lintRendered(tree(bad), ['.']).findings.filter((f) => f.ruleId === 'render-failed');
      assert.deepEqual(failed.map((f) => [f.file, f.line, f.column, f.message]), [['c/templates/svc.yaml', 4, 1, 'helm template failed (Helm release bad): parse error at (bad/templates/svc.yaml:4): unexpected "}" in operand']]);
    });

    it('puts a YAML error in a rendered template on the template line helm names', () => {
      const files = { ...bad, 'c/templates/svc.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: "1"\n  b: [\n' };
      const failed = lintRendered(tree(files), ['.']).findings.filter((f) => f.ruleId === 'render-failed');
      assert.deepEqual(failed.map((f) => [f.file, f.line, f.column, f.message]), [[
        'c/templates/svc.yaml', 7, 1, 'helm template failed (Helm release bad): YAML parse error on bad/templates/svc.yaml: error converting YAML to JSON: yaml: line 7: did not find expected node content',
      ]]);
    });

    it('says rendering is off because of --no-render, not that helm is missing', () => {
      const notRendered = lintRendered(tree(bad), ['--no-render', '.']).findings.filter((f) => f.ruleId === 'helm-chart-not-rendered');
      assert.deepEqual(notRendered.map((f) => [f.file, f.line, f.message]), [[
        'c/Chart.yaml', 1, 'Helm chart "bad": its template file is a Go template and not linted (not rendered: rendering is turned off by --no-render); run without --no-render to lint what it renders, or lint the output: helm template RELEASE c | npx kube-netlint -',
      ]]);
      // Without helm on PATH the advice is to install it.
      const missing = lintRendered(tree(bad), ['.'], '/usr/bin:/bin').findings.filter((f) => f.ruleId === 'helm-chart-not-rendered');
      assert.match(missing[0].message, /; put helm on PATH \(or pass --helm\) to lint what it renders/);
    });
  });
});
