import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Log } from 'sarif';
import { commonFolder, runCli } from '../../server/out/cli/run';

// Regressions found by a new-user trial of the CLI: config choice independent of path order,
// SARIF locations code scanning can map, EPIPE, and the source named for flags.
const ROOT = join(__dirname, '..', '..');
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;

async function cli(cwd: string, argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { cwd, stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => stdin });
  return { code, out, err };
}

describe('CLI (user-trial regressions)', () => {
  let dir: string;
  const write = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-trial-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the config of the deepest folder holding all paths, whatever their order', async () => {
    write('.kube-netlint.yaml', 'rules: {nodeport-duplicate: off}\n');
    write('sub/.kube-netlint.yaml', 'rules: {nodeport-duplicate: warning}\n');
    write('svc.yaml', svc('a', 30080) + '---\n' + svc('b', 30080));
    write('sub/svc.yaml', svc('c', 30090) + '---\n' + svc('d', 30090));
    const one = await cli(dir, ['--format', 'json', 'svc.yaml', 'sub']);
    const two = await cli(dir, ['--format', 'json', 'sub', 'svc.yaml']);
    assert.equal(one.out, two.out);
    assert.deepEqual(JSON.parse(one.out).findings, []);
    // Only sub/ linted: its own config applies.
    const sub = await cli(dir, ['--format', 'json', 'sub']);
    assert.deepEqual(JSON.parse(sub.out).findings.map((f: { severity: string; line: number }) => [f.severity, f.line]), [['warning', 6], ['warning', 13]]);
  });

  it('commonFolder finds the deepest common folder of files and folders', () => {
    write('a/b/x.yaml', '');
    write('a/c/y.yaml', '');
    assert.equal(commonFolder([join(dir, 'a/b/x.yaml'), join(dir, 'a/c')]), join(dir, 'a'));
    assert.equal(commonFolder([join(dir, 'a/b/x.yaml')]), join(dir, 'a/b'));
    assert.equal(commonFolder([]), undefined);
  });

  it('names the flag as the source of a kube-proxy mode or NodePort range given on the command line', async () => {
    write('svc.yaml', svc('a', 30080));
    const r = await cli(dir, ['--format', 'json', '--node-port-range', '20000-22767', 'svc.yaml']);
    assert.match(JSON.parse(r.out).findings[0].message, /outside the NodePort range 20000-22767 \(from the --node-port-range flag\)/);
    write('.kube-netlint.yaml', 'nodePortRange: "20000-22767"\n');
    const fromFile = await cli(dir, ['--format', 'json', 'svc.yaml']);
    assert.match(JSON.parse(fromFile.out).findings[0].message, /\(from the nodePortRange in \.kube-netlint\.yaml\)/);
  });

  it('writes SARIF locations code scanning can map: relative URIs against %SRCROOT%, file:// for absolute paths, no URI for stdin', async () => {
    write('my dir/a.yaml', svc('a', 30080));
    write('b.yaml', svc('b', 30080));
    const rel = JSON.parse((await cli(dir, ['--format', 'sarif', '.'])).out) as Log;
    const locs = rel.runs[0].results!.map((r) => r.locations![0].physicalLocation!.artifactLocation);
    assert.deepEqual(locs, [{ uri: 'b.yaml', uriBaseId: '%SRCROOT%' }, { uri: 'my%20dir/a.yaml', uriBaseId: '%SRCROOT%' }]);
    assert.deepEqual(rel.runs[0].invocations, [{ executionSuccessful: true }]);
    const elsewhere = mkdtempSync(join(tmpdir(), 'knl-elsewhere-'));
    const abs = JSON.parse((await cli(elsewhere, ['--format', 'sarif', join(dir, 'b.yaml'), join(dir, 'my dir')])).out) as Log;
    assert.match(abs.runs[0].results![0].locations![0].physicalLocation!.artifactLocation!.uri!, /^file:\/\/\/.*\/b\.yaml$/);
    const stdin = JSON.parse((await cli(dir, ['--format', 'sarif', '-'], svc('x', 30081) + '---\n' + svc('z', 30081))).out) as Log;
    assert.deepEqual(stdin.runs[0].results![0].locations![0].physicalLocation!.artifactLocation, { description: { text: 'standard input' } });
  });

  it('stops quietly when the reader of its output goes away (| head)', () => {
    write('a.yaml', svc('a', 30080) + '---\n' + svc('b', 30080));
    const r = spawnSync('bash', ['-c', `node ${JSON.stringify(join(ROOT, 'bin', 'kube-netlint.js'))} --format sarif . | head -c 10 >/dev/null`], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.stderr, '');
  });
});
