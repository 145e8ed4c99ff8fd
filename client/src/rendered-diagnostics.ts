import * as vscode from 'vscode';
import type { HandleDiagnosticsSignature } from 'vscode-languageclient/node';
import { RENDER_URI_SCHEME } from '../../server/src/protocol/render-messages';
import { nextFinding } from './finding-steps';
import { ViewCopies } from './view-copies';

/** Commands bound to F8 / Shift+F8 in a rendered view (package.json keybindings), also in the command palette there. */
export const VIEW_FINDING_COMMANDS = { next: 'kubeNetlint.nextFindingInView', previous: 'kubeNetlint.previousFindingInView' } as const;

/**
 * Squiggle colour (a theme colour's CSS variable) and overview-ruler colour of each severity a copy is drawn in
 * (hints stay diagnostics: Problems never lists them).
 */
const STYLES: ReadonlyMap<vscode.DiagnosticSeverity, { readonly css: string; readonly ruler: string }> = new Map([
  [vscode.DiagnosticSeverity.Error, { css: '--vscode-editorError-foreground', ruler: 'editorOverviewRuler.errorForeground' }],
  [vscode.DiagnosticSeverity.Warning, { css: '--vscode-editorWarning-foreground', ruler: 'editorOverviewRuler.warningForeground' }],
  [vscode.DiagnosticSeverity.Information, { css: '--vscode-editorInfo-foreground', ruler: 'editorOverviewRuler.infoForeground' }],
]);

/**
 * The findings of the read-only views of rendered manifests (`kube-netlint-rendered:` documents) that Problems
 * already lists on a source line, drawn as editor decorations instead of diagnostics. The server publishes each
 * rendered finding twice: on the source line the user edits and in the view. VS Code lists every diagnostic of its
 * DiagnosticCollection in the Problems panel and offers extensions no way to keep one out of it
 * (microsoft/vscode#44141, #52128), so as diagnostics each rendered finding was listed twice. The client middleware
 * therefore keeps those copies out of the collection and draws them in the view as an underline in the severity's
 * colour (wavy), with the message, severity and rule in the hover, and a mark in the overview
 * ruler. A view's finding that no source diagnostic links to (a rendered field with no source line) stays a
 * diagnostic: it is listed once, in the view (view-copies.ts decides). Hints pass through too: Problems never lists
 * them. Other LSP clients (Neovim) get every view finding as a diagnostic: the server is unchanged. VS Code's F8
 * visits markers only, so in a view F8 / Shift+F8 are bound to this class's steps over both (finding-steps.ts).
 */
export class RenderedViewDiagnostics implements vscode.Disposable {
  private readonly copies = new ViewCopies<vscode.Diagnostic>((uri) => uri.startsWith(`${RENDER_URI_SCHEME}:`));
  /** View URI → what was last handed to the collection (keys), to skip handing it the same list again. */
  private readonly listedKeys = new Map<string, string>();
  private readonly viewUris = new Map<string, vscode.Uri>();
  private readonly types = new Map<vscode.DiagnosticSeverity, vscode.TextEditorDecorationType>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The collection's setter (the middleware's `next`), kept to re-split a view when a source file's links change. */
  private show?: HandleDiagnosticsSignature;

  constructor() {
    for (const [severity, style] of STYLES) {
      this.types.set(severity, vscode.window.createTextEditorDecorationType({
        textDecoration: `underline wavy var(${style.css})`,
        overviewRulerColor: new vscode.ThemeColor(style.ruler),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
      }));
    }
    this.disposables.push(
      ...this.types.values(),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.draw(e))),
      vscode.commands.registerCommand(VIEW_FINDING_COMMANDS.next, () => this.step(1)),
      vscode.commands.registerCommand(VIEW_FINDING_COMMANDS.previous, () => this.step(-1)),
    );
  }

  /**
   * Client middleware (`handleDiagnostics`): a view's copies of source-line findings are kept (and drawn) here and
   * the rest of its diagnostics go to `next`; every other URI passes through to `next` unchanged, and re-splits
   * the views its diagnostics linked to before or link to now.
   */
  readonly handleDiagnostics = (uri: vscode.Uri, diagnostics: vscode.Diagnostic[], next: HandleDiagnosticsSignature): void => {
    this.show = next;
    const affected = this.copies.update(uri.toString(), diagnostics);
    if (uri.scheme !== RENDER_URI_SCHEME) {
      next(uri, diagnostics);
      for (const view of affected) this.refresh(view, false);
      return;
    }
    this.viewUris.set(uri.toString(), uri);
    this.refresh(uri.toString(), true);
  };

  /** Forgets every view's findings and clears the drawn ones (before the language server restarts). */
  clear(): void {
    this.copies.clear();
    this.listedKeys.clear();
    this.viewUris.clear();
    for (const editor of vscode.window.visibleTextEditors) this.draw(editor);
  }

  /** The view's diagnostics that stay diagnostics (hints among them) and the copies drawn as decorations. */
  private splitOf(view: string): { listed: vscode.Diagnostic[]; drawn: vscode.Diagnostic[] } {
    const { listed, drawn } = this.copies.split(view);
    const isHint = (d: vscode.Diagnostic): boolean => d.severity === vscode.DiagnosticSeverity.Hint;
    return { listed: [...listed, ...drawn.filter(isHint)], drawn: drawn.filter((d) => !isHint(d)) };
  }

  /**
   * F8 (1) / Shift+F8 (-1) in a rendered view: moves the cursor to the next drawn or listed finding (document order,
   * wrapping) and shows its hover, where the message is. Outside a view, or in a view without findings, VS Code's
   * own marker navigation runs as if the keys were not bound.
   */
  private async step(direction: 1 | -1): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const own = direction === 1 ? 'editor.action.marker.next' : 'editor.action.marker.prev';
    if (!editor || editor.document.uri.scheme !== RENDER_URI_SCHEME) return void (await vscode.commands.executeCommand(own));
    const drawn = this.drawnOf(editor.document.uri.toString()).map((d) => ({ start: visibleRange(editor.document, d.range).start }));
    const listed = vscode.languages.getDiagnostics(editor.document.uri).map((d) => ({ start: d.range.start }));
    const target = nextFinding([...drawn, ...listed], editor.selection.active, direction);
    if (!target) return void (await vscode.commands.executeCommand(own));
    const at = new vscode.Position(target.start.line, target.start.character);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    await vscode.commands.executeCommand('editor.action.showHover');
  }

  private drawnOf(view: string): vscode.Diagnostic[] {
    return this.splitOf(view).drawn;
  }

  /** Hands the view's listed diagnostics to the collection (when `force`d or changed) and redraws its editors. */
  private refresh(view: string, force: boolean): void {
    const uri = this.viewUris.get(view);
    if (!uri) return;
    const { listed, drawn } = this.splitOf(view);
    const keys = listed.map((d) => `${d.range.start.line}:${d.range.start.character}:${d.severity}:${d.message}`).join('\u0000');
    if (force || this.listedKeys.get(view) !== keys) this.show?.(uri, listed);
    if (listed.length || drawn.length) this.listedKeys.set(view, keys);
    else {
      this.listedKeys.delete(view);
      this.viewUris.delete(view);
    }
    for (const editor of vscode.window.visibleTextEditors) if (editor.document.uri.toString() === view) this.draw(editor);
  }

  private draw(editor: vscode.TextEditor): void {
    if (editor.document.uri.scheme !== RENDER_URI_SCHEME) return;
    const drawn = this.drawnOf(editor.document.uri.toString());
    for (const [severity, type] of this.types) {
      editor.setDecorations(type, drawn.filter((d) => d.severity === severity).map((d) => ({ range: visibleRange(editor.document, d.range), hoverMessage: hover(d) })));
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.copies.clear();
    this.listedKeys.clear();
    this.viewUris.clear();
  }
}

/** The hover of a drawn finding: its message, as VS Code shows a diagnostic's (`kube-netlint(rule)` after it). */
function hover(d: vscode.Diagnostic): vscode.MarkdownString {
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  const md = new vscode.MarkdownString();
  md.appendText(d.message);
  md.appendText(`\n\n${SEVERITY_NAMES[d.severity]} · ${d.source ?? 'kube-netlint'}${code !== undefined ? `(${String(code)})` : ''}`);
  return md;
}

const SEVERITY_NAMES: Record<vscode.DiagnosticSeverity, string> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** The range itself, or for an empty one the word at it (or one character): a decoration needs a non-empty range. */
function visibleRange(document: vscode.TextDocument, range: vscode.Range): vscode.Range {
  if (!range.isEmpty) return range;
  const word = document.getWordRangeAtPosition(range.start);
  if (word) return word;
  const line = document.lineAt(Math.min(range.start.line, document.lineCount - 1));
  return line.range.isEmpty ? line.range : new vscode.Range(range.start, range.start.translate(0, range.start.character < line.range.end.character ? 1 : 0));
}
