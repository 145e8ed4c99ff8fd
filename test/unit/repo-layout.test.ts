import { strict as assert } from 'node:assert';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import { computeLayout, defaultRepoPath } from '../../server/out/core/repo/layout';
import { lint } from '../helpers/lint';

const svc = (name: string, nodePort: number, ns = 'default') =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, namespace: ${ns}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;
const rules = ['nodeport-duplicate', 'yaml-syntax', 'helm-chart-not-rendered'];

describe('repository layouts: entry points, charts and cluster groups', () => {
  describe('clusters from the config', () => {
    const files = {
      'base/web.yaml': svc('web', 30080),
      'envs/dev/api.yaml': svc('api-dev', 30081),
      'envs/prod/api.yaml': svc('api-prod', 30081),
      'envs/prod/legacy.yaml': svc('legacy', 30080),
    };
    const config = { clusters: { dev: ['envs/dev/**', 'base/**'], prod: ['envs/prod/**', 'base/**'] } };

    it("does not report dev's Service as colliding with prod's", () => {
      const { findings } = lint(files, { rules, config });
      assert.deepEqual(findings.filter((f) => f.text === '30081'), []);
    });
    it('reports a collision inside one cluster, naming the cluster, on both sides', () => {
      const { findings } = lint(files, { rules, config });
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text]), [['base/web.yaml', 6, '30080'], ['envs/prod/legacy.yaml', 6, '30080']]);
      assert.match(findings[0].message, /Service default\/legacy.*\(in cluster prod\)$/);
    });
    it('reports a collision found in two clusters once per location, naming both', () => {
      // Files matched by no group belong to every group: their collision exists in dev and in prod.
      const { findings } = lint({ ...files, 'shared/a.yaml': svc('a', 30070), 'shared/b.yaml': svc('b', 30070) }, { rules, config });
      const shared = findings.filter((f) => f.file.startsWith('shared/'));
      assert.deepEqual(shared.map((f) => [f.file, f.line]), [['shared/a.yaml', 6], ['shared/b.yaml', 6]]);
      assert.ok(shared.every((f) => f.message.endsWith('(in clusters dev, prod)')), shared.map((f) => f.message).join('\n'));
    });
  });

  describe('kustomize base + two overlays, without configuration', () => {
    const files = {
      'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'base/web.yaml': svc('web', 30080),
      'overlays/dev/kustomization.yaml': 'resources:\n  - ../../base\n  - api.yaml\npatches:\n  - path: web-patch.yaml\n',
      'overlays/dev/api.yaml': svc('api-dev', 30090),
      'overlays/dev/web-patch.yaml': svc('web', 30085),
      'overlays/prod/kustomization.yaml': 'resources:\n- ../../base\n- api.yaml\n',
      'overlays/prod/api.yaml': svc('api-prod', 30090) + '---\n' + svc('old-web', 30080),
    };
    it('groups each overlay as one cluster and reports only collisions inside it', () => {
      const { findings, analysis } = lint(files, { rules });
      assert.deepEqual(analysis.layout.groups?.map((g) => [g.name, [...g.files].sort()]), [
        ['overlays/dev', ['base/web.yaml', 'overlays/dev/api.yaml', 'overlays/dev/web-patch.yaml']],
        ['overlays/prod', ['base/web.yaml', 'overlays/prod/api.yaml']],
      ]);
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text]), [['base/web.yaml', 6, '30080'], ['overlays/prod/api.yaml', 13, '30080']]);
      assert.ok(findings.every((f) => f.message.endsWith('(in cluster overlays/prod)')));
    });
    it('lets explicit clusters: win over kustomize', () => {
      const { analysis } = lint(files, { rules, config: { clusters: { all: ['**'] } } });
      assert.deepEqual(analysis.layout.groups?.map((g) => g.name), ['all']);
    });
  });

  describe('Helm charts', () => {
    const template = '{{- if .Values.enabled }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  ports:\n    - nodePort: {{ .Values.nodePort }}\n{{- end }}\n';
    it('does not parse templates, reports no yaml-syntax, and puts one info finding on Chart.yaml', () => {
      const { findings } = lint({ 'chart/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n', 'chart/templates/svc.yaml': template, 'chart/templates/ok.yaml': svc('plain', 30080), 'rendered/web.yaml': svc('rendered', 30080) }, { rules });
      assert.deepEqual(findings.map((f) => [f.ruleId, f.file, f.line]), [['helm-chart-not-rendered', 'chart/Chart.yaml', 1]]);
      assert.match(findings[0].message, /Helm chart "web": its 2 template files are Go templates and not linted; put helm on PATH \(or pass --helm\) to lint what it renders, or lint the output: helm template RELEASE chart \| npx kube-netlint -/);
    });
    it('skips Go templates outside charts without yaml-syntax', () => {
      assert.deepEqual(lint({ 'loose.yaml': template }, { rules }).findings, []);
    });
    it('still reads manifests whose strings contain {{ }} (Prometheus annotations)', () => {
      const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  annotations:\n    summary: Instance {{ $labels.instance }} down\n    q: "{{ $value }}"\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]\n';
      const { findings } = lint({ 'a.yaml': text, 'b.yaml': svc('b', 30080) }, { rules });
      assert.deepEqual(findings.map((f) => [f.file, f.line]), [['a.yaml', 10], ['b.yaml', 6]]);
    });
  });

  describe('kustomize resource and patch files', () => {
    // A Deployment without a selector: refused as written, built by kustomize (whose labels may add the selector).
    const bare = (name: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: x}]}\n`;
    const files: Record<string, string> = {
      'legacy/kustomization.yaml': 'bases: [old.yaml]\n',
      'overlay/kustomization.yaml': 'resources: [../base, web.yaml, both.yaml]\ncomponents: [../comp]\npatches: [{path: web-patch.yaml}, {path: both.yaml}]\npatchesStrategicMerge: [sm.yaml]\n',
      'base/kustomization.yaml': 'resources: [api.yaml]\n',
      'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [sidecar.yaml]\npatches: [{path: comp-patch.yaml}]\n',
      ...Object.fromEntries(['legacy/old.yaml', 'overlay/web.yaml', 'overlay/both.yaml', 'overlay/web-patch.yaml', 'overlay/sm.yaml', 'base/api.yaml', 'comp/sidecar.yaml', 'comp/comp-patch.yaml', 'overlay/unlisted.yaml'].map((f) => [f, bare(f.replace(/^.*\/|\.yaml$/g, ''))])),
    };

    it('lists the files of resources, bases and a Component\'s resources as resourceFiles, and patches (a file listed as both included) only as patchFiles', () => {
      const layout = computeLayout(Object.entries(files).map(([p, t]) => loadFile(p, t)), DEFAULT_CONFIG, defaultRepoPath);
      assert.deepEqual([...layout.resourceFiles].sort(), ['base/api.yaml', 'comp/sidecar.yaml', 'legacy/old.yaml', 'overlay/web.yaml']);
      assert.deepEqual([...layout.patchFiles].sort(), ['comp/comp-patch.yaml', 'overlay/both.yaml', 'overlay/sm.yaml', 'overlay/web-patch.yaml']);
    });

    it('asks only a file no kustomization lists for the selector a workload lacks', () => {
      const { findings } = lint(files, { rules: ['pod-spec-invalid'] });
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text]), [['overlay/unlisted.yaml', 3, 'unlisted']]);
    });
  });

  describe('the same object in several files', () => {
    it('never reports a Service as colliding with its own copy, even when the copies disagree', () => {
      const { findings } = lint({ 'cloud/svc.yaml': svc('ingress', 30080, 'ingress'), 'baremetal/svc.yaml': svc('ingress', 30080, 'ingress'), 'v2/svc.yaml': svc('ingress', 30443, 'ingress') }, { rules });
      assert.deepEqual(findings, []);
    });
  });
});
