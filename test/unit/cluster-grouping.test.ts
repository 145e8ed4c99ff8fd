import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import type { Finding } from '../../server/out/core/rules/rule';
import { IncrementalWorkspace } from '../../server/out/core/workspace/incremental';
import { lint } from '../helpers/lint';
import { hostNetworkDaemonSet, hostPortDaemonSet, upstreamTree } from '../helpers/layout-trees';

const svc = (name: string, nodePort: number, ns?: string) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n${ns ? `  namespace: ${ns}\n` : ''}spec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;

describe('cluster grouping without renders (kustomize as written)', () => {
  describe("an entry point's namespace: on its bases' objects", () => {
    it('moves namespaced objects to the outermost namespace: (over one written), keeps cluster-scoped ones without', () => {
      const { analysis } = lint(upstreamTree(), { rules: [] });
      const ids = (cluster: string, file: string) => analysis.clusterModels.get(cluster)!.objects.filter((o) => o.file === file).map((o) => o.identity);
      assert.deepEqual(ids('lb/config/native', 'lb/config/controllers/speaker.yaml'), ['apps/DaemonSet/lb-system/speaker']);
      assert.deepEqual(ids('lb/config/frr', 'lb/config/controllers/speaker.yaml'), ['apps/DaemonSet/frr-system/speaker']);
      assert.deepEqual(ids('lb/config/native', 'lb/config/webhook/service.yaml'), ['/Service/lb-system/webhook']);
      assert.deepEqual(ids('lb/config/native', 'lb/config/controllers/role.yaml'), ['rbac.authorization.k8s.io/ClusterRole//lb:speaker']);
      // The workspace-wide model (hovers) keeps the objects as written.
      assert.deepEqual(analysis.model.objects.filter((o) => o.file === 'lb/config/controllers/speaker.yaml').map((o) => o.namespace), ['default']);
    });

    it('gives each committed copy of an overlay\'s output to that overlay only, and reports no host port twice', () => {
      const { findings, analysis } = lint(upstreamTree(), { rules: ['hostport-conflict', 'service-selector-unmatched'] });
      assert.deepEqual(findings, []);
      assert.deepEqual(analysis.layout.groups?.map((g) => [g.name, [...g.files].filter((f) => f.includes('/manifests/'))]), [
        ['lb/config/frr', ['lb/config/manifests/lb-frr.yaml']],
        ['lb/config/native', ['lb/config/manifests/lb-native.yaml']],
      ]);
    });

    it('still reports two different DaemonSets on one host port in an overlay, on both sides, in that overlay only', () => {
      const files = {
        ...upstreamTree(),
        'lb/config/frr/kustomization.yaml': 'namespace: frr-system\nresources:\n  - ../native\n  - frr-cm.yaml\n  - agent.yaml\n',
        'lb/config/frr/agent.yaml': hostNetworkDaemonSet('agent', ['7946/TCP']),
      };
      const { findings } = lint(files, { rules: ['hostport-conflict'] });
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text, f.object, f.related.map((r) => `${r.file}:${r.line}`)]), [
        ['lb/config/controllers/speaker.yaml', 15, '7946', 'DaemonSet frr-system/speaker', ['lb/config/frr/agent.yaml:15']],
        ['lb/config/frr/agent.yaml', 15, '7946', 'DaemonSet frr-system/agent', ['lb/config/controllers/speaker.yaml:15', 'lb/config/manifests/lb-frr.yaml:22']],
        ['lb/config/manifests/lb-frr.yaml', 22, '7946', 'DaemonSet frr-system/speaker', ['lb/config/frr/agent.yaml:15']],
      ]);
      assert.match(findings[1].message, /^hostNetwork port 7946\/TCP is also claimed by DaemonSet frr-system\/speaker: .*\(in cluster lb\/config\/frr\)$/);
      assert.match(findings[0].message, /DaemonSet frr-system\/agent.*\(in cluster lb\/config\/frr\)$/);
    });

    it('reports a hostPort shared by two DaemonSets of an overlay with a namespace:, not in the overlay without them', () => {
      const files = {
        'base/kustomization.yaml': 'resources:\n  - a.yaml\n',
        'base/a.yaml': hostPortDaemonSet('a', 8443),
        'overlays/prod/kustomization.yaml': 'namespace: prod\nresources:\n  - ../../base\n  - b.yaml\n',
        'overlays/prod/b.yaml': hostPortDaemonSet('b', 8443),
        'overlays/dev/kustomization.yaml': 'namespace: dev\nresources:\n  - ../../base\n',
      };
      const { findings } = lint(files, { rules: ['hostport-conflict'] });
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text, f.object]), [
        ['base/a.yaml', 14, '8443', 'DaemonSet prod/a'],
        ['overlays/prod/b.yaml', 14, '8443', 'DaemonSet prod/b'],
      ]);
      assert.match(findings[0].message, /^hostPort 8443\/TCP .*DaemonSet prod\/b.*\(in cluster overlays\/prod\)$/);
      assert.match(findings[1].message, /^hostPort 8443\/TCP .*DaemonSet prod\/a.*\(in cluster overlays\/prod\)$/);
    });
  });

  describe('plain files join the nearest clusters', () => {
    const files = {
      'shop/deploy/base/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'shop/deploy/base/web.yaml': svc('web', 30080),
      'shop/deploy/overlays/dev/kustomization.yaml': 'namespace: dev\nresources:\n  - ../../base\n',
      'shop/deploy/overlays/prod/kustomization.yaml': 'namespace: prod\nresources:\n  - ../../base\n',
      'shop/deploy/extra/admin.yaml': svc('admin', 30081, 'ops'),
      'lb/overlays/main/kustomization.yaml': 'resources:\n  - lb.yaml\n',
      'lb/overlays/main/lb.yaml': svc('lb', 30081, 'lb') + '---\n' + svc('lb-metrics', 30090, 'lb'),
      'lb/examples/demo.yaml': svc('demo', 30080, 'demo'),
      'tools.yaml': svc('tools', 30090, 'tools'),
    };
    const rules = ['nodeport-duplicate'];

    it("puts a project's plain files into that project's overlays' clusters, and a file at the root into all", () => {
      const { analysis } = lint(files, { rules });
      assert.deepEqual(analysis.layout.groups?.map((g) => [g.name, [...g.files].sort()]), [
        ['lb/overlays/main', ['lb/examples/demo.yaml', 'lb/overlays/main/lb.yaml']],
        ['shop/deploy/overlays/dev', ['shop/deploy/base/web.yaml', 'shop/deploy/extra/admin.yaml']],
        ['shop/deploy/overlays/prod', ['shop/deploy/base/web.yaml', 'shop/deploy/extra/admin.yaml']],
      ]);
    });

    it("never compares a project's plain file with a sibling project's objects; a root file meets every cluster", () => {
      const { findings } = lint(files, { rules });
      // 30080 (shop's base and lb's example) and 30081 (shop's plain file and lb's overlay) are in different projects.
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text]), [['lb/overlays/main/lb.yaml', 19, '30090'], ['tools.yaml', 9, '30090']]);
      assert.match(findings[0].message, /Service tools\/tools.*\(in cluster lb\/overlays\/main\)$/);
    });

    it('lets clusters: in the config decide: a file no glob matches is in every cluster', () => {
      const { analysis, findings } = lint(files, { rules, config: { clusters: { shop: ['shop/**'], lb: ['lb/overlays/**'] } } });
      assert.deepEqual(analysis.layout.groups?.map((g) => [g.name, g.files.size]), [['shop', 5], ['lb', 2]]);
      // lb/examples/demo.yaml is in no glob, so in both clusters: its 30080 meets shop's base (in cluster shop).
      assert.deepEqual(findings.map((f) => [f.file, f.text, f.message.replace(/.*\((in clusters? [^)]*)\)$/, '$1')]), [
        ['lb/examples/demo.yaml', '30080', 'in cluster shop'],
        ['lb/overlays/main/lb.yaml', '30090', 'in cluster lb'],
        ['shop/deploy/base/web.yaml', '30080', 'in cluster shop'],
        ['tools.yaml', '30090', 'in cluster lb'],
      ]);
    });
  });

  it('gives, edit by edit in the editor, the findings of a full analysis (objects moved by a namespace: included)', () => {
    const files: Record<string, string> = {
      ...upstreamTree(),
      'lb/config/frr/kustomization.yaml': 'namespace: frr-system\nresources:\n  - ../native\n  - frr-cm.yaml\n  - agent.yaml\n',
      'lb/config/frr/agent.yaml': hostNetworkDaemonSet('agent', ['7946/TCP']),
    };
    const key = (f: Finding): string => JSON.stringify([f.ruleId, f.message, f.span, f.object, f.related]);
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    for (const [name, text] of Object.entries(files)) ws.setText(name, text);
    ws.analyze();
    // Port digits typed in the base, the overlay's own DaemonSet and the committed copy, then put back.
    const edits: [string, string, string][] = [
      ['lb/config/controllers/speaker.yaml', '7946, protocol: TCP', '7947, protocol: TCP'],
      ['lb/config/frr/agent.yaml', '7946', '7947'],
      ['lb/config/manifests/lb-frr.yaml', '7946, protocol: UDP', '7948, protocol: UDP'],
      ['lb/config/controllers/speaker.yaml', '7947, protocol: TCP', '7946, protocol: TCP'],
      ['lb/config/manifests/lb-frr.yaml', '7948, protocol: UDP', '7946, protocol: UDP'],
    ];
    const modes: string[] = [];
    for (const [name, from, to] of edits) {
      files[name] = files[name].replace(from, to);
      ws.setText(name, files[name]);
      const got = ws.analyze().findings.map(key);
      modes.push(ws.lastRun.mode);
      assert.deepEqual(got, analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key), `${name}: ${from} → ${to} (${ws.lastRun.mode})`);
    }
    assert.ok(modes.includes('incremental'), modes.join());
  });
});
