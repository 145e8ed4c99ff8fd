import { strict as assert } from 'node:assert';
import { mapKustomizeOutput } from '../../server/out/core/render/kustomize-map';
import { loadFile } from '../../server/out/core/load/load-file';
import { recordMessages } from '../helpers/seen-messages';

// mapKustomizeOutput on a fixed kustomize output (the real build runs in test/render/render-cli.test.ts).
const base = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n      nodePort: 30080\n';
const output = (nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  annotations:\n    config.kubernetes.io/origin: |\n      path: ../base/web.yaml\n  name: web\nspec:\n  ports:\n  - nodePort: ${nodePort}\n    port: 80\n`;

describe('kustomize-patch-no-effect', () => {
  const files = (patch: string) =>
    new Map(
      [
        loadFile('base/kustomization.yaml', 'resources:\n  - web.yaml\n'),
        loadFile('base/web.yaml', base),
        loadFile('prod/kustomization.yaml', 'resources:\n  - ../base\npatches:\n  - path: np.yaml\n'),
        loadFile('prod/np.yaml', patch),
      ].map((f) => [f.file, f]),
    );
  const job = { kind: 'kustomize', id: 'kustomize:prod', label: 'rendered by prod', anchor: { file: 'prod/kustomization.yaml', start: 0, end: 0 }, namespace: 'default', clusters: { type: 'all' }, consumes: [], reads: ['prod', 'base'], notes: [], dir: 'prod', drop: new Map(), enableHelm: false } as const;
  const patch = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n      nodePort: 30081\n';
  const originPath = (p: string) => p.replace(/^\.\.\//, '');

  it('warns on the patch value that is not in the rendered object', () => {
    const { notes } = mapKustomizeOutput({ job, output: output(30080), originPath, files: files(patch), repoPath: (f) => f });
    recordMessages(notes);
    assert.deepEqual(notes.map((n) => [n.ruleId, n.severity, n.span.file, n.span.start]), [['kustomize-patch-no-effect', 'warning', 'prod/np.yaml', patch.indexOf('30081')]]);
    assert.equal(notes[0].message, 'patch np.yaml changes nothing in Service default/web (rendered by prod): nodePort: 30081 is not in the rendered object');
  });
  it('is silent when the patch applied, and maps the rendered nodePort to the patch line', () => {
    const { notes, file } = mapKustomizeOutput({ job, output: output(30081), originPath, files: files(patch), repoPath: (f) => f });
    assert.deepEqual(notes, []);
    const svc = file.objects[0];
    assert.equal(svc.category, 'service');
    const nodePort = svc.category === 'service' ? svc.ports[0].nodePort! : undefined;
    const node = file.render!.map.nodes.find((n) => n.start === nodePort!.span.start)!;
    assert.deepEqual([node.via, node.source.file, node.source.start], ['patch', 'prod/np.yaml', patch.indexOf('30081')]);
  });
  it('warns when every value the patch sets is already in the base', () => {
    const same = patch.replace('30081', '30080');
    const { notes } = mapKustomizeOutput({ job, output: output(30080), originPath, files: files(same), repoPath: (f) => f });
    recordMessages(notes);
    assert.deepEqual(notes.map((n) => n.message), ['patch np.yaml changes nothing (rendered by prod): every value it sets is already in the object it patches']);
  });
});
