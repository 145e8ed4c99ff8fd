import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { readManifestFile } from '../../server/out/node/read-file';
import { sharedDir } from '../helpers/shared';

// Real public manifests, read in place from ../shared/corpus/real (sources in SOURCES.md there); never copied here.
const SHARED = sharedDir();
const DIR = SHARED ? join(SHARED, 'corpus', 'real') : '';
const COLLISION_RULES = ['nodeport-duplicate', 'healthcheck-nodeport-duplicate', 'host-port-conflicts-nodeport', 'host-port-conflicts-healthcheck-nodeport', 'hostport-conflict', 'externalip-port-conflict'];

describe('real corpus (shared/corpus/real)', () => {
  before(() => {
    assert.ok(SHARED, 'the shared folder (../shared beside the repository, or KUBE_NETLINT_SHARED) is missing');
  });
  const names = DIR ? readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
  const files = names.map((n) => readManifestFile(join(DIR, n), n));
  const analysis = analyze(files, DEFAULT_CONFIG);

  it('reads every file without a YAML error or a rule failure', () => {
    assert.equal(names.length, 14);
    assert.deepEqual(analysis.failures, []);
    assert.deepEqual(analysis.findings.filter((f) => f.ruleId === 'yaml-syntax' || f.ruleId === 'file-skipped').map((f) => f.message), []);
    assert.ok(analysis.model.objects.length > 100, `only ${analysis.model.objects.length} objects`);
  });

  it('does not report variants of one install (ingress-nginx cloud/bare-metal, MetalLB, Calico) as colliding with themselves', () => {
    const variantPairs = [['ingress-nginx-cloud.yaml', 'ingress-nginx-baremetal.yaml'], ['metallb-native.yaml', 'metallb-legacy-2017.yaml'], ['calico.yaml', 'calico-etcd.yaml']];
    const bad = analysis.findings.filter((f) => COLLISION_RULES.includes(f.ruleId) && variantPairs.some(([a, b]) => (f.span.file === a && f.related.some((r) => r.span.file === b)) || (f.span.file === b && f.related.some((r) => r.span.file === a))));
    assert.deepEqual(bad.map((f) => `${f.span.file}: ${f.message}`), []);
  });
});
