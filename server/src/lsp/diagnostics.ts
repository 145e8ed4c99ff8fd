import { Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Range } from 'vscode-languageserver';
import type { Severity } from '../core/config/config';
import type { LoadedFile } from '../core/load/load-file';
import type { Finding } from '../core/rules/rule';
import type { Span } from '../core/source/span';
import { isVirtualFile } from '../core/source/span';
import { clusterUri } from '../protocol/cluster-messages';
import { ruleDocFileUri } from './rule-doc-links';

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
  /** Everything the published diagnostics were built from (see {@link DiagnosticPublisher.fingerprint}). */
  readonly fingerprint: string;
  /** The inputs of that fingerprint by identity (see {@link sameInputs}). */
  readonly inputs: PublishInputs;
}

/** What one file's diagnostics were built from, by identity: the findings, the file, the related locations' files. */
interface PublishInputs {
  readonly loaded: LoadedFile;
  readonly findings: readonly Finding[];
  /** The loaded file of each related location of each finding, in order (undefined when there is none). */
  readonly related: readonly (LoadedFile | undefined)[];
}

/** The inputs of a file's diagnostics, read once. */
function inputsOf(findings: readonly Finding[], loaded: LoadedFile, lookup: FileLookup): PublishInputs {
  const related: (LoadedFile | undefined)[] = [];
  for (const f of findings) for (const r of f.related) related.push(lookup.loadedFile(r.span.file));
  return { loaded, findings: [...findings], related };
}

/**
 * True when a file's diagnostics would be built from the same objects as before: the same LoadedFile (same text and
 * line index), the same finding objects in the same order, and the same loaded file behind every related location.
 * Findings are not changed after a run, but the kept ones an edit moves (core/workspace/incremental.ts moves them in
 * place): those touch the edited file, whose LoadedFile is new, so they never pass as the same.
 */
function sameInputs(before: PublishInputs, findings: readonly Finding[], loaded: LoadedFile, lookup: FileLookup): boolean {
  if (before.loaded !== loaded || before.findings.length !== findings.length) return false;
  let k = 0;
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i];
    if (f !== before.findings[i]) return false;
    for (const r of f.related) if (lookup.loadedFile(r.span.file) !== before.related[k++]) return false;
  }
  return k === before.related.length;
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
      const previous = this.entries.get(file);
      if (!findings.length) {
        if (previous) {
          this.entries.delete(file);
          this.send(lookup.uriOf(file), []);
        }
        continue;
      }
      // Nothing it is built from changed (most files on an edit): the diagnostics sent stand, no fingerprint to build.
      if (previous && sameInputs(previous.inputs, findings, loaded, lookup)) continue;
      const byKey = new Map<string, Finding>();
      const keys = findings.map((f) => {
        const key = uniqueKey(byKey, `${f.ruleId}|${file}|${f.span.start}|${f.span.end}`);
        byKey.set(key, f);
        return key;
      });
      // Fixes may change without the diagnostics changing (a free port taken elsewhere): keep the new findings.
      const fingerprint = this.fingerprint(findings, loaded, lookup);
      this.entries.set(file, { text: loaded.text, findings: byKey, fingerprint, inputs: inputsOf(findings, loaded, lookup) });
      if (previous?.fingerprint === fingerprint) continue;
      this.send(lookup.uriOf(file), findings.map((f, i) => toDiagnostic(f, keys[i], loaded, lookup)));
    }
  }

  private readonly fileIds = new WeakMap<LoadedFile, number>();
  private nextFileId = 0;

  /**
   * A string that changes whenever the diagnostics built from these findings would: their rule,
   * severity, offsets and message, the related locations, and the identity of every file whose line
   * index converts those offsets (a new LoadedFile object = new text = possibly new positions).
   * Comparing it skips building and sending unchanged diagnostics for most files on each edit.
   */
  private fingerprint(findings: readonly Finding[], loaded: LoadedFile, lookup: FileLookup): string {
    const id = (file: LoadedFile | undefined): number => {
      if (!file) return -1;
      let n = this.fileIds.get(file);
      if (n === undefined) this.fileIds.set(file, (n = this.nextFileId++));
      return n;
    };
    const parts: (string | number)[] = [id(loaded)];
    for (const f of findings) {
      parts.push(f.ruleId, f.severity, f.span.start, f.span.end, f.message, f.related.length, f.rendered ? `${f.rendered.span.file}@${f.rendered.span.start}` : '');
      for (const r of f.related) parts.push(r.span.file, lookup.uriOf(r.span.file), id(lookup.loadedFile(r.span.file)), r.span.start, r.span.end, r.message);
    }
    return parts.join('\u0000');
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
      // A live-cluster object: the field in its read-only view (the lookup knows the views); the first line should the view be gone.
      const view = lookup.loadedFile(r.span.file);
      const range = view ? rangeOf(r.span, view) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      relatedInformation.push({ location: { uri: clusterUri(r.span.file), range }, message: r.message });
      continue;
    }
    if (isVirtualFile(r.span.file)) continue;
    const other = lookup.loadedFile(r.span.file);
    if (!other) continue;
    relatedInformation.push({ location: { uri: lookup.uriOf(r.span.file), range: rangeOf(r.span, other) }, message: r.message });
  }
  // A finding on a rendered object: a link to the field in the read-only view of the rendered manifest.
  const rendered = f.rendered && lookup.loadedFile(f.rendered.span.file);
  if (f.rendered && rendered) relatedInformation.push({ location: { uri: lookup.uriOf(f.rendered.span.file), range: rangeOf(f.rendered.span, rendered) }, message: `in the rendered manifest (${f.rendered.label})` });
  const data: DiagnosticData = { ruleId: f.ruleId, key };
  const docs = ruleDocFileUri(f.ruleId);
  return {
    range: rangeOf(f.span, loaded),
    severity: SEVERITY[f.severity],
    source: 'kube-netlint',
    code: f.ruleId,
    // The rule's page shipped with the server; no link when it is not there (never a dead link).
    ...(docs ? { codeDescription: { href: docs } } : {}),
    message: f.message,
    ...(relatedInformation.length ? { relatedInformation } : {}),
    data,
  };
}
