import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver-protocol/node';
import { applyTextEdits, fixture, TestClient, uriOf } from './lsp-client';

const A = fixture('collision', 'a.yaml');
const B = fixture('collision', 'b.yaml');
const aText = readFileSync(A, 'utf8');
const bText = readFileSync(B, 'utf8');
const rules = (d: Diagnostic[]): string[] => d.map((x) => String(x.code));
const empty = (d: Diagnostic[]): boolean => d.length === 0;
const hasCollision = (d: Diagnostic[]): boolean => rules(d).includes('nodeport-duplicate');

describe('language server over stdio (protocol)', function () {
  this.timeout(30000);
  let client: TestClient;

  beforeEach(async () => {
    client = await TestClient.start([fixture('collision')]);
  });
  afterEach(async () => {
    assert.ok(client.alive, `the server exited: ${client.stderr.join('')}`);
    await client.stop();
  });

  it('reports a cross-file nodePort collision in both files on start, without opening them, with exact ranges', async () => {
    const [a] = await client.waitFor(A, hasCollision);
    const [b] = await client.waitFor(B, hasCollision);
    assert.deepEqual(a.range, { start: { line: 14, character: 16 }, end: { line: 14, character: 21 } });
    assert.deepEqual(b.range, { start: { line: 13, character: 16 }, end: { line: 13, character: 21 } });
    for (const d of [a, b]) {
      assert.equal(d.source, 'kube-netlint');
      assert.equal(d.code, 'nodeport-duplicate');
      assert.equal(d.severity, DiagnosticSeverity.Error);
      // The page shipped with the server (a real file), never a web address that may not exist.
      assert.equal(d.codeDescription?.href, pathToFileURL(join(__dirname, '..', '..', 'docs', 'rules', 'nodeport-duplicate.md')).href);
      assert.ok(existsSync(fileURLToPath(d.codeDescription!.href)));
      assert.equal((d.data as { ruleId: string }).ruleId, 'nodeport-duplicate');
    }
    assert.match(a.message, /Service team-b\/web-b/);
    assert.deepEqual(a.relatedInformation, [{ location: { uri: uriOf(B), range: b.range }, message: 'nodePort 30080 of Service team-b/web-b' }]);
    assert.deepEqual(b.relatedInformation?.[0].location, { uri: uriOf(A), range: a.range });
    await waitForStatus(client, (s) => s.objects === 4 && s.findings === 2 && s.errors === 2);
  });

  it('clears both files when an edit removes the collision, and restores them when the document is closed', async () => {
    await client.waitFor(A, hasCollision);
    client.open(B);
    client.change(B, bText.replace('nodePort: 30080', 'nodePort: 30081'));
    await client.waitFor(A, empty);
    await client.waitFor(B, empty);
    client.close(B); // back to the on-disk content
    await client.waitFor(A, hasCollision);
    await client.waitFor(B, hasCollision);
  });

  it('hover on the nodePort names the other object with a file:line link, and explains the rule', async () => {
    await client.waitFor(A, hasCollision);
    client.open(A);
    const hover = await client.hover(A, 14, 18);
    const value = (hover?.contents as { value: string }).value;
    // First (under the finding's message, which the editor shows above): the rule, a short explanation and a link
    // to the whole page, not the page itself; then the field's details.
    const [section, details] = value.split('\n\n---\n\n');
    const [, summary, link] = /^\*\*nodePort claimed twice\*\* \(`nodeport-duplicate`\)\n\n([^\n]+)\n\n\[Read more\]\(([^)]+)\)$/.exec(section)!;
    assert.match(details, /^\*\*nodePort 30080\*\*: kube-proxy accepts this port on every node/);
    assert.ok(details.includes(`nodePort 30080/TCP of Service team-b/web-b — [b.yaml:14](${uriOf(B)}#L14)`), value);
    assert.ok(!value.includes('web-a —'), 'the hovered claim itself is not listed');
    assert.ok(summary.length >= 80 && summary.length <= 420, summary);
    assert.equal(link, pathToFileURL(join(__dirname, '..', '..', 'docs', 'rules', 'nodeport-duplicate.md')).href);
    assert.doesNotMatch(section, /## Sources/);
    assert.deepEqual(hover?.range, { start: { line: 14, character: 16 }, end: { line: 14, character: 21 } });
    const plain = await client.hover(A, 4, 9); // metadata.name: no hover
    assert.equal(plain, null);
  });

  it('the preferred quick fix yields valid YAML whose re-analysis is clean in both files', async () => {
    const [diag] = await client.waitFor(A, hasCollision);
    client.open(A);
    const actions = await client.codeActions(A, diag.range, [diag]);
    assert.deepEqual(actions.map((a) => a.title), [
      'Change nodePort 30080 to free port 30000',
      'Ignore nodeport-duplicate for this object',
      'Ignore nodeport-duplicate on this line',
    ]);
    const fix = actions[0];
    assert.equal(fix.isPreferred, true);
    assert.equal(fix.kind, 'quickfix');
    const fixed = applyTextEdits(aText, fix.edit!.changes![uriOf(A)]);
    assert.equal(fixed, aText.replace('nodePort: 30080 # chosen by hand', 'nodePort: 30000 # chosen by hand'));
    assert.equal(parseAllDocuments(fixed)[0].errors.length, 0);
    client.change(A, fixed);
    await client.waitFor(A, empty);
    await client.waitFor(B, empty);
  });

  it('offers the quote fix of a label whose key YAML 1.1 reads as true, quoting that key and the value only', async () => {
    await client.waitFor(A, hasCollision);
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    on: 80   # port\n    off: web\n';
    client.open(A, text);
    const [diag] = await client.waitFor(A, (d) => rules(d).includes('object-invalid'));
    assert.deepEqual(diag.range, { start: { line: 5, character: 8 }, end: { line: 5, character: 10 } });
    const actions = await client.codeActions(A, diag.range, [diag]);
    assert.equal(actions[0].title, 'Quote "on" and "80"');
    assert.equal(actions[0].isPreferred, true);
    assert.equal(applyTextEdits(text, actions[0].edit!.changes![uriOf(A)]), text.replace('on: 80   # port', '"on": "80"   # port'));
  });

  it('quotes a misread key of a template label with the same key of the Deployment\'s selector, in one code action', async () => {
    await client.waitFor(A, hasCollision);
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector:\n    matchLabels: {on: "1"}\n  template:\n    metadata:\n      labels: {on: 1}   # kept\n    spec: {containers: [{name: web, image: nginx}]}\n';
    client.open(A, text);
    const [diag] = await client.waitFor(A, (d) => rules(d).includes('pod-spec-invalid'));
    assert.deepEqual(diag.range, { start: { line: 8, character: 19 }, end: { line: 8, character: 20 } });
    const actions = await client.codeActions(A, diag.range, [diag]);
    assert.equal(actions[0].title, 'Quote "on" and "1", and "on" in spec.selector.matchLabels');
    assert.equal(applyTextEdits(text, actions[0].edit!.changes![uriOf(A)]), text.replace('{on: "1"}', '{"on": "1"}').replace('{on: 1}   # kept', '{"on": "1"}   # kept'));
  });

  it('finds the quick fixes by rule id and position when a client drops Diagnostic.data', async () => {
    const [diag] = await client.waitFor(A, hasCollision);
    const { data: _dropped, ...withoutData } = diag;
    const actions = await client.codeActions(A, diag.range, [withoutData]);
    assert.equal(actions[0]?.title, 'Change nodePort 30080 to free port 30000');
    assert.equal(actions.length, 3);
  });

  it('offers no quick fix and no ignore edit in a file with U+FFFD (bytes that were not UTF-8, which saving would write as U+FFFD)', async () => {
    await client.waitFor(A, hasCollision);
    client.open(A);
    client.change(A, `# caf\uFFFD\n${aText}`);
    const [diag] = await client.waitFor(A, (d) => hasCollision(d) && d[0].range.start.line === 15);
    assert.deepEqual(await client.codeActions(A, diag.range, [diag]), []);
    client.change(A, aText);
    const [back] = await client.waitFor(A, (d) => hasCollision(d) && d[0].range.start.line === 14);
    assert.equal((await client.codeActions(A, back.range, [back])).length, 3, 'the same file without it gets them');
  });

  it('"Ignore for this object" adds the annotation and silences only that object; "on this line" adds the comment', async () => {
    const [diag] = await client.waitFor(A, hasCollision);
    client.open(A);
    const actions = await client.codeActions(A, diag.range, [diag]);
    const objectText = applyTextEdits(aText, actions[1].edit!.changes![uriOf(A)]);
    assert.equal(objectText, aText.replace('metadata:\n', 'metadata:\n  annotations:\n    kube-netlint.io/ignore: "nodeport-duplicate"\n'));
    client.change(A, objectText);
    await client.waitFor(A, empty);
    await client.waitFor(B, hasCollision);
    const lineText = applyTextEdits(aText, actions[2].edit!.changes![uriOf(A)]);
    assert.equal(lineText, aText.replace('      nodePort: 30080', '      # kube-netlint-disable-next-line nodeport-duplicate\n      nodePort: 30080'));
    client.change(A, lineText);
    await client.waitFor(A, empty);
  });

  it('a syntax error mid-edit yields yaml-syntax (and no crash); fixing it brings the collision back', async () => {
    await client.waitFor(A, hasCollision);
    client.open(A);
    const broken = aText.replace('      nodePort: 30080', '      nodePort: [30080');
    client.change(A, broken);
    const diags = await client.waitFor(A, (d) => rules(d).includes('yaml-syntax'));
    assert.ok(diags.every((d) => d.code === 'yaml-syntax'), JSON.stringify(diags));
    await client.waitFor(B, empty); // a.yaml's Service is unreadable now, so b.yaml has no collision
    assert.notEqual(await client.hover(A, 14, 18), undefined);
    client.change(A, aText);
    await client.waitFor(A, hasCollision);
    await client.waitFor(B, hasCollision);
  });

  it('coalesces a burst of edits and reports the state of the last one', async () => {
    await client.waitFor(A, hasCollision);
    client.open(B);
    for (let i = 0; i < 30; i++) client.change(B, bText.replace('nodePort: 30080', `nodePort: ${30081 + i}`));
    client.change(B, bText);
    client.change(B, bText.replace('nodePort: 30080', 'nodePort: 30099'));
    await client.waitFor(A, empty);
    await client.waitFor(B, empty);
    const published = client.publishCount.get(uriOf(A)) ?? 0;
    assert.ok(published <= 4, `a.yaml published ${published} times for one burst`);
  });
});

type Status = { objects: number; findings: number; errors: number };
function waitForStatus(client: TestClient, accept: (s: Status) => boolean): Promise<void> {
  return new Promise((res, rej) => {
    const started = Date.now();
    const poll = (): void => {
      if (client.statuses.some((s) => accept(s as Status))) return res();
      if (Date.now() - started > 10000) return rej(new Error(`no matching status: ${JSON.stringify(client.statuses)}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

describe('language server code actions: several diagnostics at once', function () {
  this.timeout(30000);
  it('offers each distinct edit once when the request carries diagnostics of one rule on one line', async () => {
    const client = await TestClient.start([fixture('collision')]);
    try {
      const [diag] = await client.waitFor(A, hasCollision);
      const actions = await client.codeActions(A, diag.range, [diag, { ...diag }]);
      assert.deepEqual(actions.map((a) => a.title), [
        'Change nodePort 30080 to free port 30000',
        'Ignore nodeport-duplicate for this object',
        'Ignore nodeport-duplicate on this line',
      ]);
    } finally {
      await client.stop();
    }
  });
});

describe('language server with a client that has the Show Rule Documentation command', function () {
  this.timeout(30000);
  let client: TestClient;
  const A = fixture('collision/a.yaml');
  before(async () => {
    client = await TestClient.start([fixture('collision')], { initializationOptions: { showRuleDocumentationCommand: true } });
  });
  after(() => client.stop());

  it('links "Read more" to the command and offers it as a code action', async () => {
    const [diag] = await client.waitFor(A, (d) => d.length > 0);
    client.open(A);
    const value = ((await client.hover(A, 14, 18))?.contents as { value: string }).value;
    assert.ok(value.includes(`[Read more](command:kubeNetlint.showRuleDocumentation?${encodeURIComponent('["nodeport-duplicate"]')})`), value);
    const actions = await client.codeActions(A, diag.range, [diag]);
    const show = actions.find((a) => a.title === 'Show documentation for nodeport-duplicate')!;
    assert.deepEqual(show.command, { title: 'Show Rule Documentation', command: 'kubeNetlint.showRuleDocumentation', arguments: ['nodeport-duplicate'] });
    assert.equal(show.edit, undefined);
  });
});
