import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Log } from 'sarif';
import { LINT_FLAGS } from '../../server/out/cli/options';
import { runCli } from '../../server/out/cli/run';
import { allRules } from '../../server/out/core/rules/index';

// One file with one finding of each severity class: an error (nodePort 5678 out of range), a warning
// (hostport-replicas) and a note (hostport-usage).
const MIXED = `apiVersion: apps/v1
kind: Deployment
metadata: {name: agent}
spec:
  replicas: 2
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers:
        - name: agent
          image: agent:1.0
          ports:
            - {containerPort: 8080, hostPort: 8080}
---
apiVersion: v1
kind: Service
metadata: {name: bad}
spec:
  type: NodePort
  ports: [{port: 80, nodePort: 5678}]
`;
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;
const ROOT = join(__dirname, '..', '..');
const ANSI = /\u001b\[\d+m/;

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('CLI flags', () => {
  let dir: string;
  const write = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const cli = async (argv: string[], extra: { cwd?: string; stdin?: string; env?: Record<string, string>; tty?: boolean } = {}): Promise<Run> => {
    let out = '';
    let err = '';
    const code = await runCli(argv, {
      cwd: extra.cwd ?? dir,
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      readStdin: () => extra.stdin ?? '',
      env: extra.env ?? {},
      stdoutIsTTY: extra.tty ?? false,
    });
    return { code, out, err };
  };
  const rulesOf = (r: Run): string[] => (JSON.parse(r.out) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-flags-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists every flag, with its short name, and the rules command', async () => {
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    for (const f of LINT_FLAGS) {
      const head = f.short ? `-${f.short}, --${f.name}` : `    --${f.name}`;
      assert.ok(r.out.includes(`  ${head}${f.value ? ' ' : ''}`), `--help lacks ${head}`);
    }
    assert.match(r.out, /^ {2}-f, --format text\|json\|sarif +output format/m);
    assert.match(r.out, /^ {2}-q, --quiet +report errors only$/m);
    assert.match(r.out, /^ {6}--rule ID=SEVERITY \.\.\. +set a rule/m);
    assert.match(r.out, /^Commands:\n {2}rules +list every rule/m);
    assert.equal((await cli(['-h'])).out, r.out);
  });

  it('names an unknown option, long or short, with exit 2', async () => {
    for (const [argv, word] of <[string[], string][]>[[['--bogus', '.'], '--bogus'], [['--bogus=1', '.'], '--bogus'], [['-x', '.'], '-x'], [['-qx', '.'], '-qx'], [['rules', '--nope'], '--nope']]) {
      const r = await cli(argv);
      assert.equal(r.code, 2);
      const command = argv[0] === 'rules' ? 'kube-netlint rules' : 'kube-netlint';
      assert.equal(r.err, `${command}: unknown option "${word}" (a path that starts with - goes after --)\nRun "${command} --help" for the options.\n`);
    }
  });

  it('takes a negative number as the value of --max-warnings, spelled apart or with =', async () => {
    write('m.yaml', MIXED);
    const apart = await cli(['--max-warnings', '-1', 'm.yaml']);
    const joined = await cli(['--max-warnings=-1', 'm.yaml']);
    assert.equal(apart.err, '');
    assert.equal(apart.code, joined.code);
    assert.equal(apart.out, joined.out);
  });

  it('says on stderr when the workspace is linted as separate clusters, and how to join them', async () => {
    for (const app of ['frontend', 'backend']) {
      write(`apps/${app}/base/kustomization.yaml`, 'resources: [svc.yaml]\n');
      write(`apps/${app}/base/svc.yaml`, svc(app, 31500));
      write(`apps/${app}/overlays/prod/kustomization.yaml`, 'namespace: prod\nresources: [../../base]\n');
    }
    const r = await cli(['--no-render', 'apps']);
    assert.equal(r.code, 0);
    assert.equal(r.err, 'kube-netlint: linted as 2 separate clusters (backend/overlays/prod and frontend/overlays/prod): objects of different clusters are never compared; to lint some together, list them under clusters: in .kube-netlint.yaml\n');
    assert.equal((await cli(['--no-render', '-f', 'json', 'apps'])).err, '', 'machine formats stay quiet');
    write('one.yaml', svc('one', 30080));
    assert.equal((await cli(['one.yaml'])).err, '', 'one cluster: no note');
  });

  it('prints a grammatical summary: 1 error, 1 warning, 1 note', async () => {
    write('m.yaml', MIXED);
    const r = await cli(['m.yaml']);
    assert.equal(r.code, 1);
    assert.equal(r.out.trimEnd().split('\n').pop(), '1 file checked: 1 error, 1 warning, 1 note');
    write('n.yaml', svc('ok', 30080));
    assert.equal((await cli(['n.yaml', 'm.yaml'])).out.trimEnd().split('\n').pop(), '2 files checked: 1 error, 1 warning, 1 note');
  });

  describe('kube-netlint rules', () => {
    // Every rule's page is the one shipped in the package: a path or file: URI that exists, never a web address.
    it('lists every rule with its default severity, title and the path of its page, which exists (text)', async () => {
      const r = await cli(['rules']);
      assert.deepEqual([r.code, r.err], [0, '']);
      const lines = r.out.trimEnd().split('\n');
      assert.equal(lines.length, allRules.length * 2);
      const i = lines.findIndex((l) => l.startsWith('nodeport-duplicate '));
      assert.match(lines[i], /^nodeport-duplicate +error +nodePort claimed twice$/);
      assert.equal(lines[i + 1].trim(), join(ROOT, 'docs', 'rules', 'nodeport-duplicate.md'));
      for (let j = 0; j < lines.length; j += 2) {
        const id = lines[j].split(' ')[0];
        assert.match(readFileSync(lines[j + 1].trim(), 'utf8'), new RegExp(`^# ${id}$`, 'm'), `the page of ${id}`);
      }
      assert.doesNotMatch(r.out, /https?:/);
    });

    it('--format json: id, severity, title, and the page shipped in the package as a path and a file: URI', async () => {
      const r = await cli(['rules', '--format', 'json']);
      const { version, rules } = JSON.parse(r.out) as { version: number; rules: { id: string; severity: string; title: string; docsUrl: string; docsFile: string | null }[] };
      assert.equal(version, 1);
      assert.deepEqual(rules.map((x) => x.id), allRules.map((x) => x.id));
      const dup = rules.find((x) => x.id === 'nodeport-duplicate')!;
      assert.deepEqual([dup.severity, dup.title], ['error', 'nodePort claimed twice']);
      assert.equal(dup.docsFile, join(ROOT, 'docs', 'rules', 'nodeport-duplicate.md'));
      for (const rule of rules) {
        assert.equal(rule.docsUrl, pathToFileURL(rule.docsFile!).href);
        assert.match(readFileSync(fileURLToPath(rule.docsUrl), 'utf8'), new RegExp(`^# ${rule.id}$`, 'm'));
      }
    });

    it('--format markdown: a table linking every rule to its page (file: URIs that exist)', async () => {
      const r = await cli(['rules', '-f', 'markdown']);
      const lines = r.out.trimEnd().split('\n');
      assert.deepEqual(lines.slice(0, 2), ['| Rule | Default severity | Title |', '| --- | --- | --- |']);
      assert.equal(lines.length, allRules.length + 2);
      const page = pathToFileURL(join(ROOT, 'docs', 'rules', 'nodeport-duplicate.md')).href;
      assert.ok(lines.includes(`| [nodeport-duplicate](${page}) | error | nodePort claimed twice |`), r.out);
      const links = [...r.out.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
      assert.equal(links.length, allRules.length);
      for (const link of links) assert.ok(existsSync(fileURLToPath(link)), link);
    });

    it('rejects a bad format or an argument with exit 2, and has its own --help', async () => {
      const bad = await cli(['rules', '--format', 'xml']);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /^kube-netlint rules: --format must be text, json or markdown \(got "xml"\)\nRun "kube-netlint rules --help" for the options.\n$/);
      assert.equal((await cli(['rules', 'extra'])).code, 2);
      assert.match((await cli(['rules', '--help'])).out, /^Usage: kube-netlint rules \[options\]\n[\s\S]*-f, --format text\|json\|markdown/);
    });

    it('a folder named like a command is linted as ./NAME', async () => {
      write('rules/a.yaml', svc('a', 5678));
      const r = await cli(['./rules']);
      assert.equal(r.code, 1);
      assert.match(r.out, /nodeport-out-of-range/);
    });
  });

  describe('--rule ID=SEVERITY', () => {
    it('turns a rule off or changes its severity, winning over the config; the last one of an id wins', async () => {
      write('m.yaml', MIXED);
      write('.kube-netlint.yaml', 'rules: {hostport-usage: off, nodeport-out-of-range: error}\n');
      assert.deepEqual(rulesOf(await cli(['-f', 'json', 'm.yaml'])), ['hostport-replicas', 'nodeport-out-of-range']);
      const r = await cli(['-f', 'json', '--rule', 'hostport-usage=warning', '--rule', 'nodeport-out-of-range=off', 'm.yaml']);
      assert.equal(r.code, 0);
      const findings = (JSON.parse(r.out) as { findings: { ruleId: string; severity: string }[] }).findings;
      assert.deepEqual(findings.map((f) => [f.ruleId, f.severity]), [['hostport-replicas', 'warning'], ['hostport-usage', 'warning']]);
      const last = await cli(['-f', 'json', '--rule', 'hostport-replicas=off', '--rule', 'hostport-replicas=info', 'm.yaml']);
      assert.deepEqual((JSON.parse(last.out) as { findings: { ruleId: string; severity: string }[] }).findings.map((f) => [f.ruleId, f.severity]), [['hostport-replicas', 'info'], ['nodeport-out-of-range', 'error']]);
      assert.equal((await cli(['--rule', 'hostport-replicas=error', 'm.yaml'])).out.trimEnd().split('\n').pop(), '1 file checked: 2 errors, 0 warnings, 0 notes');
    });

    it('rejects unknown ids, bad severities and a missing = with exit 2', async () => {
      write('m.yaml', MIXED);
      const unknown = await cli(['--rule', 'no-such-rule=off', 'm.yaml']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.err, /^kube-netlint: --rule: unknown rule id "no-such-rule" \(`kube-netlint rules` lists them\)/);
      assert.match((await cli(['--rule', 'hostport-usage=loud', 'm.yaml'])).err, /^kube-netlint: --rule hostport-usage: severity must be off, error, warning, info or hint \(got "loud"\)/);
      assert.match((await cli(['--rule', 'hostport-usage', 'm.yaml'])).err, /^kube-netlint: --rule takes ID=SEVERITY/);
    });
  });

  it('--quiet reports errors only (all formats); the summary still counts what it hid, marked, so it agrees with --max-warnings', async () => {
    write('m.yaml', MIXED);
    const text = await cli(['--quiet', 'm.yaml']);
    assert.equal(text.code, 1);
    const lines = text.out.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^m\.yaml:21:32: error nodeport-out-of-range: /);
    assert.equal(lines[1], '1 file checked: 1 error, 1 warning, 1 note (only errors shown: --quiet)');
    assert.deepEqual(rulesOf(await cli(['-q', '-f', 'json', 'm.yaml'])), ['nodeport-out-of-range']);
    const sarif = JSON.parse((await cli(['-q', '-f', 'sarif', 'm.yaml'])).out) as Log;
    assert.deepEqual(sarif.runs[0].results!.map((r) => r.ruleId), ['nodeport-out-of-range']);
  });

  it('--max-warnings N fails the run with more than N warnings, counted even under --quiet', async () => {
    write('m.yaml', MIXED);
    const off = ['--rule', 'nodeport-out-of-range=off'];
    assert.equal((await cli([...off, 'm.yaml'])).code, 0);
    assert.equal((await cli([...off, '--max-warnings', '1', 'm.yaml'])).code, 0);
    const over = await cli([...off, '--max-warnings', '0', 'm.yaml']);
    assert.equal(over.code, 1);
    assert.equal(over.err, 'kube-netlint: 1 warning found, more than --max-warnings 0\n');
    assert.equal((await cli([...off, '-q', '--max-warnings', '0', 'm.yaml'])).code, 1);
    assert.equal((await cli([...off, '--max-warnings=-1', 'm.yaml'])).code, 0);
    const bad = await cli(['--max-warnings', 'many', 'm.yaml']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^kube-netlint: --max-warnings must be a whole number of warnings, -1 for no limit \(got "many"\)/);
  });

  describe('--exclude GLOB', () => {
    it('skips matching files, is repeatable and adds to the config exclude list', async () => {
      write('.kube-netlint.yaml', 'exclude: ["vendor/**"]\n');
      write('app/a.yaml', svc('a', 5678));
      write('app/b.gen.yaml', svc('b', 5679));
      write('vendor/c.yaml', svc('c', 5680));
      write('tmp/d.yaml', svc('d', 5681));
      const files = async (argv: string[], cwd = dir): Promise<string[]> =>
        (JSON.parse((await cli(['-f', 'json', ...argv], { cwd })).out) as { findings: { file: string }[] }).findings.map((f) => f.file);
      assert.deepEqual(await files(['.']), ['app/a.yaml', 'app/b.gen.yaml', 'tmp/d.yaml']);
      assert.deepEqual(await files(['--exclude', '**/*.gen.yaml', '--exclude', 'tmp/**', '.']), ['app/a.yaml']);
    });

    it('takes globs relative to the working directory, also below the config folder', async () => {
      write('.kube-netlint.yaml', 'namespace: x\n');
      write('apps/web/a.yaml', svc('a', 5678));
      write('apps/tmp/b.yaml', svc('b', 5679));
      write('tmp/c.yaml', svc('c', 5680));
      const r = await cli(['-f', 'json', '--exclude', 'tmp/**', '.', '../tmp'], { cwd: join(dir, 'apps') });
      const files = (JSON.parse(r.out) as { findings: { file: string }[] }).findings.map((f) => f.file);
      assert.deepEqual(files, [join(dir, 'tmp', 'c.yaml'), 'web/a.yaml']);
    });

    it('takes globs relative to the working directory when the config sits in a folder below it', async () => {
      write('deploy/.kube-netlint.yaml', 'namespace: x\n');
      write('deploy/app.yaml', svc('a', 5678));
      write('deploy/hn/b.yaml', svc('b', 5679));
      const files = async (...globs: string[]): Promise<string[]> => {
        const r = await cli(['-f', 'json', ...globs.flatMap((g) => ['--exclude', g]), 'deploy']);
        return (JSON.parse(r.out) as { findings: { file: string }[] }).findings.map((f) => f.file);
      };
      assert.deepEqual(await files(), ['deploy/app.yaml', 'deploy/hn/b.yaml']);
      assert.deepEqual(await files('**/app.yaml'), ['deploy/hn/b.yaml']);
      assert.deepEqual(await files('deploy/app.yaml'), ['deploy/hn/b.yaml']);
      assert.deepEqual(await files('deploy/hn/**'), ['deploy/app.yaml']);
      assert.deepEqual(await files(join(dir, 'deploy', 'hn', 'b.yaml')), ['deploy/app.yaml']);
      const all = await cli(['--exclude', 'deploy/**', 'deploy']);
      assert.equal(all.code, 2);
      assert.match(all.err, /deploy: no manifests found \(the one YAML file below it is excluded by --exclude or exclude: in the config\)/);
    });

    it('reads the config exclude in order: a later !glob re-includes, an absolute glob matches the absolute path, --exclude comes last', async () => {
      write('base/app.yaml', svc('a', 5678));
      write('base/hn.yaml', svc('b', 5679));
      write('vendor/keep.yaml', svc('c', 5680));
      const files = async (config: string, ...argv: string[]): Promise<string[]> => {
        write('.kube-netlint.yaml', config);
        const r = await cli(['-f', 'json', ...argv, '.']);
        return (JSON.parse(r.out) as { findings: { file: string }[] }).findings.map((f) => f.file);
      };
      assert.deepEqual(await files('exclude: ["base/*.yaml", "!base/app.yaml"]\n'), ['base/app.yaml', 'vendor/keep.yaml']);
      assert.deepEqual(await files(`exclude: [${JSON.stringify(join(dir, 'base', 'app.yaml'))}]\n`), ['base/hn.yaml', 'vendor/keep.yaml']);
      // As in git: a file inside a folder excluded whole is not re-included (the folder is not walked).
      assert.deepEqual(await files('exclude: ["vendor/**", "!vendor/keep.yaml"]\n'), ['base/app.yaml', 'base/hn.yaml']);
      assert.deepEqual(await files('exclude: ["base/**"]\n', '--exclude', '!base/hn.yaml'), ['vendor/keep.yaml']);
      assert.deepEqual(await files('exclude: ["base/*.yaml"]\n', '--exclude', '!base/hn.yaml'), ['base/hn.yaml', 'vendor/keep.yaml']);
    });
  });

  it('lists every problem of the config file on stderr, one line each in line order, and exits 2 (lint and ports)', async () => {
    write('m.yaml', MIXED);
    write('.kube-netlint.yaml', 'rules:\n  no-such-rule: off\nkubeProxyMode: IPVS\nfoo: 1\n');
    for (const [argv, prefix] of [[['m.yaml'], 'kube-netlint'], [['ports', 'm.yaml'], 'kube-netlint ports']] as const) {
      const r = await cli([...argv]);
      assert.equal(r.code, 2);
      assert.deepEqual(r.err.split('\n').map((l) => /^(.*?): .*\.kube-netlint\.yaml:(\d+): '([^']+)'/.exec(l)?.slice(1)).filter(Boolean),
        [[prefix, '2', 'rules.no-such-rule'], [prefix, '3', 'kubeProxyMode'], [prefix, '4', 'foo']]);
    }
  });

  describe('--output FILE', () => {
    it('writes the report to the file (creating its folder), nothing to stdout, same exit code', async () => {
      write('m.yaml', MIXED);
      const r = await cli(['-f', 'sarif', '--output', 'out/report.sarif', 'm.yaml']);
      assert.deepEqual([r.code, r.out, r.err], [1, '', '']);
      const log = JSON.parse(readFileSync(join(dir, 'out', 'report.sarif'), 'utf8')) as Log;
      assert.equal(log.runs[0].results!.length, 3);
      await cli(['-o', 'report.txt', 'm.yaml']);
      assert.match(readFileSync(join(dir, 'report.txt'), 'utf8'), /\n1 file checked: 1 error, 1 warning, 1 note\n$/);
    });

    it('exits 2 when the file cannot be written', async () => {
      write('m.yaml', MIXED);
      write('blocker', 'a file, not a folder');
      const r = await cli(['-o', 'blocker/report.txt', 'm.yaml']);
      assert.equal(r.code, 2);
      assert.match(r.err, /^kube-netlint: .*blocker\/report\.txt: cannot write the report \(E[A-Z]+\)\n$/);
    });

    it('refuses (exit 2, nothing written) a file the run lints, also through a symlink or the ports command', async () => {
      write('m.yaml', MIXED);
      write('sub/n.yaml', svc('n', 5678));
      symlinkSync(join(dir, 'm.yaml'), join(dir, 'link.txt'));
      for (const argv of [['-o', 'm.yaml', '.'], ['-f', 'json', '--output', join(dir, 'sub', 'n.yaml'), '.'], ['-o', 'link.txt', 'm.yaml'], ['ports', '-o', 'sub/../m.yaml', '.']]) {
        const r = await cli(argv);
        assert.equal(r.code, 2, argv.join(' '));
        assert.match(r.err, /: --output names a file this run lints; the report would overwrite it: choose another file\n$/, argv.join(' '));
      }
      assert.equal(readFileSync(join(dir, 'm.yaml'), 'utf8'), MIXED);
      assert.equal(readFileSync(join(dir, 'sub', 'n.yaml'), 'utf8'), svc('n', 5678));
      // A file of the tree that this run does not lint may be the report.
      assert.equal((await cli(['-o', 'sub/n.yaml', 'm.yaml'])).code, 1);
      assert.match(readFileSync(join(dir, 'sub', 'n.yaml'), 'utf8'), /^m\.yaml:\d+:\d+: /);
    });

    it('fails (exit 2) instead of hanging when a parent folder cannot be made (procfs: mkdir -p of Node 20 loops there)', async function () {
      if (process.platform !== 'linux' || !existsSync('/proc/self')) this.skip();
      write('m.yaml', MIXED);
      const r = await cli(['-o', '/proc/kube-netlint-none/x/report.txt', 'm.yaml']);
      assert.equal(r.code, 2);
      assert.match(r.err, /^kube-netlint: \/proc\/kube-netlint-none\/x\/report\.txt: cannot write the report \(ENOENT\)\n$/);
    });
  });

  it('standard input with no YAML document is "no manifests found" (exit 2), as a path is: a failed `helm template | kube-netlint -` must not pass', async () => {
    for (const stdin of ['', '\n# only a comment\n', '---\n---\n', 'null\n']) {
      const r = await cli(['-'], { stdin });
      assert.deepEqual([r.code, r.out], [2, ''], JSON.stringify(stdin));
      assert.equal(r.err, `kube-netlint: standard input: no manifests found (${stdin ? 'it holds only comments or empty documents' : 'it is empty'})\n`);
    }
    // A document that is not a Kubernetes object is read as from a file (no finding); an empty editor buffer is clean.
    assert.deepEqual(await cli(['-'], { stdin: 'services:\n  web: {}\n' }), { code: 0, out: '1 file checked: 0 errors, 0 warnings, 0 notes\n', err: '' });
    assert.equal((await cli(['--stdin-filename', 'x.yaml', '-'], { stdin: '' })).code, 0);
  });

  describe('--stdin-filename NAME', () => {
    it('names the file of findings read from -, in text, JSON and SARIF', async () => {
      const stdin = MIXED;
      const text = await cli(['--stdin-filename', 'deploy/m.yaml', '-'], { stdin });
      assert.match(text.out, /^deploy\/m\.yaml:14:47: warning hostport-replicas: /);
      const json = JSON.parse((await cli(['-f', 'json', '--stdin-filename', 'deploy/m.yaml', '-'], { stdin })).out) as { findings: { file: string }[] };
      assert.deepEqual([...new Set(json.findings.map((f) => f.file))], ['deploy/m.yaml']);
      const sarif = JSON.parse((await cli(['-f', 'sarif', '--stdin-filename', 'deploy/m.yaml', '-'], { stdin })).out) as Log;
      assert.deepEqual(sarif.runs[0].results![0].locations![0].physicalLocation!.artifactLocation, { uri: 'deploy/m.yaml', uriBaseId: '%SRCROOT%' });
    });

    it("finds the config from the named file's folder and stands for that file among the linted ones", async () => {
      write('team/.kube-netlint.yaml', 'rules: {nodeport-duplicate: warning}\n');
      write('team/a.yaml', svc('a', 30080));
      write('team/b.yaml', svc('b', 30099)); // on disk; standard input replaces it
      const r = await cli(['-f', 'json', '--stdin-filename', 'team/b.yaml', '-', 'team'], { stdin: svc('b', 30080) });
      const findings = (JSON.parse(r.out) as { findings: { ruleId: string; severity: string; file: string }[] }).findings;
      assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.file]), [
        ['nodeport-duplicate', 'warning', 'team/a.yaml'],
        ['nodeport-duplicate', 'warning', 'team/b.yaml'],
      ]);
    });

    it('judges standard input named as a resource of a kustomization as the named file is, also with --no-render', async () => {
      // Without a selector an apps/v1 Deployment is refused, unless kustomize builds it (its labels transformer may add one).
      const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n';
      write('base/kustomization.yaml', 'resources: [deploy.yaml]\ncommonLabels: {app: web}\n');
      write('base/deploy.yaml', deployment);
      const rows = async (argv: string[]): Promise<unknown[]> => (JSON.parse((await cli(['-f', 'json', '--no-render', ...argv], { stdin: deployment })).out) as { findings: { ruleId: string; file: string; line: number }[] }).findings.map((f) => [f.ruleId, f.file, f.line]);
      assert.deepEqual(await rows(['base/deploy.yaml']), []);
      assert.deepEqual(await rows(['--stdin-filename', 'base/deploy.yaml', '-']), []);
      assert.deepEqual(await rows(['--stdin-filename', 'elsewhere/deploy.yaml', '-']), [['pod-spec-invalid', 'elsewhere/deploy.yaml', 3]]);
    });

    it('needs - among the paths', async () => {
      write('a.yaml', svc('a', 30080));
      const r = await cli(['--stdin-filename', 'x.yaml', 'a.yaml']);
      assert.equal(r.code, 2);
      assert.match(r.err, /^kube-netlint: --stdin-filename names the manifests read from standard input: add - to the paths/);
    });
  });

  describe('--color', () => {
    beforeEach(() => write('m.yaml', MIXED));
    const coloured = async (argv: string[], env: Record<string, string> = {}, tty = false): Promise<boolean> => ANSI.test((await cli([...argv, 'm.yaml'], { env, tty })).out);

    it('auto: colour on a terminal only; NO_COLOR turns it off, FORCE_COLOR on or off', async () => {
      assert.equal(await coloured([]), false);
      assert.equal(await coloured([], {}, true), true);
      assert.equal(await coloured([], { TERM: 'dumb' }, true), false);
      assert.equal(await coloured([], { NO_COLOR: '1' }, true), false);
      assert.equal(await coloured([], { NO_COLOR: '' }, true), true, 'an empty NO_COLOR does not count (no-color.org)');
      assert.equal(await coloured([], { FORCE_COLOR: '1' }), true);
      assert.equal(await coloured([], { FORCE_COLOR: '0' }, true), false);
    });

    it('always / never win over the environment; an --output file gets no colour under auto', async () => {
      assert.equal(await coloured(['--color', 'always'], { NO_COLOR: '1' }), true);
      assert.equal(await coloured(['--color=never'], { FORCE_COLOR: '1' }, true), false);
      await cli(['-o', 'r.txt', 'm.yaml'], { tty: true });
      assert.doesNotMatch(readFileSync(join(dir, 'r.txt'), 'utf8'), ANSI);
      const bad = await cli(['--color', 'sometimes', 'm.yaml']);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /^kube-netlint: --color must be auto, always or never \(got "sometimes"\)/);
    });

    it('takes --color and --no-color as eslint and chalk do: bare --color is always, the last flag wins', async () => {
      assert.equal(await coloured(['--color'], { NO_COLOR: '1' }), true);
      assert.equal(await coloured(['--no-color'], { FORCE_COLOR: '1' }, true), false);
      assert.equal(await coloured(['--no-color', '--color']), true);
      assert.equal(await coloured(['--color', '--no-color'], {}, true), false);
      assert.equal(await coloured(['--color', 'never'], {}, true), false, 'a mode after a bare --color is its value');
      // A path after a bare --color is a path: m.yaml is linted, in colour.
      const r = await cli(['--color', 'm.yaml']);
      assert.equal(r.code, 1);
      assert.match(r.out, /^\u001b\[1mm\.yaml:/);
      const help = (await cli(['--help'])).out;
      assert.match(help, /^ {6}--color \[auto\|always\|never\] +colour the text report \(bare --color: always;/m);
      assert.match(help, /^ {6}--no-color +no colour \(the same as --color never\)$/m);
    });

    it('colours the severity and keeps the text otherwise identical', async () => {
      const plain = (await cli(['m.yaml'])).out;
      const colour = (await cli(['--color', 'always', 'm.yaml'])).out;
      // eslint-disable-next-line no-control-regex
      assert.equal(colour.replace(/\u001b\[\d+m/g, ''), plain);
      assert.match(colour, /\u001b\[31merror\u001b\[39m/);
      assert.match(colour, /\u001b\[33mwarning\u001b\[39m/);
    });
  });
});
