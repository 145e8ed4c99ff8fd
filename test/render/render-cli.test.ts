import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CAN_UNSHARE, lintRendered, renderBin, SHARED, scratchTrees } from '../helpers/render';

// The CLI with the real helm and kustomize (test/render/install-renderers.sh), each run inside `unshare -n`: no
// network at all, so a remote base that slipped through the pre-flight fails the test instead of reaching out.
const svc = (name: string, nodePort: number, extra = '') =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: http\n      port: 80\n${extra}      nodePort: ${nodePort}\n`;

describe('rendering with helm and kustomize (CLI)', function () {
  this.timeout(120_000);
  const { tree, removeAfter } = scratchTrees();

  it('runs the renderer tests without network (unshare -n)', () => {
    assert.ok(CAN_UNSHARE || !process.env.CI, 'CI must be able to run unshare -n (it runs as root)');
  });

  describe('kustomize overlays', () => {
    it('puts a nodePort set by an overlay patch on the patch line, names the overlay, and keeps the rendered location', () => {
      const dir = tree({
        'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
        'base/web.yaml': svc('web', 30080),
        'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n  - api.yaml\npatches:\n  - path: web-nodeport.yaml\n',
        'overlays/prod/web-nodeport.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - name: http\n      port: 80\n      nodePort: 30090\n',
        'overlays/prod/api.yaml': svc('api', 30090),
      });
      const r = lintRendered(dir, ['overlays']);
      const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map((f) => [f.file, f.line, f.column]), [['overlays/prod/api.yaml', 11, 17], ['overlays/prod/web-nodeport.yaml', 9, 17]]);
      const onPatch = dup.find((f) => f.file.endsWith('web-nodeport.yaml'))!;
      assert.match(onPatch.message, /^nodePort 30090 is also claimed by Service default\/api: .*\(Service default\/web, rendered by overlays\/prod\)$/);
      assert.deepEqual(onPatch.related.map((x) => [x.file, x.line]), [['overlays/prod/api.yaml', 11]]);
      assert.equal(onPatch.rendered?.source, 'render:kustomize:overlays/prod');
      assert.ok((onPatch.rendered?.line ?? 0) > 0);
      assert.match(r.stderr, /rendered 1 kustomization, 0 Helm releases in \d+\.\d s/);
    });

    it('sees the copies a namePrefix makes and points at the base line and the namePrefix', () => {
      const dir = tree({
        'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
        'base/web.yaml': svc('web', 30100),
        'copy/kustomization.yaml': 'namePrefix: copy-\nresources:\n  - ../base\n',
        'prod/kustomization.yaml': 'resources:\n  - ../base\n  - ../copy\n',
      });
      const dup = lintRendered(dir, ['.']).findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map((f) => [f.file, f.line]), [['base/web.yaml', 11], ['base/web.yaml', 11]]);
      assert.deepEqual(dup.map((f) => /claimed by (Service \S+?):/.exec(f.message)?.[1]).sort(), ['Service default/copy-web', 'Service default/web']);
    });

    it('applies the overlay namespace: metallb config/ as one folder has no collision between base and rendered copies', () => {
      const r = lintRendered(join(SHARED, 'corpus/gitops/metallb'), ['config']);
      assert.deepEqual(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.ruleId} ${f.file}:${f.line}`), []);
      assert.equal(r.findings.filter((f) => f.ruleId === 'hostport-conflict').length, 0);
      assert.match(r.stderr, /rendered 5 kustomizations, 0 Helm releases/);
    });

    it('renders metallb config/frr-k8s without its remote base, without network, and says what was left out', () => {
      const r = lintRendered(join(SHARED, 'corpus/gitops/metallb'), ['config/frr-k8s', 'config/native', 'config/crd', 'config/rbac', 'config/controllers', 'config/webhook']);
      const left = r.findings.filter((f) => f.ruleId === 'render-incomplete');
      assert.deepEqual(left.map((f) => [f.file, f.line]), [['config/frr-k8s/kustomization.yaml', 4], ['config/frr-k8s/kustomization.yaml', 10]]);
      assert.match(left[0].message, /^remote base https:\/\/github\.com\/metallb\/frr-k8s\/config\/default\/\?timeout=120&ref=v0\.0\.25 left out of the render \(rendered by config\/frr-k8s\)/);
      assert.match(left[1].message, /^patch ignore-ns\.yaml left out of the render/);
      assert.deepEqual(r.findings.filter((f) => f.ruleId === 'render-failed'), []);
      // The speaker DaemonSet is in metallb-system (the overlay's namespace), on the base's lines.
      const usage = r.findings.find((f) => f.ruleId === 'hostnetwork-usage')!;
      assert.equal(usage.file, 'config/controllers/speaker.yaml');
      assert.match(usage.message, /DaemonSet metallb-system\/speaker .*\(rendered by config\/frr-k8s\)/);
    });

    it('puts podinfo overlay objects into dev, staging and production', () => {
      const r = lintRendered(join(SHARED, 'corpus/gitops/podinfo'), ['deploy/overlays', 'deploy/bases']);
      const namespaces = new Set(r.findings.flatMap((f) => [...f.message.matchAll(/(?:Service|Deployment) (\w+)\/frontend/g)].map((m) => m[1])));
      assert.ok(!namespaces.has('default'), [...namespaces].join());
      assert.equal(r.findings.filter((f) => f.severity === 'error').length, 0);
      assert.match(r.stderr, /rendered 3 kustomizations/);
    });

    it('warns on a patch whose nodePort kustomize drops (protocol in only one of base and patch)', () => {
      const dir = tree({
        'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
        'base/web.yaml': svc('web', 30080, '      protocol: TCP\n'),
        'prod/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  - path: np.yaml\n',
        'prod/np.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n      nodePort: 30081\n',
      });
      const warn = lintRendered(dir, ['.']).findings.filter((f) => f.ruleId === 'kustomize-patch-no-effect');
      assert.deepEqual(warn.map((f) => [f.file, f.line, f.column]), [['prod/np.yaml', 8, 17]]);
      assert.match(warn[0].message, /^patch np\.yaml changes nothing in Service default\/web \(rendered by prod\): nodePort: 30081 is not in the rendered object: kustomize drops it when only one of the base port and the patch port spells out protocol/);
    });

    it('reports a missing resource with kustomize\'s message on the kustomization line, and lints the rest', () => {
      const dir = tree({
        'app/kustomization.yaml': 'resources:\n  - web.yaml\n  - missing.yaml\n',
        'app/web.yaml': svc('web', 30080),
        'other/svc.yaml': svc('other', 30080),
      });
      const r = lintRendered(dir, ['.']);
      const failed = r.findings.filter((f) => f.ruleId === 'render-failed');
      assert.deepEqual(failed.map((f) => [f.file, f.line, f.column, f.severity]), [['app/kustomization.yaml', 3, 5, 'error']]);
      assert.match(failed[0].message, /^kustomize build failed \(rendered by app\): .*missing\.yaml.*no such file or directory/);
      // The failed overlay's sources are linted as written.
      assert.equal(r.findings.filter((f) => f.ruleId === 'nodeport-duplicate').length, 2);
    });

    it('reports a cycle without running kustomize, and keeps its files out of other clusters', () => {
      const dir = tree({
        'a/kustomization.yaml': 'resources:\n  - ../b\n  - a.yaml\n',
        'a/a.yaml': svc('a', 30080),
        'b/kustomization.yaml': 'resources:\n  - ../a\n',
        'prod/kustomization.yaml': 'resources:\n  - svc.yaml\n',
        'prod/svc.yaml': svc('p', 30080),
      });
      const r = lintRendered(dir, ['.']);
      assert.deepEqual(r.findings.filter((f) => f.ruleId === 'kustomize-cycle').map((f) => [f.file, f.line]), [['b/kustomization.yaml', 2]]);
      assert.deepEqual(r.findings.filter((f) => f.ruleId === 'nodeport-duplicate'), []);
    });
    it('inflates a vendored helmCharts entry with --enable-helm and the helm named by --helm, not the one on PATH', () => {
      const dir = tree({
        'app/kustomization.yaml': 'namespace: apps\nhelmCharts:\n  - name: web\n    releaseName: web\n    valuesInline:\n      service:\n        nodePort: 30300\n',
        'app/charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
        'app/charts/web/values.yaml': 'service:\n  nodePort: 30080\n',
        'app/charts/web/templates/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: {{ .Values.service.nodePort }}\n',
        'other.yaml': svc('other', 30300),
      });
      // PATH has kubectl (kustomize) only: the chart inflates only if kustomize runs the resolved helm (--helm-command).
      const kubectlOnly = join(dir, '..', `${basename(dir)}-bin`);
      mkdirSync(kubectlOnly);
      removeAfter(kubectlOnly);
      symlinkSync(join(renderBin(), 'kubectl'), join(kubectlOnly, 'kubectl'));
      const r = lintRendered(dir, ['--helm', join(renderBin(), 'helm'), '.'], `${kubectlOnly}:/usr/bin:/bin`);
      // The vendored chart renders only through the kustomization (not also as a release of its own).
      assert.match(r.stderr, /rendered 1 kustomization, 0 Helm releases/);
      assert.deepEqual(r.findings.filter((f) => f.ruleId === 'render-failed' || f.ruleId === 'render-incomplete'), []);
      // The inflated Service: in the kustomization's namespace, with the nodePort of valuesInline (not values.yaml's 30080).
      const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      // On the valuesInline line that set it.
      assert.deepEqual(dup.map((f) => [f.file, f.line]), [['app/kustomization.yaml', 7], ['other.yaml', 11]]);
      assert.match(dup[0].message, /^nodePort 30300 is also claimed by Service default\/other: .*\(Service apps\/web, rendered by app\)$/);
      assert.match(dup[1].message, /^nodePort 30300 is also claimed by Service apps\/web: /);
    });
  });

  describe('Helm charts', () => {
    const chart = {
      'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'charts/web/values.yaml': 'service:\n  type: NodePort\n  port: 80\n  nodePort: 30080\nreplicas: 1\n',
      'charts/web/values-prod.yaml': 'service:\n  nodePort: 30200\n',
      'charts/web/templates/service.yaml':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  type: {{ .Values.service.type }}\n  selector:\n    app: {{ .Release.Name }}\n  ports:\n    - name: http\n      port: {{ .Values.service.port }}\n      targetPort: 8080\n      nodePort: {{ .Values.service.nodePort }}\n',
      'charts/web/tests/service_test.yaml': 'suite: service\ntemplates:\n  - service.yaml\ntests:\n  - it: works\n    asserts:\n      - equal: {path: spec.type, value: NodePort}\n',
    };

    it('renders each chart with its values.yaml in the config namespace, findings on the values line', () => {
      const dir = tree({ ...chart, '.kube-netlint.yaml': 'namespace: shop\n', 'other.yaml': svc('other', 30080) });
      const r = lintRendered(dir, ['.']);
      const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map((f) => [f.file, f.line, f.column]), [['charts/web/values.yaml', 4, 13], ['other.yaml', 11, 17]]);
      assert.match(dup[0].message, /^nodePort 30080 is also claimed by Service shop\/other: .*\(Service shop\/web, Helm release web\)$/);
      assert.match(dup[1].message, /^nodePort 30080 is also claimed by Service shop\/web: /);
      assert.deepEqual(r.findings.filter((f) => f.ruleId === 'helm-chart-not-rendered' || f.ruleId === 'yaml-syntax'), []);
    });

    describe('a repository of alternatives (charts, overlays, committed renders), without clusters:', () => {
      // Two charts and an overlay of the same software, and the overlay's output committed as install.yaml: each is an
      // install of its own, none of them collides with another; a plain file beside them still meets each of them.
      const api = (dir: string, name: string, nodePort: number) => ({
        [`${dir}/Chart.yaml`]: `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`,
        [`${dir}/values.yaml`]: `nodePort: ${nodePort}\n`,
        [`${dir}/templates/service.yaml`]: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  type: NodePort\n  selector: {app: api}\n  ports:\n    - name: http\n      port: 80\n      nodePort: {{ .Values.nodePort }}\n',
      });
      const files = {
        ...api('charts/api', 'api', 30300),
        ...api('charts/api-lite', 'api-lite', 30300),
        'config/base/kustomization.yaml': 'resources:\n  - api.yaml\n',
        'config/base/api.yaml': svc('api', 30300),
        'config/default/kustomization.yaml': 'namespace: api-system\nresources:\n  - ../base\n',
        'config/install.yaml': svc('api', 30300).replace('  name: api\n', '  name: api\n  namespace: api-system\n'),
      };

      it('keeps each default chart release, each overlay and a committed copy of an overlay apart', () => {
        const r = lintRendered(tree(files), ['.']);
        assert.match(r.stderr, /rendered 1 kustomization, 2 Helm releases/);
        assert.deepEqual(r.findings.filter((f) => f.ruleId === 'nodeport-duplicate').map((f) => `${f.file}:${f.line}`), []);
      });

      it('still reports a plain file that collides with a chart release and with the overlay', () => {
        const r = lintRendered(tree({ ...files, 'extra/other.yaml': svc('other', 30300) }), ['.']);
        const dup = r.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
        const onOther = dup.filter((f) => f.file === 'extra/other.yaml').map((f) => /claimed by (Service \S+?):/.exec(f.message)?.[1]).sort();
        assert.deepEqual(onOther, ['Service api-system/api', 'Service default/api', 'Service default/api-lite']);
        assert.deepEqual(dup.filter((f) => f.file !== 'extra/other.yaml').map((f) => `${f.file}:${f.line}`).sort(), ['charts/api-lite/values.yaml:1', 'charts/api/values.yaml:1', 'config/base/api.yaml:11', 'config/install.yaml:12']);
      });
    });

    it('puts a nodePort from a later values file on that file\'s line (render.helm releases)', () => {
      const dir = tree({
        ...chart,
        '.kube-netlint.yaml': 'render:\n  helm:\n    - chart: charts/web\n      release: web-prod\n      namespace: prod\n      values: [charts/web/values-prod.yaml]\n',
        'other.yaml': svc('other', 30200),
      });
      const dup = lintRendered(dir, ['.']).findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map((f) => [f.file, f.line, f.column]), [['charts/web/values-prod.yaml', 2, 13], ['other.yaml', 11, 17]]);
      assert.match(dup[0].message, /^nodePort 30200 is also claimed by Service default\/other: .*\(Service prod\/web-prod, Helm release web-prod, values-prod\.yaml\)$/);
      assert.match(dup[1].message, /^nodePort 30200 is also claimed by Service prod\/web-prod: /);
    });

    it('puts a nodePort set by a render.helm set: pair on that line of .kube-netlint.yaml', () => {
      const dir = tree({
        ...chart,
        '.kube-netlint.yaml': 'render:\n  helm:\n    - chart: charts/web\n      set:\n        service.nodePort: 30250\n',
        'other.yaml': svc('other', 30250),
      });
      const dup = lintRendered(dir, ['.']).findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(dup.map((f) => [f.file, f.line, f.column]), [['.kube-netlint.yaml', 5, 27], ['other.yaml', 11, 17]]);
    });

    const depChart = (template: string) => ({
      'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\ndependencies:\n  - name: redis\n    version: 1.0.0\n    repository: https://charts.example.com\n',
      'c/templates/cm.yaml': template,
    });
    it('renders a chart without a dependency missing from charts/ and names it, never downloading it', () => {
      const r = lintRendered(tree(depChart('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n')), ['.']);
      const left = r.findings.filter((f) => f.ruleId === 'render-incomplete' || f.ruleId === 'render-failed');
      assert.deepEqual(left.map((f) => [f.ruleId, f.severity, f.file, f.line, f.column]), [['render-incomplete', 'info', 'c/Chart.yaml', 5, 11]]);
      assert.match(left[0].message, /^dependency redis is not in charts\/ and was left out of the render \(Helm release c\): run "helm dependency build" to vendor it/);
    });

    it('reports a missing dependency the chart cannot render without on its Chart.yaml entry', () => {
      const r = lintRendered(tree(depChart('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include "redis.fullname" . }}\n')), ['.']);
      const failed = r.findings.filter((f) => f.ruleId === 'render-failed');
      assert.deepEqual(failed.map((f) => [f.file, f.line, f.column, f.severity]), [['c/Chart.yaml', 5, 11, 'error']]);
      assert.match(failed[0].message, /^helm template failed \(Helm release c\): .*found in Chart\.yaml, but missing in charts\/ directory: redis/);
    });

    it('reports a template error (a required value) on the template line', () => {
      const dir = tree({
        'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
        'c/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ required "name is required" .Values.name }}\n',
      });
      const failed = lintRendered(dir, ['.']).findings.filter((f) => f.ruleId === 'render-failed');
      assert.deepEqual(failed.map((f) => [f.file, f.line]), [['c/templates/cm.yaml', 4]]);
      assert.match(failed[0].message, /name is required/);
    });

    it('renders the traefik chart; its tests/ helm-unittest suites are not read as manifests', () => {
      const r = lintRendered(join(SHARED, 'corpus/gitops/traefik-helm-chart'), ['traefik']);
      assert.match(r.stderr, /rendered 0 kustomizations, 1 Helm release in/);
      assert.deepEqual(r.findings.filter((f) => f.file.includes('/tests/') || f.severity === 'error'), []);
      assert.deepEqual(r.findings.filter((f) => f.ruleId === 'helm-chart-not-rendered' || f.ruleId === 'render-failed'), []);
    });
  });

  describe('--format json quick fixes on rendered objects', () => {
    const protocolSvc = (protocol: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n    - port: 80\n      protocol: ${protocol}\n`;
    /** The files of `dir` after applying, by offsets, the first fix of the first finding of `rule`. */
    const applied = (dir: string, findings: { ruleId: string; quickFixes: { edits: { file: string; offset: number; endOffset: number; newText: string }[] }[] }[], rule: string): string => {
      const [edit] = findings.find((f) => f.ruleId === rule)!.quickFixes[0].edits;
      const text = readFileSync(join(dir, edit.file), 'utf8');
      return text.slice(0, edit.offset) + edit.newText + text.slice(edit.endOffset);
    };

    it('edits the base file the kustomize render copied the value from, and the values-file line a chart reads it from', () => {
      const dir = tree({
        'base/kustomization.yaml': 'resources:\n  - svc.yaml\n',
        'base/svc.yaml': protocolSvc('tcp  # as before'),
        'prod/kustomization.yaml': 'resources:\n  - ../base\nnamePrefix: prod-\n',
        'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
        'charts/web/values.yaml': 'service:\n  protocol: udp # the default\n',
        'charts/web/templates/svc.yaml': protocolSvc('{{ .Values.service.protocol }}'),
      });
      const { findings } = lintRendered(dir, ['.']);
      const protocol = findings.filter((f) => f.ruleId === 'service-spec-invalid');
      assert.deepEqual(protocol.map((f) => [f.file, f.line, f.rendered?.source, f.quickFixes.map((q) => [q.title, q.edits.map((e) => [e.file, e.line, e.column, e.endLine, e.endColumn, e.newText])])]), [
        ['base/svc.yaml', 9, 'render:kustomize:prod', [['Change protocol "tcp" to "TCP"', [['base/svc.yaml', 9, 17, 9, 20, 'TCP']]]]],
        ['charts/web/values.yaml', 2, 'render:helm:web@charts/web', [['Change protocol "udp" to "UDP"', [['charts/web/values.yaml', 2, 13, 2, 16, 'UDP']]]]],
      ]);
      assert.equal(applied(dir, protocol.slice(0, 1), 'service-spec-invalid'), protocolSvc('TCP  # as before'));
      assert.equal(applied(dir, protocol.slice(1), 'service-spec-invalid'), 'service:\n  protocol: UDP # the default\n');
    });

    it('offers none where the source does not hold the rendered text (a template function changed it)', () => {
      const dir = tree({
        'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
        'charts/web/values.yaml': 'service:\n  protocol: Tcp\n',
        'charts/web/templates/svc.yaml': protocolSvc('{{ .Values.service.protocol | lower }}'),
      });
      const [f] = lintRendered(dir, ['.']).findings.filter((x) => x.ruleId === 'service-spec-invalid');
      assert.deepEqual([f.file, f.line, f.quickFixes], ['charts/web/templates/svc.yaml', 9, []]);
    });
  });

  describe('without renderers', () => {
    it('lints as written and says which tool is missing', () => {
      const dir = tree({ ...{ 'base/kustomization.yaml': 'resources:\n  - web.yaml\n', 'base/web.yaml': svc('web', 30080) }, 'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n', 'c/templates/cm.yaml': 'kind: {{ .Values.kind }}\n' });
      const r = lintRendered(dir, ['.'], '/nonexistent');
      assert.match(r.stderr, /kube-netlint: helm: helm not found on PATH: Helm charts are not rendered/);
      assert.match(r.stderr, /kube-netlint: kustomize: kustomize or kubectl not found on PATH: kustomize overlays are linted as written/);
      assert.deepEqual(r.findings.map((f) => [f.ruleId, f.file]), [['helm-chart-not-rendered', 'c/Chart.yaml']]);
      assert.match(r.findings[0].message, /\(not rendered: helm not found on PATH\)/);
    });
  });
});
