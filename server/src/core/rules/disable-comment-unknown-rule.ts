import { IGNORE_ANNOTATION } from '../engine/suppress';
import { ignoreListIds } from '../engine/run-rules';
import { DISABLE_NEXT_LINE, disableDirectives } from '../load/suppressions';
import { spanAt } from '../model/views/raw-fields';
import type { Span } from '../source/span';
import { Finding, Fix, refOf, Rule } from './rule';

/**
 * A `# kube-netlint-disable-next-line` comment or a `kube-netlint.io/ignore` annotation naming a rule id that does
 * not exist (a typo, or a rule renamed): it silences nothing, and the finding it was written for still shows —
 * or, worse, the user believes a finding is silenced on purpose when it is not. `knownIds` is the registry
 * (rules/index.ts), passed in so this file does not import the registry that lists it.
 */
export function disableCommentUnknownRule(knownIds: () => ReadonlySet<string>): Rule {
  return {
    id: 'disable-comment-unknown-rule',
    title: 'Disable comment or ignore annotation names an unknown rule',
    severity: 'warning',
    explanation: [
      `A \`# ${DISABLE_NEXT_LINE} RULE\` comment silences RULE's findings on the next line, and the`,
      `\`${IGNORE_ANNOTATION}: "RULE,…"\` annotation silences them for the whole object. A rule id that kube-netlint does`,
      'not have silences nothing: usually a typo, or a rule that was renamed. The finding names the closest rule id',
      'and offers a quick fix that writes it.',
      '',
      `Text after \` -- \` in the comment is a free-text reason and is not read as rule ids, as in eslint:`,
      `\`# ${DISABLE_NEXT_LINE} hostport-usage -- the node agent needs it\`. The rule ids are listed in docs/rules/.`,
    ].join('\n'),
    sources: ['https://eslint.org/docs/latest/use/configure/rules#comment-descriptions (the ` -- ` reason convention)'],
    check({ model, files }) {
      const known = knownIds();
      const out: Finding[] = [];
      for (const file of files?.values() ?? []) {
        if (file.suppressions.size === 0 || ![...file.suppressions.values()].some((ids) => [...ids].some((id) => id !== '*' && !known.has(id)))) continue;
        for (const d of disableDirectives(file.text)) {
          for (const { id, at } of d.ids) {
            if (known.has(id)) continue;
            out.push(finding(id, { file: file.file, start: d.start + at, end: d.start + at + id.length }, 'comment', known));
          }
        }
      }
      for (const obj of model.objects) {
        const list = obj.annotations[IGNORE_ANNOTATION];
        if (list === undefined) continue;
        const unknown = ignoreListIds(list).filter((id) => id !== '*' && id !== 'all' && !known.has(id));
        if (!unknown.length) continue;
        const value = spanAt(obj, `metadata.annotations.${IGNORE_ANNOTATION}`);
        const text = files?.get(value.file)?.text.slice(value.start, value.end);
        for (const id of unknown) {
          const at = text === undefined ? -1 : uniqueWordAt(text, id);
          const span = at < 0 ? value : { file: value.file, start: value.start + at, end: value.start + at + id.length };
          out.push({ ...finding(id, span, 'annotation', known, at >= 0), object: refOf(obj) });
        }
      }
      return out;
    },
  };
}

function finding(id: string, span: Span, where: 'comment' | 'annotation', known: ReadonlySet<string>, fixable = true): Finding {
  const suggestion = closestId(id, known);
  const what = where === 'comment' ? 'this comment' : `the ${IGNORE_ANNOTATION} annotation`;
  const fixes: Fix[] = suggestion && fixable ? [{ title: `Change "${id}" to "${suggestion}"`, edits: [{ span, newText: suggestion }], preferred: true }] : [];
  return {
    ruleId: 'disable-comment-unknown-rule',
    severity: 'warning',
    message: `"${id}" is not a kube-netlint rule, so ${what} silences nothing for it; ${suggestion ? `did you mean ${suggestion}?` : 'the rule ids are listed in docs/rules/'}`,
    span,
    related: [],
    fixes,
  };
}

/** Where `id` stands as a whole word (between separators) in `text`, when exactly once; else -1. */
function uniqueWordAt(text: string, id: string): number {
  const hits: number[] = [];
  for (let i = text.indexOf(id); i >= 0; i = text.indexOf(id, i + 1)) {
    const before = text[i - 1];
    const after = text[i + id.length];
    if ((before === undefined || /[\s,"']/.test(before)) && (after === undefined || /[\s,"']/.test(after))) hits.push(i);
  }
  return hits.length === 1 ? hits[0] : -1;
}

/** The known id nearest to `id` by edit distance, when near enough to be a typo of it (at most a third of its length). */
export function closestId(id: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(id.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(id, candidate, bestDistance);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance of two short strings, or `limit` when it is at least that. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return Math.min(prev[b.length], limit);
}
