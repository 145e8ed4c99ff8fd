import { posix } from 'node:path';
import { Document, isScalar, parseAllDocuments } from 'yaml';
import { LoadedFile, loadFile, PARSE_OPTIONS } from '../load/load-file';
import type { HelmChart, RepoPath } from '../repo/layout';
import type { Span } from '../source/span';
import type { HelmJob } from './jobs';
import { RENDER_FILE_PREFIX } from './jobs';
import type { SentinelPlan, ValueLeaf } from './helm-values';
import type { TemplateWriting } from '../source/string-number';
import { Attribution, MappedNode, RenderSourceMap, sortNodes, sourceTextsOf } from './source-map';
import { regionsOfObjects, TemplateRegion, templateRegions } from './template-regions';
import { at, identityOf, scalarText, spanOf, walkTree } from './tree-walk';

export interface HelmMapInput {
  readonly job: HelmJob;
  /** Standard output of the release's `helm template`. */
  readonly output: string;
  /** Output of the same render with sentinel numbers (see helm-values.ts), when it ran and succeeded. */
  readonly sentinelOutput?: string;
  readonly plan?: SentinelPlan;
  /** The release's merged values, with where each is written. */
  readonly leaves: ReadonlyMap<string, ValueLeaf>;
  readonly files: ReadonlyMap<string, LoadedFile>;
  readonly repoPath: RepoPath;
  /** Charts of the workspace (to find a subchart's folder from its name in `# Source:`). */
  readonly charts: readonly HelmChart[];
}

/**
 * Turns `helm template` output into a loaded manifest whose fields point back at what the user edits, best first:
 * the values line that sets the value (proved by the sentinel render: the field took the key's sentinel, and the
 * key's real value is what was rendered; or, for strings, the only values key with that exact value), the template
 * line that writes it literally (`key: value` on one line of the template named by the document's `# Source:`
 * comment, helm pkg/action/action.go), else the template's first line. Objects without a namespace get the
 * release's namespace, as `helm install --namespace` would.
 */
export function mapHelmOutput(input: HelmMapInput): { file: LoadedFile } {
  const { job, files, repoPath } = input;
  const name = `${RENDER_FILE_PREFIX}${job.id}`;
  const rawDocs = splitDocuments(input.output);
  const text = rawDocs.map((d) => `---\n${d.source ? `# Source: ${d.source}\n` : ''}${d.text}`).join('');
  const loaded = loadFile(name, text, { defaultNamespace: job.namespace });
  const docs = parseAllDocuments(text, { ...PARSE_OPTIONS }) as Document.Parsed[];
  const byPath = new Map([...files.values()].map((f) => [repoPath(f.file), f]));
  // The sentinel render's objects by identity, and by template, kind and position (a name a number feeds differs there).
  const sentinelDocs = input.sentinelOutput ? splitDocuments(input.sentinelOutput) : [];
  const sentinelByIdentity = new Map<string, unknown>();
  const sentinelByPlace = new Map<string, unknown[]>();
  for (const d of sentinelDocs) {
    const root = parseAllDocuments(d.text, { ...PARSE_OPTIONS })[0]?.contents;
    const id = identityOf(root);
    if (!id.kind) continue;
    sentinelByIdentity.set(`${id.kind}/${id.namespace ?? ''}/${id.name ?? ''}`, root);
    const place = `${d.source ?? ''}\u0000${id.kind}`;
    sentinelByPlace.set(place, [...(sentinelByPlace.get(place) ?? []), root]);
  }
  // Which template document each object came from, per template and kind (see template-regions.ts).
  const places = docs.map((doc, i) => {
    const id = identityOf(doc.contents);
    return { key: `${rawDocs[i]?.source ?? ''}\u0000${id.kind ?? ''}`, id };
  });
  const regionOf = new Map<number, TemplateRegion | undefined>();
  const nthOfPlace = new Map<number, number>();
  const byPlace = new Map<string, number[]>();
  places.forEach((p, i) => byPlace.set(p.key, [...(byPlace.get(p.key) ?? []), i]));
  for (const [, list] of byPlace) {
    list.forEach((i, n) => nthOfPlace.set(i, n));
    const template = templateFile(rawDocs[list[0]]?.source, job, input.charts, byPath);
    if (!template) continue;
    const regions = templateRegions(template.text);
    const assigned = regionsOfObjects(regions, places[list[0]].id.kind, list.map((i) => places[i].id.name));
    list.forEach((i, n) => regionOf.set(i, assigned[n] !== undefined ? regions[assigned[n]!] : undefined));
  }
  // String values that exactly one values key holds (an equality match is only trusted when unique).
  const stringOwners = new Map<string, ValueLeaf | null>();
  for (const leaf of input.leaves.values()) {
    if (typeof leaf.value !== 'string' || leaf.value.length < 2 || !leaf.span) continue;
    stringOwners.set(leaf.value, stringOwners.has(leaf.value) ? null : leaf);
  }
  const nodes: MappedNode[] = [];
  const documents: RenderSourceMap['documents'][number][] = [];
  docs.forEach((doc, i) => {
    const root = doc.contents;
    const range = (root as { range?: [number, number, number] } | null)?.range;
    if (!range) return;
    const source = rawDocs[i]?.source;
    const template = templateFile(source, job, input.charts, byPath);
    const id = identityOf(root);
    // A template with several documents (`---`): look only inside the one this object came from; when that cannot
    // be told, no template line is guessed (a literal of another document would be an unrelated line).
    const region = regionOf.get(i);
    const fallback = template ? (region ? kindLine(template, id.kind, region) : firstLineOf(template)) : job.anchor;
    documents.push({ start: range[0], end: range[2], fallback });
    const samePlace = sentinelByPlace.get(places[i].key) ?? [];
    const placed = samePlace.length === byPlace.get(places[i].key)?.length ? samePlace[nthOfPlace.get(i) ?? 0] : undefined;
    const sentinelRoot = sentinelByIdentity.get(`${id.kind}/${id.namespace ?? ''}/${id.name ?? ''}`) ?? placed;
    const templateLines = template && region ? template.text.slice(region.start, region.end).split('\n') : [];
    const regionStart = region?.start ?? 0;
    walkTree(root, (node, path, isKey) => {
      if (isKey || !isScalar(node)) return;
      const span = spanOf(name, node);
      const value = scalarText(node);
      if (!span || value === undefined) return;
      let mapped: { source: Span; via: Attribution; writtenBy?: TemplateWriting } | undefined;
      const probe = sentinelRoot !== undefined ? scalarText(at(sentinelRoot, path)) : undefined;
      const key = probe !== undefined && /^\d+$/.test(probe) ? input.plan?.keyOfSentinel.get(Number(probe)) : undefined;
      const leaf = key !== undefined ? input.leaves.get(key) : undefined;
      const fieldKey = [...path].reverse().find((p) => typeof p === 'string') as string | undefined;
      const owner = typeof node.value === 'string' ? stringOwners.get(node.value) : undefined;
      const from = leaf?.span && String(leaf.value) === value ? leaf : owner?.span ? owner : undefined;
      if (from?.span) {
        // Only a number, a boolean or a string that reads as one gets advice on how it is written (quotes, a tag).
        const advisable = typeof node.value !== 'string' || /^[-+]?\d/.test(node.value);
        const written = advisable && template && fieldKey !== undefined && typeof path[path.length - 1] === 'string' ? templatedLine(template, templateLines, fieldKey, regionStart) : undefined;
        const writtenBy = advisable && source ? templateWriting(from, node.value, written && lineAt(template!.text, written), source) : undefined;
        mapped = { source: from.span, via: 'values', ...(writtenBy ? { writtenBy } : {}) };
      }
      if (!mapped && template) {
        const lit = fieldKey !== undefined && typeof path[path.length - 1] === 'string' ? literalLine(template, templateLines, fieldKey, value, regionStart) : undefined;
        if (lit) mapped = { source: lit, via: 'literal' };
        // The one line of the object's template document that writes the field with a template action.
        const written = !lit && fieldKey !== undefined && typeof path[path.length - 1] === 'string' ? templatedLine(template, templateLines, fieldKey, regionStart) : undefined;
        // A number the template's own quoting makes a string (`{{ .Values.skew | quote }}` of a small count, which
        // no sentinel traces to its values key): the advice is about that quoting, in this template.
        const writtenBy = written && source && typeof node.value === 'string' && /^[-+]?\d/.test(node.value) ? quotingWriting(lineAt(template.text, written), source) : undefined;
        if (written) mapped = { source: written, via: 'template', ...(writtenBy ? { writtenBy } : {}) };
      }
      if (mapped) nodes.push({ start: span.start, end: span.end, ...mapped });
    });
  });
  const map: RenderSourceMap = { nodes: sortNodes(nodes), documents };
  return { file: { ...loaded, render: { jobId: job.id, label: job.label, map, sourceTexts: sourceTextsOf(map, files) } } };
}

/** Documents of helm output with the template each came from (helm writes `# Source: <chart>/templates/<file>` above each). */
function splitDocuments(output: string): { source?: string; text: string }[] {
  const parsed = parseAllDocuments(output, { ...PARSE_OPTIONS, uniqueKeys: false }) as Document.Parsed[];
  const out: { source?: string; text: string }[] = [];
  for (const doc of Array.isArray(parsed) ? parsed : []) {
    if (doc.contents === null || doc.contents === undefined) continue;
    // The comment sits on the document, or on its first node when it follows a `---` line.
    const contents = doc.contents as { commentBefore?: string | null };
    const m = /Source: (.+)/.exec(doc.commentBefore ?? '') ?? /Source: (.+)/.exec(contents.commentBefore ?? '');
    doc.commentBefore = null;
    if (/Source: /.test(contents.commentBefore ?? '')) contents.commentBefore = null;
    if (doc.directives) doc.directives.docStart = null; // the caller writes one `---` per document
    out.push({ source: m?.[1]?.trim(), text: doc.toString({ lineWidth: 0 }) });
  }
  return out;
}

/** The template file of a `# Source:` path: the chart name is dropped, `charts/<subchart name>/` resolved to its folder. */
function templateFile(source: string | undefined, job: HelmJob, charts: readonly HelmChart[], byPath: ReadonlyMap<string, LoadedFile>): LoadedFile | undefined {
  if (!source) return undefined;
  let dir = job.chartDir;
  let rest = source.split('/').slice(1);
  while (rest[0] === 'charts' && rest.length > 2) {
    const subName = rest[1];
    const sub = charts.find((c) => c.name === subName && posix.dirname(posix.dirname(c.dir)) === dir) ?? charts.find((c) => c.dir === posix.join(dir, 'charts', subName));
    dir = sub?.dir ?? posix.join(dir, 'charts', subName);
    rest = rest.slice(2);
  }
  return byPath.get(posix.normalize(posix.join(dir, rest.join('/'))));
}

/**
 * Whether the chart's template, not the values file, decides how a value of `leaf` is written in the render (see
 * {@link TemplateWriting}): the rendered value has another type than the values file's (`port: 8080` rendered
 * `"8080"`, `label: "80"` rendered `80`), or the template line that writes the field prints the value with an
 * action (`containerPort: {{ .Values.port | quote }}`, `port: "{{ .port }}"`). An action that passes the value
 * through `toYaml` / `toJson` / `tpl` writes it as YAML or JSON of its type, as the values file decides.
 * @param line the template line writing the field with an action, when exactly one does
 * @param source the document's `# Source:` path (`<chart>/templates/deployment.yaml`)
 */
function templateWriting(leaf: ValueLeaf, rendered: unknown, line: string | undefined, source: string): TemplateWriting | undefined {
  const retyped = typeof leaf.value !== typeof rendered;
  const name = [...leaf.path].reverse().find((p) => typeof p === 'string') as string | undefined;
  const prints = line !== undefined && name !== undefined && line.includes(`.${name}`) && !WRITES_AS_DATA.test(line);
  if (!retyped && !prints) return undefined;
  const quoting = prints ? quotingOf(line!) : undefined;
  return { template: templatePath(source), ...(quoting ? { quoting } : {}) };
}

/** How a template line quotes the value its action prints: `| quote`, `quote` (called), `"{{ }}"`; undefined for none. */
function quotingOf(line: string): string | undefined {
  const piped = /\|\s*(s?quote)\b/.exec(line)?.[1];
  const called = /\{\{-?\s*(s?quote)\s/.exec(line)?.[1];
  const quoted = /(["'])\{\{/.exec(line)?.[1];
  return piped ? `| ${piped}` : called ?? (quoted ? `${quoted}{{ }}${quoted}` : undefined);
}

/**
 * The {@link TemplateWriting} of a template line that quotes the value it prints (`maxSkew: {{ .Values.skew | quote }}`),
 * for a rendered value no values key is traced to; undefined when the line does not quote it, or passes it through
 * `toYaml` / `toJson` / `tpl` (which write it as its type).
 */
function quotingWriting(line: string, source: string): TemplateWriting | undefined {
  if (WRITES_AS_DATA.test(line)) return undefined;
  const quoting = quotingOf(line);
  return quoting ? { template: templatePath(source), quoting } : undefined;
}

/** Template functions that write a value as YAML or JSON of its type (the values file decides how it is written). */
const WRITES_AS_DATA = /\b(toYaml|toJson|toPrettyJson|toRawJson|tpl)\b/;

/** The template's path in its chart from a document's `# Source:` path (`web/templates/d.yaml` → `templates/d.yaml`). */
function templatePath(source: string): string {
  return source.split('/').slice(1).join('/');
}

/** The whole line of `text` that `span` starts on. */
function lineAt(text: string, span: Span): string {
  const start = text.lastIndexOf('\n', span.start - 1) + 1;
  const end = text.indexOf('\n', span.start);
  return text.slice(start, end < 0 ? text.length : end);
}

/**
 * The line of a template that writes `key: value` literally (plain or quoted), if exactly one or the first does.
 * @param lines the lines of the template document searched, which starts at offset `base` of the file
 */
function literalLine(file: LoadedFile, lines: readonly string[], key: string, value: string, base = 0): Span | undefined {
  const candidates = [value, `"${value}"`, `'${value}'`];
  let offset = base;
  for (const line of lines) {
    const body = line.replace(/^\s*(- )?/, '');
    if (body.startsWith(`${key}:`)) {
      const rest = body.slice(key.length + 1).replace(/\s+#.*$/, '').trim();
      if (candidates.includes(rest)) {
        const start = offset + line.lastIndexOf(rest);
        return { file: file.file, start, end: start + rest.length };
      }
    }
    offset += line.length + 1;
  }
  return undefined;
}

/**
 * The line of a template document that writes `key: {{ … }}`, when exactly one does: the value there is the
 * action's output (a `range` item, a computed value) that no values line is proved to feed.
 * @param lines the lines of the template document, which starts at offset `base` of the file
 */
function templatedLine(file: LoadedFile, lines: readonly string[], key: string, base: number): Span | undefined {
  let found: Span | undefined;
  let offset = base;
  for (const line of lines) {
    const body = line.replace(/^\s*(- )?/, '');
    if (body.startsWith(`${key}:`) && body.includes('{{')) {
      if (found) return undefined;
      const start = offset + line.indexOf('{{');
      found = { file: file.file, start, end: offset + line.replace(/\s+$/, '').length };
    }
    offset += line.length + 1;
  }
  return found;
}

/** The template line `kind: <Kind>` inside `region` (the region's, else the file's, first line otherwise). */
function kindLine(file: LoadedFile, kind: string | undefined, region?: { start: number; end: number }): Span {
  const from = region?.start ?? 0;
  const text = file.text.slice(from, region?.end ?? file.text.length);
  const lines = text.split('\n');
  let offset = from;
  for (const line of lines) {
    if (kind && line.trim() === `kind: ${kind}`) return { file: file.file, start: offset, end: offset + line.length };
    offset += line.length + 1;
  }
  const firstLine = lines.find((l) => l.trim() !== '' && !/^---(\s|$)/.test(l)) ?? lines[0] ?? '';
  const start = from + Math.max(0, text.indexOf(firstLine));
  return { file: file.file, start, end: start + firstLine.length };
}

/** The first line of a template that is not blank, a `---` line or only template actions. */
function firstLineOf(file: LoadedFile): Span {
  let offset = 0;
  for (const line of file.text.split('\n')) {
    if (line.trim() !== '' && !/^---(\s|$)/.test(line) && line.replace(/\{\{[\s\S]*?\}\}/g, '').trim() !== '') return { file: file.file, start: offset, end: offset + line.length };
    offset += line.length + 1;
  }
  return { file: file.file, start: 0, end: 0 };
}
