import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostNetworkDaemonSet, upstreamTree } from '../helpers/layout-trees';
import { JsonFinding, lintRendered, renderBin, SHARED, writeTree } from '../helpers/render';

// The cluster grouping of test/unit/cluster-grouping.test.ts, with the real kustomize (`kubectl kustomize`) and with
// renderers that cannot run: each mode must give the same clusters and the same host port findings.
describe('cluster grouping when rendering, and when a renderer cannot run', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  const temp = (files: Record<string, string>): string => {
    const d = writeTree(files);
    dirs.push(d);
    return d;
  };
  /** A folder holding only the test kubectl: kustomize renders, helm is missing (as with only /usr/bin/kubectl). */
  const kubectlOnly = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'knl-kubectl-only-'));
    dirs.push(d);
    symlinkSync(join(renderBin(), 'kubectl'), join(d, 'kubectl'));
    return d;
  };
  /** A folder with a fake `kubectl` script. */
  const fakeKubectl = (script: string): string => {
    const d = mkdtempSync(join(tmpdir(), 'knl-fake-kubectl-'));
    dirs.push(d);
    writeFileSync(join(d, 'kubectl'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(d, 'kubectl'), 0o755);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const conflicts = (findings: readonly JsonFinding[]) => findings.filter((f) => f.ruleId === 'hostport-conflict').map((f) => [f.file, f.line, f.related.map((r) => `${r.file}:${r.line}`).sort()]);
  const planted = {
    ...upstreamTree(),
    'lb/config/frr/kustomization.yaml': 'namespace: frr-system\nresources:\n  - ../native\n  - frr-cm.yaml\n  - agent.yaml\n',
    'lb/config/frr/agent.yaml': hostNetworkDaemonSet('agent', ['7946/TCP']),
  };
  // As written (test/unit/cluster-grouping.test.ts): the base speaker, its copy in lb-frr.yaml and the planted agent.
  const expected = [
    ['lb/config/controllers/speaker.yaml', 15, ['lb/config/frr/agent.yaml:15']],
    ['lb/config/frr/agent.yaml', 15, ['lb/config/controllers/speaker.yaml:15', 'lb/config/manifests/lb-frr.yaml:22']],
    ['lb/config/manifests/lb-frr.yaml', 22, ['lb/config/frr/agent.yaml:15']],
  ];

  for (const mode of ['helm and kubectl', 'kubectl only'] as const) {
    describe(`rendered with ${mode}`, () => {
      const path = () => (mode === 'kubectl only' ? kubectlOnly() : undefined);
      it('renders a referenced overlay whose output is committed as an entry point of its own: no host port twice', () => {
        const r = lintRendered(temp(upstreamTree()), ['.'], path());
        assert.match(r.stderr, /rendered 2 kustomizations/);
        assert.deepEqual(conflicts(r.findings), []);
        assert.deepEqual(r.findings.filter((f) => f.severity === 'error'), []);
      });
      it('reports two different DaemonSets on one host port in an overlay on the source lines, as unrendered', () => {
        const r = lintRendered(temp(planted), ['.'], path());
        assert.deepEqual(conflicts(r.findings), expected);
        const agent = r.findings.find((f) => f.ruleId === 'hostport-conflict' && f.file === 'lb/config/frr/agent.yaml')!;
        assert.match(agent.message, /^hostNetwork port 7946\/TCP is also claimed by DaemonSet frr-system\/speaker: .*\(DaemonSet frr-system\/agent, rendered by lb\/config\/frr\)$/);
      });
    });
  }

  it('gives the same findings unrendered (--no-render)', () => {
    assert.deepEqual(conflicts(lintRendered(temp(planted), ['.', '--no-render']).findings), expected);
  });

  describe('a kubectl that cannot render', () => {
    const cases = [
      ['exits non-zero on version', 'echo "error: no configuration" >&2; exit 3', /kube-netlint: kustomize: \S+\/kubectl \(PATH\) cannot render: `kubectl version --client` exited with status 3 \(error: no configuration\): kustomize overlays are linted as written/],
      ['has no kustomize subcommand', 'if [ "$1" = version ]; then echo "Client Version: v1.13.0"; exit 0; fi\necho "Error: unknown command \\"$1\\" for \\"kubectl\\"" >&2; exit 1', /kube-netlint: kustomize: \S+\/kubectl \(PATH\) cannot render: it has no kustomize subcommand \(kubectl 1\.14 or later has one; `kubectl kustomize --help` said "Error: unknown command \\"kustomize\\" for \\"kubectl\\""\): kustomize overlays are linted as written/],
    ] as const;
    for (const [what, script, said] of cases) {
      it(`${what}: says which binary and why on stderr, and lints as written (the same findings, no render-failed)`, () => {
        const r = lintRendered(temp(planted), ['.'], fakeKubectl(script));
        assert.match(r.stderr, said);
        assert.doesNotMatch(r.stderr, /rendered \d+ kustomization/);
        assert.deepEqual(r.findings.filter((f) => f.ruleId === 'render-failed'), []);
        assert.deepEqual(conflicts(r.findings), expected);
      });
    }
  });

  it('metallb as shipped (config/ and the committed config/manifests/): no hostport-conflict in any mode', () => {
    const metallb = join(SHARED, 'corpus/gitops/metallb');
    for (const args of [['.', '--no-render'], ['.']]) assert.deepEqual(conflicts(lintRendered(metallb, args).findings), [], args.join(' '));
  });
});
