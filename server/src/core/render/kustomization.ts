import { Document, isMap, isScalar, isSeq, parseDocument, YAMLMap } from 'yaml';
import type { Located, Span } from '../source/span';
import { embeddedText, EmbeddedText } from './embedded';
import { readReplacement, Replacement } from './replacements';
import { QUIET } from '../load/parse-options';

/** Which objects a kustomize patch or transformer applies to (kustomize api/types/selector.go). */
export interface PatchTarget {
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
  /** A regular expression, matched against the whole name (kustomize anchors it). */
  readonly name?: string;
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly annotationSelector?: string;
}

/** One patch of a kustomization, as written. */
export interface KustomizePatch {
  /** The list item (for findings about the patch as a whole). */
  readonly span: Span;
  readonly field: 'patches' | 'patchesStrategicMerge' | 'patchesJson6902';
  /** `path:` (or the string of a patchesStrategicMerge entry), relative to the kustomization's folder. */
  readonly path?: Located<string>;
  /** An inline patch (`patch: |-` or an inline patchesStrategicMerge document), mapped back into this file. */
  readonly inline?: EmbeddedText;
  readonly target?: PatchTarget;
}

/** A builtin transformer field (`namespace:`, `namePrefix:`, an `images:` entry …) and where it is written. */
export interface TransformerField {
  readonly key: 'namespace' | 'namePrefix' | 'nameSuffix' | 'images' | 'replicas' | 'labels' | 'commonLabels' | 'commonAnnotations';
  /** For `images`: the image name; for `replicas`: the object name; for labels: the label key. */
  readonly name?: string;
  /** For `namespace`, `namePrefix`, `nameSuffix`: the value written. */
  readonly value?: string;
  readonly span: Span;
}

/** One `helmCharts` entry (kustomize api/types/helmchartargs.go, v5.4). */
export interface HelmChartEntry {
  readonly name: string;
  readonly repo?: string;
  readonly version?: string;
  /** `releaseName` (kustomize's default: the chart name). */
  readonly releaseName?: string;
  /** The list item. */
  readonly span: Span;
  /** The scalar leaves of `valuesInline`, with where each is written (what a rendered value may come from). */
  readonly inlineValues: readonly { readonly text: string; readonly span: Span }[];
  /**
   * `valuesFile` (used instead of the chart's own values.yaml) and `additionalValuesFiles` (merged after it), as
   * written: paths relative to the kustomization's folder, read through kustomize's loader (so, with the default load
   * restrictor, inside that folder).
   */
  readonly valuesFile?: string;
  readonly additionalValuesFiles: readonly string[];
}

/** A kustomization.yaml, read for rendering: entries and transformers with spans (offsets into `file`). */
export interface Kustomization {
  readonly file: string;
  readonly kind: 'Kustomization' | 'Component';
  /** `resources` and the older `bases`, as written. */
  readonly resources: readonly Located<string>[];
  readonly components: readonly Located<string>[];
  readonly patches: readonly KustomizePatch[];
  readonly transformers: readonly TransformerField[];
  /** `helmCharts` entries (kustomize's HelmChartInflationGenerator). */
  readonly helmCharts: readonly HelmChartEntry[];
  readonly helmChartHome?: string;
  /** configMapGenerator / secretGenerator entries by name (their objects' origin is the kustomization). */
  readonly generators: readonly { readonly name: string; readonly kind: 'ConfigMapGenerator' | 'SecretGenerator'; readonly span: Span }[];
  /** `replacements` written inline (source → targets). */
  readonly replacements: readonly Replacement[];
  /** `replacements: - path:` entries: files that each hold one replacement or a list of them. */
  readonly replacementFiles: readonly Located<string>[];
  /** Other files the build reads (generator files/envs, configurations, crds, openapi, replacements), relative paths. */
  readonly otherFiles: readonly string[];
  /** True when the kustomization cannot be read (YAML error or not a mapping). */
  readonly broken: boolean;
}

const spanOf = (file: string, node: unknown): Span | undefined => {
  const r = (node as { range?: [number, number, number] } | undefined)?.range;
  return r ? { file, start: r[0], end: r[1] } : undefined;
};

function strings(file: string, map: YAMLMap, key: string): Located<string>[] {
  const seq = map.get(key, true);
  if (!isSeq(seq)) return [];
  return seq.items.flatMap((item) => (isScalar(item) && typeof item.value === 'string' ? [{ value: item.value, span: spanOf(file, item)! }] : []));
}

function scalarString(node: unknown): string | undefined {
  return isScalar(node) && (typeof node.value === 'string' || typeof node.value === 'number') ? String(node.value) : undefined;
}

/** A `target:` / `select:` selector mapping as written (undefined for anything else). */
export function targetOf(node: unknown): PatchTarget | undefined {
  if (!isMap(node)) return undefined;
  const t: Record<string, string> = {};
  for (const key of ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector']) {
    const v = scalarString(node.get(key, true));
    if (v !== undefined) t[key] = v;
  }
  return t;
}

/**
 * Reads a kustomization's text. Never throws: a file that is not a YAML mapping gives `broken: true` and no
 * entries (kustomize itself then reports the error when it runs).
 */
export function readKustomization(file: string, text: string): Kustomization {
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { ...QUIET, prettyErrors: false, uniqueKeys: false });
  } catch {
    return emptyKustomization(file, true);
  }
  const root = doc.contents;
  if (doc.errors.length || !isMap(root)) return emptyKustomization(file, doc.errors.length > 0 || (root !== null && !isMap(root)));
  const kind = scalarString(root.get('kind', true)) === 'Component' ? 'Component' : 'Kustomization';
  const patches: KustomizePatch[] = [];
  for (const field of ['patchesStrategicMerge', 'patches', 'patchesJson6902'] as const) {
    const seq = root.get(field, true);
    if (!isSeq(seq)) continue;
    for (const item of seq.items) {
      const span = spanOf(file, item);
      if (!span) continue;
      if (isScalar(item) && typeof item.value === 'string') {
        // patchesStrategicMerge: a file name, or an inline patch document (a string with a newline).
        if (item.value.includes('\n')) patches.push({ span, field, inline: embeddedText(item, text) });
        else patches.push({ span, field, path: { value: item.value, span } });
        continue;
      }
      if (!isMap(item)) continue;
      const pathNode = item.get('path', true);
      const patchNode = item.get('patch', true);
      const path = isScalar(pathNode) && typeof pathNode.value === 'string' ? { value: pathNode.value, span: spanOf(file, pathNode)! } : undefined;
      patches.push({ span, field, path, inline: patchNode ? embeddedText(patchNode, text) : undefined, target: targetOf(item.get('target', true)) });
    }
  }
  const transformers: TransformerField[] = [];
  for (const key of ['namespace', 'namePrefix', 'nameSuffix'] as const) {
    const node = root.get(key, true);
    if (isScalar(node) && node.value !== null && String(node.value) !== '') transformers.push({ key, value: String(node.value), span: spanOf(file, node)! });
  }
  const listEntries = (key: 'images' | 'replicas', nameKey: string): void => {
    const seq = root.get(key, true);
    if (!isSeq(seq)) return;
    for (const item of seq.items) {
      if (!isMap(item)) continue;
      const name = scalarString(item.get(nameKey, true));
      if (name !== undefined) transformers.push({ key, name, span: spanOf(file, item)! });
    }
  };
  listEntries('images', 'name');
  listEntries('replicas', 'name');
  for (const key of ['commonLabels', 'commonAnnotations'] as const) {
    const map = root.get(key, true);
    if (isMap(map)) for (const pair of map.items) transformers.push({ key, name: scalarString(pair.key), span: spanOf(file, pair.value ?? pair.key)! });
  }
  const labels = root.get('labels', true);
  if (isSeq(labels)) {
    for (const item of labels.items) {
      const pairs = isMap(item) ? item.get('pairs', true) : undefined;
      if (isMap(pairs)) for (const pair of pairs.items) transformers.push({ key: 'labels', name: scalarString(pair.key), span: spanOf(file, pair.value ?? pair.key)! });
    }
  }
  const otherFiles: string[] = [];
  const helmCharts: Kustomization['helmCharts'][number][] = [];
  const charts = root.get('helmCharts', true);
  if (isSeq(charts)) {
    for (const item of charts.items) {
      if (!isMap(item)) continue;
      const name = scalarString(item.get('name', true));
      if (!name) continue;
      const inlineValues: { text: string; span: Span }[] = [];
      const leaves = (node: unknown): void => {
        if (isMap(node)) for (const pair of node.items) leaves(pair.value);
        else if (isSeq(node)) node.items.forEach(leaves);
        else if (isScalar(node) && node.value !== null) {
          const span = spanOf(file, node);
          if (span) inlineValues.push({ text: String(node.value), span });
        }
      };
      leaves(item.get('valuesInline', true));
      const valuesFile = scalarString(item.get('valuesFile', true));
      const additionalValuesFiles = strings(file, item, 'additionalValuesFiles').map((f) => f.value);
      // The build reads them: they belong to what a temporary copy of the tree holds, and a change re-renders.
      otherFiles.push(...(valuesFile ? [valuesFile] : []), ...additionalValuesFiles);
      helmCharts.push({
        name, repo: scalarString(item.get('repo', true)), version: scalarString(item.get('version', true)), releaseName: scalarString(item.get('releaseName', true)), span: spanOf(file, item)!, inlineValues,
        ...(valuesFile ? { valuesFile } : {}), additionalValuesFiles,
      });
    }
  }
  const generators: Kustomization['generators'][number][] = [];
  for (const [key, genKind] of [['configMapGenerator', 'ConfigMapGenerator'], ['secretGenerator', 'SecretGenerator']] as const) {
    const seq = root.get(key, true);
    if (!isSeq(seq)) continue;
    for (const item of seq.items) {
      if (!isMap(item)) continue;
      const name = scalarString(item.get('name', true));
      if (name) generators.push({ name, kind: genKind, span: spanOf(file, item)! });
      // `files: [key=path]` / `envs: [path]`: the build reads these files.
      for (const f of [...strings(file, item, 'files'), ...strings(file, item, 'envs')]) otherFiles.push(f.value.includes('=') ? f.value.slice(f.value.indexOf('=') + 1) : f.value);
    }
  }
  for (const key of ['configurations', 'crds', 'replacements', 'transformers', 'generators', 'validators']) {
    const seq = root.get(key, true);
    if (!isSeq(seq)) continue;
    for (const item of seq.items) {
      const v = isScalar(item) ? scalarString(item) : isMap(item) ? scalarString(item.get('path', true)) : undefined;
      if (v && !v.includes('\n')) otherFiles.push(v);
    }
  }
  const replacements: Replacement[] = [];
  const replacementFiles: Located<string>[] = [];
  const replacementList = root.get('replacements', true);
  if (isSeq(replacementList)) {
    for (const item of replacementList.items) {
      const pathNode = isMap(item) ? item.get('path', true) : undefined;
      const path = scalarString(pathNode);
      if (path !== undefined) replacementFiles.push({ value: path, span: spanOf(file, pathNode)! });
      else {
        const r = readReplacement(file, item);
        if (r) replacements.push(r);
      }
    }
  }
  const openapi = root.get('openapi', true);
  if (isMap(openapi)) {
    const p = scalarString(openapi.get('path', true));
    if (p) otherFiles.push(p);
  }
  return {
    file,
    kind,
    resources: [...strings(file, root, 'resources'), ...strings(file, root, 'bases')],
    components: strings(file, root, 'components'),
    patches,
    transformers,
    helmCharts,
    helmChartHome: (() => {
      const globals = root.get('helmGlobals', true);
      return isMap(globals) ? scalarString(globals.get('chartHome', true)) : undefined;
    })(),
    generators,
    replacements,
    replacementFiles,
    otherFiles,
    broken: false,
  };
}

function emptyKustomization(file: string, broken: boolean): Kustomization {
  return { file, kind: 'Kustomization', resources: [], components: [], patches: [], transformers: [], helmCharts: [], generators: [], replacements: [], replacementFiles: [], otherFiles: [], broken };
}
