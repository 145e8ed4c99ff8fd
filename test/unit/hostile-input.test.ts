import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../../server/out/cli/run';
import { allRules } from '../../server/out/core/rules/index';
import { discoverFiles } from '../../server/out/node/discover-files';
import { readManifestFile } from '../../server/out/node/read-file';

const ROOT = join(__dirname, '..', '..');
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;

async function cli(cwd: string, argv: string[], stdin: string | Uint8Array = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { cwd, stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => stdin });
  return { code, out, err };
}

describe('hostile input: reads, paths and discovery', () => {
  let dir: string;
  const write = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const mkfifo = (rel: string): void => void execFileSync('mkfifo', [join(dir, rel)]);
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'knl-hostile-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a device or a FIFO named as a path with exit 2 and a message, instead of reading forever', async () => {
    mkfifo('pipe.yaml');
    const zero = await cli(dir, ['/dev/zero']);
    assert.deepEqual([zero.code, zero.err], [2, 'kube-netlint: /dev/zero: is a character device, not a regular file or folder: only regular files are read (pipe a stream in with -)\n']);
    const fifo = await cli(dir, ['pipe.yaml']);
    assert.equal(fifo.code, 2);
    assert.match(fifo.err, /pipe\.yaml: is a FIFO \(named pipe\), not a regular file or folder/);
  });

  it('reports a FIFO found in a folder as a file-skipped error and lints the rest; a FIFO config is a config error', async () => {
    write('a.yaml', svc('a', 30080));
    mkfifo('b.yaml');
    const r = await cli(dir, ['.']);
    assert.equal(r.code, 1);
    assert.match(r.out, /^b\.yaml:1:1: error file-skipped: not analysed: the path is a FIFO \(named pipe\), not a regular file; only regular files are read/m);
    mkfifo('.kube-netlint.yaml');
    const c = await cli(dir, ['a.yaml']);
    assert.equal(c.code, 2);
    assert.match(c.err, /\.kube-netlint\.yaml: cannot read the config file: it is a FIFO \(named pipe\), not a regular file\n$/);
  });

  it('skips files above the 16 MiB default (and --max-file-size) with a finding; 0 means no limit', async () => {
    write('big.yaml', `# ${'x'.repeat(17 * 1024 * 1024)}\n`);
    write('small.yaml', svc('s', 30080));
    const r = await cli(dir, ['.']);
    assert.match(r.out, /^big\.yaml:1:1: info file-skipped: not analysed: the file is 17\.0 MiB, above the limit of 16\.0 MiB$/m);
    const one = await cli(dir, ['--max-file-size', '0.00001', 'small.yaml']);
    assert.match(one.out, /^small\.yaml:1:1: info file-skipped: not analysed: the file is 111 bytes, above the limit of 10 bytes$/m);
    // Read whole with no limit: it holds only a comment, so it is no manifest (a skipped file would be a finding).
    const none = await cli(dir, ['--max-file-size', '0', 'big.yaml']);
    assert.deepEqual([none.code, none.err], [2, 'kube-netlint: no manifests found: big.yaml is empty or holds only comments\n']);
  });

  it('stops reading an endless standard input at the limit (kube-netlint - < /dev/zero)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/kube-netlint.js'), '--max-file-size', '1', '-'], { input: Buffer.alloc(3 * 1024 * 1024, 0x20), encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^<stdin>:1:1: info file-skipped: not analysed: standard input is larger than the limit of 1\.0 MiB \(--max-file-size\)$/m);
    const zero = spawnSync('bash', ['-c', `timeout 20 "${process.execPath}" "${join(ROOT, 'bin/kube-netlint.js')}" --max-file-size 2 - < /dev/zero`], { encoding: 'utf8' });
    assert.equal(zero.status, 0, zero.stderr);
    assert.match(zero.stdout, /standard input is larger than the limit of 2\.0 MiB/);
  });

  it('gives a dangling symlink an info finding, follows a symlinked folder once and survives a link loop', async () => {
    write('real/a.yaml', svc('a', 30080));
    symlinkSync('real', join(dir, 'alias'));
    symlinkSync('..', join(dir, 'real', 'up'));
    symlinkSync('missing.yaml', join(dir, 'gone.yaml'));
    symlinkSync('self.yaml', join(dir, 'self.yaml'));
    const files = discoverFiles([dir], []).map((f) => f.slice(dir.length + 1));
    assert.deepEqual(files, ['gone.yaml', 'real/a.yaml', 'self.yaml'], 'the folder under its own name, once');
    const r = await cli(dir, ['.']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /^gone\.yaml:1:1: info file-skipped: not analysed: the file is a symbolic link to "missing\.yaml", which does not exist$/m);
    assert.match(r.out, /^self\.yaml:1:1: info file-skipped: not analysed: the file is a symbolic link to "self\.yaml", which loops back on itself$/m);
  });

  it('honours .gitignore (of the folder and its git ancestors) but reads an ignored file named on the command line', async () => {
    mkdirSync(join(dir, '.git'));
    write('.gitignore', 'build/\n*.generated.yaml\n');
    write('app/.gitignore', 'local.yaml\n');
    write('app/a.yaml', svc('a', 30080));
    write('app/local.yaml', svc('l', 30080));
    write('app/x.generated.yaml', svc('g', 30080));
    write('build/b.yaml', svc('b', 30080));
    const rel = (fs: string[]) => fs.map((f) => f.slice(dir.length + 1));
    assert.deepEqual(rel(discoverFiles([join(dir, 'app')], [])), ['app/a.yaml']);
    assert.deepEqual(rel(discoverFiles([dir], [])), ['app/a.yaml']);
    assert.deepEqual(rel(discoverFiles([dir], [], { gitignore: false })), ['app/a.yaml', 'app/local.yaml', 'app/x.generated.yaml', 'build/b.yaml']);
    assert.deepEqual(rel(discoverFiles([join(dir, 'build/b.yaml')], [])), ['build/b.yaml']);
    // A folder named on the command line (or opened in the editor) that git ignores is read, minus its own .gitignore.
    write('build/.gitignore', 'tmp.yaml\n');
    write('build/tmp.yaml', svc('t', 30080));
    assert.deepEqual(rel(discoverFiles([join(dir, 'build')], [])), ['build/b.yaml']);
  });

  it('expands a quoted glob given as a path, and says "no manifests found" (exit 2) for a path that yields none', async () => {
    write('envs/dev/a.yaml', svc('a', 30080));
    write('envs/prod/b.yaml', svc('b', 30080));
    write('envs/prod/notes.txt', 'x');
    const r = await cli(dir, ['envs/*/a.yaml', 'envs/prod/**/*.yaml']);
    assert.equal(r.code, 1);
    assert.match(r.out, /^2 files checked: 2 errors/m);
    mkdirSync(join(dir, 'empty'));
    const empty = await cli(dir, ['empty']);
    assert.deepEqual([empty.code, empty.out], [2, '']);
    assert.equal(empty.err, `kube-netlint: ${join(dir, 'empty')}: no manifests found (no *.yaml, *.yml or Kubernetes *.json file below it)\n`);
    const glob = await cli(dir, ['envs/**/*.yml']);
    assert.equal(glob.code, 2);
    assert.match(glob.err, /no manifests found \(no \*\.yaml, \*\.yml or Kubernetes \*\.json file matches this glob\)/);
  });

  it('exits 2 when a rule crashed, naming it, with the other rules\' findings still reported', async () => {
    write('a.yaml', svc('a', 30080));
    write('b.yaml', svc('b', 30080));
    const rule = allRules.find((r) => r.id === 'nodeport-out-of-range')!;
    const check = rule.check;
    (rule as { check: unknown }).check = () => {
      throw new TypeError('boom');
    };
    try {
      const r = await cli(dir, ['a.yaml', 'b.yaml']);
      assert.deepEqual([r.code, r.err], [2, 'kube-netlint: rule nodeport-out-of-range failed and was skipped: boom\n']);
      assert.match(r.out, /^2 files checked: 2 errors/m);
    } finally {
      (rule as { check: unknown }).check = check;
    }
    assert.equal((await cli(dir, ['a.yaml', 'b.yaml'])).code, 1);
  });

  it('lints the union of overlapping paths (a folder and a folder or glob inside it, in either order), each file once', async () => {
    write('deploy/a.yaml', svc('a', 30080));
    write('deploy/prod/b.yaml', svc('b', 30080));
    for (const paths of [['deploy', 'deploy/prod'], ['deploy/prod', 'deploy'], ['deploy', 'deploy/'], ['.', 'deploy'], ['deploy/prod/*.yaml', 'deploy']]) {
      const r = await cli(dir, paths);
      assert.deepEqual([r.code, r.err], [1, ''], paths.join(' '));
      assert.match(r.out, /^2 files checked: 2 errors/m, paths.join(' '));
    }
    // A path that holds nothing is still one, whatever came before it.
    mkdirSync(join(dir, 'deploy', 'empty'));
    const empty = await cli(dir, ['deploy', 'deploy/empty']);
    assert.deepEqual([empty.code, empty.err], [2, `kube-netlint: ${join(dir, 'deploy/empty')}: no manifests found (no *.yaml, *.yml or Kubernetes *.json file below it)\n`]);
  });

  it('"no manifests found" says when the YAML files were there but --exclude, exclude: or .gitignore left them all out', async () => {
    write('one/c.yaml', svc('c', 30080));
    const excluded = await cli(dir, ['--exclude', 'one/c.yaml', 'one']);
    assert.deepEqual([excluded.code, excluded.err], [2, `kube-netlint: ${join(dir, 'one')}: no manifests found (the one YAML file below it is excluded by --exclude or exclude: in the config)\n`]);
    mkdirSync(join(dir, 'repo', '.git'), { recursive: true });
    write('repo/.gitignore', 'gen/\n*.out.yaml\n');
    write('repo/a.out.yaml', svc('a', 30080));
    write('repo/b.out.yaml', svc('b', 30081));
    write('repo/c.yaml', svc('c', 30082));
    write('repo/gen/d.yaml', svc('d', 30083)); // a folder left out whole is not counted
    const ignored = await cli(dir, ['--exclude', 'repo/c.yaml', 'repo']);
    assert.equal(ignored.err, `kube-netlint: ${join(dir, 'repo')}: no manifests found (all 3 YAML files below it are left out: 1 by --exclude or exclude: in the config, 2 by .gitignore)\n`);
    const glob = await cli(dir, ['repo/*.out.yaml']);
    assert.equal(glob.err, `kube-netlint: ${join(dir, 'repo/*.out.yaml')}: no manifests found (all 2 YAML files matching this glob are ignored by .gitignore; name a file to read it anyway)\n`);
    assert.equal((await cli(dir, ['repo/a.out.yaml'])).code, 0, 'a file named is read although .gitignore ignores it');
  });

  it('"no manifests found" (exit 2) when every file named is empty or holds only comments; a document that is not a Kubernetes object is not that', async () => {
    write('e1/x.yaml', '');
    const one = await cli(dir, ['e1']);
    assert.deepEqual([one.code, one.out, one.err], [2, '', `kube-netlint: no manifests found: ${join('e1', 'x.yaml')} is empty or holds only comments\n`]);
    write('e2/a.yaml', '# only a comment\n');
    write('e2/b.yml', '---\n---\n');
    write('e2/c.yaml', '\uFEFF\n');
    const three = await cli(dir, ['e2']);
    assert.deepEqual([three.code, three.err], [2, 'kube-netlint: no manifests found: the 3 YAML files named are all empty or hold only comments\n']);
    write('e2/d.yaml', svc('d', 30080));
    assert.deepEqual([(await cli(dir, ['e2'])).code, (await cli(dir, ['e2'])).out], [0, '4 files checked: 0 errors, 0 warnings, 0 notes\n'], 'one file with an object: the empty ones are simply clean');
    write('e3/values.yaml', 'services:\n  web: {}\n');
    assert.deepEqual([(await cli(dir, ['e3'])).code, (await cli(dir, ['e3'])).out], [0, '1 file checked: 0 errors, 0 warnings, 0 notes\n'], 'a YAML document that is not a Kubernetes object is read as from standard input: no finding');
    write('e4/broken.yaml', 'a: [\n');
    assert.equal((await cli(dir, ['e4'])).code, 1, 'a syntax error is a finding, not an empty file');
  });

  it('escapes control and bidi characters of names, values and file names in text output, so no line can be forged', async () => {
    const evil = 'x\\r\\n1 file checked: 0 errors, 0 warnings, 0 notes\\e[2K\\u202e';
    write('a.yaml', `apiVersion: v1\nkind: Service\nmetadata: {name: "${evil}"}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]\n`);
    write('evil\n0 files checked.yaml', svc('b', 30080));
    write('c.yaml', svc('c', 30080));
    const r = await cli(dir, ['.']);
    assert.equal(r.code, 1);
    const lines = r.out.trimEnd().split('\n');
    assert.equal(lines.filter((l) => / checked: /.test(l) && !l.startsWith('    ') && !/: error /.test(l)).length, 1, 'one summary line');
    // The Service with that name is refused (object-invalid, quoting the name); b and c collide.
    assert.equal(lines[lines.length - 1], '3 files checked: 3 errors, 0 warnings, 0 notes');
    assert.ok(!/[\r\u001b\u202e]/.test(r.out));
    assert.ok(r.out.includes('a.yaml:3:18: error object-invalid: Service name "x\\r\\n1 file checked: …": '));
    assert.ok(r.out.includes('evil\\n0 files checked.yaml:6:'));
    const json = await cli(dir, ['--format', 'json', '.']);
    assert.ok(JSON.parse(json.out).findings.some((f: { message: string }) => f.message.includes('x\\r\\n1 file checked')), 'JSON keeps the value, escaped by JSON itself');
  });

  it('discovers .json files that hold Kubernetes objects, and no other JSON', async () => {
    write('k8s/svc.json', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'j' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] } }, null, 2));
    write('k8s/list.json', JSON.stringify({ apiVersion: 'v1', items: [JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'k' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] } }))], kind: 'List' }));
    write('k8s/package.json', '{"name": "not-a-manifest"}');
    write('k8s/tsconfig.json', '{"compilerOptions": {}}');
    const r = await cli(dir, ['k8s']);
    assert.equal(r.code, 1);
    assert.match(r.out, /^k8s\/list\.json:1:\d+: error nodeport-duplicate: nodePort 30080 is also claimed by Service default\/j/m);
    assert.match(r.out, /^2 files checked: 2 errors/m);
    assert.equal(readManifestFile(join(dir, 'k8s/svc.json'), 'svc.json').objects.length, 1);
  });
});
