import { Hover, MarkupKind } from 'vscode-languageserver';
import { Analysis, modelsForFile } from '../core/analyze';
import type { WorkspaceModel } from '../core/model/workspace-model';
import type { LoadedFile } from '../core/load/load-file';
import { describe, K8sObject, WorkloadObject } from '../core/model/objects';
import { ruleById } from '../core/rules/index';
import type { Finding } from '../core/rules/rule';
import type { Span } from '../core/source/span';
import { isVirtualFile } from '../core/source/span';
import { clusterUri } from '../protocol/cluster-messages';
import { explainField, HOVER_FIELDS } from './hover-fields';
import { ruleDocLink, ruleSummary } from './rule-doc-links';
import { fieldAt } from './yaml-field';
import { portChainSection } from './port-chain-hover';

/** What a hover needs from the server. */
export interface HoverContext {
  readonly file: string;
  /** The document's current text. */
  readonly text: string;
  readonly offset: number;
  /** The last analysis of the file's folder (may lag the text by one debounce interval). */
  readonly analysis: Analysis | undefined;
  /** Published findings whose range contains the offset. */
  readonly findings: readonly Finding[];
  loadedFile(file: string): LoadedFile | undefined;
  uriOf(file: string): string;
  /** A link that opens the client's node-port map on a port (absent when the client has no such view). */
  readonly portMapLink?: (port: number) => string;
  /** The client registers the "Show Rule Documentation" command (see rule-doc-links.ts). */
  readonly ruleDocsCommand?: boolean;
}

const SERVICE_FIELDS = new Set(['nodePort', 'port', 'targetPort', 'healthCheckNodePort', 'externalTrafficPolicy', 'internalTrafficPolicy', 'externalIPs', 'type']);

/**
 * Hover markdown: what the field's value does on a node, "also used by" lines for every other object
 * claiming the same number (from the model's nodePorts / hostPorts / servicePorts indexes, so O(claims
 * of that number)); on a finding's range, first the rule's title, a 2-4 line summary and "Read more" (the
 * editor shows the finding's message above the hover). Null when there is nothing to say.
 */
export function hoverAt(ctx: HoverContext): Hover | null {
  const parts: string[] = [];
  const field = fieldAt(ctx.text, ctx.offset);
  let range: { start: number; end: number } | undefined;
  if (field && HOVER_FIELDS.has(field.key)) {
    const obj = ctx.analysis?.model.objects.find((o) => o.file === ctx.file && o.extent.start <= ctx.offset && ctx.offset <= o.extent.end);
    const expected = SERVICE_FIELDS.has(field.key) ? 'service' : 'workload';
    if (obj && obj.category === expected) {
      const hostNetwork = obj.category === 'workload' && obj.pod.hostNetwork?.value === true;
      const text = explainField(field.key, field.value, hostNetwork);
      if (text) {
        parts.push(text);
        range = field;
        const users = typeof field.value === 'number' ? alsoUsedBy(ctx, field.key, field.value, { file: ctx.file, start: field.start, end: field.end }, obj) : [];
        if (users.length) parts.push(`Also used by:\n\n${alsoUsedByList(users)}`);
        const nodeLevel = ['nodePort', 'healthCheckNodePort', 'hostPort'].includes(field.key) || (field.key === 'containerPort' && hostNetwork);
        if (ctx.portMapLink && nodeLevel && typeof field.value === 'number') parts.push(`[Show port ${field.value} in the node-port map](${ctx.portMapLink(field.value)})`);
      }
    }
  }
  const chain = portChainHover(ctx);
  if (chain) {
    parts.push(chain.text);
    range ??= chain.range;
  }
  // On a finding (its message is the diagnostic's, which the editor shows first): a short explanation and a link to
  // the rule's page, right under the message — before the field's details, so the link is on screen in a short hover.
  const rules: string[] = [];
  for (const ruleId of new Set(ctx.findings.map((f) => f.ruleId))) {
    const rule = ruleById(ruleId);
    if (!rule) continue;
    const link = ruleDocLink(rule.id, ctx.ruleDocsCommand === true);
    rules.push(`**${rule.title}** (\`${rule.id}\`)\n\n${ruleSummary(rule.explanation)}${link ? `\n\n[Read more](${link})` : ''}`);
  }
  if (!parts.length && !rules.length) return null;
  const file = ctx.loadedFile(ctx.file);
  const value = [...rules, ...(rules.length && parts.length ? ['---'] : []), ...parts].join('\n\n');
  const hover: Hover = { contents: { kind: MarkupKind.Markdown, value } };
  if (range && file && file.text === ctx.text) hover.range = { start: file.lines.lspPosition(range.start), end: file.lines.lspPosition(range.end) };
  return hover;
}

/** The port chain of the field under the cursor, when the analysis read the text the hover is asked on. */
function portChainHover(ctx: HoverContext): { text: string; range: Span } | undefined {
  if (!ctx.analysis || ctx.loadedFile(ctx.file)?.text !== ctx.text) return undefined;
  const obj = ctx.analysis.model.objects.find((o) => o.file === ctx.file && o.extent.start <= ctx.offset && ctx.offset <= o.extent.end);
  return obj ? portChainSection(ctx.analysis, ctx.file, obj, ctx.offset, (span) => link(ctx, span)) : undefined;
}

/** Lines naming the other claims of the same number, each with a file:line link. */
function alsoUsedBy(ctx: HoverContext, key: string, port: number, here: Span, obj: K8sObject): string[] {
  if (!ctx.analysis) return [];
  const out: string[] = [];
  const seen = new Set<string>([`${here.file}#${here.start}`]);
  const add = (span: Span, what: string): void => {
    const key = `${span.file}#${span.start}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(`${what} — ${link(ctx, span)}`);
  };
  // Only objects of the file's own cluster(s) count (overlays are separate clusters: dev's Service is not "also used by" prod's).
  for (const model of modelsForFile(ctx.analysis, ctx.file)) alsoUsedIn(model, key, port, obj, add);
  return out;
}

function alsoUsedIn(model: WorkspaceModel, key: string, port: number, obj: K8sObject, add: (span: Span, what: string) => void): void {
  const nodePorts = (): void => model.nodePorts.get(port)?.forEach((c) => add(c.span, `${c.field} ${port}/${c.protocol} of ${describe(c.service)}`));
  const hostPorts = (): void =>
    model.hostPorts.get(port)?.forEach((c) => add(c.span, `${c.hostNetwork ? 'hostNetwork port' : 'hostPort'} ${port}/${c.protocol} of ${describe(c.workload)} (container ${c.container.name})`));
  if (key === 'nodePort' || key === 'healthCheckNodePort' || key === 'hostPort' || (key === 'containerPort' && isHostNetwork(obj))) {
    nodePorts();
    hostPorts();
  } else if (key === 'port') {
    model.servicePorts.get(port)?.forEach((c) => add(c.span, `port ${port}/${c.protocol} of ${describe(c.service)}`));
  } else if (key === 'targetPort' && obj.category === 'service') {
    for (const w of model.selectedWorkloads(obj)) {
      for (const c of w.pod.containers) {
        for (const cp of c.ports) if (cp.containerPort?.value === port) add(cp.containerPort.span, `containerPort ${port} of ${describe(w)} (container ${c.name})`);
      }
    }
  }
}

/** Lines shown in "Also used by" (e.g. Service port 80 is in most Services of a workspace). */
export const MAX_ALSO_USED_BY = 10;

function alsoUsedByList(users: readonly string[]): string {
  const shown = users.slice(0, MAX_ALSO_USED_BY).map((u) => `- ${u}`);
  if (users.length > MAX_ALSO_USED_BY) shown.push(`- … and ${users.length - MAX_ALSO_USED_BY} more`);
  return shown.join('\n');
}

function isHostNetwork(obj: K8sObject): boolean {
  return obj.category === 'workload' && (obj as WorkloadObject).pod.hostNetwork?.value === true;
}

/** `[file.yaml:12](file:///…/file.yaml#L12)`; built-in objects have no file to link. */
function link(ctx: HoverContext, span: Span): string {
  // Live-cluster objects link to the field in their read-only YAML view.
  if (span.file.startsWith('cluster:')) {
    const view = ctx.loadedFile(span.file);
    return `[${span.file}${view ? `:${view.lines.position(span.start).line}` : ''}](${clusterUri(span.file)}${view ? `#L${view.lines.position(span.start).line}` : ''})`;
  }
  if (isVirtualFile(span.file)) return span.file.startsWith('builtin:') ? '(built in to every cluster)' : span.file;
  const file = ctx.loadedFile(span.file);
  const line = file ? file.lines.position(span.start).line : 1;
  const name = span.file.split(/[\\/]/).pop() ?? span.file;
  return `[${name}:${line}](${ctx.uriOf(span.file)}#L${line})`;
}
