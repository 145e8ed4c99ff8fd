import * as vscode from 'vscode';
import type { HandleDiagnosticsSignature } from 'vscode-languageclient/node';
import { RENDER_URI_SCHEME } from '../../server/src/protocol/render-messages';

/** Squiggle colour (a theme colour's CSS variable), CSS line style and overview-ruler colour of each severity. */
const STYLES: Record<vscode.DiagnosticSeverity, { readonly css: string; readonly line: string; readonly ruler?: string }> = {
  [vscode.DiagnosticSeverity.Error]: { css: '--vscode-editorError-foreground', line: 'wavy', ruler: 'editorOverviewRuler.errorForeground' },
  [vscode.DiagnosticSeverity.Warning]: { css: '--vscode-editorWarning-foreground', line: 'wavy', ruler: 'editorOverviewRuler.warningForeground' },
  [vscode.DiagnosticSeverity.Information]: { css: '--vscode-editorInfo-foreground', line: 'wavy', ruler: 'editorOverviewRuler.infoForeground' },
  [vscode.DiagnosticSeverity.Hint]: { css: '--vscode-editorHint-foreground', line: 'dotted' },
};

/**
 * The findings of the read-only views of rendered manifests (`kube-netlint-rendered:` documents), drawn as editor
 * decorations instead of diagnostics. The server publishes each rendered finding twice: on the source line the
 * user edits and in the view. VS Code lists every diagnostic of its DiagnosticCollection in the Problems panel
 * and offers extensions no way to keep one out of it (microsoft/vscode#44141, #52128), so as diagnostics each
 * rendered finding was listed twice. The client middleware therefore keeps the view's diagnostics out of the
 * collection (Problems lists the source-line one only) and draws them in the view as a squiggle in the severity's
 * colour, with the message, rule and severity in the hover, and a mark in the overview ruler. Other LSP clients
 * (Neovim) still get them as ordinary diagnostics: the server is unchanged.
 */
export class RenderedViewDiagnostics implements vscode.Disposable {
  private readonly byUri = new Map<string, vscode.Diagnostic[]>();
  private readonly types = new Map<vscode.DiagnosticSeverity, vscode.TextEditorDecorationType>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    for (const [severity, style] of Object.entries(STYLES)) {
      this.types.set(Number(severity) as vscode.DiagnosticSeverity, vscode.window.createTextEditorDecorationType({
        textDecoration: `underline ${style.line} var(${style.css})`,
        ...(style.ruler ? { overviewRulerColor: new vscode.ThemeColor(style.ruler), overviewRulerLane: vscode.OverviewRulerLane.Right } : {}),
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
      }));
    }
    this.disposables.push(...this.types.values(), vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.draw(e))));
  }

  /**
   * Client middleware (`handleDiagnostics`): diagnostics of a rendered view are kept (and drawn) here, and the
   * collection gets none for that URI; every other URI passes through to `next` unchanged.
   */
  readonly handleDiagnostics = (uri: vscode.Uri, diagnostics: vscode.Diagnostic[], next: HandleDiagnosticsSignature): void => {
    if (uri.scheme !== RENDER_URI_SCHEME) return next(uri, diagnostics);
    if (diagnostics.length) this.byUri.set(uri.toString(), diagnostics);
    else this.byUri.delete(uri.toString());
    next(uri, []);
    for (const editor of vscode.window.visibleTextEditors) if (editor.document.uri.toString() === uri.toString()) this.draw(editor);
  };

  /** The diagnostics drawn in the view of `uri` (for tests and commands). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.byUri.get(uri.toString()) ?? [];
  }

  private draw(editor: vscode.TextEditor): void {
    if (editor.document.uri.scheme !== RENDER_URI_SCHEME) return;
    const diagnostics = this.byUri.get(editor.document.uri.toString()) ?? [];
    for (const [severity, type] of this.types) {
      editor.setDecorations(type, diagnostics.filter((d) => d.severity === severity).map((d) => ({ range: visibleRange(editor.document, d.range), hoverMessage: hover(d) })));
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.byUri.clear();
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
