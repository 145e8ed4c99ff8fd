import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TestClient, uriOf } from './lsp-client';

const service = (name: string, nodePort: number): string =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - port: 80\n      nodePort: ${nodePort}\n`;

/** Resolves once the server has reported a status (its first analysis is published). */
async function analysed(client: TestClient): Promise<void> {
  for (let i = 0; i < 300 && client.statuses.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(client.statuses.length > 0, 'no kubeNetlint/status');
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('language server: edits as incremental didChange ranges', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'knl-lsp-ranges-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const eol of ['\n', '\r\n']) {
    it(`ends with the diagnostics a fresh server gives the same text: several changes a notification, coalesced notifications, an edit across \`---\`, a full-text change (${eol === '\n' ? 'LF' : 'CRLF'})`, async () => {
      const file = join(dir, 'services.yaml');
      const initial = [service('a', 30080), service('b', 30081), service('c', 30082), service('d', 30083), service('e', 30084)].join('---\n').replace(/\n/g, eol);
      const line = (n: number, character = 0) => ({ line: n, character });
      // Each document is 10 lines, then its `---` (lines 10, 21, 32, 43).
      const steps: TextDocumentContentChangeEvent[][] = [
        [{ range: { start: line(42, 16), end: line(42, 21) }, text: '30080' }], // d takes a's nodePort
        [{ range: { start: line(20, 16), end: line(20, 21) }, text: '30080' }, { range: { start: line(3, 8), end: line(3, 9) }, text: 'alpha' }], // two changes
        [{ range: { start: line(25, 0), end: line(25, 0) }, text: `# note${eol}` }], // c is a line longer: its `---` is line 33
        [{ range: { start: line(32, 0), end: line(34, 0) }, text: `      nodePort: 30089${eol}` }], // across the \`---\` after c: c and d merge
        [{ range: { start: line(9, 16), end: line(9, 21) }, text: '30089' }],
      ];
      const scratch = TextDocument.create(uriOf(file), 'yaml', 1, initial);
      const texts = steps.map((changes, i) => TextDocument.update(scratch, changes, i + 2).getText());
      // What a fresh server says about the final text, read from disk.
      writeFileSync(file, texts[4]);
      const fresh = await TestClient.start([dir]);
      await analysed(fresh);
      const expected = fresh.diagnostics.get(uriOf(file)) ?? [];
      await fresh.stop();
      assert.ok(expected.length > 0);

      writeFileSync(file, initial);
      const client = await TestClient.start([dir]);
      try {
        await analysed(client);
        client.open(file, initial);
        await pause(300);
        client.change(file, steps[0]);
        await pause(300);
        client.change(file, steps[1]);
        client.change(file, steps[2]); // arrives before the analysis of the one before: both are read together
        await pause(300);
        client.change(file, steps[3]);
        await pause(300);
        client.change(file, texts[3].replace('30089', '30088')); // a full-text change in between
        await pause(300);
        client.change(file, texts[3]); // and back, whole
        await pause(300);
        client.change(file, steps[4]);
        client.change(file, [{ range: { start: line(0), end: line(0) }, text: '' }]); // an empty change
        const same = (d: Diagnostic[]): boolean => JSON.stringify(d) === JSON.stringify(expected);
        const got = await client.waitFor(file, same, 20000).catch(() => client.diagnostics.get(uriOf(file)));
        assert.deepEqual(got, expected);
      } finally {
        await client.stop();
      }
    });
  }
});
