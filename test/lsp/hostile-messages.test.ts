import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { FrameGuard } from '../../server/out/lsp/frame-guard';
import { TestClient, uriOf } from './lsp-client';

const service = (name: string): string => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]\n`;
const collision = (d: Diagnostic[]): boolean => d.some((x) => x.code === 'nodeport-duplicate');
const frame = (o: unknown): string => {
  const body = JSON.stringify(o);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

describe('language server: malformed messages are dropped, the server keeps serving', function () {
  this.timeout(30000);
  let dir: string;
  let client: TestClient;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'knl-lsp-hostile-'));
    client = await TestClient.start([dir]);
  });
  afterEach(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops a didOpen whose text is not a string (it made every later analysis fail) and logs it', async () => {
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(join(dir, 'bad.yaml')), languageId: 'yaml', version: 1, text: 12345 } });
    client.open(join(dir, 'a.yaml'), service('a'));
    client.open(join(dir, 'b.yaml'), service('b'));
    await client.waitFor(join(dir, 'b.yaml'), collision);
    assert.ok(client.logs.some((l) => l === 'kube-netlint: dropped a textDocument/didOpen notification: textDocument.text is number, not a string'), client.logs.join('\n'));
    assert.ok(!client.logs.some((l) => /analysis failed/.test(l)));
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(join(dir, 'a.yaml')), version: 2 }, contentChanges: [{ text: { evil: true } }] });
    client.change(join(dir, 'a.yaml'), service('a2'));
    await client.waitFor(join(dir, 'b.yaml'), (d) => collision(d) && d[0].message.includes('default/a2'));
    assert.ok(client.logs.some((l) => /dropped a textDocument\/didChange notification: contentChanges\[0\] has no string text/.test(l)));
  });

  it('skips a frame without a Content-Length header and answers the next request (it wedged the server, exit ignored)', async () => {
    client.proc.stdin!.write(`X-Nothing: 1\r\n\r\n${JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'shutdown' })}`);
    client.open(join(dir, 'a.yaml'), service('a'));
    client.open(join(dir, 'b.yaml'), service('b'));
    const [d] = await client.waitFor(join(dir, 'a.yaml'), collision);
    assert.equal(d.code, 'nodeport-duplicate');
    const hover = await client.hover(join(dir, 'a.yaml'), 5, 32);
    assert.ok(hover, 'a request after the bad frame is answered');
    assert.ok(client.logs.some((l) => /^kube-netlint: dropped a message whose header has no valid Content-Length \("X-Nothing: 1"\); skipping to the next message$/.test(l)), client.logs.join('\n'));
  });
});

describe('FrameGuard (LSP base-protocol framing)', () => {
  const run = (chunks: string[]): { out: string; drops: string[] } => {
    const drops: string[] = [];
    const guard = new FrameGuard((m) => drops.push(m));
    let out = '';
    guard.on('data', (d: Buffer) => (out += d.toString('latin1')));
    for (const c of chunks) guard.write(Buffer.from(c, 'latin1'));
    return { out, drops };
  };

  it('passes valid frames byte for byte, whatever the chunking', () => {
    const text = frame({ jsonrpc: '2.0', id: 1, method: 'a' }) + `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n${frame({ jsonrpc: '2.0', method: 'b', params: { text: 'Content-Length: 3' } })}`;
    for (const size of [1, 7, 1000]) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      assert.deepEqual(run(chunks), { out: text, drops: [] });
    }
  });

  it('drops a frame without a valid Content-Length and resumes at the next header', () => {
    const good = frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
    const r = run([`Content-Length: abc\r\n\r\n{"x":1}`, good]);
    assert.equal(r.out, good);
    assert.equal(r.drops.length, 1);
  });
});
