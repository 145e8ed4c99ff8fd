import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Log } from 'sarif';
import { runCli } from '../../server/out/cli/run';

const ROOT = join(__dirname, '..', '..');
const svc = (name: string, nodePort: number, ns = 'default') =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - {name: http, port: 80, nodePort: ${nodePort}}\n`;

/** Runs the CLI in `cwd` with a fake io; returns exit code and what it printed. */
async function cli(cwd: string, argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { cwd, stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => stdin });
  return { code, out, err };
}

/** One edit of a quick fix in the `--format json` report. */
interface JsonEdit { file: string; line: number; column: number; endLine: number; endColumn: number; offset: number; endOffset: number; newText: string }
/** The fields of a `--format json` finding these tests read. */
interface JsonLintFinding { ruleId: string; line: number; column: number; fixes: string[]; quickFixes: { title: string; preferred: boolean; edits: JsonEdit[] }[] }

/** `text` with a fix's edits applied, as a script would: placed by 1-based line and column, or by offsets. */
function applyJsonEdits(text: string, edits: readonly JsonEdit[], by: 'lines' | 'offsets'): string {
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)];
  const at = (line: number, column: number): number => lineStarts[line - 1] + column - 1;
  const ranges = edits.map((e) => (by === 'offsets' ? [e.offset, e.endOffset, e.newText] as const : [at(e.line, e.column), at(e.endLine, e.endColumn), e.newText] as const));
  let out = text;
  for (const [start, end, newText] of [...ranges].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + newText + out.slice(end);
  return out;
}

describe('CLI', () => {
  let dir: string;
  const write = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 on a clean workspace and prints the summary', async () => {
    write('app/svc.yaml', svc('web', 30080));
    const r = await cli(dir, ['app']);
    assert.deepEqual([r.code, r.err], [0, '']);
    assert.equal(r.out, '1 file checked: 0 errors, 0 warnings, 0 notes\n');
  });

  it('reads a kustomization from a file named Kustomization (no extension), as kustomize does', async () => {
    // Without its selector the Deployment is refused, unless a kustomization builds it (commonLabels add one).
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n';
    write('a/deploy.yaml', deployment);
    write('a/Kustomization', 'resources: [deploy.yaml]\ncommonLabels: {app: web}\n');
    write('plain/deploy.yaml', deployment);
    write('plain/kustomization', 'resources: [deploy.yaml]\n'); // not a name kustomize reads
    const r = await cli(dir, ['--no-render', '--format', 'json', '.']);
    const findings = JSON.parse(r.out).findings as { file: string; ruleId: string; line: number }[];
    assert.deepEqual(findings.map((f) => [f.file, f.ruleId, f.line]), [['plain/deploy.yaml', 'pod-spec-invalid', 3]]);
  });

  it('exits 1 on an error and prints compiler-style lines with related locations indented', async () => {
    write('a.yaml', svc('a', 30080, 'team-a'));
    write('b.yaml', svc('b', 30080, 'team-b'));
    const r = await cli(dir, ['.']);
    assert.equal(r.code, 1);
    const lines = r.out.trimEnd().split('\n');
    assert.match(lines[0], /^a\.yaml:10:40: error nodeport-duplicate: nodePort 30080 is also claimed by Service team-b\/b: /);
    assert.equal(lines[1], '    b.yaml:10:40: nodePort 30080 of Service team-b/b');
    assert.match(lines[2], /^b\.yaml:10:40: error nodeport-duplicate: .*Service team-a\/a/);
    assert.equal(lines[4], '2 files checked: 2 errors, 0 warnings, 0 notes');
  });

  it('--fail-on decides which severity fails the run', async () => {
    write('.kube-netlint.yaml', 'rules: {nodeport-duplicate: warning}\n');
    write('a.yaml', svc('a', 30080) + '---\n' + svc('b', 30080));
    assert.equal((await cli(dir, ['a.yaml'])).code, 0);
    assert.equal((await cli(dir, ['--fail-on', 'warning', 'a.yaml'])).code, 1);
    assert.equal((await cli(dir, ['--fail-on', 'info', 'a.yaml'])).code, 1);
    const bad = await cli(dir, ['--fail-on', 'hint', 'a.yaml']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^kube-netlint: --fail-on must be error, warning or info \(got "hint"\)/);
  });

  it('--format json has the documented shape with 1-based positions', async () => {
    write('a.yaml', svc('a', 5678, 'ingress'));
    const r = await cli(dir, ['--format', 'json', 'a.yaml']);
    assert.equal(r.code, 1);
    const json = JSON.parse(r.out);
    assert.equal(json.version, 1);
    assert.equal(json.findings.length, 1);
    const f = json.findings[0];
    assert.deepEqual(Object.keys(f), ['ruleId', 'severity', 'message', 'file', 'line', 'column', 'endLine', 'endColumn', 'object', 'related', 'fixes', 'quickFixes']);
    assert.deepEqual([f.ruleId, f.severity, f.file, f.line, f.column, f.endLine, f.endColumn], ['nodeport-out-of-range', 'error', 'a.yaml', 10, 40, 10, 44]);
    assert.deepEqual(f.object, { kind: 'Service', namespace: 'ingress', name: 'a' });
    assert.deepEqual(f.related, []);
  });

  it('--format json gives each quick fix its edits, which write the fixed values; a finding without fixes has none', async () => {
    const text = [
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n    - port: 80\n      protocol: tcp  # from the old chart\n      targetPort: 8080\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - name: web\n          ports:\n            - containerPort: "8080" # the app\'s port\n',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: dup\nspec:\n  ports:\n    - {name: http, port: 80}\n    - {name: http, port: 81}\n',
    ].join('---\n');
    write('a.yaml', text);
    const { findings } = JSON.parse((await cli(dir, ['--format', 'json', 'a.yaml'])).out) as { findings: JsonLintFinding[] };
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.fixes]), [
      ['service-spec-invalid', 9, 17, ['Change protocol "tcp" to "TCP"']],
      ['pod-spec-invalid', 24, 30, ['Change containerPort "8080" to 8080']],
      ['service-spec-invalid', 33, 14, []],
    ]);
    const [protocol, port, dup] = findings;
    const protocolAt = text.indexOf('tcp');
    assert.deepEqual(protocol.quickFixes, [{
      title: 'Change protocol "tcp" to "TCP"', preferred: true,
      edits: [{ file: 'a.yaml', line: 9, column: 17, endLine: 9, endColumn: 20, offset: protocolAt, endOffset: protocolAt + 3, newText: 'TCP' }],
    }]);
    const portAt = text.indexOf('"8080"');
    assert.deepEqual(port.quickFixes, [{
      title: 'Change containerPort "8080" to 8080', preferred: true,
      edits: [{ file: 'a.yaml', line: 24, column: 30, endLine: 24, endColumn: 36, offset: portAt, endOffset: portAt + 6, newText: '8080' }],
    }]);
    assert.deepEqual([dup.fixes, dup.quickFixes], [[], []]);
    // Placed by line and column, as by offsets, each fix writes only its value: the comments stay.
    const cases = [[protocol, 'protocol: tcp  # from', 'protocol: TCP  # from'], [port, 'containerPort: "8080" # the', 'containerPort: 8080 # the']] as const;
    for (const [fix, before, after] of cases) {
      const { edits } = fix.quickFixes[0];
      assert.equal(applyJsonEdits(text, edits, 'lines'), text.replace(before, after));
      assert.equal(applyJsonEdits(text, edits, 'offsets'), text.replace(before, after));
    }
  });

  it('--format json: a fix in a JSON manifest writes JSON, and a file with bytes that are not UTF-8 gets no edits (as in the editor)', async () => {
    write('svc.json', '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "j"},\n "spec": {"ports": [{"port": 80, "protocol": "tcp"}]}}\n');
    const [json] = (JSON.parse((await cli(dir, ['--format', 'json', 'svc.json'])).out) as { findings: JsonLintFinding[] }).findings;
    assert.deepEqual(json.quickFixes[0].edits, [{ file: 'svc.json', line: 2, column: 46, endLine: 2, endColumn: 51, offset: 112, endOffset: 117, newText: '"TCP"' }]);
    assert.equal(applyJsonEdits(readFileSync(join(dir, 'svc.json'), 'utf8'), json.quickFixes[0].edits, 'lines'), '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "j"},\n "spec": {"ports": [{"port": 80, "protocol": "TCP"}]}}\n');
    writeFileSync(join(dir, 'latin1.yaml'), Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\napiVersion: v1\nkind: Service\nmetadata:\n  name: l\nspec:\n  ports:\n    - {port: 80, protocol: tcp}\n')]));
    const latin1 = (JSON.parse((await cli(dir, ['--format', 'json', 'latin1.yaml'])).out) as { findings: JsonLintFinding[] }).findings.find((f) => f.ruleId === 'service-spec-invalid')!;
    assert.deepEqual([latin1.line, latin1.fixes, latin1.quickFixes], [8, ['Change protocol "tcp" to "TCP"'], []]);
  });

  it('--format sarif is SARIF 2.1.0 with rules (help text) and results with regions', async () => {
    write('a.yaml', svc('a', 30080) + '---\n' + svc('b', 30080));
    const r = await cli(dir, ['--format', 'sarif', 'a.yaml']);
    const log = JSON.parse(r.out) as Log;
    assert.equal(log.version, '2.1.0');
    assert.match(String(log.$schema), /sarif-2\.1\.0/);
    const driver = log.runs[0].tool.driver;
    assert.equal(driver.name, 'kube-netlint');
    const ids = (driver.rules ?? []).map((d) => d.id);
    assert.ok(ids.includes('nodeport-duplicate') && ids.includes('service-spec-invalid'));
    for (const d of driver.rules ?? []) assert.ok(d.help?.text && d.help.text.length > 80, `${d.id} has no help text`);
    const results = log.runs[0].results ?? [];
    assert.equal(results.length, 2);
    const res = results[0];
    assert.equal(res.ruleId, 'nodeport-duplicate');
    assert.equal(driver.rules![res.ruleIndex!].id, 'nodeport-duplicate');
    assert.equal(res.level, 'error');
    assert.deepEqual(res.locations![0].physicalLocation!.region, { startLine: 10, startColumn: 40, endLine: 10, endColumn: 45 });
    assert.equal(res.locations![0].physicalLocation!.artifactLocation!.uri, 'a.yaml');
    assert.equal(res.relatedLocations![0].physicalLocation!.region!.startLine, 21);
    assert.equal(res.message.text, results[0].message.text);
    assert.match(String(res.message.text), /^nodePort 30080 is also claimed by Service default\/b/);
    for (const r of results) assert.ok(['error', 'warning', 'note', 'none'].includes(String(r.level)));
    for (const d of driver.rules ?? []) assert.ok(['error', 'warning', 'note'].includes(String(d.defaultConfiguration?.level)), d.id);
    assert.equal(new Set(ids).size, ids.length, 'rule ids are unique');
  });

  it('reads manifests from stdin with -', async () => {
    const r = await cli(dir, ['--format', 'json', '-'], svc('a', 30080) + '---\n' + svc('b', 30080));
    assert.equal(r.code, 1);
    assert.deepEqual(JSON.parse(r.out).findings.map((f: { file: string; line: number }) => [f.file, f.line]), [['<stdin>', 10], ['<stdin>', 21]]);
  });

  it('exits 2 with a message for unreadable paths, bad options and bad config', async () => {
    const missing = await cli(dir, ['nope']);
    assert.deepEqual([missing.code, missing.out], [2, '']);
    assert.equal(missing.err, `kube-netlint: ${join(dir, 'nope')}: no such file or directory\n`);
    const none = await cli(dir, []);
    assert.equal(none.code, 2);
    assert.match(none.err, /^kube-netlint: no paths given/);
    const fmt = await cli(dir, ['--format', 'xml', '.']);
    assert.equal(fmt.code, 2);
    assert.match(fmt.err, /^kube-netlint: --format must be text, json or sarif \(got "xml"\)/);
    write('bad.yaml', 'kubeProxyMode: userspace\n');
    const conf = await cli(dir, ['--config', 'bad.yaml', '.']);
    assert.equal(conf.code, 2);
    assert.equal(conf.err, `kube-netlint: ${join(dir, 'bad.yaml')}:1: 'kubeProxyMode': must be one of iptables, ipvs, nftables (got "userspace")\n`);
  });

  it('exits 2 on a bad value in the .kube-netlint.yaml it finds, naming file, line and reason (the editor ignores only that value)', async () => {
    write('.kube-netlint.yaml', 'kubeProxyMode: IPVS\nrules:\n  nodeport-duplicate: warning\n');
    write('a.yaml', svc('a', 30080));
    const run = await cli(dir, ['a.yaml']);
    assert.deepEqual([run.code, run.out], [2, '']);
    assert.equal(run.err, `kube-netlint: ${join(dir, '.kube-netlint.yaml')}:1: 'kubeProxyMode': must be one of iptables, ipvs, nftables (got "IPVS")\n`);
  });

  it('honours exclude globs from the config and skips node_modules and .git', async () => {
    write('.kube-netlint.yaml', 'exclude: ["vendor/**", "**/*.generated.yaml"]\n');
    write('app/a.yaml', svc('a', 30080));
    write('vendor/chart/b.yaml', svc('b', 30080));
    write('app/c.generated.yaml', svc('c', 30080));
    write('node_modules/pkg/d.yaml', svc('d', 30080));
    write('.git/e.yaml', svc('e', 30080));
    write('app/readme.txt', 'not yaml');
    const r = await cli(dir, ['.']);
    assert.deepEqual([r.code, r.out], [0, '1 file checked: 0 errors, 0 warnings, 0 notes\n']);
    write('app/f.yml', svc('f', 30080));
    const r2 = await cli(dir, ['--format', 'json', '.']);
    assert.deepEqual(JSON.parse(r2.out).findings.map((f: { file: string }) => f.file), [join('app', 'a.yaml'), join('app', 'f.yml')]);
  });

  it("gives objects without a namespace the config's namespace", async () => {
    write('.kube-netlint.yaml', 'namespace: team-x\n');
    write('a.yaml', svc('a', 80).replace('  namespace: default\n', ''));
    const [f] = JSON.parse((await cli(dir, ['--format', 'json', 'a.yaml'])).out).findings;
    assert.deepEqual(f.object, { kind: 'Service', namespace: 'team-x', name: 'a' });
  });

  it('--node-port-range overrides the config and the default', async () => {
    write('a.yaml', svc('a', 30080));
    const r = await cli(dir, ['--node-port-range', '20000-22767', '--format', 'json', 'a.yaml']);
    const [f] = JSON.parse(r.out).findings;
    assert.equal(f.ruleId, 'nodeport-out-of-range');
    assert.match(f.message, /outside the NodePort range 20000-22767 \(from the --node-port-range flag\)/);
  });

  it('bin/kube-netlint.js runs as a process with the exit code and output of the CLI', function () {
    const bin = join(ROOT, 'bin', 'kube-netlint.js');
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) assert.fail('dist/cli.js missing: run npm run build first');
    this.timeout(20000);
    write('a.yaml', svc('a', 30080) + '---\n' + svc('b', 30080));
    const p = spawnSync(process.execPath, [bin, 'a.yaml'], { cwd: dir, encoding: 'utf8' });
    assert.equal(p.status, 1, p.stderr);
    assert.match(p.stdout, /^a\.yaml:10:40: error nodeport-duplicate: /);
    assert.match(p.stdout, /1 file checked: 2 errors, 0 warnings, 0 notes\n$/);
    const missing = spawnSync(process.execPath, [bin, 'nope.yaml'], { cwd: dir, encoding: 'utf8' });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nope\.yaml: no such file or directory/);
    // A collection key is a finding on stdout; the yaml library's own warning about it never reaches stderr.
    write('k.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: c}\nspec:\n  ports:\n  - {port: 81, [nodePort]: 30081}\n');
    const key = spawnSync(process.execPath, [bin, 'k.yaml'], { cwd: dir, encoding: 'utf8' });
    assert.deepEqual([key.status, key.stderr], [1, '']);
    assert.match(key.stdout, /^k\.yaml:6:16: error yaml-syntax: this mapping key is a list/);
  });

  it('bin/kube-netlint.js --version prints the package version without loading the bundle, as the bundle does', function () {
    this.timeout(20000);
    const bin = join(ROOT, 'bin', 'kube-netlint.js');
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const fast = spawnSync(process.execPath, ['--require', join(ROOT, 'test-out', 'helpers', 'forbid-bundle.js'), bin, '--version'], { cwd: dir, encoding: 'utf8' });
    assert.equal(fast.status, 0, fast.stderr);
    assert.equal(fast.stdout, `${version}\n`);
    // The bundle's own answer (what `node dist/cli.js --version` and a bin/ without a package.json beside it give).
    const bundled = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--version'], { cwd: dir, encoding: 'utf8' });
    assert.equal(bundled.stdout, fast.stdout);
    // Any other command line is the bundle's to parse (`-v`, `--version` beside a path).
    for (const args of [['-v'], ['--version', 'a.yaml']]) {
      const other = spawnSync(process.execPath, ['--require', join(ROOT, 'test-out', 'helpers', 'forbid-bundle.js'), bin, ...args], { cwd: dir, encoding: 'utf8' });
      assert.equal(other.status, 86, `${args.join(' ')}: ${other.stderr}`);
    }
  });
});
