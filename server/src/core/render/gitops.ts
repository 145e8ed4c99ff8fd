import { posix } from 'node:path';
import { stringify } from 'yaml';
import type { CoreConfig } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import type { K8sObject } from '../model/objects';
import { describe } from '../model/objects';
import type { RenderNote, RepoLayout, RepoPath } from '../repo/layout';
import type { Span } from '../source/span';
import { embeddedText } from './embedded';
import type { HelmJob, KustomizeJob, RenderJob } from './jobs';
import type { TransformerField } from './kustomization';
import { helmJob, kustomizeJob, KustomizationIndex, RenderAvailability } from './plan';
import { isUrl } from './preflight';
import { at, parsedDocuments } from './tree-walk';

/** Where GitOps objects' paths start: the repository root, as a repository path (`.`, or `..` when the config sits below it). */
export type RootPath = string;

type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * Argo CD Applications and Flux HelmReleases / Kustomizations of the workspace that render a local path, as render
 * jobs, each in the cluster of the file that holds it. Release names, namespaces and values follow what Argo CD
 * and Flux compute:
 * - Argo CD (docs/user-guide/helm.md, reposerver/repository/repository.go): release = `helm.releaseName` else the
 *   Application's name; namespace = `helm.namespace` else `destination.namespace`; `valueFiles` (relative to the
 *   chart; a multi-source `$ref/path` from the repository root when the `ref` source is this repository) then
 *   `valuesObject` (else `values`) then `parameters` (as `--set`); a folder with kustomization.yaml is
 *   built with `kustomize.namePrefix`/`nameSuffix`/`namespace`/`images`/`commonLabels`/`replicas` on top.
 * - Flux helm-controller (api/v2 helmrelease_types.go): release = `releaseName` else `[targetNamespace-]name`;
 *   namespace = `targetNamespace` else the HelmRelease's; `chart.spec.valuesFiles` replace the chart's values.yaml;
 *   `values` last; `valuesFrom` and `postRenderers` are cluster-side (named in a render-incomplete finding).
 * - Flux kustomize-controller (docs/spec/v1/kustomizations.md): `spec.path` from the repository root, a folder
 *   without kustomization.yaml means every YAML below it; `targetNamespace`, `namePrefix`, `nameSuffix`, `images`,
 *   `commonMetadata` on top; `postBuild` substitution (`${var}`) is not done (named in an info finding).
 * A source outside the workspace (a Helm repository, OCI, another Git repository's path that is not here) is named
 * in an info finding, not fetched.
 */
export function gitopsJobs(
  files: readonly LoadedFile[], layout: RepoLayout, config: CoreConfig, repoPath: RepoPath, can: RenderAvailability, index: KustomizationIndex,
  exists: (p: string) => boolean, root: RootPath = '.',
): { jobs: RenderJob[]; notes: RenderNote[] } {
  const byPath = new Map(files.map((f) => [repoPath(f.file), f]));
  const jobs: RenderJob[] = [];
  const sink: RenderNote[] = [];
  for (const f of files) {
    for (const o of f.objects) {
      if (o.origin.type !== 'file') continue;
      const group = o.group;
      if (o.kind === 'Application' && group === 'argoproj.io') jobs.push(...argoJobs(o, f, layout, config, repoPath, index, exists, byPath, root, files, sink));
      else if (o.kind === 'HelmRelease' && group === 'helm.toolkit.fluxcd.io') jobs.push(...fluxHelmJobs(o, f, layout, config, repoPath, byPath, root, files, sink));
      else if (o.kind === 'Kustomization' && group === 'kustomize.toolkit.fluxcd.io') jobs.push(...fluxKustomizeJobs(o, f, config, index, exists, byPath, root, files, repoPath, sink));
    }
  }
  void can;
  return { jobs, notes: sink };
}

const spanAt = (o: K8sObject, path: string): Span => o.paths?.get(path) ?? o.span;
const note = (severity: 'info', message: string, span: Span): RenderNote => ({ ruleId: 'render-incomplete', severity, message, span });
const fromRoot = (root: RootPath, p: string): string => posix.normalize(posix.join(root, p.replace(/^\/+/, ''))).replace(/\/$/, '') || '.';

function argoJobs(
  o: K8sObject, file: LoadedFile, layout: RepoLayout, config: CoreConfig, repoPath: RepoPath, index: KustomizationIndex, exists: (p: string) => boolean,
  byPath: ReadonlyMap<string, LoadedFile>, root: RootPath, files: readonly LoadedFile[], sink: RenderNote[],
): RenderJob[] {
  const spec = obj(o.raw.spec) ?? {};
  const sources: { source: Raw; prefix: string }[] = [];
  if (obj(spec.source)) sources.push({ source: obj(spec.source)!, prefix: 'spec.source' });
  if (Array.isArray(spec.sources)) spec.sources.forEach((s, i) => obj(s) && sources.push({ source: obj(s)!, prefix: `spec.sources.${i}` }));
  const destination = obj(spec.destination) ?? {};
  const out: RenderJob[] = [];
  const who = `Argo CD Application ${o.name}`;
  for (const { source, prefix } of sources) {
    const path = str(source.path);
    if (!path) {
      if (str(source.chart)) out.push(...noteOnly(sink, `${who}: chart ${String(source.chart)} comes from a Helm repository and is not rendered (kube-netlint never downloads)`, spanAt(o, `${prefix}.chart`)));
      continue;
    }
    const dir = fromRoot(root, path);
    const helm = obj(source.helm) ?? {};
    const clusters = { type: 'of-file', file: file.file } as const;
    const chart = layout.charts.find((c) => c.dir === dir);
    if (chart) {
      const valuesFiles: { path: string; namedAt?: Span }[] = [];
      const notes: RenderNote[] = [];
      (Array.isArray(helm.valueFiles) ? helm.valueFiles : []).forEach((v, i) => {
        if (typeof v !== 'string') return;
        const at = spanAt(o, `${prefix}.helm.valueFiles.${i}`);
        const fromRef = v.startsWith('$') ? refValuesFile(v, source, sources.map((s) => s.source)) : undefined;
        if (fromRef) valuesFiles.push({ path: fromRoot(root, fromRef), namedAt: at });
        else if (isUrl(v) || v.startsWith('$')) notes.push(note('info', `${who}: values file ${v} is not in this repository and is left out of the render (kube-netlint never downloads)`, at));
        else valuesFiles.push({ path: v.startsWith('/') ? fromRoot(root, v) : posix.normalize(posix.join(dir, v)), namedAt: at });
      });
      const inline = argoInlineValues(o, file, prefix, helm);
      const set = (Array.isArray(helm.parameters) ? helm.parameters : []).flatMap((p, i) => {
        const param = obj(p);
        return param && str(param.name) !== undefined && param.value !== undefined ? [{ key: String(param.name), value: String(param.value), span: spanAt(o, `${prefix}.helm.parameters.${i}.value`) }] : [];
      });
      if (Array.isArray(helm.fileParameters) && helm.fileParameters.length) notes.push(note('info', `${who}: helm.fileParameters are left out of the render`, spanAt(o, `${prefix}.helm.fileParameters`)));
      out.push(helmJob({
        id: `argocd:${o.namespace}/${o.name}:${dir}`,
        chartDir: chart.dir, chartFile: chart.file, chartName: chart.name,
        release: str(helm.releaseName) ?? o.name,
        namespace: str(helm.namespace) ?? str(destination.namespace) ?? config.namespace,
        valuesFiles, set, clusters, notes, anchor: spanAt(o, `${prefix}.path`),
        ...(inline ? { inlineValues: inline } : {}),
      }, files, repoPath));
      continue;
    }
    if (index.has(dir)) {
      const k = obj(source.kustomize) ?? {};
      const { overlay, fields } = argoKustomizeOverlay(o, prefix, k);
      out.push(kustomizeJob(dir, index.get(dir)!.file, index, exists, byPath, str(destination.namespace) ?? config.namespace, `${who}, ${dir}`, clusters, {
        id: `argocd:${o.namespace}/${o.name}:${dir}`, overlay, overlayFields: fields,
      }));
      continue;
    }
    if (![...byPath.keys()].some((p) => p.startsWith(`${dir}/`))) {
      out.push(...noteOnly(sink, `${who}: path ${path} is not in this workspace, so it is not rendered (kube-netlint reads no other repository)`, spanAt(o, `${prefix}.path`)));
    }
    // A plain folder of manifests: its files are linted as written.
  }
  return out;
}

/**
 * A multi-source Application's `$<ref>/<path>` values file, as a path from the repository root, when the source
 * named `ref: <ref>` is this same repository (its `repoURL` is the chart source's, compared as Argo CD normalises
 * Git URLs: case, a trailing `/` or `.git`); undefined for another repository, an unknown ref or no path.
 * Source: https://argo-cd.readthedocs.io/en/stable/user-guide/multiple_sources/ ("$values resolves to the root of
 * the values repository", Argo CD v2.6+).
 */
function refValuesFile(value: string, chartSource: Raw, sources: readonly Raw[]): string | undefined {
  const m = /^\$([^/]+)\/(.+)$/.exec(value);
  if (!m) return undefined;
  const refSource = sources.find((s) => s.ref === m[1]);
  const here = gitUrl(chartSource.repoURL);
  return refSource && here !== undefined && gitUrl(refSource.repoURL) === here ? m[2] : undefined;
}

/** A Git URL compared as Argo CD does (lower case, no trailing `/` or `.git`), or undefined when not a string. */
function gitUrl(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim().toLowerCase().replace(/\/+$/, '').replace(/\.git$/, '') : undefined;
}

/** `helm.valuesObject` (a map in the Application) or `helm.values` (a YAML string), as the values file Argo CD writes. */
function argoInlineValues(o: K8sObject, file: LoadedFile, prefix: string, helm: Raw): HelmJob['inlineValues'] | undefined {
  const docIndex = o.docIndex;
  const path = prefix.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  if (obj(helm.valuesObject)) return { text: stringify(helm.valuesObject), source: { file: file.file, text: file.text, docIndex, at: [...path, 'helm', 'valuesObject'] } };
  if (typeof helm.values === 'string') {
    const doc = parsedDocuments(file)[docIndex];
    const embedded = doc ? embeddedText(at(doc.contents, [...path, 'helm', 'values']), file.text) : undefined;
    return { text: helm.values, source: { file: file.file, text: helm.values, ...(embedded ? { toFileOffset: embedded.toFileOffset } : {}) } };
  }
  return undefined;
}

/** Argo CD's kustomize settings as a wrapper kustomization, with where each is written. */
function argoKustomizeOverlay(o: K8sObject, prefix: string, k: Raw): { overlay: Raw; fields: TransformerField[] } {
  const overlay: Raw = {};
  const fields: TransformerField[] = [];
  for (const key of ['namePrefix', 'nameSuffix', 'namespace'] as const) {
    if (str(k[key])) {
      overlay[key] = k[key];
      fields.push({ key, span: spanAt(o, `${prefix}.kustomize.${key}`) });
    }
  }
  if (Array.isArray(k.images) && k.images.length) {
    // Argo CD writes `kustomize edit set image <name>=<newName>:<tag>` forms.
    overlay.images = k.images.filter((i): i is string => typeof i === 'string').map((i, n) => {
      const [name, target] = i.includes('=') ? i.split('=', 2) : [i.replace(/[:@].*$/, ''), i];
      const m = /^(.*?)(?::([^:/@]+))?(?:@(.+))?$/.exec(target)!;
      fields.push({ key: 'images', name, span: spanAt(o, `${prefix}.kustomize.images.${n}`) });
      return { name, ...(m[1] && m[1] !== name ? { newName: m[1] } : {}), ...(m[2] ? { newTag: m[2] } : {}), ...(m[3] ? { digest: m[3] } : {}) };
    });
  }
  if (obj(k.commonLabels)) {
    overlay.commonLabels = k.commonLabels;
    for (const key of Object.keys(k.commonLabels as Raw)) fields.push({ key: 'commonLabels', name: key, span: spanAt(o, `${prefix}.kustomize.commonLabels.${key}`) });
  }
  if (Array.isArray(k.replicas)) {
    overlay.replicas = k.replicas;
    k.replicas.forEach((r, n) => obj(r) && fields.push({ key: 'replicas', name: String(obj(r)!.name), span: spanAt(o, `${prefix}.kustomize.replicas.${n}`) }));
  }
  if (Array.isArray(k.patches)) overlay.patches = k.patches;
  return { overlay, fields };
}

function fluxHelmJobs(o: K8sObject, file: LoadedFile, layout: RepoLayout, config: CoreConfig, repoPath: RepoPath, byPath: ReadonlyMap<string, LoadedFile>, root: RootPath, files: readonly LoadedFile[], sink: RenderNote[]): RenderJob[] {
  const spec = obj(o.raw.spec) ?? {};
  const who = `Flux HelmRelease ${describe(o).replace(/^HelmRelease /, '')}`;
  const chartSpec = obj(obj(spec.chart)?.spec);
  const sourceKind = str(obj(chartSpec?.sourceRef)?.kind);
  if (!chartSpec || (sourceKind !== 'GitRepository' && sourceKind !== 'Bucket')) {
    const what = spec.chartRef ? `chartRef ${String(obj(spec.chartRef)?.kind ?? '')}` : `a ${sourceKind ?? 'chart'} source`;
    return noteOnly(sink, `${who}: its chart comes from ${what}, outside this repository, so it is not rendered (kube-netlint never downloads)`, spanAt(o, spec.chartRef ? 'spec.chartRef' : 'spec.chart'));
  }
  const dir = fromRoot(root, String(chartSpec.chart ?? ''));
  const chart = layout.charts.find((c) => c.dir === dir);
  if (!chart) return noteOnly(sink, `${who}: chart ${String(chartSpec.chart)} is not a chart folder of this workspace, so it is not rendered`, spanAt(o, 'spec.chart.spec.chart'));
  const target = str(spec.targetNamespace);
  const notes: RenderNote[] = [];
  if (Array.isArray(spec.valuesFrom) && spec.valuesFrom.length) notes.push(note('info', `${who}: valuesFrom (values kept in Secrets or ConfigMaps of the cluster) is left out of the render`, spanAt(o, 'spec.valuesFrom')));
  if (Array.isArray(spec.postRenderers) && spec.postRenderers.length) notes.push(note('info', `${who}: postRenderers run in the cluster and are left out of the render`, spanAt(o, 'spec.postRenderers')));
  const valuesFiles = (Array.isArray(chartSpec.valuesFiles) ? chartSpec.valuesFiles : []).flatMap((v, i) => (typeof v === 'string' ? [{ path: fromRoot(root, v), namedAt: spanAt(o, `spec.chart.spec.valuesFiles.${i}`) }] : []));
  const values = obj(spec.values);
  return [helmJob({
    id: `flux-helm:${o.namespace}/${o.name}`,
    chartDir: chart.dir, chartFile: chart.file, chartName: chart.name,
    release: str(spec.releaseName) ?? (target ? `${target}-${o.name}` : o.name),
    namespace: target ?? o.namespace,
    valuesFiles, set: [], clusters: { type: 'of-file', file: file.file }, notes, anchor: spanAt(o, 'spec.chart.spec.chart'),
    replaceChartValues: valuesFiles.length > 0,
    ...(values ? { inlineValues: { text: stringify(values), source: { file: file.file, text: file.text, docIndex: o.docIndex, at: ['spec', 'values'] } } } : {}),
  }, files, repoPath)];
}

function fluxKustomizeJobs(
  o: K8sObject, file: LoadedFile, config: CoreConfig, index: KustomizationIndex, exists: (p: string) => boolean, byPath: ReadonlyMap<string, LoadedFile>,
  root: RootPath, files: readonly LoadedFile[], repoPath: RepoPath, sink: RenderNote[],
): RenderJob[] {
  const spec = obj(o.raw.spec) ?? {};
  const who = `Flux Kustomization ${describe(o).replace(/^Kustomization /, '')}`;
  const sourceKind = str(obj(spec.sourceRef)?.kind);
  if (sourceKind && sourceKind !== 'GitRepository' && sourceKind !== 'Bucket') {
    return noteOnly(sink, `${who}: its source is a ${sourceKind}, outside this repository, so it is not rendered`, spanAt(o, 'spec.sourceRef'));
  }
  const dir = fromRoot(root, str(spec.path) ?? '.');
  const notes: RenderNote[] = [];
  const post = obj(spec.postBuild);
  if (post && (obj(post.substitute) || Array.isArray(post.substituteFrom))) notes.push(note('info', `${who}: postBuild substitution (\${var}) happens in the cluster; the render keeps the \${var} placeholders`, spanAt(o, 'spec.postBuild')));
  const overlay: Raw = {};
  const fields: TransformerField[] = [];
  const target = str(spec.targetNamespace);
  if (target) {
    overlay.namespace = target;
    fields.push({ key: 'namespace', span: spanAt(o, 'spec.targetNamespace') });
  }
  for (const key of ['namePrefix', 'nameSuffix'] as const) {
    if (str(spec[key])) {
      overlay[key] = spec[key];
      fields.push({ key, span: spanAt(o, `spec.${key}`) });
    }
  }
  if (Array.isArray(spec.images)) overlay.images = spec.images;
  if (Array.isArray(spec.patches)) overlay.patches = spec.patches;
  const meta = obj(spec.commonMetadata);
  if (meta && obj(meta.labels)) overlay.commonLabels = meta.labels;
  if (meta && obj(meta.annotations)) overlay.commonAnnotations = meta.annotations;
  const clusters = { type: 'of-file', file: file.file } as const;
  const namespace = target ?? config.namespace;
  if (index.has(dir)) {
    return [kustomizeJob(dir, index.get(dir)!.file, index, exists, byPath, namespace, `${who}, ${dir}`, clusters, { id: `flux-kustomize:${o.namespace}/${o.name}`, overlay, overlayFields: fields, notes })];
  }
  // No kustomization.yaml: Flux generates one listing every Kubernetes manifest below spec.path.
  const prefix = dir === '.' ? '' : `${dir}/`;
  const plain = files.filter((f) => repoPath(f.file).startsWith(prefix) && f.objects.length > 0 && !f.render && f !== file).map((f) => repoPath(f.file));
  if (!plain.length) return noteOnly(sink, `${who}: path ${String(spec.path ?? '.')} holds no manifests in this workspace, so nothing is rendered`, spanAt(o, 'spec.path'));
  const job: KustomizeJob = {
    ...kustomizeJob(dir, file.file, index, exists, byPath, namespace, `${who}, ${dir}`, clusters, { id: `flux-kustomize:${o.namespace}/${o.name}`, overlay, overlayFields: fields, notes }),
    plainFiles: plain,
    consumes: plain.map((p) => byPath.get(p)!.file),
    reads: [dir, ...plain],
    anchor: spanAt(o, 'spec.path'),
  };
  return [job];
}

/** A note without a job (the object names a release that cannot be rendered here), collected in `sink`. */
function noteOnly(sink: RenderNote[], message: string, span: Span): RenderJob[] {
  sink.push(note('info', message, span));
  return [];
}
