import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import type { PortMapDocument } from '../../server/out/core/port-map/document';
import { runRendered, writeTree } from '../helpers/render';

// kube-netlint ports on a kustomize overlay rendered by the real kustomize (inside unshare -n, as render-cli.test.ts).
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: http\n      port: 80\n      nodePort: ${nodePort}\n`;

describe('kube-netlint ports on rendered kustomize overlays', function () {
  this.timeout(120_000);
  let dir = '';
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('shows the rendered objects\' claims on the source lines (the patch, the base), with their collisions', () => {
    dir = writeTree({
      'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'base/web.yaml': svc('web', 30080),
      'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n  - api.yaml\npatches:\n  - path: web-nodeport.yaml\n',
      'overlays/prod/web-nodeport.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - name: http\n      port: 80\n      nodePort: 30090\n',
      'overlays/prod/api.yaml': svc('api', 30090),
    });
    const r = runRendered(dir, ['ports', 'overlays', '--format', 'json']);
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as PortMapDocument;
    assert.deepEqual(doc.clusterGroups.map((g) => g.name), ['overlays/prod']);
    const row = doc.clusterGroups[0].ports.find((p) => p.port === 30090)!;
    // The patch set web's nodePort: the rendered Service claims 30090 on the patch line; the base's 30080 is gone.
    assert.deepEqual(row.claims.map((c) => [c.owner?.name, c.location?.file, c.location?.line, c.rendered?.file, c.rendered?.render]), [
      ['api', 'overlays/prod/api.yaml', 11, 'render:kustomize:overlays/prod', 'rendered by overlays/prod'],
      ['web', 'overlays/prod/web-nodeport.yaml', 9, 'render:kustomize:overlays/prod', 'rendered by overlays/prod'],
    ]);
    const [api, web] = row.claims;
    assert.deepEqual(api.collisions.map((c) => [c.rule, c.with]), [['nodeport-duplicate', [web.id]]]);
    assert.deepEqual(web.collisions.map((c) => [c.rule, c.with]), [['nodeport-duplicate', [api.id]]]);
    assert.equal(doc.clusterGroups[0].ports.some((p) => p.port === 30080), false);
    // --no-render: the files as written (the base's 30080 and the patch's partial object both claim).
    const raw = JSON.parse(runRendered(dir, ['ports', 'overlays', '--format', 'json', '--no-render']).stdout) as PortMapDocument;
    assert.equal(raw.clusterGroups[0].ports.find((p) => p.port === 30090)!.claims.every((c) => c.rendered === null), true);
  });
});
