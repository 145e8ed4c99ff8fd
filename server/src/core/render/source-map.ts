import type { Span } from '../source/span';
import type { FileText, TemplateWriting } from '../source/string-number';

/** How a rendered field was traced back to a line the user edits, best first (see {@link MappedNode}). */
export type Attribution = 'values' | 'patch' | 'replacement' | 'literal' | 'template' | 'transformer' | 'document';

/**
 * One node (scalar, mapping, sequence or key) of a rendered manifest and the source span it comes from.
 * Offsets `start`/`end` are UTF-16 offsets into the rendered text.
 */
export interface MappedNode {
  readonly start: number;
  readonly end: number;
  readonly source: Span;
  readonly via: Attribution;
  /** A value from a values file (`via: 'values'`) whose quotes or type in the render the chart's template decides. */
  readonly writtenBy?: TemplateWriting;
}

/**
 * Rendered offsets → source spans, for one rendered manifest. `nodes` are sorted by `start` (then widest first);
 * `documents` gives, per rendered document, its range and a fallback span (the source document's first line, or the
 * kustomization / template that produced it).
 */
export interface RenderSourceMap {
  readonly nodes: readonly MappedNode[];
  readonly documents: readonly { readonly start: number; readonly end: number; readonly fallback: Span }[];
}

/** Sorts nodes as {@link RenderSourceMap} wants them. */
export function sortNodes(nodes: MappedNode[]): MappedNode[] {
  return nodes.sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * The source span of a rendered span: the innermost mapped node that contains it, else the fallback of its
 * document, else undefined.
 */
export function sourceOf(map: RenderSourceMap, start: number, end: number): { span: Span; via: Attribution; writtenBy?: TemplateWriting } | undefined {
  // Nodes nest and are sorted by start (wider first on ties), so walking back from the last node that starts at or
  // before `start`, the first one that contains the span is the innermost.
  let lo = 0;
  let hi = map.nodes.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (map.nodes[mid].start <= start) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = last; i >= 0; i--) {
    const n = map.nodes[i];
    if (end <= n.end) return { span: n.source, via: n.via, ...(n.writtenBy ? { writtenBy: n.writtenBy } : {}) };
  }
  const doc = map.documents.find((d) => d.start <= start && start <= d.end);
  return doc ? { span: doc.fallback, via: 'document' } : undefined;
}

/**
 * The {@link FileText} of loaded files for the rules' hints on how a value is written: a file's text, and for a
 * rendered manifest the chart template that writes a value taken from a values file ({@link MappedNode.writtenBy}).
 */
export function fileTextOf(files: ReadonlyMap<string, { readonly text: string; readonly render?: { readonly map: RenderSourceMap } }> | undefined): FileText {
  const text = (span: Span): string | undefined => files?.get(span.file)?.text;
  const templateWriting = (span: Span): TemplateWriting | undefined => {
    const map = files?.get(span.file)?.render?.map;
    return map ? sourceOf(map, span.start, span.end)?.writtenBy : undefined;
  };
  return Object.assign(text, { templateWriting });
}

/** The texts of the source files a map points into (kept with the map: spans refer to them). */
export function sourceTextsOf(map: RenderSourceMap, files: ReadonlyMap<string, { readonly text: string }>): Map<string, string> {
  const out = new Map<string, string>();
  const add = (file: string): void => {
    if (out.has(file)) return;
    const f = files.get(file);
    if (f) out.set(file, f.text);
  };
  for (const n of map.nodes) add(n.source.file);
  for (const d of map.documents) add(d.fallback.file);
  return out;
}

/**
 * A source span of a render made on `then` (the file's text at render time), moved onto `now` (the text being
 * analysed, an editor buffer edited since): text before the edited region keeps its offsets, text after it moves
 * by the edit's length change, a span inside the edited region shrinks to the region's start. So findings of
 * rendered objects move with edits until the next render (renders read saved files).
 */
export function sourceSpanNow(span: Span, then: string | undefined, now: string | undefined): Span {
  if (then === undefined || now === undefined || then === now) return span;
  let prefix = 0;
  const max = Math.min(then.length, now.length);
  while (prefix < max && then.charCodeAt(prefix) === now.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && then.charCodeAt(then.length - 1 - suffix) === now.charCodeAt(now.length - 1 - suffix)) suffix++;
  const editEndThen = then.length - suffix;
  const delta = now.length - then.length;
  const move = (offset: number): number => (offset <= prefix ? offset : offset >= editEndThen ? offset + delta : prefix);
  return { file: span.file, start: move(span.start), end: move(span.end) };
}
