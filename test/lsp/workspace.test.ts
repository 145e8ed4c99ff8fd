import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Diagnostic, DiagnosticSeverity, FileChangeType } from 'vscode-languageserver-protocol/node';
import { TestClient, uriOf } from './lsp-client';

const service = (name: string, nodePort: number): string =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: ${nodePort}\n`;
const codes = (d: Diagnostic[]): string[] => d.map((x) => String(x.code));
const collision = (d: Diagnostic[]): boolean => codes(d).includes('nodeport-duplicate');
const empty = (d: Diagnostic[]): boolean => d.length === 0;

/** A temporary workspace folder with the given files. */
function workspace(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kube-netlint-lsp-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe('language server: settings, config file, watched files, bad input', function () {
  this.timeout(30000);
  const dirs: string[] = [];
  let client: TestClient | undefined;
  const start = async (folders: string[], options?: Parameters<typeof TestClient.start>[1]): Promise<TestClient> => {
    dirs.push(...folders);
    client = await TestClient.start(folders, options);
    return client;
  };
  afterEach(async () => {
    if (client) {
      assert.ok(client.alive, `the server exited: ${client.stderr.join('')}`);
      await client.stop();
    }
    client = undefined;
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('applies kubeNetlint.rules from workspace/configuration (severity override)', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080), 'b.yaml': service('b', 30080) });
    const c = await start([dir], { settings: { rules: { 'nodeport-duplicate': 'warning' }, kubeProxyMode: 'auto', nodePortRange: '' } });
    const [d] = await c.waitFor(join(dir, 'a.yaml'), collision);
    assert.equal(d.severity, DiagnosticSeverity.Warning);
  });

  it('takes settings from initializationOptions when workspace/configuration answers none', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080), 'b.yaml': service('b', 30080) });
    const c = await start([dir], { initializationOptions: { kubeNetlint: { rules: { 'nodeport-duplicate': 'hint' } } } });
    const [d] = await c.waitFor(join(dir, 'a.yaml'), collision);
    assert.equal(d.severity, DiagnosticSeverity.Hint);
  });

  it('lets .kube-netlint.yaml win over editor settings for the keys it sets, and honours exclude globs', async () => {
    const dir = workspace({
      'a.yaml': service('a', 30080), 'b.yaml': service('b', 30080), 'c.yaml': service('c', 30090), 'd.yaml': service('d', 30090),
      '.kube-netlint.yaml': 'rules:\n  nodeport-duplicate: info\n',
    });
    const c = await start([dir], { settings: { rules: { 'nodeport-duplicate': 'warning' }, exclude: ['d.yaml'] } });
    const [d] = await c.waitFor(join(dir, 'a.yaml'), collision);
    assert.equal(d.severity, DiagnosticSeverity.Information);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(c.diagnostics.get(uriOf(join(dir, 'c.yaml'))), undefined, 'd.yaml is excluded, so c.yaml has no collision');
  });

  it('warns once about a broken .kube-netlint.yaml (file, line, key) and still analyses with the other settings', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080), 'b.yaml': service('b', 30080), '.kube-netlint.yaml': 'kubeProxyMode: ipvs\nrules:\n  nodeport-duplicat: off\n' });
    const c = await start([dir], { settings: { rules: { 'nodeport-duplicate': 'warning' } } });
    const [d] = await c.waitFor(join(dir, 'a.yaml'), collision);
    assert.equal(d.severity, DiagnosticSeverity.Warning);
    assert.deepEqual(c.messages, [`2 kube-netlint: configuration problem: ${join(dir, '.kube-netlint.yaml')}:3: 'rules.nodeport-duplicat': unknown rule id ("kube-netlint rules" lists them) (this rule setting is ignored; the rest of the file applies)`]);
  });

  it('keeps the valid rules: override of .kube-netlint.yaml when another value is bad, and says only that value is ignored', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080), 'b.yaml': service('b', 30080), '.kube-netlint.yaml': 'kubeProxyMode: IPVS\nrules:\n  nodeport-duplicate: warning\n' });
    const c = await start([dir]);
    const [d] = await c.waitFor(join(dir, 'a.yaml'), collision);
    assert.equal(d.severity, DiagnosticSeverity.Warning);
    assert.deepEqual(c.messages, [`2 kube-netlint: configuration problem: ${join(dir, '.kube-netlint.yaml')}:1: 'kubeProxyMode': must be one of iptables, ipvs, nftables (got "IPVS") ('kubeProxyMode' is ignored; the rest of the file applies)`]);
  });

  it('re-reads .kube-netlint.yaml when it changes on disk', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080), 'b.yaml': service('b', 30080) });
    const c = await start([dir]);
    await c.waitFor(join(dir, 'a.yaml'), collision);
    writeFileSync(join(dir, '.kube-netlint.yaml'), 'rules:\n  nodeport-duplicate: off\n');
    c.diskChanged(join(dir, '.kube-netlint.yaml'), FileChangeType.Created);
    await c.waitFor(join(dir, 'a.yaml'), empty);
  });

  it('follows files created, changed and deleted on disk', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080) });
    const c = await start([dir]);
    await waitForStatus(c);
    const b = join(dir, 'b.yml');
    writeFileSync(b, service('b', 30080));
    c.diskChanged(b, FileChangeType.Created);
    await c.waitFor(join(dir, 'a.yaml'), collision);
    await c.waitFor(b, collision);
    writeFileSync(b, service('b', 30081));
    c.diskChanged(b, FileChangeType.Changed);
    await c.waitFor(b, empty);
    writeFileSync(b, service('b', 30080));
    c.diskChanged(b, FileChangeType.Changed);
    await c.waitFor(b, collision);
    unlinkSync(b);
    c.diskChanged(b, FileChangeType.Deleted);
    await c.waitFor(b, empty);
    await c.waitFor(join(dir, 'a.yaml'), empty);
  });

  it('closing a buffer with no file on disk (never saved, or deleted while open) ends its diagnostics', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080) });
    const c = await start([dir]);
    await waitForStatus(c);
    const unsaved = join(dir, 'new.yaml');
    c.open(unsaved, service('unsaved', 30080));
    await c.waitFor(unsaved, collision);
    await c.waitFor(join(dir, 'a.yaml'), collision);
    c.close(unsaved);
    await c.waitFor(join(dir, 'a.yaml'), empty);
    // Before, this published a file-skipped error "cannot read the file (ENOENT)" that nothing cleared.
    await c.waitFor(unsaved, empty);
    // Deleted while open, the watcher's Deleted before the close: the open buffer survives the event, not the close.
    const gone = join(dir, 'gone.yaml');
    writeFileSync(gone, service('gone', 30080));
    c.open(gone);
    await c.waitFor(gone, collision);
    unlinkSync(gone);
    c.diskChanged(gone, FileChangeType.Deleted);
    c.close(gone);
    await c.waitFor(join(dir, 'a.yaml'), empty);
    await c.waitFor(gone, empty);
  });

  it('follows Kubernetes .json manifests created, changed and deleted on disk, and drops one edited into other JSON', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080), 'package.json': '{"name": "not-a-manifest"}' });
    const c = await start([dir]);
    await waitForStatus(c);
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.json');
    const json = (nodePort: number): string => JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'b' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort }] } }, null, 2);
    writeFileSync(b, json(30080));
    c.diskChanged(b, FileChangeType.Created);
    const onB = await c.waitFor(b, collision);
    assert.deepEqual(onB.filter((d) => d.code === 'nodeport-duplicate').map((d) => d.range.start.line), [11], 'at the nodePort line of the JSON file (0-based)');
    await c.waitFor(a, collision);
    writeFileSync(b, '{"name": "now-other-json", "kind": 1}');
    c.diskChanged(b, FileChangeType.Changed);
    await c.waitFor(a, empty);
    await c.waitFor(b, empty);
    writeFileSync(b, json(30080));
    c.diskChanged(b, FileChangeType.Changed);
    await c.waitFor(a, collision);
    c.diskChanged(join(dir, 'package.json'), FileChangeType.Changed);
    unlinkSync(b);
    c.diskChanged(b, FileChangeType.Deleted);
    await c.waitFor(a, empty);
    assert.equal(c.diagnostics.get(uriOf(join(dir, 'package.json'))), undefined, 'other JSON is never analysed');
  });

  it('asks clients that can watch files to do so, unless the client says it already does (VS Code)', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080) });
    const c = await start([dir], { dynamicWatchers: true });
    await waitForStatus(c);
    const watch = c.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
    assert.deepEqual(watch?.registerOptions, { watchers: [{ globPattern: '**/*.{yaml,yml,json}' }, { globPattern: '**/Kustomization' }, { globPattern: '**/.kube-netlint.yaml' }] });
    await c.stop();
    const vscodeLike = await start([dir], { dynamicWatchers: true, initializationOptions: { watchesFiles: true } });
    await waitForStatus(vscodeLike);
    assert.equal(vscodeLike.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles'), undefined);
  });

  it('follows folders created and deleted on disk (reported once for the folder)', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080) });
    const c = await start([dir]);
    await waitForStatus(c);
    const sub = join(dir, 'team-b');
    mkdirSync(join(sub, 'deep'), { recursive: true });
    writeFileSync(join(sub, 'deep', 'b.yaml'), service('b', 30080));
    c.diskChanged(sub, FileChangeType.Created);
    await c.waitFor(join(sub, 'deep', 'b.yaml'), collision);
    await c.waitFor(join(dir, 'a.yaml'), collision);
    rmSync(sub, { recursive: true });
    c.diskChanged(sub, FileChangeType.Deleted);
    await c.waitFor(join(sub, 'deep', 'b.yaml'), empty);
    await c.waitFor(join(dir, 'a.yaml'), empty);
  });

  it('reads files as kubectl does: a NUL byte is a yaml-syntax error, a byte that is not UTF-8 a warning, UTF-16 with a BOM is read; an oversized file gets one file-skipped info', async () => {
    const utf16 = `apiVersion: v1\nkind: Service\nmetadata: {name: b}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]\n`;
    const dir = workspace({
      'binary.yaml': Buffer.from([0x6b, 0x69, 0x6e, 0x64, 0x00, 0x01, 0x02]),
      'latin1.yaml': Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {note: caf\xe9}\n', 'latin1'),
      'ok.yaml': service('a', 30080),
      'utf16.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')]),
    });
    const c = await start([dir]);
    const shown = async (name: string) => (await c.waitFor(join(dir, name), (x) => x.length === 1)).map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character]);
    assert.deepEqual(await shown('binary.yaml'), [['yaml-syntax', DiagnosticSeverity.Error, 0, 4]]);
    assert.deepEqual(await shown('latin1.yaml'), [['yaml-syntax', DiagnosticSeverity.Warning, 3, 16]]);
    // The UTF-16 file's Service collides with ok.yaml's on nodePort 30080, at its own line and column.
    assert.deepEqual(await shown('utf16.yaml'), [['nodeport-duplicate', DiagnosticSeverity.Error, 5, 31]]);
    const big = join(dir, 'big.yaml');
    c.open(big, `# padding\n${'x: 1\n'.repeat(1_100_000)}`); // 5.2 MiB > the 5 MiB editor limit
    const [d] = await c.waitFor(big, (x) => x.length === 1);
    assert.equal(d.code, 'file-skipped');
    assert.match(d.message, /above the limit of 5\.0 MiB$/);
  });

  it('analyses open documents outside every folder together, from memory, and clears them when closed', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080) });
    const outside = workspace({});
    const c = await start([dir]);
    dirs.push(outside);
    await waitForStatus(c);
    const x = join(outside, 'x.yaml');
    const y = join(outside, 'y.yaml');
    c.open(x, service('x', 30090));
    c.open(y, service('z', 30090));
    await c.waitFor(x, collision);
    const [d] = await c.waitFor(y, collision);
    assert.match(d.message, /Service default\/x/);
    assert.equal(c.diagnostics.get(uriOf(join(dir, 'a.yaml'))), undefined, 'the folder is a separate analysis');
    c.close(x);
    await c.waitFor(y, empty);
    await c.waitFor(x, empty);
    const untitled = 'untitled:Untitled-1';
    c.open(untitled, 'kind: Service\napiVersion: v1\nmetadata: {name: u\n');
    const [syntax] = await c.waitFor(untitled, (d) => d.length > 0);
    assert.equal(syntax.code, 'yaml-syntax');
    c.close(untitled);
    await c.waitFor(untitled, empty);
  });

  it('follows workspace folders added and removed, a nested folder taking its files over', async () => {
    const dir = workspace({ 'a.yaml': service('a', 30080) });
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.yaml'), service('b', 30080));
    const c = await start([dir]);
    await c.waitFor(join(dir, 'sub', 'b.yaml'), collision);
    c.foldersChanged([join(dir, 'sub')], []);
    await c.waitFor(join(dir, 'sub', 'b.yaml'), empty);
    await c.waitFor(join(dir, 'a.yaml'), empty);
    c.foldersChanged([], [join(dir, 'sub')]);
    await c.waitFor(join(dir, 'sub', 'b.yaml'), collision);
    await c.waitFor(join(dir, 'a.yaml'), collision);
  });

  it('analyses two workspace folders separately (each its own cluster and settings)', async () => {
    const one = workspace({ 'a.yaml': service('a', 30080) });
    const two = workspace({ 'b.yaml': service('b', 30080), 'c.yaml': service('c', 30080) });
    const c = await start([one, two]);
    await c.waitFor(join(two, 'b.yaml'), collision);
    const [d] = await c.waitFor(join(two, 'c.yaml'), collision);
    assert.doesNotMatch(d.message, /Service default\/a\b/);
    assert.equal(c.diagnostics.get(uriOf(join(one, 'a.yaml'))), undefined);
  });
});

function waitForStatus(client: TestClient): Promise<void> {
  return new Promise((res) => {
    const poll = (): void => (client.statuses.length ? res() : void setTimeout(poll, 20));
    poll();
  });
}
