import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { runCli } from '../../server/out/cli/run';
import type { PortMapDocument } from '../../server/out/core/port-map/document';
import { isPortMapResponse, parseHostMessage, parseViewMessage, PortMapResponse } from '../../server/out/protocol/port-map-messages';

const ROOT = join(__dirname, '..', '..');

async function examplesResponse(): Promise<PortMapResponse> {
  let out = '';
  await runCli(['ports', 'examples', '--format', 'json'], { cwd: ROOT, stdout: (t) => (out += t), stderr: () => undefined, readStdin: () => '' });
  const document = JSON.parse(out) as PortMapDocument;
  return { version: 3, folders: [{ name: 'examples', uri: 'file:///w/examples', document }] };
}

/** A deep copy with one change, for negative cases. */
function mutate(r: PortMapResponse, change: (copy: any) => void): unknown { // eslint-disable-line @typescript-eslint/no-explicit-any
  const copy = JSON.parse(JSON.stringify(r));
  change(copy);
  return copy;
}

describe('Node Ports view messages (validated both ways)', () => {
  it('accepts the map the language server sends, and rejects every malformed part of it', async () => {
    const good = await examplesResponse();
    assert.equal(isPortMapResponse(good), true);
    assert.deepEqual(parseHostMessage({ type: 'portMap', response: good }), { type: 'portMap', response: good });
    const bad: [string, (c: any) => void][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
      ['another version', (c) => (c.folders[0].document.version = 2)],
      ['a port out of range', (c) => (c.folders[0].document.clusterGroups[0].ports[0].port = 70000)],
      ['a claim id that is not a number', (c) => (c.folders[0].document.clusterGroups[0].ports[0].claims[0].id = '1')],
      ['an owner without a name', (c) => (c.folders[0].document.clusterGroups[0].ports[0].claims[0].owner = { kind: 'Service' })],
      ['a link without a scheme', (c) => (c.folders[0].document.clusterGroups[0].ports[0].claims[0].link = { uri: '/etc/passwd', line: 0, character: 0, endLine: 0, endCharacter: 0 })],
      ['collisions that are not a list', (c) => (c.folders[0].document.clusterGroups[0].ports[0].claims[0].collisions = {})],
      ['a band of another kind', (c) => (c.folders[0].document.clusterGroups[0].bands[0].band = 'reserved')],
      ['no folders list', (c) => delete c.folders],
    ];
    for (const [what, change] of bad) assert.equal(isPortMapResponse(mutate(good, change)), false, what);
    assert.equal(parseHostMessage({ type: 'portMap', response: mutate(good, bad[0][1]) }), undefined);
  });

  it('keeps manifest text as data: names that look like markup are accepted and shown as text by the view', async () => {
    const good = await examplesResponse();
    const odd = mutate(good, (c) => (c.folders[0].document.clusterGroups[0].ports[0].claims[0].owner.name = '<img src=x onerror=alert(1)>'));
    assert.equal(isPortMapResponse(odd), true);
  });

  it('parses the other messages to the view', () => {
    assert.deepEqual(parseHostMessage({ type: 'focus', port: 31990, folderUri: 'file:///w' }), { type: 'focus', port: 31990, folderUri: 'file:///w' });
    assert.deepEqual(parseHostMessage({ type: 'status', text: 'The language server is not running.' }), { type: 'status', text: 'The language server is not running.' });
    for (const m of [null, 'portMap', { type: 'focus', port: 0 }, { type: 'focus', port: 31990, folderUri: 7 }, { type: 'status' }, { type: 'eval', code: '1' }]) {
      assert.equal(parseHostMessage(m), undefined, JSON.stringify(m));
    }
  });

  it('accepts only ready and open messages from the view, with ids in range', () => {
    assert.deepEqual(parseViewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseViewMessage({ type: 'open', folder: 0, group: 1, claim: 19 }), { type: 'open', folder: 0, group: 1, claim: 19 });
    for (const m of [
      undefined, [], { type: 'ready', extra: 1 }, { type: 'open', folder: -1, group: 0, claim: 1 }, { type: 'open', folder: 0, group: 0, claim: 0 },
      { type: 'open', folder: 0.5, group: 0, claim: 1 }, { type: 'open', folder: 0, group: '0', claim: 1 }, { type: 'open', uri: 'file:///etc/passwd' },
      { type: 'command', command: 'workbench.action.terminal.new' },
    ]) {
      assert.equal(parseViewMessage(m), undefined, JSON.stringify(m));
    }
  });
});
