import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import type { RenderOutcome } from '../../server/out/core/render/jobs';
import { recordMessages } from '../helpers/seen-messages';

// The renders themselves run in test/render/render-cli.test.ts (real kustomize and helm); here: how a failed render's
// note becomes a finding and what the analysis does with the failed overlay's sources.
const svc = (name: string, nodePort: number) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - {port: 80, nodePort: ${nodePort}}\n`;

describe('render-failed', () => {
  it('reports the note at error severity, and the failed overlay is linted as written', () => {
    const files = [loadFile('app/kustomization.yaml', 'resources:\n  - a.yaml\n  - b.yaml\n'), loadFile('app/a.yaml', svc('a', 30080)), loadFile('app/b.yaml', svc('b', 30080))];
    const job = { kind: 'kustomize', id: 'kustomize:app', label: 'rendered by app', anchor: { file: 'app/kustomization.yaml', start: 0, end: 0 }, namespace: 'default', clusters: { type: 'of-file', file: 'app/kustomization.yaml' }, consumes: ['app/a.yaml', 'app/b.yaml'], reads: ['app'], notes: [], dir: 'app', drop: new Map(), enableHelm: false } as const;
    const outcome: RenderOutcome = { job, notes: [{ ruleId: 'render-failed', severity: 'error', message: 'kustomize build failed (rendered by app): boom', span: { file: 'app/kustomization.yaml', start: 25, end: 31 } }], durationMs: 1 };
    const findings = analyze(files, DEFAULT_CONFIG, { renders: [outcome] }).findings;
    recordMessages(findings);
    assert.deepEqual(findings.filter((f) => f.ruleId === 'render-failed').map((f) => [f.severity, f.span.file, f.span.start, f.message]), [['error', 'app/kustomization.yaml', 25, 'kustomize build failed (rendered by app): boom']]);
    assert.equal(findings.filter((f) => f.ruleId === 'nodeport-duplicate').length, 2);
  });
});
