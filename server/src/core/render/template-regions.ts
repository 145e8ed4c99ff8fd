/**
 * Which document of a Helm template (text between `---` lines) each rendered object came from. Helm writes a
 * template's documents in order (pkg/releaseutil/manifest_sorter.go keeps template order within a kind, v3.17), but
 * a document inside `{{ range }}` renders once per item and one inside `{{ if }}` maybe not at all, so the nth object
 * is the nth document only when the counts agree; otherwise objects whose `kind:` and `name:` a document writes
 * literally anchor the order, and the objects between two anchors go to the documents between them.
 */

/** One document of a template: offsets into the template text, and whether a `range` block encloses its start. */
export interface TemplateRegion {
  readonly start: number;
  readonly end: number;
  readonly body: string;
  readonly looped: boolean;
}

/** The non-empty documents of a template's text. */
export function templateRegions(text: string): TemplateRegion[] {
  const raw: { start: number; end: number }[] = [];
  let start = 0;
  const re = /^---[^\n]*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    raw.push({ start, end: m.index });
    start = m.index + m[0].length + 1;
  }
  raw.push({ start: Math.min(start, text.length), end: text.length });
  const loops = rangeDepthAt(text, raw.map((r) => r.start));
  return raw.flatMap((r, i) => {
    const body = text.slice(r.start, r.end);
    // A document that holds only template actions (`{{- range … }}`, `{{- end }}`) writes no object.
    if (body.replace(/\{\{[\s\S]*?\}\}/g, '').trim() === '') return [];
    return [{ ...r, body, looped: loops[i] > 0 }];
  });
}

/**
 * How many `range` blocks are open at each offset (Go text/template actions: `range`, `if`, `with`, `define`,
 * `block` open a block, `end` closes the innermost; comments are skipped).
 * @param offsets ascending offsets into `text`
 */
function rangeDepthAt(text: string, offsets: readonly number[]): number[] {
  const stack: string[] = [];
  const out: number[] = [];
  const action = /\{\{-?\s*(\/\*[\s\S]*?\*\/|[\w]+)?[\s\S]*?-?\}\}/g;
  let next = 0;
  for (let m = action.exec(text); ; m = action.exec(text)) {
    const at = m ? m.index : Infinity;
    while (next < offsets.length && offsets[next] <= at) {
      out.push(stack.filter((s) => s === 'range').length);
      next++;
    }
    if (!m) break;
    const word = m[1] ?? '';
    if (['range', 'if', 'with', 'define', 'block'].includes(word)) stack.push(word);
    else if (word === 'end') stack.pop();
  }
  return out;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when the region writes `kind: <kind>` literally. */
export function writesKind(region: TemplateRegion, kind: string | undefined): boolean {
  return !!kind && new RegExp(`^\\s*kind:\\s*["']?${escapeRegExp(kind)}["']?\\s*(#.*)?$`, 'm').test(region.body);
}

function writesName(region: TemplateRegion, name: string | undefined): boolean {
  return !!name && new RegExp(`^\\s*name:\\s*["']?${escapeRegExp(name)}["']?\\s*(#.*)?$`, 'm').test(region.body);
}

/**
 * The region of each object of one kind rendered from one template, in output order: an index into `regions`, or
 * undefined when the template cannot tell (several documents inside loops or conditions between the same anchors).
 * A template of one document gives that document to every object.
 * @param names the objects' `metadata.name`, in the order helm wrote them
 */
export function regionsOfObjects(regions: readonly TemplateRegion[], kind: string | undefined, names: readonly (string | undefined)[]): (number | undefined)[] {
  if (regions.length === 1) return names.map(() => 0);
  if (regions.length === 0) return names.map(() => undefined);
  const ofKind = regions.map((r, i) => (writesKind(r, kind) ? i : -1)).filter((i) => i >= 0);
  const pool = ofKind.length ? ofKind : regions.map((_, i) => i);
  const out: (number | undefined)[] = names.map((name) => {
    const named = pool.filter((i) => writesName(regions[i], name));
    return named.length === 1 ? named[0] : undefined;
  });
  const anchored = out.map((r) => r !== undefined);
  let j = 0;
  while (j < names.length) {
    if (anchored[j]) {
      j++;
      continue;
    }
    let k = j;
    while (k < names.length && !anchored[k]) k++;
    // Objects j..k-1 lie between the anchors j-1 and k (or the template's ends).
    const lo = j > 0 ? out[j - 1]! : -1;
    const hi = k < names.length ? out[k]! : Infinity;
    let candidates = pool.filter((i) => i > lo && i < hi);
    if (!candidates.length) candidates = pool.filter((i) => i === lo || i === hi).filter((i) => regions[i].looped);
    const count = k - j;
    if (candidates.length === count) candidates.forEach((c, n) => (out[j + n] = c));
    else {
      const loops = candidates.filter((c) => regions[c].looped);
      if (loops.length === 1) {
        const before = candidates.filter((c) => c < loops[0]);
        const after = candidates.filter((c) => c > loops[0]);
        if (count >= before.length + after.length) {
          for (let n = 0; n < count; n++) out[j + n] = n < before.length ? before[n] : n >= count - after.length ? after[n - (count - after.length)] : loops[0];
        }
      }
    }
    j = k;
  }
  return out;
}
