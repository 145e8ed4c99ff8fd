import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TestClient } from './lsp-client';

// Issue 6 in the editor: the language server groups files into clusters like the CLI (config `clusters:`
// relative to the folder's .kube-netlint.yaml), and hovers list only objects of the file's own cluster(s).
const svc = (name: string, nodePort: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: ${nodePort}\n`;

describe('language server: several clusters in one folder', function () {
  this.timeout(30000);
  let dir: string;
  let client: TestClient;
  const file = (rel: string, text: string): string => {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'knl-lsp-clusters-'));
    file('.kube-netlint.yaml', 'clusters:\n  dev: ["envs/dev/**"]\n  prod: ["envs/prod/**"]\n');
    file('envs/dev/web.yaml', svc('web-dev', 30080));
    file('envs/prod/web.yaml', svc('web-prod', 30080));
    file('envs/prod/legacy.yaml', svc('legacy', 30080));
    client = await TestClient.start([dir]);
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports prod's collision naming the cluster, and nothing between dev and prod", async () => {
    const prod = await client.waitFor(join(dir, 'envs/prod/web.yaml'), (d) => d.some((x) => x.code === 'nodeport-duplicate'));
    const dup = prod.find((x) => x.code === 'nodeport-duplicate')!;
    assert.deepEqual(dup.range, { start: { line: 7, character: 16 }, end: { line: 7, character: 21 } });
    assert.match(dup.message, /Service default\/legacy.*\(in cluster prod\)$/);
    assert.deepEqual((client.diagnostics.get(`file://${join(dir, 'envs/dev/web.yaml')}`) ?? []).filter((x) => x.code === 'nodeport-duplicate'), []);
  });

  it("lists only the file's own cluster in the hover's also-used-by lines", async () => {
    const h = await client.hover(join(dir, 'envs/dev/web.yaml'), 7, 18);
    const text = h ? (h.contents as { value: string }).value : '';
    assert.match(text, /nodePort 30080/);
    assert.doesNotMatch(text, /web-prod|legacy/);
    const p = await client.hover(join(dir, 'envs/prod/web.yaml'), 7, 18);
    const ptext = p ? (p.contents as { value: string }).value : '';
    assert.match(ptext, /Service default\/legacy/);
    assert.doesNotMatch(ptext, /web-dev/);
  });
});
