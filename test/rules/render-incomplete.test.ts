import { strict as assert } from 'node:assert';
import { isRemoteReference } from '../../server/out/core/render/remote';
import { indexKustomizations, kustomizeJob } from '../../server/out/core/render/plan';
import { loadFile } from '../../server/out/core/load/load-file';
import { recordMessages } from '../helpers/seen-messages';

describe('render-incomplete', () => {
  it('knows the remote forms kustomize fetches (HTTP, git, scp-like, scheme-less hosts) and local paths', () => {
    const remote = ['https://github.com/metallb/frr-k8s/config/default/?ref=v0.0.25', 'github.com/org/repo//deploy?ref=main', 'git::https://example.com/r.git', 'ssh://git@example.com/r.git', 'file:///srv/repo', 'git@github.com:org/repo.git', 'gitlab.com/org/repo/base', 'oci://registry/chart'];
    const local = ['../base', 'deploy.yaml', './overlays/prod', 'github.com.yaml', 'base.v2/x.yaml'];
    assert.deepEqual(remote.filter((r) => !isRemoteReference(r)), []);
    assert.deepEqual(local.filter((r) => isRemoteReference(r)), []);
  });
  it('leaves remote bases and unvendored helmCharts out of the job, with an info finding on their lines', () => {
    const k = loadFile('prod/kustomization.yaml', 'resources:\n  - https://github.com/org/repo/base?ref=v1\n  - ../base\nhelmCharts:\n  - name: redis\n    repo: https://charts.example.com\n    version: 1.0.0\n');
    const b = loadFile('base/kustomization.yaml', 'resources: []\n');
    const index = indexKustomizations([k, b], (f) => f);
    const job = kustomizeJob('prod', k.file, index, () => false, new Map(), 'default', 'rendered by prod', { type: 'all' });
    assert.deepEqual([...job.drop], [['prod/kustomization.yaml', ['https://github.com/org/repo/base?ref=v1']]]);
    recordMessages(job.notes);
    assert.deepEqual(job.notes.map((n) => [n.ruleId, n.severity, k.lines.position(n.span.start).line]), [['render-incomplete', 'info', 2], ['render-incomplete', 'info', 5]]);
    assert.match(job.notes[1].message, /^helmCharts entry redis left out of the render \(rendered by prod\): the chart is not vendored/);
    assert.equal(job.enableHelm, false);
  });
});
