import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ArtifactLocation, Log, ReportingDescriptor, Result } from 'sarif';
import { isVirtualFile } from '../core/source/span';
import type { Region, ResolvedFinding } from '../core/output/resolve';
import type { Rule } from '../core/rules/rule';
import { ruleDocsUrl } from '../core/rules/docs-url';

const LEVEL: Record<string, Result.level> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

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
  return { uri: file.split(/[\\/]/).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

/** SARIF 2.1.0 for code-scanning upload: every rule with its help text, results with regions and related locations. */
export function formatSarif(findings: readonly ResolvedFinding[], rules: readonly Rule[], version: string): string {
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const descriptors: ReportingDescriptor[] = rules.map((r) => ({
    id: r.id,
    name: r.title,
    shortDescription: { text: r.title },
    fullDescription: { text: r.explanation.split('\n\n')[0].replace(/\n/g, ' ') },
    help: { text: r.explanation, markdown: r.explanation },
    helpUri: ruleDocsUrl(r.id),
    defaultConfiguration: { level: LEVEL[r.severity] },
  }));
  const location = (region: Region, message?: string, id?: number) => ({
    ...(id !== undefined ? { id } : {}),
    physicalLocation: {
      artifactLocation: artifactLocation(region.file),
      region: { startLine: region.line, startColumn: region.column, endLine: region.endLine, endColumn: region.endColumn },
    },
    ...(message ? { message: { text: message } } : {}),
  });
  const results: Result[] = findings.map(({ finding, region, related, rendered }) => ({
    ruleId: finding.ruleId,
    ruleIndex: ruleIndex.get(finding.ruleId),
    level: LEVEL[finding.severity],
    message: { text: finding.message },
    locations: [location(region)],
    // A finding on a rendered object: its place in the rendered manifest is one more related location.
    ...(related.length || rendered
      ? { relatedLocations: [...related.map((r, i) => location(r.region, r.message, i + 1)), ...(rendered ? [location(rendered.region, `in the rendered manifest (${rendered.label})`, related.length + 1)] : [])] }
      : {}),
  }));
  const log: Log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [{ tool: { driver: { name: 'kube-netlint', version, informationUri: 'https://github.com/kube-netlint/kube-netlint', rules: descriptors } }, invocations: [{ executionSuccessful: true }], results }],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
