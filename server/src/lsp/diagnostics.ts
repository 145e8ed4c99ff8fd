import { Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Range } from 'vscode-languageserver';
import type { Severity } from '../core/config/config';
import type { LoadedFile } from '../core/load/load-file';
import { ruleDocsUrl } from '../core/rules/docs-url';
import type { Finding } from '../core/rules/rule';
import type { Span } from '../core/source/span';
import { isVirtualFile } from '../core/source/span';
import { clusterUri } from '../protocol/cluster-messages';

/** Stored in `Diagnostic.data`: code actions find the finding (and its fixes) by `key`, never by message text. */
export interface DiagnosticData {
  readonly ruleId: string;
  /** `rule|file|start|end|n`: unique among the findings of the last run. */
  readonly key: string;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** What the publisher needs from the workspace: loaded files (for positions) and URIs. */
export interface FileLookup {
  loadedFile(file: string): LoadedFile | undefined;
  uriOf(file: string): string;
}

/** The findings published for one file, and the text they were computed on. */
interface FileEntry {
  readonly text: string;
  readonly findings: ReadonlyMap<string, Finding>;
  readonly json: string;
}

/**
 * Converts findings to LSP diagnostics and pushes `textDocument/publishDiagnostics` only for files
 * whose diagnostics changed (an edit in one file can create or clear a collision in another), and an
 * empty list for files that no longer have findings. Remembers each published finding by key for
 * code actions and hovers.
 */
export class DiagnosticPublisher {
  private readonly entries = new Map<string, FileEntry>();

  constructor(private readonly send: (uri: string, diagnostics: Diagnostic[]) => void) {}

  /**
   * Publishes the findings of a set of files.
   * @param files every file of the analysed folder (files absent from `findingsByFile` get no diagnostics)
   */
  publish(files: Iterable<string>, findingsByFile: ReadonlyMap<string, readonly Finding[]>, lookup: FileLookup): void {
    for (const file of files) {
      const loaded = lookup.loadedFile(file);
      const findings = findingsByFile.get(file) ?? [];
      if (!loaded) continue;
      const byKey = new Map<string, Finding>();
      const diagnostics = findings.map((f) => {
        const key = uniqueKey(byKey, `${f.ruleId}|${file}|${f.span.start}|${f.span.end}`);
        byKey.set(key, f);
        return toDiagnostic(f, key, loaded, lookup);
      });
      const json = JSON.stringify(diagnostics);
      const previous = this.entries.get(file);
      if (!diagnostics.length) this.entries.delete(file);
      else this.entries.set(file, { text: loaded.text, findings: byKey, json });
      if ((previous?.json ?? '[]') !== json) this.send(lookup.uriOf(file), diagnostics);
    }
  }

  /** Clears the diagnostics of files that left the workspace (deleted, excluded, folder removed). */
  clear(files: Iterable<string>, uriOf: (file: string) => string): void {
    for (const file of files) {
      if (this.entries.delete(file)) this.send(uriOf(file), []);
    }
  }

  /** Files that currently have diagnostics. */
  filesWithDiagnostics(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * The finding behind a published diagnostic, if it is still current for `currentText` (the
   * document's text now): a fix computed on older text would edit the wrong offsets, so none is returned.
   */
  findingFor(file: string, key: string, currentText: string): Finding | undefined {
    const entry = this.entries.get(file);
    if (!entry || entry.text !== currentText) return undefined;
    return entry.findings.get(key);
  }

  /** Published findings of a file whose span contains `offset` (only when computed on `currentText`). */
  findingsAt(file: string, offset: number, currentText: string): Finding[] {
    const entry = this.entries.get(file);
    if (!entry || entry.text !== currentText) return [];
    return [...entry.findings.values()].filter((f) => f.span.start <= offset && offset <= Math.max(f.span.end, f.span.start + 1));
  }
}

function uniqueKey(taken: ReadonlyMap<string, unknown>, base: string): string {
  let n = 0;
  while (taken.has(`${base}|${n}`)) n++;
  return `${base}|${n}`;
}

/** LSP range of a span in a loaded file (UTF-16 offsets → 0-based line/character). */
export function rangeOf(span: Span, file: LoadedFile): Range {
  return { start: file.lines.lspPosition(span.start), end: file.lines.lspPosition(span.end) };
}

function toDiagnostic(f: Finding, key: string, loaded: LoadedFile, lookup: FileLookup): Diagnostic {
  const relatedInformation: DiagnosticRelatedInformation[] = [];
  for (const r of f.related) {
    if (r.span.file.startsWith('cluster:')) {
      // A live-cluster object: the client shows it as read-only YAML (issue 7).
      relatedInformation.push({ location: { uri: clusterUri(r.span.file), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, message: r.message });
      continue;
    }
    if (isVirtualFile(r.span.file)) continue;
    const other = lookup.loadedFile(r.span.file);
    if (!other) continue;
    relatedInformation.push({ location: { uri: lookup.uriOf(r.span.file), range: rangeOf(r.span, other) }, message: r.message });
  }
  const data: DiagnosticData = { ruleId: f.ruleId, key };
  return {
    range: rangeOf(f.span, loaded),
    severity: SEVERITY[f.severity],
    source: 'kube-netlint',
    code: f.ruleId,
    codeDescription: { href: ruleDocsUrl(f.ruleId) },
    message: f.message,
    ...(relatedInformation.length ? { relatedInformation } : {}),
    data,
  };
}
