import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from 'sarif';
import { schemaErrors, sarifValidator } from '../helpers/json-schema';

const ROOT = join(__dirname, '..', '..');
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;

/** The GitHub Action (action.yml): its step's script run as the runner runs it (GITHUB_ACTION_PATH, GITHUB_OUTPUT, INPUT_*). */
describe('GitHub Action (action.yml, scripts/action.sh)', function () {
  this.timeout(60000);
  let dir: string;
  const run = (inputs: Record<string, string>) => {
    const output = join(dir, 'github-output');
    writeFileSync(output, '');
    const r = spawnSync('bash', [join(ROOT, 'scripts', 'action.sh')], {
      cwd: join(dir, 'repo'),
      encoding: 'utf8',
      env: { ...process.env, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: output, ...inputs },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, outputs: readFileSync(output, 'utf8') };
  };
  before(() => {
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) assert.fail('dist/ missing: run npm run build first');
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-action-'));
    mkdirSync(join(dir, 'repo', 'deploy', 'vendor'), { recursive: true });
    writeFileSync(join(dir, 'repo', 'deploy', 'a.yaml'), svc('a', 30080));
    writeFileSync(join(dir, 'repo', 'deploy', 'b.yaml'), svc('b', 30080));
    writeFileSync(join(dir, 'repo', 'deploy', 'vendor', 'c.yaml'), svc('c', 5678));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a valid SARIF file with --format sarif --output, sets the sarif-file output and fails on errors', () => {
    const r = run({ INPUT_PATHS: 'deploy', INPUT_SARIF_FILE: 'out/kube-netlint.sarif', INPUT_FAIL_ON: 'error', INPUT_ARGS: '' });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.outputs, 'sarif-file=out/kube-netlint.sarif\n');
    assert.equal(r.stdout, 'kube-netlint: 3 findings (3 errors, 0 warnings, 0 notes) in out/kube-netlint.sarif\n');
    const log = JSON.parse(readFileSync(join(dir, 'repo', 'out', 'kube-netlint.sarif'), 'utf8')) as Log;
    assert.deepEqual(schemaErrors(sarifValidator(), log), []);
    assert.deepEqual(log.runs[0].results!.map((x) => x.locations![0].physicalLocation!.artifactLocation!.uri), ['deploy/a.yaml', 'deploy/b.yaml', 'deploy/vendor/c.yaml']);
  });

  it('passes args (globs stay unexpanded) and paths through, and succeeds when nothing fails', () => {
    const r = run({ INPUT_PATHS: 'deploy', INPUT_SARIF_FILE: 'k.sarif', INPUT_FAIL_ON: 'error', INPUT_ARGS: '--exclude deploy/vendor/** --rule nodeport-duplicate=warning' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'kube-netlint: 2 findings (0 errors, 2 warnings, 0 notes) in k.sarif\n');
    const warn = run({ INPUT_PATHS: 'deploy', INPUT_SARIF_FILE: 'k.sarif', INPUT_FAIL_ON: 'warning', INPUT_ARGS: '--exclude deploy/vendor/** --rule nodeport-duplicate=warning' });
    assert.equal(warn.status, 1);
  });

  it('declares the inputs the script reads and a composite step running it', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('yaml') as typeof import('yaml');
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown>; runs: { using: string; steps: { run: string; env: Record<string, string> }[] }; outputs: Record<string, unknown> };
    assert.equal(action.runs.using, 'composite');
    assert.deepEqual(Object.keys(action.inputs), ['paths', 'sarif-file', 'fail-on', 'args', 'working-directory']);
    assert.equal(action.runs.steps[0].run, 'bash "$GITHUB_ACTION_PATH/scripts/action.sh"');
    assert.deepEqual(Object.keys(action.runs.steps[0].env), ['INPUT_PATHS', 'INPUT_SARIF_FILE', 'INPUT_FAIL_ON', 'INPUT_ARGS']);
    assert.ok(action.outputs['sarif-file']);
  });
});
