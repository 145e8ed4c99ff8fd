import { CodeAction, CodeActionKind, CodeActionParams, Diagnostic, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { IGNORE_ANNOTATION } from '../core/engine/suppress';
import { ignoreListHas } from '../core/engine/run-rules';
import { loadFile, LoadedFile } from '../core/load/load-file';
import { mayHoldLostBytes } from '../core/load/manifest-bytes';
import type { Finding, Fix } from '../core/rules/rule';
import { isJsonManifest, staysJson } from '../core/rules/fixes/json-manifest';
import { SHOW_RULE_DOCUMENTATION_COMMAND } from '../protocol/messages';
import type { DiagnosticData } from './diagnostics';
import { applyOffsetEdits, ignoreLineEdit, ignoreObjectEdit, OffsetEdit } from './ignore-edits';

/** What code actions need from the server. */
export interface CodeActionContext {
  readonly file: string;
  /** The document's current text. */
  readonly text: string;
  /** The published finding behind a diagnostic (undefined when stale). */
  findingFor(key: string): Finding | undefined;
  /** For clients that drop `Diagnostic.data`: the published finding of that rule starting at the position. */
  findingAt(ruleId: string, position: { line: number; character: number }): Finding | undefined;
  /** The text a file had when the last analysis ran, and its text now (for files a fix edits). */
  analysedFile(file: string): LoadedFile | undefined;
  currentText(file: string): string | undefined;
  uriOf(file: string): string;
  /** The client registers the "Show Rule Documentation" command: offer it on every finding. */
  readonly ruleDocsCommand?: boolean;
}

/** Rules about the file as a whole, where "ignore" actions make no sense. */
const NOT_IGNORABLE = new Set(['yaml-syntax', 'file-skipped']);

/**
 * Quick fixes for kube-netlint diagnostics in the request's context: each finding's fixes (found via
 * `Diagnostic.data.key`, or rule id + start position when a client drops `data`; never by message), then "Ignore <rule> for this object" and "Ignore <rule> on
 * this line". A fix is offered only when every file it edits still has the text it was computed on,
 * and an ignore edit only when re-loading the edited text shows it parses and takes effect.
 */
export function codeActions(params: CodeActionParams, ctx: CodeActionContext): CodeAction[] {
  const out: CodeAction[] = [];
  for (const diagnostic of params.context.diagnostics) {
    const data = diagnostic.data as DiagnosticData | undefined;
    if (diagnostic.source !== 'kube-netlint' || typeof diagnostic.code !== 'string') continue;
    const finding = data?.key ? ctx.findingFor(data.key) : ctx.findingAt(diagnostic.code, diagnostic.range.start);
    if (!finding) continue;
    for (const fix of finding.fixes) {
      const edit = fixEdit(fix, ctx);
      if (edit) out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: fix.preferred === true, edit });
    }
    if (ctx.ruleDocsCommand) {
      out.push({ title: `Show documentation for ${finding.ruleId}`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], command: { title: 'Show Rule Documentation', command: SHOW_RULE_DOCUMENTATION_COMMAND, arguments: [finding.ruleId] } });
    }
    if (NOT_IGNORABLE.has(finding.ruleId) || mayHoldLostBytes(ctx.text)) continue;
    const objectEdit = finding.object && finding.object.uid.startsWith(`${ctx.file}#`) ? checkedObjectEdit(ctx, finding) : undefined;
    if (objectEdit) out.push(action(`Ignore ${finding.ruleId} for this object`, diagnostic, ctx, objectEdit));
    // JSON has no comments: the line-comment ignore is for YAML only.
    const lineEdit = isJsonManifest(ctx.file) ? undefined : checkedLineEdit(ctx, finding);
    if (lineEdit) out.push(action(`Ignore ${finding.ruleId} on this line`, diagnostic, ctx, lineEdit));
  }
  // Several diagnostics of one rule on one line or object would offer the same ignore edit twice.
  const seen = new Set<string>();
  return out.filter((a) => {
    const key = `${a.title}\n${JSON.stringify(a.edit)}`;
    return !seen.has(key) && !!seen.add(key);
  });
}

function action(title: string, diagnostic: Diagnostic, ctx: CodeActionContext, edit: OffsetEdit): CodeAction {
  const lines = loadFile(ctx.file, ctx.text).lines;
  const textEdit: TextEdit = { range: { start: lines.lspPosition(edit.start), end: lines.lspPosition(edit.end) }, newText: edit.newText };
  return { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: { changes: { [ctx.uriOf(ctx.file)]: [textEdit] } } };
}

/** The fix as a WorkspaceEdit, or undefined when a file it edits changed since the analysis. */
function fixEdit(fix: Fix, ctx: CodeActionContext): WorkspaceEdit | undefined {
  const changes: Record<string, TextEdit[]> = {};
  for (const e of fix.edits) {
    const analysed = ctx.analysedFile(e.span.file);
    if (!analysed || ctx.currentText(e.span.file) !== analysed.text || mayHoldLostBytes(analysed.text)) return undefined;
    const uri = ctx.uriOf(e.span.file);
    (changes[uri] ??= []).push({ range: { start: analysed.lines.lspPosition(e.span.start), end: analysed.lines.lspPosition(e.span.end) }, newText: e.newText });
  }
  return Object.keys(changes).length ? { changes } : undefined;
}

function checkedObjectEdit(ctx: CodeActionContext, finding: Finding): OffsetEdit | undefined {
  const uid = finding.object!.uid;
  const json = isJsonManifest(ctx.file);
  const edit = ignoreObjectEdit(ctx.text, uid, finding.ruleId, json);
  if (!edit) return undefined;
  const before = loadFile(ctx.file, ctx.text);
  const after = loadFile(ctx.file, applyOffsetEdits(ctx.text, [edit]));
  const obj = after.objects.find((o) => o.uid === uid);
  const ignored = obj?.annotations[IGNORE_ANNOTATION];
  const ok = after.problems.length <= before.problems.length && after.objects.length === before.objects.length && ignored !== undefined && ignoreListHas(ignored, finding.ruleId);
  return ok && (!json || staysJson(ctx.text, after.text)) ? edit : undefined;
}

function checkedLineEdit(ctx: CodeActionContext, finding: Finding): OffsetEdit | undefined {
  const edit = ignoreLineEdit(ctx.text, finding.span.start, finding.ruleId);
  if (!edit) return undefined;
  const before = loadFile(ctx.file, ctx.text);
  const after = loadFile(ctx.file, applyOffsetEdits(ctx.text, [edit]));
  const shifted = finding.span.start + (edit.start <= finding.span.start ? edit.newText.length - (edit.end - edit.start) : 0);
  const ids = after.suppressions.get(after.lines.position(shifted).line);
  const ok = after.problems.length <= before.problems.length && after.objects.length === before.objects.length && !!ids && ids.has(finding.ruleId);
  return ok ? edit : undefined;
}

