import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import { SINGLE_FILE_RULES, singleFileFindings } from '../../server/out/lsp/open-first';
import { sharedDir } from '../helpers/shared';
import { TestClient } from './lsp-client';

const svc = (name: string, nodePort: number): string =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports:\n    - {port: 80, nodePort: ${nodePort}}\n`;
/** A Deployment whose hostPort is a string: pod-spec-invalid, a finding of its own file alone. */
const badDeployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bad}\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          image: nginx\n          ports:\n            - {containerPort: 80, hostPort: "8080"}\n    metadata: {labels: {app: bad}}\n  selector: {matchLabels: {app: bad}}\n';

describe('language server: workspace scan (open file first, progress, parse cache)', function () {
  this.timeout(120_000);
  let dir: string;
  let storage: string;
  let client: TestClient | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-scan-'));
    storage = mkdtempSync(join(tmpdir(), 'knl-storage-'));
    mkdirSync(join(dir, 'apps'));
    for (let i = 0; i < 400; i++) writeFileSync(join(dir, 'apps', `s${String(i).padStart(3, '0')}.yaml`), svc(`s${i}`, 30000 + (i % 300)));
    writeFileSync(join(dir, 'bad.yaml'), badDeployment + '---\n' + svc('twin', 30001));
  });
  afterEach(async () => {
    await client?.stop();
    client = undefined;
    rmSync(dir, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  });

  it('publishes the open file\'s own findings before the scan ends, then the cross-file ones', async () => {
    client = await TestClient.start([dir]);
    const file = join(dir, 'bad.yaml');
    const plain = join(dir, 'apps', 's002.yaml');
    client.open(file);
    client.open(plain);
    const first = await client.waitFor(file, (d) => d.length > 0);
    const statusesAtFirst = client.statuses.length;
    assert.deepEqual(first.map((d) => d.code), ['pod-spec-invalid'], 'only findings of the file alone');
    assert.equal(statusesAtFirst, 0, 'before the whole workspace was analysed');
    // A file with no finding of its own is published empty at once (the editor knows it was read).
    assert.deepEqual(await client.waitFor(plain, () => true), []);
    assert.equal(client.statuses.length, 0);
    // After the scan: the nodePort 30001 it shares with apps/s001.yaml is reported too.
    const full = await client.waitFor(file, (d) => d.some((x) => x.code === 'nodeport-duplicate'));
    assert.deepEqual(full.map((d) => d.code).sort(), ['nodeport-duplicate', 'pod-spec-invalid']);
  });

  it('reports the scan as work-done progress when the client supports it', async () => {
    client = await TestClient.start([dir], { workDoneProgress: true });
    await client.waitFor(join(dir, 'apps', 's001.yaml'), (d) => d.length > 0);
    const values = client.progress as { create?: unknown; kind?: string; title?: string; message?: string }[];
    assert.ok(values[0].create !== undefined, 'window/workDoneProgress/create first');
    const begin = values.find((v) => v.kind === 'begin');
    assert.equal(begin?.title, 'kube-netlint');
    assert.match(begin?.message ?? '', /^\d[\d,]* \/ 401 files$/);
    assert.equal(values[values.length - 1].kind, 'end');
  });

  it('keeps a parse cache in the storage folder: a restart loads unchanged files from it, with the same diagnostics', async () => {
    const target = join(dir, 'apps', 's001.yaml');
    client = await TestClient.start([dir], { initializationOptions: { cacheFolder: storage } });
    const cold = await client.waitFor(target, (d) => d.length > 0);
    await client.stop();
    assert.equal(readdirSync(storage).filter((f) => f.endsWith('.kube-netlintcache')).length, 1);
    writeFileSync(join(dir, 'apps', 's000.yaml'), svc('s0', 31999)); // changed: read again
    client = await TestClient.start([dir], { initializationOptions: { cacheFolder: storage } });
    const warm = await client.waitFor(target, (d) => d.length > 0);
    assert.deepEqual(warm, cold);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(client.logs.some((l) => / 401 YAML files \(401 loaded \(400 from the cache\)\)/.test(l)), client.logs.join('\n'));
  });

  it('single-file rules give, for each file alone, exactly the findings the whole workspace gives (examples, fixtures, field cases, corpora)', () => {
    const repo = join(__dirname, '..', '..');
    const shared = sharedDir();
    const roots = [join(repo, 'examples'), join(repo, 'test', 'fixtures'), ...(shared ? [join(shared, 'cases'), join(shared, 'corpus')] : [])];
    const files = roots.flatMap((root) => {
      try {
        return readdirSync(root, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(root, f));
      } catch {
        return [];
      }
    });
    assert.ok(files.length > 20, `only ${files.length} files`);
    const loaded = files.map((f) => loadFile(f, readFileSync(f, 'utf8')));
    const whole = analyze(loaded, DEFAULT_CONFIG).findings.filter((f) => SINGLE_FILE_RULES.has(f.ruleId));
    // The whole analysis names the cluster groups (kustomize overlays) a finding is in, and an overlay's `namespace:`
    // moves a base's objects (kustomize's namespace transformer); a file alone has neither. The rest is the same.
    const key = (f: { ruleId: string; span: { file: string; start: number; end: number }; message: string; object?: { kind: string; namespace: string; name: string } }): string => {
      const own = f.object?.namespace ? `${f.object.kind} ${f.object.namespace}/${f.object.name}` : undefined;
      const message = own ? f.message.split(own).join(`${f.object!.kind} */${f.object!.name}`) : f.message;
      return `${f.ruleId} ${f.span.file}:${f.span.start}-${f.span.end} ${message.replace(/ \(in (?:\d+ clusters|clusters? [^)]*)\)$/, '')}`;
    };
    const unique = (keys: string[]): string[] => [...new Set(keys)].sort();
    const alone = files.flatMap((f) => singleFileFindings(f, readFileSync(f, 'utf8'), DEFAULT_CONFIG).findings);
    assert.deepEqual(unique(alone.map(key)), unique(whole.map(key)));
  });
});
