/**
 * Integration tests through the VS Code API (run by test/vscode/run.ts inside a downloaded VS Code): activation,
 * diagnostics (vscode.languages.getDiagnostics), hover (vscode.executeHoverProvider) and the quick fix
 * (vscode.executeCodeActionProvider) on the e2e fixture: two Services in two files that both claim nodePort 30080.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

const EXTENSION_ID = 'kube-netlint.kube-netlint';
const RULE = 'nodeport-duplicate';

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'test/vscode/run.ts opens the fixture workspace');
  return f.uri;
}
const fileUri = (name: string) => vscode.Uri.joinPath(folder(), name);

/** The diagnostic's code as a string (the server may send `{value, target}` to link the rule's docs). */
const codeOf = (d: vscode.Diagnostic): string => String(typeof d.code === 'object' ? d.code.value : d.code);
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => codeOf(d) === RULE);

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('kube-netlint in VS Code', function () {
  this.timeout(90_000);
  let frontend: vscode.TextDocument;

  before(async () => {
    frontend = await vscode.workspace.openTextDocument(fileUri('frontend.yaml'));
    await vscode.window.showTextDocument(frontend);
  });

  it('activates on a YAML file', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await until('activation', () => (ext.isActive ? true : undefined));
  });

  it(`reports ${RULE} on the exact nodePort value in both files, each naming the other Service`, async () => {
    const [a] = await until('the diagnostic in frontend.yaml', () => (ours(fileUri('frontend.yaml')).length ? ours(fileUri('frontend.yaml')) : undefined));
    const [b] = await until('the diagnostic in payments.yaml', () => (ours(fileUri('payments.yaml')).length ? ours(fileUri('payments.yaml')) : undefined));
    assert.equal(a.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(frontend.getText(a.range), '30080');
    assert.deepEqual([a.range.start.line, a.range.start.character], [33, 16]);
    assert.deepEqual([b.range.start.line, b.range.start.character], [32, 16]);
    assert.match(a.message, /Service shop\/payments/);
    assert.match(b.message, /Service shop\/frontend/);
  });

  it('explains the nodePort in a hover that names the other Service', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', frontend.uri, new vscode.Position(33, 18));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /shop\/payments/);
    assert.match(text, /cluster-wide allocator/);
  });

  it('offers a quick fix that changes only the value and clears both findings', async () => {
    const [diagnostic] = ours(frontend.uri);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider',
      frontend.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => /^Change nodePort 30080 to free port \d+$/.test(a.title));
    assert.ok(fix?.edit, `no quick fix among: ${actions.map((a) => a.title).join(' | ')}`);
    const port = /(\d+)$/.exec(fix.title)![1];
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(frontend.lineAt(33).text, `      nodePort: ${port} # the quick fix changes only this value`);
    await until('both findings to clear', () =>
      (ours(frontend.uri).length === 0 && ours(fileUri('payments.yaml')).length === 0 ? true : undefined));
  });
});
