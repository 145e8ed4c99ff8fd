import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/out/cli/run';
import { parseCliOptions } from '../../server/out/cli/options';
import { lintWorkspace } from '../../server/out/cli/workspace';
import { CACHE_FILE_NAME } from '../../server/out/node/parse-cache';

const svc = (name: string, nodePort: number, hostPort?: number): string =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - {name: http, port: 80, nodePort: ${nodePort}}  # the node port\n`
  + (hostPort ? `---\napiVersion: v1\nkind: Pod\nmetadata: {name: ${name}-pod, labels: {app: ${name}}}\nspec:\n  containers:\n    - name: c\n      image: nginx\n      ports: [{containerPort: 80, hostPort: ${hostPort}}]\n` : '');

const io = (cwd: string): { cwd: string; out: string[]; stdout: (t: string) => void; stderr: (t: string) => void; readStdin: () => string } => {
  const out: string[] = [];
  return { cwd, out, stdout: (t) => out.push(t), stderr: (t) => out.push(`stderr: ${t}`), readStdin: () => '' };
};

/** One lint run through lintWorkspace: whether its findings came from the cache, and the findings. */
async function lint(cwd: string, argv: string[]): Promise<{ recalled?: string; findings: string[] }> {
  const run = await lintWorkspace(parseCliOptions(argv, () => true), io(cwd));
  return { recalled: run.recalled, findings: run.findings.map((f) => `${f.ruleId} ${f.span.file}:${f.span.start} ${f.message}`) };
}

async function cli(cwd: string, argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(argv, { cwd, stdout: (t) => (out += t), stderr: (t) => (out += `stderr: ${t}`), readStdin: () => '' });
  return { code, out };
}

describe('remembered findings (--cache on an unchanged workspace)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-remembered-'));
    mkdirSync(join(dir, 'apps'));
    // 30 files, so the workers load them (as in a real workspace); two share nodePort 30001, one hostPort 30005.
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, 'apps', `s${i}.yaml`), svc(`s${i}`, 30000 + (i === 29 ? 1 : i), i === 7 ? 30005 : undefined));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('shows the stored findings only while every input is unchanged, and they equal a run without the cache in every format', async () => {
    const args = ['--cache', 'apps'];
    const first = await lint(dir, args);
    assert.equal(first.recalled, undefined, 'nothing stored yet');
    assert.ok(first.findings.some((f) => f.startsWith('nodeport-duplicate apps/s1.yaml:')), first.findings.join('\n'));
    assert.ok(first.findings.some((f) => f.startsWith('host-port-conflicts-nodeport apps/s7.yaml:')), first.findings.join('\n'));
    const second = await lint(dir, args);
    assert.deepEqual(second, { recalled: 'before loading', findings: first.findings });
    for (const format of ['json', 'text', 'sarif']) {
      const plain = await cli(dir, ['--format', format, 'apps']);
      const warm = await cli(dir, ['--cache', '--format', format, 'apps']);
      assert.deepEqual(warm, plain, format);
      assert.equal(plain.code, 1);
    }
    // The recalled findings' quick fixes come with their edits too (the files they edit are placed as well).
    const edits = (JSON.parse((await cli(dir, ['--cache', '--format', 'json', 'apps'])).out) as { findings: { quickFixes: { edits: unknown[] }[] }[] }).findings.flatMap((f) => f.quickFixes.flatMap((q) => q.edits));
    assert.ok(edits.length >= 2, JSON.stringify(edits));

    // Flags that only shape the report keep the key; one that changes the analysis does not.
    assert.equal((await lint(dir, [...args, '--format', 'sarif', '--quiet', '--fail-on', 'warning'])).recalled, 'before loading');
    const ipvs = await lint(dir, [...args, '--node-port-range', '30000-30010']);
    assert.equal(ipvs.recalled, undefined);
    assert.deepEqual(ipvs.findings, (await lint(dir, ['--node-port-range', '30000-30010', 'apps'])).findings);
    assert.notDeepEqual(ipvs.findings, first.findings, 'the narrower range puts nodePorts out of range');

    // A changed file, a new file, a deleted file, a config file: each analysed again, with the findings of a plain run.
    const changes: [string, () => void][] = [
      ['changed file', () => writeFileSync(join(dir, 'apps', 's29.yaml'), svc('s29', 30029))],
      ['new file', () => writeFileSync(join(dir, 'apps', 'extra.yaml'), svc('extra', 30002))],
      ['deleted file', () => rmSync(join(dir, 'apps', 's3.yaml'))],
      ['config file', () => writeFileSync(join(dir, '.kube-netlint.yaml'), 'rules:\n  nodeport-duplicate: off\n')],
    ];
    for (const [what, change] of changes) {
      await lint(dir, args); // stores this workspace's findings (one result is kept: the last run's)
      assert.equal((await lint(dir, args)).recalled, 'before loading', `before the ${what}: stored`);
      change();
      const after = await lint(dir, args);
      assert.equal(after.recalled, undefined, what);
      assert.deepEqual(after.findings, (await lint(dir, ['apps'])).findings, what);
    }
    assert.ok(!(await lint(dir, args)).findings.some((f) => f.startsWith('nodeport-duplicate')), 'the config turned the rule off');
  });

  it('never recalls for a file the cache does not keep (bytes that are not UTF-8), and a damaged store is analysed again', async () => {
    writeFileSync(join(dir, 'apps', 'latin1.yaml'), Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caf\xe9}\n', 'latin1'));
    const args = ['--cache', 'apps'];
    assert.equal((await lint(dir, args)).recalled, undefined);
    const again = await lint(dir, args);
    assert.equal(again.recalled, undefined, 'a file outside the cache leaves the run unkeyed');
    rmSync(join(dir, 'apps', 'latin1.yaml'));
    const stored = await lint(dir, args);
    assert.equal((await lint(dir, args)).recalled, 'before loading');
    // Flip a byte in the last entry (the findings are stored last): its checksum fails, the run analyses again.
    const cache = join(dir, CACHE_FILE_NAME);
    const bytes = readFileSync(cache);
    bytes[bytes.length - 10] ^= 0xff;
    writeFileSync(cache, bytes);
    const damaged = await lint(dir, args);
    assert.deepEqual(damaged, { recalled: undefined, findings: stored.findings });
    assert.equal((await lint(dir, args)).recalled, 'before loading', 'stored again');
  });

  it('keys a run that rendered by what it loaded and what the renderers gave, never by its files alone', async () => {
    // A chart whose renderer is missing: the finding says why it is not rendered, which the files alone do not decide.
    mkdirSync(join(dir, 'chart', 'templates'), { recursive: true });
    writeFileSync(join(dir, 'chart', 'Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 1.0.0\n');
    writeFileSync(join(dir, 'chart', 'templates', 'svc.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n');
    const args = ['--cache', '--helm', join(dir, 'no-such-helm'), '.'];
    const first = await lint(dir, args);
    assert.ok(first.findings.some((f) => f.startsWith('helm-chart-not-rendered chart/Chart.yaml:')), first.findings.join('\n'));
    assert.deepEqual(await lint(dir, args), { recalled: 'after loading', findings: first.findings });
  });
});
