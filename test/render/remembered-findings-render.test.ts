import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintRendered, scratchTrees } from '../helpers/render';

// `--cache` with real helm (inside `unshare -n`): a run that rendered is keyed by what the renderer gave, so a change
// in a file only the renderer reads (a chart's `_helpers.tpl`, which is not a manifest of the workspace) is never
// hidden by the findings stored for the run before it.
describe('remembered findings with helm (--cache)', () => {
  const { tree } = scratchTrees();
  const helpers = (nodePort: number): string => `{{- define "web.nodePort" -}}${nodePort}{{- end -}}\n`;
  const service = (name: string, nodePort: string): string =>
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: ${nodePort}\n`;

  it('shows a change in a template helper, with the findings of a run without the cache', () => {
    const dir = tree({
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n',
      'web/templates/_helpers.tpl': helpers(30002),
      'web/templates/svc.yaml': service('{{ .Release.Name }}-a', '{{ include "web.nodePort" . }}'),
      'services.yaml': service('b', '30002'),
    });
    const duplicates = (r: ReturnType<typeof lintRendered>): string[] => r.findings.filter((f) => f.ruleId === 'nodeport-duplicate').map((f) => `${f.file}:${f.line}`);
    const cold = lintRendered(dir, ['--cache', '.']);
    const warm = lintRendered(dir, ['--cache', '.']);
    assert.deepEqual(warm.findings, cold.findings);
    assert.deepEqual(duplicates(cold), ['services.yaml:9', 'web/templates/svc.yaml:9'], 'the release\'s Service and b share nodePort 30002');
    writeFileSync(join(dir, 'web/templates/_helpers.tpl'), helpers(30003));
    const changed = lintRendered(dir, ['--cache', '.']);
    assert.deepEqual(duplicates(changed), []);
    assert.deepEqual(changed.findings, lintRendered(dir, ['.']).findings);
  });

  // A render without findings leaves every finding (none) in the files loaded: only "it rendered" keeps such a run
  // from being stored under the files' names and hashes alone, which would hide the collision the helper adds.
  it('shows a collision a template helper adds to a release that had no findings', () => {
    const dir = tree({
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n',
      'web/templates/_helpers.tpl': helpers(30003),
      'web/templates/svc.yaml': service('{{ .Release.Name }}-a', '{{ include "web.nodePort" . }}'),
      'services.yaml': service('b', '30002'),
    });
    const duplicates = (r: ReturnType<typeof lintRendered>): string[] => r.findings.filter((f) => f.ruleId === 'nodeport-duplicate').map((f) => `${f.file}:${f.line}`);
    const clean = lintRendered(dir, ['--cache', '.']);
    assert.deepEqual(duplicates(clean), []);
    assert.deepEqual(lintRendered(dir, ['--cache', '.']).findings, clean.findings);
    writeFileSync(join(dir, 'web/templates/_helpers.tpl'), helpers(30002));
    const changed = lintRendered(dir, ['--cache', '.']);
    assert.deepEqual(duplicates(changed), ['services.yaml:9', 'web/templates/svc.yaml:9']);
    assert.deepEqual(changed.findings, lintRendered(dir, ['.']).findings);
  });
});
