import * as vscode from 'vscode';
import { SHOW_RULE_DOCUMENTATION_COMMAND } from '../../server/src/protocol/messages';

/**
 * "kube-netlint: Show Rule Documentation": opens a rule's page shipped in the extension (docs/rules/<id>.md) in
 * the Markdown preview. With a rule id (hover "Read more" links, code actions) it opens that page; from the
 * palette it lists the rules. Links in the extension page and diagnostics cannot reach these files, a command can.
 */
export function registerRuleDocs(context: vscode.ExtensionContext): vscode.Disposable {
  const docs = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules');
  return vscode.commands.registerCommand(SHOW_RULE_DOCUMENTATION_COMMAND, async (ruleId?: unknown) => {
    let id = typeof ruleId === 'string' && /^[a-z0-9-]+$/.test(ruleId) ? ruleId : undefined;
    if (!id) {
      const entries = await vscode.workspace.fs.readDirectory(docs);
      const items = entries.map(([name]) => name).filter((n) => n.endsWith('.md') && n !== 'README.md').map((n) => ({ label: n.slice(0, -3) }));
      id = (await vscode.window.showQuickPick(items, { placeHolder: 'kube-netlint rule' }))?.label;
      if (!id) return;
    }
    const page = vscode.Uri.joinPath(docs, `${id}.md`);
    try {
      await vscode.workspace.fs.stat(page);
    } catch {
      void vscode.window.showWarningMessage(`kube-netlint: no documentation page for rule ${id}`);
      return;
    }
    await vscode.commands.executeCommand('markdown.showPreview', page);
  });
}

/** Hovers from the server may link to the command above: trust exactly that command in their Markdown. */
export function trustRuleDocLinks(hover: vscode.Hover | null | undefined): vscode.Hover | null | undefined {
  for (const content of hover?.contents ?? []) {
    if (content instanceof vscode.MarkdownString && content.value.includes(`command:${SHOW_RULE_DOCUMENTATION_COMMAND}`)) {
      content.isTrusted = { enabledCommands: [SHOW_RULE_DOCUMENTATION_COMMAND] };
    }
  }
  return hover;
}
