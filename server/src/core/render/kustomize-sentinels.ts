import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Span } from '../source/span';
import { probed, sentinelNumbers } from './helm-values';
import { at, scalarText, TreePath } from './tree-walk';
import { QUIET } from '../load/parse-options';

/** One values number a sentinel build replaced (in `valuesInline` or a values file): where it is written and its value as written. */
export interface InlineSentinel {
  readonly span: Span;
  /** The value's text (`30401`), compared with the field of the real build. */
  readonly text: string;
}

/** The inputs of a sentinel build of a kustomization tree with `helmCharts`, and what each sentinel stands for. */
export interface KustomizeSentinelPlan {
  /** Repository path (a kustomization or a values file) → its text with every probed number replaced by its sentinel. */
  readonly texts: ReadonlyMap<string, string>;
  readonly bySentinel: ReadonlyMap<number, InlineSentinel>;
}

/** A file the sentinel build reads: repository path, file name as loaded (for spans), text. */
export interface SentinelInput {
  readonly path: string;
  readonly file: string;
  readonly text: string;
}

/**
 * A second kustomize build with every integer above 16 of `helmCharts[].valuesInline` and of the values files the
 * charts are inflated with (`valuesFile` or the vendored chart's values.yaml, `additionalValuesFiles`) replaced by a
 * distinct sentinel proves which key feeds each field of an inflated chart's objects, even when two keys hold the
 * same number (the same proof as a Helm release's sentinel render, see helm-values.ts sentinelPlan). kustomize
 * hands valuesInline and the values files to `helm template` as values files (api/internal/builtins/
 * HelmChartInflationGenerator.go, v5.4), so Helm's float64 reading of numbers applies: sentinels stay below 1e6,
 * where floats and integers print alike. Only the digits of each replaced number change, every other byte is kept,
 * so `valuesMerge` and the merge order of the files combine as in the real build.
 * @param kustomizations the kustomization files the build reads that have `helmCharts`
 * @param valuesFiles the values files the build's charts read
 * @param avoid texts whose 4–6 digit numbers are never used as sentinels (chart templates, values files, manifests)
 * @returns undefined when no number is worth probing; a kustomization or values file that does not parse is left as written
 */
export function kustomizeSentinelPlan(kustomizations: readonly SentinelInput[], avoid: string, valuesFiles: readonly SentinelInput[] = []): KustomizeSentinelPlan | undefined {
  const fresh = sentinelNumbers(avoid);
  const texts = new Map<string, string>();
  const bySentinel = new Map<number, InlineSentinel>();
  const probe = (input: SentinelInput, roots: (contents: unknown) => unknown[]): void => {
    const doc = parseDocument(input.text, { ...QUIET, prettyErrors: false });
    if (doc.errors.length) return;
    const replaced: { start: number; end: number; sentinel: number }[] = [];
    const visit = (node: unknown): void => {
      if (isMap(node)) for (const pair of node.items) visit(pair.value);
      else if (isSeq(node)) node.items.forEach(visit);
      else if (isScalar(node) && node.range && probed(node.value)) {
        const sentinel = fresh();
        bySentinel.set(sentinel, { span: { file: input.file, start: node.range[0], end: node.range[1] }, text: String(node.value) });
        replaced.push({ start: node.range[0], end: node.range[1], sentinel });
      }
    };
    roots(doc.contents).forEach(visit);
    if (!replaced.length) return;
    let out = '';
    let at = 0;
    for (const r of replaced.sort((a, b) => a.start - b.start)) {
      out += input.text.slice(at, r.start) + String(r.sentinel);
      at = r.end;
    }
    texts.set(input.path, out + input.text.slice(at));
  };
  for (const k of kustomizations) {
    probe(k, (contents) => {
      const charts = at(contents, ['helmCharts']);
      return isSeq(charts) ? charts.items.flatMap((chart) => (isMap(chart) ? [chart.get('valuesInline', true)] : [])) : [];
    });
  }
  const seen = new Set<string>();
  for (const v of valuesFiles) {
    if (seen.has(v.path) || texts.has(v.path)) continue;
    seen.add(v.path);
    probe(v, (contents) => [contents]);
  }
  return bySentinel.size ? { texts, bySentinel } : undefined;
}

/**
 * The values scalar (of `valuesInline` or a values file) that a rendered field came from, proved by the sentinel build: the same field of the
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
