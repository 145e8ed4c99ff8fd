import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Span } from '../source/span';
import { probed, sentinelNumbers } from './helm-values';
import { at, scalarText, TreePath } from './tree-walk';

/** One `valuesInline` number a sentinel build replaced: where it is written and its value as written. */
export interface InlineSentinel {
  readonly span: Span;
  /** The value's text (`30401`), compared with the field of the real build. */
  readonly text: string;
}

/** The inputs of a sentinel build of a kustomization tree with `helmCharts`, and what each sentinel stands for. */
export interface KustomizeSentinelPlan {
  /** Kustomization repository path → its text with every probed `valuesInline` number replaced by its sentinel. */
  readonly texts: ReadonlyMap<string, string>;
  readonly bySentinel: ReadonlyMap<number, InlineSentinel>;
}

/**
 * A second kustomize build with every integer of `helmCharts[].valuesInline` above 16 replaced by a distinct
 * sentinel proves which valuesInline key feeds each field of an inflated chart's objects, even when two keys hold
 * the same number (the same proof as a Helm release's sentinel render, see helm-values.ts sentinelPlan). kustomize
 * hands valuesInline to `helm template` as a values file (api/internal/builtins/HelmChartInflationGenerator.go,
 * v5.4), so Helm's float64 reading of numbers applies: sentinels stay below 1e6, where floats and integers print
 * alike. Only the scalars change (edited with `yaml`, every other byte kept), so `valuesMerge`, `valuesFile` and
 * `additionalValuesFiles` combine as in the real build.
 * @param kustomizations the kustomization files the build reads: repository path, file name as loaded (for spans), text
 * @param avoid texts whose 4–6 digit numbers are never used as sentinels (chart templates, values files, manifests)
 * @returns undefined when no valuesInline holds a number worth probing, or a kustomization does not parse
 */
export function kustomizeSentinelPlan(kustomizations: readonly { readonly path: string; readonly file: string; readonly text: string }[], avoid: string): KustomizeSentinelPlan | undefined {
  const fresh = sentinelNumbers(avoid);
  const texts = new Map<string, string>();
  const bySentinel = new Map<number, InlineSentinel>();
  for (const k of kustomizations) {
    const doc = parseDocument(k.text, { prettyErrors: false });
    if (doc.errors.length) continue;
    const charts = at(doc.contents, ['helmCharts']);
    if (!isSeq(charts)) continue;
    let changed = false;
    const visit = (node: unknown): void => {
      if (isMap(node)) for (const pair of node.items) visit(pair.value);
      else if (isSeq(node)) node.items.forEach(visit);
      else if (isScalar(node) && node.range && probed(node.value)) {
        const sentinel = fresh();
        bySentinel.set(sentinel, { span: { file: k.file, start: node.range[0], end: node.range[1] }, text: String(node.value) });
        node.value = sentinel;
        changed = true;
      }
    };
    for (const chart of charts.items) if (isMap(chart)) visit(chart.get('valuesInline', true));
    if (changed) texts.set(k.path, doc.toString());
  }
  return bySentinel.size ? { texts, bySentinel } : undefined;
}

/**
 * The valuesInline scalar that a rendered field came from, proved by the sentinel build: the same field of the
 * sentinel object holds a sentinel, and the real build wrote that scalar's value there.
 * @param sentinelRoot the same object in the sentinel build's output (undefined when it has none)
 */
export function inlineSentinelAt(plan: KustomizeSentinelPlan, sentinelRoot: unknown, path: TreePath, rendered: string): InlineSentinel | undefined {
  if (sentinelRoot === undefined) return undefined;
  const probe = scalarText(at(sentinelRoot, path));
  if (probe === undefined || !/^\d+$/.test(probe)) return undefined;
  const leaf = plan.bySentinel.get(Number(probe));
  return leaf?.text === rendered ? leaf : undefined;
}
