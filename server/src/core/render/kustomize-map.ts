import { posix } from 'node:path';
import { Document, isMap, isSeq, parse, parseAllDocuments, YAMLMap } from 'yaml';
import { LoadedFile, loadFile, PARSE_OPTIONS } from '../load/load-file';
import type { RenderNote, RepoPath } from '../repo/layout';
import { describe } from '../model/objects';
import type { Span } from '../source/span';
import type { KustomizeJob } from './jobs';
import { RENDER_FILE_PREFIX } from './jobs';
import { inlineSentinelAt, KustomizeSentinelPlan } from './kustomize-sentinels';
import { HelmChartEntry, Kustomization, KustomizePatch, PatchTarget, readKustomization, TransformerField } from './kustomization';
import { copiedValue, nodesAtFieldPath, replacementsOfFile } from './replacements';
import { Attribution, MappedNode, RenderSourceMap, sortNodes, sourceOf, sourceTextsOf } from './source-map';
import { at, child, groupOf, identityOf, keyNode, matchItem, parsedDocuments, scalarText, spanOf, TreePath, walkTree } from './tree-walk';
import { QUIET } from '../load/parse-options';

/** What mapping a kustomize build needs besides its output. */
export interface KustomizeMapInput {
  readonly job: KustomizeJob;
  /** Standard output of `kustomize build` (built with `buildMetadata: [originAnnotations]`). */
  readonly output: string;
  /** An origin `path` as kustomize wrote it → the repository path of that file. */
  readonly originPath: (path: string) => string | undefined;
  /** Source files by name as loaded. */
  readonly files: ReadonlyMap<string, LoadedFile>;
  readonly repoPath: RepoPath;
  /** Output of the same build with sentinel numbers in `helmCharts` valuesInline and values files (see kustomize-sentinels.ts), when it ran and succeeded. */
  readonly sentinel?: { readonly output: string; readonly plan: KustomizeSentinelPlan };
}

const ORIGIN = 'config.kubernetes.io/origin';
const TRANSFORMATIONS = 'alpha.config.kubernetes.io/transformations';

/** A patch of one kustomization in the build, ready to compare with rendered objects. */
interface PatchInfo {
  readonly patch: KustomizePatch;
  readonly kustomizationFile: string;
  /** Parsed patch documents and how their offsets become file spans. */
  readonly docs: readonly { readonly root: unknown; readonly span: (node: unknown) => Span | undefined }[];
  readonly json6902: boolean;
  targets: number;
  /** Leaves (values other than identifying keys) seen on targeted objects, and those the render shows changed. */
  leaves: number;
  effective: number;
  lost?: { span: Span; path: TreePath; value: string; object: string; protocolMismatch: boolean };
}

/** A patch's value at one rendered path. */
interface PatchEntry {
  readonly info: PatchInfo;
  readonly node: unknown;
  readonly span: Span;
}

const pathKey = (path: TreePath): string => path.join('\u0000');

/** At most this many ways up from a base to the entry point are compared (a deep diamond of overlays). */
const MAX_CHAINS = 64;

/**
 * Turns a kustomize build into a loaded manifest whose every field points back at the line the user edits: the
 * origin annotation names each object's source file (kustomize api/resource/origin.go, v5.4); the source
 * document is found by kind and name (prefixes/suffixes undone); then the rendered object is compared with it
 * field by field, and a field that differs is credited to the patch (strategic-merge or JSON 6902) or builtin
 * transformer (`namespace`, `namePrefix`/`nameSuffix`, `images`, `replicas`, labels) of the kustomizations on the
 * way from the entry point that sets it; a field of an inflated chart's object that the sentinel build shows fed by
 * a `helmCharts` values number (valuesInline or a values file) points at that key's value — kustomize's `transformations` annotation lists every transformer on
 * every object, changed or not, so it is not used. The annotations kube-netlint asked for are removed from the
 * output. Also finds patches that change nothing (`kustomize-patch-no-effect`).
 */
export function mapKustomizeOutput(input: KustomizeMapInput): { file: LoadedFile; notes: RenderNote[] } {
  const { job, files, repoPath } = input;
  const name = `${RENDER_FILE_PREFIX}${job.id}`;
  // 1. Strip the annotations we asked for, remembering each document's origin.
  const rawDocs = parseAllDocuments(input.output, { ...PARSE_OPTIONS, uniqueKeys: false }) as Document.Parsed[];
  const origins: (Record<string, unknown> | undefined)[] = [];
  const texts: string[] = [];
  for (const doc of Array.isArray(rawDocs) ? rawDocs : []) {
    if (doc.contents === null) continue;
    const originText = doc.getIn(['metadata', 'annotations', ORIGIN]);
    let origin: Record<string, unknown> | undefined;
    try {
      origin = typeof originText === 'string' ? (parse(originText, QUIET) as Record<string, unknown>) : undefined;
    } catch {
      origin = undefined;
    }
    origins.push(origin);
    doc.deleteIn(['metadata', 'annotations', ORIGIN]);
    doc.deleteIn(['metadata', 'annotations', TRANSFORMATIONS]);
    const annotations = doc.getIn(['metadata', 'annotations'], true);
    if (isMap(annotations) && annotations.items.length === 0) doc.deleteIn(['metadata', 'annotations']);
    if (doc.directives) doc.directives.docStart = null; // the join below writes one `---` per document
    texts.push(doc.toString({ lineWidth: 0 }));
  }
  const text = texts.map((t) => `---\n${t}`).join('');
  const loaded = loadFile(name, text, { defaultNamespace: job.namespace });
  const docs = parseAllDocuments(text, { ...PARSE_OPTIONS }) as Document.Parsed[];

  // 2. The kustomizations of the build: who includes whom, who lists which file, their patches.
  const kustomizations = new Map<string, { file: string; k: Kustomization }>();
  const loadedByPath = new Map<string, string>();
  for (const f of files.values()) {
    loadedByPath.set(repoPath(f.file), f.file);
    if (f.role?.type === 'kustomization') kustomizations.set(posix.dirname(repoPath(f.file)), { file: f.file, k: readKustomization(f.file, f.text) });
  }
  const parents = new Map<string, string[]>(); // kustomization dir → the kustomizations that list it, in build order
  const owners = new Map<string, string[]>(); // resource file → the kustomizations that list it
  const components = new Map<string, string[]>();
  const order: string[] = [];
  const queue = [job.dir];
  const seen = new Set(queue);
  while (queue.length) {
    const dir = queue.shift()!;
    order.push(dir);
    const k = kustomizations.get(dir)?.k;
    if (!k) continue;
    for (const [entries, isComponent] of [[k.resources, false], [k.components, true]] as const) {
      for (const r of entries) {
        const target = posix.normalize(posix.join(dir, r.value)).replace(/\/$/, '');
        if (kustomizations.has(target)) {
          if (isComponent) components.set(dir, [...(components.get(dir) ?? []), target]);
          else if (target !== job.dir && !parents.get(target)?.includes(dir)) parents.set(target, [...(parents.get(target) ?? []), dir]);
          if (!seen.has(target)) {
            seen.add(target);
            queue.push(target);
          }
        } else if (!owners.get(target)?.includes(dir)) owners.set(target, [...(owners.get(target) ?? []), dir]);
      }
    }
  }
  const patchInfos = new Map<string, PatchInfo[]>(); // kustomization dir → its patches
  for (const dir of order) {
    const entry = kustomizations.get(dir);
    if (entry) patchInfos.set(dir, entry.k.patches.map((p) => patchInfo(p, entry.file, dir, files, loadedByPath)).filter((p): p is PatchInfo => !!p));
  }
  // Every way up from a kustomization to the entry point (innermost first): a base that two overlays list is built
  // once along each, so its objects come out twice (a copy per overlay), each with that overlay's transformers.
  const chainsOf = (dirs: readonly string[]): string[][] => {
    const out: string[][] = [];
    const up = (chain: string[]): void => {
      if (out.length >= MAX_CHAINS) return;
      const above = (parents.get(chain[chain.length - 1]) ?? []).filter((d) => !chain.includes(d));
      if (above.length === 0) out.push(chain);
      for (const d of above) up([...chain, d]);
    };
    for (const d of dirs) up([d]);
    return out.length ? out : [[job.dir]];
  };
  /** The chain whose namespace and prefix/suffix transformers turn the source name into the rendered object's, else the first. */
  const chainFor = (chains: readonly string[][], sourceRoot: unknown, id: ReturnType<typeof identityOf>): string[] => {
    if (chains.length === 1 || sourceRoot === undefined) return chains[0];
    const source = identityOf(sourceRoot);
    return (
      chains.find((chain) => {
        let name = source.name ?? '';
        let namespace: string | undefined;
        for (const d of chain) {
          for (const t of kustomizations.get(d)?.k.transformers ?? []) {
            if (t.key === 'namePrefix') name = `${t.value ?? ''}${name}`;
            else if (t.key === 'nameSuffix') name = `${name}${t.value ?? ''}`;
            else if (t.key === 'namespace') namespace = t.value;
          }
        }
        // Kinds the prefix transformer skips (Namespace, CRDs) keep the source name: only the namespace tells then.
        return (name === id.name || id.name === source.name) && (namespace === undefined || id.namespace === undefined || namespace === id.namespace);
      }) ?? chains[0]
    );
  };

  // The sentinel build's objects, by identity (and by position, for a name that a probed number changed).
  const sentinelDocs = input.sentinel ? (parseAllDocuments(input.sentinel.output, { ...PARSE_OPTIONS, uniqueKeys: false }) as Document.Parsed[]) : [];
  const sentinelRoots = (Array.isArray(sentinelDocs) ? sentinelDocs : []).map((d) => d.contents).filter((c) => c !== null);
  const sentinelById = new Map<string, unknown>();
  for (const r of sentinelRoots) sentinelById.set(identityKey(r), r);
  const sentinelFor = (root: unknown, i: number): unknown => {
    const byId = sentinelById.get(identityKey(root));
    if (byId !== undefined || sentinelRoots.length !== docs.length) return byId;
    return identityOf(sentinelRoots[i]).kind === identityOf(root).kind ? sentinelRoots[i] : undefined;
  };

  // 3. Map every rendered document.
  const nodes: MappedNode[] = [];
  const documents: RenderSourceMap['documents'][number][] = [];
  const anchorSpan = job.anchor;
  const mappedDocs: MappedDocument[] = [];
  docs.forEach((doc, i) => {
    const root = doc.contents;
    const range = (root as { range?: [number, number, number] } | null)?.range;
    if (!range) return;
    const origin = origins[i];
    const id = identityOf(root);
    const originRepo = typeof origin?.path === 'string' ? input.originPath(origin.path) : undefined;
    const configuredIn = typeof origin?.configuredIn === 'string' ? input.originPath(origin.configuredIn) : undefined;
    const sourceName = originRepo !== undefined ? loadedByPath.get(originRepo) : undefined;
    const source = sourceName ? files.get(sourceName) : undefined;
    const sourceRoot = source ? findSourceDocument(source, id) : undefined;
    const listedBy = originRepo !== undefined ? owners.get(originRepo) : configuredIn !== undefined ? [posix.dirname(configuredIn)] : undefined;
    const chain = chainFor(chainsOf(listedBy ?? []), sourceRoot, id);
    const chainFields = chain.flatMap((d) => kustomizations.get(d)?.k.transformers ?? []).reverse(); // outermost first
    const fields = [...(job.overlayFields ?? []), ...chainFields];
    // A generated object (configMapGenerator …) points at its generator entry.
    let fallback: Span = anchorSpan;
    if (sourceRoot) fallback = firstLine(source!, sourceRoot);
    let chartEntry: HelmChartEntry | undefined;
    if (!sourceRoot && configuredIn !== undefined) {
      const k = kustomizations.get(posix.dirname(configuredIn));
      const configuredBy = origin?.configuredBy as { kind?: unknown } | undefined;
      if (configuredBy?.kind === 'HelmChartInflationGenerator') chartEntry = k ? helmChartEntryOf(k.k, root) : undefined;
      const gen = chartEntry ? undefined : k?.k.generators.find((g) => id.name === g.name || (id.name ?? '').startsWith(`${g.name}-`) || (id.name ?? '').includes(g.name));
      fallback = chartEntry?.span ?? gen?.span ?? (k ? { file: k.file, start: 0, end: 0 } : anchorSpan);
    }
    // A value of an inflated chart's object that exactly one valuesInline leaf holds came from that leaf.
    const inlineOwners = new Map<string, Span | null>();
    for (const v of chartEntry?.inlineValues ?? []) if (v.text.length >= 2) inlineOwners.set(v.text, inlineOwners.has(v.text) ? null : v.span);
    const sentinelRoot = chartEntry && input.sentinel ? sentinelFor(root, i) : undefined;
    documents.push({ start: range[0], end: range[2], fallback });
    const sourceNameValue = sourceRoot ? identityOf(sourceRoot).name : undefined;
    mappedDocs.push({ root, id, chain, sourceName: sourceNameValue });
    // Patches that apply to this object, in the order kustomize applies them (innermost kustomization first).
    const applicable: PatchInfo[] = [];
    for (const d of chain) {
      for (const c of components.get(d) ?? []) applicable.push(...(patchInfos.get(c) ?? []).filter((p) => targets(p, id, sourceNameValue)));
      applicable.push(...(patchInfos.get(d) ?? []).filter((p) => targets(p, id, sourceNameValue)));
    }
    const entries = new Map<string, PatchEntry[]>();
    for (const info of applicable) {
      info.targets++;
      for (const pdoc of info.docs) {
        const pRoot = info.json6902 ? undefined : pdoc.root;
        if (pRoot !== undefined && !info.patch.target && !selfTargets(pRoot, id, sourceNameValue)) continue;
        collectPatchEntries(info, pdoc, root, entries);
      }
    }
    const obj = loaded.objects.find((o) => o.docIndex === i);
    const describeObject = obj ? describe(obj) : `${id.kind ?? 'object'} ${id.name ?? ''}`;
    const sourceAt = new Map<string, unknown>();
    walkParallel(root, sourceRoot, [], sourceAt);
    walkTree(root, (node, path, isKey) => {
      const key = pathKey(path) + (isKey ? '#key' : '');
      const span = spanOf(name, node);
      if (!span) return;
      const rendered = scalarText(node);
      const srcNode = isKey ? keyNode(sourceAt.get(pathKey(path.slice(0, -1))), String(path[path.length - 1])) : sourceAt.get(pathKey(path));
      let mapped: { source: Span; via: Attribution } | undefined;
      // Proved by the sentinel build (a patch that overrides the value shows in both builds, so it wins there).
      const inline = !isKey && rendered !== undefined && sentinelRoot !== undefined ? inlineSentinelAt(input.sentinel!.plan, sentinelRoot, path, rendered) : undefined;
      // A patch names its target and list items by the same values as the base: those point at the base.
      const identifying = isKey || isIdentityPath(path);
      const fromPatch = identifying && srcNode !== undefined ? undefined : [...(entries.get(key) ?? [])].reverse().find((e) => rendered === undefined || scalarText(e.node) === rendered);
      if (inline) mapped = { source: inline.span, via: 'values' };
      else if (fromPatch) mapped = { source: fromPatch.span, via: 'patch' };
      else if (srcNode !== undefined && (isKey || rendered === undefined || scalarText(srcNode) === rendered)) {
        const s = spanOf(source!.file, srcNode);
        if (s) mapped = { source: s, via: 'literal' };
      }
      if (!mapped && !isKey && rendered !== undefined && inlineOwners.size) {
        const owner = inlineOwners.get(rendered);
        if (owner) mapped = { source: owner, via: 'values' };
      }
      if (!mapped && !isKey) {
        const field = transformerFor(path, fields, id, srcNode, sourceRoot);
        if (field) mapped = { source: field.span, via: 'transformer' };
      }
      if (mapped) nodes.push({ start: span.start, end: span.end, ...mapped });
    });
    // Which patch leaves made it into the render (for patches that change nothing).
    for (const [key, list] of entries) {
      if (key.endsWith('#key')) continue;
      for (const e of list) {
        const value = scalarText(e.node);
        if (value === undefined) continue;
        const path = key.split('\u0000').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
        if (isIdentityPath(path)) continue;
        e.info.leaves++;
        const renderedNode = at(root, path);
        const renderedValue = scalarText(renderedNode);
        const before = scalarText(sourceAt.get(key));
        if (renderedValue === value && before !== value) e.info.effective++;
        else if (renderedValue !== value && !e.info.lost) {
          e.info.lost = { span: e.span, path, value, object: describeObject, protocolMismatch: protocolMismatch(path, root, e) };
        }
      }
    }
  });
  replaceNodes(nodes, replacementNodes(mappedDocs, order, kustomizations, components, loadedByPath, files, name, nodes, documents));
  const notes: RenderNote[] = [];
  for (const list of patchInfos.values()) {
    for (const info of list) {
      const what = info.patch.path ? `patch ${info.patch.path.value}` : 'inline patch';
      if (info.targets === 0 && info.patch.target) {
        notes.push(
          job.drop.size
            ? { ruleId: 'render-incomplete', severity: 'info', message: `${what} matches no object of the render (${job.label}): its target is probably in the remote base that was left out`, span: info.patch.span }
            : { ruleId: 'kustomize-patch-no-effect', severity: 'warning', message: `${what} changes nothing: its target matches no object of the build (${job.label}); check the target's kind, name and namespace`, span: info.patch.span },
        );
        continue;
      }
      if (info.effective > 0 || info.leaves === 0) continue;
      const lost = info.lost;
      if (!lost) {
        notes.push({ ruleId: 'kustomize-patch-no-effect', severity: 'warning', message: `${what} changes nothing (${job.label}): every value it sets is already in the object it patches`, span: info.patch.span });
        continue;
      }
      const field = lost.path.filter((s) => typeof s === 'string').slice(-1)[0];
      const hint = lost.protocolMismatch ? ': kustomize drops it when only one of the base port and the patch port spells out protocol; write protocol in both or in neither' : '';
      notes.push({
        ruleId: 'kustomize-patch-no-effect',
        severity: 'warning',
        message: `${what} changes nothing in ${lost.object} (${job.label}): ${field}: ${lost.value} is not in the rendered object${hint}`,
        span: lost.span,
      });
    }
  }
  const map: RenderSourceMap = { nodes: sortNodes(nodes), documents };
  return { file: { ...loaded, render: { jobId: job.id, label: job.label, map, sourceTexts: sourceTextsOf(map, files) } }, notes };
}

/** A rendered object, the kustomizations on its way to the entry point (innermost first) and its name in its source file. */
interface MappedDocument {
  readonly root: unknown;
  readonly id: ReturnType<typeof identityOf>;
  readonly chain: readonly string[];
  readonly sourceName?: string;
}

/**
 * Map nodes for the fields kustomize `replacements` wrote: a target field whose rendered value is the value the
 * replacement copies points at the source field as the user writes it (where the source object's field maps to: its
 * manifest line, or the patch that set it), else at the replacement's `fieldPath:` / `sourceValue:`. A replacement
 * of a kustomization applies to the objects built there and below (api/filters/replacement, kustomize v5.4);
 * the outermost kustomization's replacements run last, so they win.
 */
function replacementNodes(
  mapped: readonly MappedDocument[], order: readonly string[], kustomizations: ReadonlyMap<string, { file: string; k: Kustomization }>,
  components: ReadonlyMap<string, readonly string[]>, loadedByPath: ReadonlyMap<string, string>, files: ReadonlyMap<string, LoadedFile>, renderedName: string, nodes: readonly MappedNode[], documents: RenderSourceMap['documents'],
): MappedNode[] {
  const out = new Map<string, MappedNode>();
  let sorted: RenderSourceMap | undefined;
  for (const dir of [...order].reverse()) {
    const entry = kustomizations.get(dir);
    if (!entry) continue;
    const list = [...entry.k.replacements];
    for (const f of entry.k.replacementFiles) {
      const loaded = files.get(loadedByPath.get(posix.normalize(posix.join(dir, f.value))) ?? '');
      if (loaded) list.push(...replacementsOfFile(loaded.file, parsedDocuments(loaded).map((d) => d.contents)));
    }
    if (!list.length) continue;
    const inScope = mapped.filter((m) => m.chain.includes(dir) || m.chain.some((c) => components.get(c)?.includes(dir)));
    for (const r of list) {
      let value: string | undefined;
      let source: Span | undefined;
      if (r.sourceValue) {
        value = r.sourceValue.value;
        source = r.sourceValue.span;
      } else if (r.source) {
        const src = r.source;
        const candidates = inScope.filter((m) => (!src.kind || m.id.kind === src.kind) && (src.group === undefined || groupOf(m.id.apiVersion) === src.group) && (!src.namespace || m.id.namespace === src.namespace));
        // The name before the transformers of the kustomizations above (a prefix, a suffix).
        const object = candidates.find((m) => !src.name || m.id.name === src.name || m.sourceName === src.name) ?? candidates.find((m) => !!src.name && (m.id.name ?? '').includes(src.name));
        const field = object ? nodesAtFieldPath(object.root, src.fieldPath)[0]?.node : undefined;
        const whole = scalarText(field);
        value = whole === undefined ? undefined : copiedValue(whole, src.delimiter, src.index);
        const at = spanOf(renderedName, field);
        sorted ??= { nodes: sortNodes([...nodes]), documents };
        const traced = at ? sourceOf(sorted, at.start, at.end) : undefined;
        source = traced && traced.via !== 'document' ? traced.span : src.span;
      }
      if (value === undefined || !source) continue;
      for (const t of r.targets) {
        for (const m of inScope) {
          if (!t.select || !matchesTarget(t.select, m.id, m.sourceName)) continue;
          if (t.reject.some((x) => matchesTarget(x, m.id, m.sourceName))) continue;
          for (const p of t.fieldPaths) {
            for (const hit of nodesAtFieldPath(m.root, p)) {
              const rendered = scalarText(hit.node);
              const span = spanOf(renderedName, hit.node);
              if (!span || rendered === undefined || (t.delimiter === undefined ? rendered !== value : !rendered.split(t.delimiter).includes(value))) continue;
              out.set(`${span.start}:${span.end}`, { start: span.start, end: span.end, source, via: 'replacement' });
            }
          }
        }
      }
    }
  }
  return [...out.values()];
}

/** Puts `extra` into `nodes`, each in place of a node of the same rendered range. */
function replaceNodes(nodes: MappedNode[], extra: readonly MappedNode[]): void {
  if (!extra.length) return;
  const taken = new Set(extra.map((n) => `${n.start}:${n.end}`));
  const kept = nodes.filter((n) => !taken.has(`${n.start}:${n.end}`));
  nodes.length = 0;
  nodes.push(...kept, ...extra);
}

/** An object's identity in a build's output: group, kind, namespace and name. */
function identityKey(root: unknown): string {
  const id = identityOf(root);
  return `${groupOf(id.apiVersion)}/${id.kind ?? ''}/${id.namespace ?? ''}/${id.name ?? ''}`;
}

/** Reads one patch entry's documents (a file, or inline text mapped back into the kustomization). */
function patchInfo(patch: KustomizePatch, kustomizationFile: string, dir: string, files: ReadonlyMap<string, LoadedFile>, loadedByPath: ReadonlyMap<string, string>): PatchInfo | undefined {
  let docs: PatchInfo['docs'];
  if (patch.inline) {
    const embedded = patch.inline;
    const parsed = parseAllDocuments(embedded.text, { ...PARSE_OPTIONS });
    const list = Array.isArray(parsed) ? parsed : [];
    const span = (node: unknown): Span | undefined => {
      const r = (node as { range?: [number, number, number] } | undefined)?.range;
      return r ? { file: kustomizationFile, start: embedded.toFileOffset(r[0]), end: embedded.toFileOffset(r[1]) } : undefined;
    };
    docs = list.map((d) => ({ root: d.contents, span }));
  } else if (patch.path) {
    const fileName = loadedByPath.get(posix.normalize(posix.join(dir, patch.path.value)));
    const file = fileName ? files.get(fileName) : undefined;
    if (!file) return undefined;
    docs = parsedDocuments(file).map((d) => ({ root: d.contents, span: (node: unknown) => spanOf(file.file, node) }));
  } else return undefined;
  const json6902 = patch.field === 'patchesJson6902' || docs.some((d) => isSeq(d.root) && d.root.items.some((item) => isMap(item) && item.has('op')));
  return { patch, kustomizationFile, docs, json6902, targets: 0, leaves: 0, effective: 0 };
}

/** True when a patch's `target` (or, without one, any of its documents' own kind and name) selects the object. */
function targets(info: PatchInfo, id: ReturnType<typeof identityOf>, sourceName: string | undefined): boolean {
  const t = info.patch.target;
  if (t) return matchesTarget(t, id, sourceName);
  return !info.json6902 && info.docs.some((d) => selfTargets(d.root, id, sourceName));
}

function selfTargets(root: unknown, id: ReturnType<typeof identityOf>, sourceName: string | undefined): boolean {
  const p = identityOf(root);
  if (!p.kind || p.kind !== id.kind) return false;
  if (p.apiVersion && groupOf(p.apiVersion) !== groupOf(id.apiVersion)) return false;
  return p.name === id.name || p.name === sourceName;
}

/** kustomize's selector match (api/resource/resource.go, api/types/selector.go): names and namespaces are anchored regexps. */
function matchesTarget(t: PatchTarget, id: ReturnType<typeof identityOf>, sourceName: string | undefined): boolean {
  const re = (pattern: string, value: string | undefined): boolean => {
    if (value === undefined) return false;
    try {
      return new RegExp(`^(?:${pattern})$`).test(value);
    } catch {
      return pattern === value;
    }
  };
  if (t.kind && !re(t.kind, id.kind)) return false;
  if (t.group !== undefined && t.group !== groupOf(id.apiVersion)) return false;
  if (t.version && id.apiVersion && !id.apiVersion.endsWith(`/${t.version}`) && id.apiVersion !== t.version) return false;
  if (t.name && !re(t.name, id.name) && !re(t.name, sourceName)) return false;
  if (t.namespace && !re(t.namespace, id.namespace)) return false;
  return true;
}

/** Records, for each rendered path a patch document writes, the patch node there (strategic merge or JSON 6902). */
function collectPatchEntries(info: PatchInfo, pdoc: PatchInfo['docs'][number], renderedRoot: unknown, out: Map<string, PatchEntry[]>): void {
  const add = (key: string, node: unknown): void => {
    const span = pdoc.span(node);
    if (!span) return;
    const list = out.get(key);
    const entry = { info, node, span };
    if (list) list.push(entry);
    else out.set(key, [entry]);
  };
  const walk = (pnode: unknown, rnode: unknown, path: (string | number)[], byKey: boolean): void => {
    if (path.length) add(pathKey(path), pnode);
    if (isMap(pnode)) {
      for (const pair of (pnode as YAMLMap).items) {
        const k = scalarText(pair.key);
        if (k === undefined || k.startsWith('$')) continue;
        add(pathKey([...path, k]) + '#key', pair.key);
        walk(pair.value, child(rnode, k), [...path, k], byKey);
      }
    } else if (isSeq(pnode)) {
      pnode.items.forEach((item, i) => {
        const m = isSeq(rnode) ? (byKey ? matchItem(rnode, item, i) : { node: rnode.items[i], index: i }) : undefined;
        walk(item, m?.node, [...path, m?.index ?? i], byKey);
      });
    }
  };
  if (!info.json6902) {
    walk(pdoc.root, renderedRoot, [], true);
    return;
  }
  if (!isSeq(pdoc.root)) return;
  for (const op of pdoc.root.items) {
    const kind = scalarText(child(op, 'op'));
    const pointer = scalarText(child(op, 'path'));
    const value = child(op, 'value');
    if ((kind !== 'add' && kind !== 'replace') || pointer === undefined || value === undefined) continue;
    const path: (string | number)[] = [];
    let node = renderedRoot;
    const tokens = pointer.split('/').slice(1);
    tokens.forEach((raw, t) => {
      const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      let step: string | number = /^\d+$/.test(token) && isSeq(node) ? Number(token) : token;
      // An inserted or appended list item (`add` at `/list/N` or `/list/-`): later patches may insert before or
      // after it, so it is the rendered item equal to the value, else the index written (or the last).
      if (kind === 'add' && t === tokens.length - 1 && isSeq(node) && (token === '-' || typeof step === 'number')) {
        const want = JSON.stringify((value as { toJSON?: () => unknown } | undefined)?.toJSON?.());
        const same = node.items.map((item, idx) => (JSON.stringify((item as { toJSON?: () => unknown }).toJSON?.()) === want ? idx : -1)).filter((idx) => idx >= 0);
        step = same.length ? same[same.length - 1] : token === '-' ? node.items.length - 1 : step;
      }
      path.push(step);
      node = child(node, step);
    });
    walk(value, node, path, false);
  }
}

/** Records the source node for every rendered path, matching list items by strategic-merge key (or index). */
function walkParallel(rnode: unknown, snode: unknown, path: (string | number)[], out: Map<string, unknown>): void {
  if (snode === undefined || snode === null) return;
  out.set(pathKey(path), snode);
  if (isMap(rnode)) {
    for (const pair of (rnode as YAMLMap).items) {
      const k = scalarText(pair.key);
      if (k !== undefined) walkParallel(pair.value, child(snode, k), [...path, k], out);
    }
  } else if (isSeq(rnode) && isSeq(snode)) {
    rnode.items.forEach((item, i) => walkParallel(item, matchItem(snode, item, i)?.node, [...path, i], out));
  }
}

/** The source document of a rendered object: same kind (and group), and the name with prefixes/suffixes undone. */
function findSourceDocument(file: LoadedFile, id: ReturnType<typeof identityOf>): unknown {
  const candidates = parsedDocuments(file)
    .map((d) => d.contents)
    .filter((root) => {
      const s = identityOf(root);
      return s.kind === id.kind && groupOf(s.apiVersion) === groupOf(id.apiVersion);
    });
  if (candidates.length <= 1) return candidates[0];
  const exact = candidates.find((root) => identityOf(root).name === id.name);
  if (exact) return exact;
  // namePrefix/nameSuffix: the longest source name the rendered name contains.
  let best: unknown;
  let bestLength = -1;
  for (const root of candidates) {
    const n = identityOf(root).name ?? '';
    if (n && (id.name ?? '').includes(n) && n.length > bestLength) {
      best = root;
      bestLength = n.length;
    }
  }
  return best ?? candidates[0];
}

/** The first line of a source document (where a finding goes when nothing more precise is known). */
function firstLine(file: LoadedFile, root: unknown): Span {
  const r = (root as { range?: [number, number, number] }).range;
  const start = r ? r[0] : 0;
  const nl = file.text.indexOf('\n', start);
  return { file: file.file, start, end: nl < 0 ? file.text.length : nl };
}

const LABEL_PARENTS = new Set(['labels', 'matchLabels', 'selector']);

/** The builtin transformer (outermost first in `fields`) that sets the field at `path`, if any. */
function transformerFor(path: TreePath, fields: readonly TransformerField[], id: ReturnType<typeof identityOf>, srcNode: unknown, sourceRoot: unknown): TransformerField | undefined {
  const last = path[path.length - 1];
  const parentKey = path[path.length - 2];
  const joined = path.join('.');
  if (joined === 'metadata.namespace') return fields.find((f) => f.key === 'namespace');
  if (joined === 'metadata.name') return fields.find((f) => f.key === 'namePrefix' || f.key === 'nameSuffix');
  if (joined === 'spec.replicas') {
    const name = sourceRoot ? identityOf(sourceRoot).name : id.name;
    return fields.find((f) => f.key === 'replicas' && (f.name === name || f.name === id.name));
  }
  if (last === 'image' && typeof path[path.length - 3] === 'string' && /containers$/i.test(String(path[path.length - 3]))) {
    const original = scalarText(srcNode) ?? '';
    const imageName = original.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
    return fields.find((f) => f.key === 'images' && (f.name === imageName || f.name === original));
  }
  if (typeof last === 'string' && typeof parentKey === 'string' && LABEL_PARENTS.has(parentKey)) {
    return fields.find((f) => (f.key === 'commonLabels' || f.key === 'labels') && f.name === last);
  }
  if (typeof last === 'string' && parentKey === 'annotations') return fields.find((f) => f.key === 'commonAnnotations' && f.name === last);
  return undefined;
}

/** Fields that identify the patched object rather than change it. */
function isIdentityPath(path: TreePath): boolean {
  const j = path.join('.');
  if (j === 'apiVersion' || j === 'kind' || j === 'metadata.name' || j === 'metadata.namespace') return true;
  // The merge key of a list item identifies the item (`name` of a container, `port` of a Service port).
  const last = path[path.length - 1];
  return typeof path[path.length - 2] === 'number' && (last === 'name' || last === 'containerPort' || last === 'port' || last === 'mountPath');
}

/** True for a lost `ports[i]` field where only one of the patch item and the rendered (base) item writes `protocol`. */
function protocolMismatch(path: TreePath, root: unknown, entry: PatchEntry): boolean {
  const i = path.lastIndexOf('ports' as never);
  if (i < 0 || typeof path[i + 1] !== 'number') return false;
  const renderedItem = at(root, path.slice(0, i + 2));
  // The patch item: the parent of the lost leaf in the patch (the leaf's node is a scalar of that item).
  const patchItem = findParentItem(entry);
  if (!isMap(renderedItem) || !patchItem) return false;
  return renderedItem.has('protocol') !== patchItem.has('protocol');
}

function findParentItem(entry: PatchEntry): YAMLMap | undefined {
  let found: YAMLMap | undefined;
  for (const doc of entry.info.docs) {
    walkTree(doc.root, (node) => {
      if (found) return false;
      if (isMap(node) && node.items.some((p) => p.value === entry.node)) found = node;
      return undefined;
    });
  }
  return found;
}


/**
 * The `helmCharts` entry of a kustomization that inflated a rendered object (kustomize's origin annotation names the
 * generator kind, not the entry): the only entry, else the one whose release the object's standard Helm labels
 * name (`app.kubernetes.io/instance` = releaseName, `helm.sh/chart` = <name>-<version>), else the one whose release
 * name prefixes the object's name.
 */
function helmChartEntryOf(k: Kustomization, root: unknown): HelmChartEntry | undefined {
  if (k.helmCharts.length <= 1) return k.helmCharts[0];
  const labels = at(root, ['metadata', 'labels']);
  const label = (key: string): string | undefined => scalarText(at(labels, [key]));
  const instance = label('app.kubernetes.io/instance') ?? label('release');
  const chart = label('helm.sh/chart') ?? label('chart');
  const name = identityOf(root).name ?? '';
  const release = (c: HelmChartEntry): string => c.releaseName ?? c.name;
  return (
    k.helmCharts.find((c) => instance !== undefined && release(c) === instance && (chart === undefined || chart.startsWith(`${c.name}-`))) ??
    k.helmCharts.find((c) => chart !== undefined && chart === `${c.name}-${c.version ?? ''}`) ??
    k.helmCharts.find((c) => instance !== undefined && release(c) === instance) ??
    [...k.helmCharts].sort((a, b) => release(b).length - release(a).length).find((c) => name.startsWith(release(c)))
  );
}
