import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/out/cli/run';
import { cacheFile } from '../../server/out/cli/workspace';
import type { LoadedFile } from '../../server/out/core/load/load-file';
import { loadFiles } from '../../server/out/node/parallel-load';
import { CACHE_FILE_NAME, ParseCache } from '../../server/out/node/parse-cache';
import { readManifestFile } from '../../server/out/node/read-file';

const svc = (name: string, nodePort: number): string =>
  `# kube-netlint-disable-next-line hostport-usage\napiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  labels: &l {app: ${name}}\nspec:\n  type: NodePort\n  selector: *l\n  ports:\n    - {name: http, port: 80, nodePort: ${nodePort}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}-cm}\ndata: {k: v}\n`;

async function cli(cwd: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { cwd, stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => '' });
  return { code, out, err };
}

/** A loaded file as plain data: `paths` (a Map when loaded here, packed when it crossed a thread or the cache) as its entries in order. */
function comparable(file: LoadedFile): unknown {
  return { ...file, lines: undefined, objects: file.objects.map((o) => ({ ...o, paths: o.paths && [...o.paths] })) };
}

describe('parse cache (--cache, --cache-location)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-cache-'));
    mkdirSync(join(dir, 'apps'));
    // 30 files: enough for the worker threads (the cache misses are parsed there, from the text read here).
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, 'apps', `s${i}.yaml`), svc(`s${i}`, 30000 + (i % 25)));
    writeFileSync(join(dir, 'apps', 'broken.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: b\n bad: indent\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same findings cold, warm, after the cache is corrupted and after it is deleted, and re-reads a changed file', async () => {
    const plain = await cli(dir, ['--format', 'json', 'apps']);
    const cold = await cli(dir, ['--cache', '--format', 'json', 'apps']);
    const cache = join(dir, CACHE_FILE_NAME);
    assert.ok(existsSync(cache), 'the cache file is written in the working directory');
    const warm = await cli(dir, ['--cache', '--format', 'json', 'apps']);
    assert.equal(cold.out, plain.out);
    assert.equal(warm.out, plain.out);
    assert.deepEqual([cold.code, warm.code, warm.err], [plain.code, plain.code, '']);
    assert.ok(JSON.parse(plain.out).findings.some((f: { ruleId: string }) => f.ruleId === 'nodeport-duplicate'));

    writeFileSync(cache, 'not a cache');
    assert.equal((await cli(dir, ['--cache', '--format', 'json', 'apps'])).out, plain.out);
    rmSync(cache);
    assert.equal((await cli(dir, ['--cache', '--format', 'json', 'apps'])).out, plain.out);

    // A changed file is read again: its new nodePort collides with no one, so its collision is gone.
    writeFileSync(join(dir, 'apps', 's0.yaml'), svc('s0', 31999));
    const changed = await cli(dir, ['--cache', '--format', 'json', 'apps']);
    assert.equal(changed.out, (await cli(dir, ['--format', 'json', 'apps'])).out);
    assert.ok(!JSON.parse(changed.out).findings.some((f: { file: string; ruleId: string }) => f.file === 'apps/s0.yaml' && f.ruleId === 'nodeport-duplicate'));
  });

  it('writes the cache where --cache-location says: a file, or a folder (eslint convention)', async () => {
    await cli(dir, ['--cache', '--cache-location', 'custom.cache', 'apps']);
    assert.ok(statSync(join(dir, 'custom.cache')).isFile());
    await cli(dir, ['--cache', '--cache-location', 'cachedir/', 'apps']);
    assert.ok(statSync(join(dir, 'cachedir', CACHE_FILE_NAME)).isFile());
    assert.equal(cacheFile(dir, '/x'), join(dir, CACHE_FILE_NAME));
    assert.equal(cacheFile(undefined, dir), join(dir, CACHE_FILE_NAME));
    assert.ok(!existsSync(join(dir, CACHE_FILE_NAME)), 'without --cache-location only the named place is written');
  });

  it('returns loaded files equal to loading them, and ignores entries of another version, text or namespace', async () => {
    const files = Array.from({ length: 31 }, (_, i) => (i < 30 ? join(dir, 'apps', `s${i}.yaml`) : join(dir, 'apps', 'broken.yaml'))).map((p) => [p, p] as const);
    const location = join(dir, 'c', CACHE_FILE_NAME);
    const expected = files.map(([p]) => readManifestFile(p, p));
    const first = ParseCache.open(location, '1.0.0');
    const cold = await loadFiles(files, { cache: first });
    assert.equal(first.size, 31);
    assert.equal(first.save(), undefined);
    const second = ParseCache.open(location, '1.0.0');
    let progress = 0;
    const warm = await loadFiles(files, { cache: second, onProgress: (done) => (progress = done) });
    assert.equal(progress, 31);
    assert.equal(second.hits, 31);
    assert.equal(first.hits, 0);
    for (const [i, loaded] of warm.entries()) {
      assert.deepEqual(comparable(loaded), comparable(expected[i]));
      assert.deepEqual(comparable(cold[i]), comparable(expected[i]));
      assert.equal(loaded.lines.lineCount, expected[i].lines.lineCount);
    }
    assert.equal(second.get(files[0][1], readFileSync(files[0][0], 'utf8') + '\n', ''), undefined, 'changed text');
    assert.equal(second.get(files[0][1], readFileSync(files[0][0], 'utf8'), 'team-a'), undefined, 'other default namespace');
    assert.ok(second.get(files[0][1], readFileSync(files[0][0], 'utf8'), ''));
    assert.equal(ParseCache.open(location, '2.0.0').size, 0, 'another kube-netlint version');
  });

  it('detects a flipped byte anywhere in an entry and loads that file again: the loaded files never change', async () => {
    const files = Array.from({ length: 31 }, (_, i) => (i < 30 ? join(dir, 'apps', `s${i}.yaml`) : join(dir, 'apps', 'broken.yaml'))).map((p) => [p, p] as const);
    const expected = files.map(([p]) => comparable(readManifestFile(p, p)));
    const location = join(dir, 'c', CACHE_FILE_NAME);
    const filling = ParseCache.open(location, '1.0.0');
    await loadFiles(files, { cache: filling });
    assert.equal(filling.save(), undefined);
    const whole = readFileSync(location);
    // The entries follow the magic line, the header's 4-byte length and the JSON header.
    const entriesStart = 'kube-netlint cache\n'.length + 4 + whole.readUInt32LE('kube-netlint cache\n'.length);
    const positions: number[] = [];
    // ~60 places spread over the entries (each a reopen and a load of the 31 files), and both ends.
    const step = Math.ceil((whole.length - entriesStart) / 60) | 1;
    for (let at = entriesStart; at < whole.length; at += step) positions.push(at);
    positions.push(entriesStart, whole.length - 1);
    for (const at of positions) {
      const damaged = Buffer.from(whole);
      damaged[at] ^= 0xff;
      writeFileSync(location, damaged);
      const cache = ParseCache.open(location, '1.0.0');
      assert.equal(cache.size, 31, `byte ${at}: the other entries are still read`);
      const loaded = await loadFiles(files, { cache });
      assert.equal(cache.hits, 30, `byte ${at}: exactly the damaged entry is loaded again`);
      loaded.forEach((file, i) => assert.deepEqual(comparable(file), expected[i], `byte ${at}, ${files[i][1]}`));
    }
    // In the header, a flipped byte makes the whole file unreadable (an empty cache) or one entry a miss.
    for (let at = 0; at < entriesStart; at += Math.ceil(entriesStart / 20)) {
      const damaged = Buffer.from(whole);
      damaged[at] ^= 0xff;
      writeFileSync(location, damaged);
      const cache = ParseCache.open(location, '1.0.0');
      const loaded = await loadFiles(files, { cache });
      assert.ok(cache.hits >= 30 || cache.hits === 0, `header byte ${at}: ${cache.hits} hits`);
      loaded.forEach((file, i) => assert.deepEqual(comparable(file), expected[i], `header byte ${at}, ${files[i][1]}`));
    }
  });
});
