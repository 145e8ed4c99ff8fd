import type { LoadedFile } from '../load/load-file';
import { posix } from 'node:path';
import type { ClusterGroup, RenderNote, RenderState, RepoLayout, RepoPath } from '../repo/layout';
import { defaultRepoPath, nearestGroups } from '../repo/layout';
import type { Finding, Fix, RelatedLocation } from '../rules/rule';
import { describe } from '../model/objects';
import type { Span } from '../source/span';
import type { RenderClusters, RenderOutcome } from './jobs';
import { sourceOf, sourceSpanNow } from './source-map';

const dirOf = (p: string): string => posix.dirname(p);

/** The analysis inputs once renders are in: files for the models, adjusted cluster groups, what the render rules report. */
export interface AppliedRenders {
  /** Files the models are built from: sources whose objects a render replaced are kept without objects (their problems stay). */
  readonly modelFiles: readonly LoadedFile[];
  /** Rendered manifests (also in modelFiles). */
  readonly renderedFiles: readonly LoadedFile[];
  readonly groups?: readonly ClusterGroup[];
  readonly render: RenderState;
}

/**
 * Puts render outcomes into the analysis. Rendered objects replace their sources: a file that a successful render
 * consumed keeps no objects of its own (a file no render uses is linted raw, as without renderers). Cluster groups:
 * a kustomize entry point's group (when groups come from kustomize) holds its rendered manifest instead of its raw
 * files; otherwise a render joins the groups that claim the file it comes from (its kustomization, the Argo CD
 * Application), the groups it names (`cluster:`), or every group. A kustomize group whose render failed keeps its
 * raw files. A chart rendered by default is a unit of its own (see {@link RenderClusters} `own`). Where plain files
 * go (a committed copy of a render joins only that render's group, the others the nearest groups) is decided after
 * this, for rendered and raw groups alike (repo/layout.ts placePlainFiles).
 */
export function applyRenders(files: readonly LoadedFile[], layout: RepoLayout, outcomes: readonly RenderOutcome[], helmUnavailable?: string, extraNotes: readonly RenderNote[] = [], repoPath: RepoPath = defaultRepoPath): AppliedRenders {
  const ok = outcomes.filter((o) => o.file);
  const failedKustomizeDirs = new Set(outcomes.filter((o) => !o.file && o.job.kind === 'kustomize').map((o) => o.job.kind === 'kustomize' ? o.job.dir : ''));
  const keepRaw = new Set<string>();
  if (layout.groupSource === 'kustomize') for (const e of layout.kustomizeEntries) if (failedKustomizeDirs.has(e.dir)) e.members.forEach((m) => keepRaw.add(m));
  const consumed = new Set<string>();
  for (const o of ok) for (const f of o.job.consumes) if (!keepRaw.has(f)) consumed.add(f);
  const renderedFiles = ok.map((o) => o.file!);
  const modelFiles = [...files.map((f) => (consumed.has(f.file) && f.objects.length ? { ...f, objects: [] } : f)), ...renderedFiles];
  const groups = renderGroups(layout, ok, consumed, keepRaw, repoPath);
  const renderedCharts = new Set<string>();
  // A chart whose release failed is not "not rendered": its render-failed finding says why.
  for (const o of outcomes) if (o.job.kind === 'helm') renderedCharts.add(o.job.chartFile);
  // A chart vendored for a kustomization's helmCharts entry renders through that build.
  for (const o of outcomes) if (o.job.kind === 'kustomize') o.job.helmChartFiles?.forEach((f) => renderedCharts.add(f));
  for (const c of layout.charts) if (c.parent && renderedCharts.has(c.parent)) renderedCharts.add(c.file);
  const notes = [...extraNotes, ...outcomes.flatMap((o) => [...o.job.notes, ...o.notes])];
  return { modelFiles, renderedFiles, groups, render: { notes, renderedCharts, ...(helmUnavailable ? { helmUnavailable } : {}) } };
}

/**
 * Moves a finding on a rendered object to the source line the user edits (see core/render/source-map.ts), keeps
 * the rendered location in `rendered`, and says through which render it came. Related locations move the same
 * way. A quick fix moves along only when every edit lands on source text equal to the rendered text it replaces
 * (a literal value, a patch or values-file line); otherwise it is dropped (editing generated output would be lost), as is
 * one that only quotes or unquotes a value whose writing the chart's template decides (see source-map.ts writtenBy).
 * @returns undefined when a `# kube-netlint-disable-next-line` comment above the source line suppresses it
 */
export function remapRenderedFinding(f: Finding, files: ReadonlyMap<string, LoadedFile>, suppressed: (f: Finding) => boolean): Finding | undefined {
  const rendered = files.get(f.span.file);
  const moved = (span: Span): { span: Span; label?: string } => {
    const file = files.get(span.file);
    if (!file?.render) return { span };
    const src = sourceOf(file.render.map, span.start, span.end);
    if (!src) return { span: { file: span.file, start: span.start, end: span.end }, label: file.render.label };
    return { span: sourceSpanNow(src.span, file.render.sourceTexts.get(src.span.file), files.get(src.span.file)?.text), label: file.render.label };
  };
  const related: RelatedLocation[] = f.related.map((r) => {
    const m = moved(r.span);
    return m.label && m.label !== rendered?.render?.label ? { span: m.span, message: `${r.message} (${m.label})` } : { span: m.span, message: r.message };
  });
  if (!rendered?.render) return f.related.some((r) => files.get(r.span.file)?.render) ? { ...f, related } : f;
  const main = moved(f.span);
  const fixes: Fix[] = [];
  for (const fix of f.fixes) {
    const edits = fix.edits.map((e) => {
      const file = files.get(e.span.file);
      if (!file?.render) return e;
      const src = sourceOf(file.render.map, e.span.start, e.span.end);
      const srcFile = src && files.get(src.span.file);
      const at = src && sourceSpanNow(src.span, file.render.sourceTexts.get(src.span.file), srcFile?.text);
      const old = file.text.slice(e.span.start, e.span.end);
      const same = at && srcFile && src.via !== 'document' && srcFile.text.slice(at.start, at.end) === old;
      // Quoting or unquoting a value the chart's template writes would change nothing in the render.
      const rewrites = src?.writtenBy !== undefined && bareText(e.newText) === bareText(old);
      return same && !rewrites ? { span: at, newText: e.newText } : undefined;
    });
    if (edits.every((e) => e)) fixes.push({ ...fix, edits: edits as Fix['edits'] });
  }
  // Several rendered copies of one source line (a base in two overlays) share its findings' place: a message that does
  // not name its own object says which copy it is about.
  const self = f.object ? describe(f.object) : undefined;
  const about = self && !f.message.includes(self) ? `${self}, ` : '';
  const out: Finding = { ...f, message: `${f.message} (${about}${rendered.render.label})`, span: main.span, related, fixes, rendered: { span: f.span, label: rendered.render.label } };
  return suppressed(out) ? undefined : out;
}

/** A scalar's text without its tag and quotes (`!!str "8080"` → `8080`), to tell an edit of its writing from one of its value. */
function bareText(text: string): string {
  return text.replace(/^!\S*\s+/, '').replace(/^"(.*)"$|^'(.*)'$/s, '$1$2');
}

/**
 * The cluster groups once renders are in (undefined: one cluster). A kustomize entry point's group holds its rendered
 * manifest instead of its raw files; a render joins the groups its {@link RenderClusters} name; a chart rendered by
 * default gets a group of its own when the workspace has other deployable units (kustomize entry points, other
 * default charts): an upstream repository that offers a chart and kustomize overlays (or a chart repository) holds
 * alternatives, not one cluster's objects, and their host ports must not collide with each other.
 */
function renderGroups(layout: RepoLayout, ok: readonly RenderOutcome[], consumed: ReadonlySet<string>, keepRaw: ReadonlySet<string>, repoPath: RepoPath): ClusterGroup[] | undefined {
  const own = ok.filter((o) => o.job.clusters.type === 'own');
  let groups = layout.groups;
  if (!groups && own.length < 2) return undefined;
  const byConfig = layout.groupSource === 'config';
  const ownGroups: ClusterGroup[] = byConfig ? [] : own.map((o) => {
    const c = o.job.clusters as { name: string; file: string };
    return { name: c.name, files: new Set([o.file!.file]), home: dirOf(repoPath(c.file)) };
  });
  if (!groups) return ownGroups;
  const nearest = nearestGroups(groups);
  const extra = new Map<string, Set<string>>(groups.map((g) => [g.name, new Set<string>()]));
  const replaced = new Map<string, string>(); // kustomize group name → its rendered file
  for (const o of ok) {
    const name = o.file!.file;
    const c = o.job.clusters;
    if (layout.groupSource === 'kustomize' && o.job.kind === 'kustomize' && c.type === 'of-file' && groups.some((g) => g.name === (o.job as { dir: string }).dir)) {
      replaced.set((o.job as { dir: string }).dir, name);
      continue;
    }
    if (c.type === 'own' && !byConfig) continue;
    // A render of a plain file (an Argo CD Application) goes where that file goes: its groups, else the nearest ones.
    const claimedBy = (file: string) => {
      const holding = groups!.filter((g) => g.files.has(file));
      return holding.length ? holding : nearest(repoPath(file)).map((i) => groups![i]);
    };
    const targets = c.type === 'named' ? groups.filter((g) => c.names.includes(g.name)) : c.type === 'of-file' || c.type === 'own' ? claimedBy(c.file) : [];
    // A render claimed by no group (or meant for all) belongs to every group, like an unclaimed file.
    for (const g of targets) extra.get(g.name)!.add(name);
  }
  groups = groups.map((g) => {
    const mine = replaced.get(g.name);
    const base = mine ? new Set([mine]) : new Set([...g.files].filter((f) => !consumed.has(f) || keepRaw.has(f)));
    extra.get(g.name)!.forEach((f) => base.add(f));
    // A group that kept its raw files keeps their views (namespace, prefixes); a rendered one holds what kustomize built.
    const views = !mine && g.views ? new Map([...g.views].filter(([f]) => base.has(f))) : undefined;
    return { name: g.name, files: base, ...(g.home !== undefined ? { home: g.home } : {}), ...(views?.size ? { views } : {}) };
  });
  return [...groups, ...ownGroups];
}
