import { createHash } from 'node:crypto';
import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ArtifactChange, ArtifactLocation, Fix, Log, Notification, ReportingDescriptor, Result } from 'sarif';
import type { RuleFailure } from '../core/engine/run-rules';
import { markdownToText } from '../core/output/markdown-text';
import { isVirtualFile, Span } from '../core/source/span';
import type { Region, ResolvedFinding, ResolvedFix } from '../core/output/resolve';
import type { Rule } from '../core/rules/rule';

const LEVEL: Record<string, Result.level> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

/** The key of our `partialFingerprints` (versioned: bump it when the inputs of the fingerprint change). */
export const FINGERPRINT_KEY = 'kubeNetlint/v1';

/** What the SARIF log is made of besides the findings. */
export interface SarifRun {
  /** Every rule (the `tool.driver.rules`), in registry order. */
  readonly rules: readonly Rule[];
  readonly version: string;
  /** The folder relative paths are relative to (the CLI's working directory): `%SRCROOT%`. */
  readonly srcRoot: string;
  /** Rules that threw: the run is then not successful, with one notification each. */
  readonly failures?: readonly RuleFailure[];
  /** The text a span covers (the field's value), an input of the fingerprint. */
  readonly textOf?: (span: Span) => string;
}

/**
 * Where a finding is, as a SARIF artifact location: relative paths as URI references against
 * `%SRCROOT%` (the folder the CLI ran in, which code scanning maps to the repository root), absolute
 * paths as `file://` URIs, virtual files (`builtin:…`, `cluster:…`) as they are (valid URIs), and
 * standard input by description only (it has no URI).
 */
function artifactLocation(file: string): ArtifactLocation {
  if (file === '<stdin>') return { description: { text: 'standard input' } };
  if (isVirtualFile(file)) return { uri: file };
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  // Split on the platform's separators only: on Linux and macOS a backslash is a character of a file name
  // (`a\\b.yaml`), percent-encoded as RFC 3986 asks of a SARIF uri, not a folder separator.
  return { uri: file.split(sep === '\\' ? /[\\/]/ : '/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

/** The folder as a `file://` URI ending in `/` (SARIF §3.14.14: a base URI must end with a slash). */
function folderUri(folder: string): string {
  const href = pathToFileURL(folder).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** A SARIF text region: 1-based lines and columns, `endColumn` the column after the last character (§3.30.2). */
function textRegion(region: Region): { startLine: number; startColumn: number; endLine: number; endColumn: number } {
  return { startLine: region.line, startColumn: region.column, endLine: region.endLine, endColumn: region.endColumn };
}

/**
 * A quick fix as a SARIF `fix` (SARIF 2.1.0 §3.55-3.57): its title as the description, one `artifactChange` per file
 * it edits, one `replacement` per edit in the fix's order, each deleting a text region of the unmodified file (an
 * insertion point when empty) and inserting the new text (absent for a pure deletion, as §3.57.4 allows).
 */
function sarifFix(fix: ResolvedFix): Fix {
  const changes = new Map<string, ArtifactChange>();
  for (const e of fix.edits) {
    let change = changes.get(e.region.file);
    if (!change) changes.set(e.region.file, (change = { artifactLocation: artifactLocation(e.region.file), replacements: [] }));
    change.replacements.push({ deletedRegion: textRegion(e.region), ...(e.newText ? { insertedContent: { text: e.newText } } : {}) });
  }
  return { description: { text: fix.title }, artifactChanges: [...changes.values()] };
}

/**
 * A fingerprint that survives lines moving: rule, file, object (kind/namespace/name) and the text of the
 * field, plus the occurrence number among findings with the same inputs. It never contains a line number.
 */
function fingerprints(findings: readonly ResolvedFinding[], textOf: (span: Span) => string): string[] {
  const seen = new Map<string, number>();
  return findings.map(({ finding }) => {
    const o = finding.object;
    const key = [finding.ruleId, finding.span.file, o ? `${o.kind}/${o.namespace}/${o.name}` : '', textOf(finding.span)].join('\0');
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return `${createHash('sha256').update(key).digest('hex').slice(0, 32)}:${occurrence}`;
  });
}

/**
 * SARIF 2.1.0 for code-scanning upload: every rule with its help (plain `text` and `markdown`; code scanning
 * shows the markdown, so the log needs no `helpUri` and has none: a rule's page ships with the CLI, not on a web
 * site, and a URI on the machine that ran the lint would be dead wherever the log is read), results
 * with regions, related locations, quick fixes (`fixes`, the edits of the JSON output's `quickFixes`) and
 * `partialFingerprints` under {@link FINGERPRINT_KEY}, `%SRCROOT%` in
 * `originalUriBaseIds`, and `executionSuccessful: false` with a notification per rule that failed; a finding on a
 * live-cluster object (`--cluster`) is a notification too, since it has no file of the repository.
 */
export function formatSarif(findings: readonly ResolvedFinding[], run: SarifRun): string {
  const ruleIndex = new Map(run.rules.map((r, i) => [r.id, i]));
  const descriptors: ReportingDescriptor[] = run.rules.map((r) => {
    const firstParagraph = r.explanation.split('\n\n')[0];
    return {
      id: r.id,
      name: r.title,
      shortDescription: { text: markdownToText(r.title) },
      fullDescription: { text: markdownToText(firstParagraph).replace(/\n/g, ' '), markdown: firstParagraph },
      help: { text: markdownToText(r.explanation), markdown: r.explanation },
      defaultConfiguration: { level: LEVEL[r.severity] },
    };
  });
  const location = (region: Region, message?: string, id?: number) => ({
    ...(id !== undefined ? { id } : {}),
    physicalLocation: {
      artifactLocation: artifactLocation(region.file),
      region: textRegion(region),
    },
    ...(message ? { message: { text: message } } : {}),
  });
  const prints = fingerprints(findings, run.textOf ?? (() => ''));
  // A finding whose place is a live-cluster object (`--cluster`) has no file of the repository to sit on: code
  // scanning cannot show it as a result, so it is a notification of the run, with its rule and where it is. The
  // workspace side of the same collision is a result of its own (naming the cluster object as related).
  const inCluster = ({ region }: ResolvedFinding): boolean => region.file.startsWith('cluster:');
  const clusterNotifications: Notification[] = findings.filter(inCluster).map(({ finding, region }) => ({
    level: LEVEL[finding.severity],
    message: { text: `${finding.message} (on the live-cluster object ${region.file})` },
    ...(ruleIndex.has(finding.ruleId) ? { associatedRule: { id: finding.ruleId, index: ruleIndex.get(finding.ruleId) } } : {}),
  }));
  const results: Result[] = findings.map(({ finding, region, related, fixes, rendered }, i) => ({
    ruleId: finding.ruleId,
    ruleIndex: ruleIndex.get(finding.ruleId),
    level: LEVEL[finding.severity],
    message: { text: finding.message },
    locations: [location(region)],
    partialFingerprints: { [FINGERPRINT_KEY]: prints[i] },
    // A finding on a rendered object: its place in the rendered manifest is one more related location.
    ...(related.length || rendered
      ? { relatedLocations: [...related.map((r, j) => location(r.region, r.message, j + 1)), ...(rendered ? [location(rendered.region, `in the rendered manifest (${rendered.label})`, related.length + 1)] : [])] }
      : {}),
    ...(fixes.length ? { fixes: fixes.map(sarifFix) } : {}),
  })).filter((_, i) => !inCluster(findings[i]));
  const failures = run.failures ?? [];
  const ruleFailures: Notification[] = failures.map((f) => ({
    level: 'error',
    message: { text: `rule ${f.ruleId} failed and was skipped: ${f.error.split('\n')[0]}` },
    ...(ruleIndex.has(f.ruleId) ? { associatedRule: { id: f.ruleId, index: ruleIndex.get(f.ruleId) } } : {}),
  }));
  const notifications = [...ruleFailures, ...clusterNotifications];
  const log: Log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'kube-netlint', version: run.version, semanticVersion: run.version, rules: descriptors } },
        invocations: [{ executionSuccessful: failures.length === 0, ...(notifications.length ? { toolExecutionNotifications: notifications } : {}) }],
        originalUriBaseIds: { '%SRCROOT%': { uri: folderUri(run.srcRoot) } },
        // Columns count UTF-16 code units, as the text report and the LSP do; SARIF's default is Unicode code
        // points, which would move every region after an emoji or other astral character (SARIF 2.1.0 §3.14.17).
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
