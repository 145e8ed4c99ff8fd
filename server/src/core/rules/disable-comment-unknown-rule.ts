import { IGNORE_ANNOTATION } from '../engine/suppress';
import { ignoreListIds } from '../engine/run-rules';
import type { LoadedFile } from '../load/load-file';
import { DISABLE_LINE, DISABLE_NEXT_LINE, DisableDirective, disableDirectives } from '../load/suppressions';
import { spanAt } from '../model/views/raw-fields';
import type { Span } from '../source/span';
import { Finding, Fix, refOf, Rule } from './rule';

/**
 * A disable comment or a `kube-netlint.io/ignore` annotation naming a rule id that does not exist (a typo, or a
 * rule renamed), or a comment whose directive word is not one kube-netlint reads (`# kube-netlint-disable`,
 * eslint's block form; `…-disable-nextline`): it silences nothing, and the finding it was written for still shows —
 * or, worse, the user believes a finding is silenced on purpose when it is not. `knownIds` is the registry
 * (rules/index.ts), passed in so this file does not import the registry that lists it.
 */
export function disableCommentUnknownRule(knownIds: () => ReadonlySet<string>): Rule {
  return {
    id: 'disable-comment-unknown-rule',
    title: 'Disable comment or ignore annotation names an unknown rule or directive',
    severity: 'warning',
    reportsRejection: true,
    explanation: [
      `A \`# ${DISABLE_NEXT_LINE} RULE\` comment silences RULE's findings on the next line, a`,
      `\`# ${DISABLE_LINE} RULE\` comment after a value silences them on its own line, and the`,
      `\`${IGNORE_ANNOTATION}: "RULE,…"\` annotation silences them for the whole object. A rule id that kube-netlint does`,
      'not have silences nothing: usually a typo, or a rule that was renamed. The finding names the closest rule id',
      'and offers a quick fix that writes it. A comment that starts like a directive but is none — eslint\'s block',
      `forms \`kube-netlint-disable\` / \`kube-netlint-enable\`, or a misspelt \`kube-netlint-disable-nextline\` — silences`,
      'nothing either, and is reported on its directive word (with a fix when it is a misspelling of one).',
      '',
      'A disable comment with no rule id silences every rule on that line, as in eslint.',
      '',
      `Text after \` -- \` in the comment or the annotation is a free-text reason and is not read as rule ids, as in`,
      `eslint: \`# ${DISABLE_NEXT_LINE} hostport-usage -- the node agent needs it\`,`,
      `\`${IGNORE_ANNOTATION}: "nodeport-duplicate -- shared on purpose"\`. \`kube-netlint rules\` lists the rule ids.`,
    ].join('\n'),
    sources: ['https://eslint.org/docs/latest/use/configure/rules#comment-descriptions (the ` -- ` reason convention)'],
    check({ model, files }) {
      const known = knownIds();
      const out: Finding[] = [];
      for (const file of files?.values() ?? []) {
        // Read the text only of files whose directives name an unknown id or word (an unknown word's line maps
        // to an empty set): the CLI holds texts compressed, and most files have no directive at all.
        if (!namesUnknown(file, known)) continue;
        for (const d of directivesOf(file)) {
          if (d.kind === 'unknown') {
            out.push(unknownDirective(d, file.file));
            continue;
          }
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
        // The written value up to its ` -- reason` (a word of the reason is no id, and must not make an id's place ambiguous).
        const written = files?.get(value.file)?.text.slice(value.start, value.end);
        const text = written?.slice(0, reasonAt(written));
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

/** Per loaded file (an edit loads a new one), whether its suppressions name an unknown id or word, and against which ids. */
const unknownMemo = new WeakMap<LoadedFile, { known: ReadonlySet<string>; unknown: boolean }>();

/** True when a directive of the file names an id not in `known`, or an unknown directive word (its line maps to no id). */
function namesUnknown(file: LoadedFile, known: ReadonlySet<string>): boolean {
  if (file.suppressions.size === 0) return false;
  const hit = unknownMemo.get(file);
  if (hit && hit.known === known) return hit.unknown;
  const unknown = [...file.suppressions.values()].some((ids) => ids.size === 0 || [...ids].some((id) => id !== '*' && !known.has(id)));
  unknownMemo.set(file, { known, unknown });
  return unknown;
}

/** Each file's directive comments, read once per loaded file (an edit loads a new one): rules run on every edit. */
const directiveMemo = new WeakMap<LoadedFile, readonly DisableDirective[]>();
function directivesOf(file: LoadedFile): readonly DisableDirective[] {
  let found = directiveMemo.get(file);
  if (!found) directiveMemo.set(file, (found = disableDirectives(file.text)));
  return found;
}

function unknownDirective(d: DisableDirective, file: string): Finding {
  const span = { file, start: d.start + d.at, end: d.start + d.at + d.word.length };
  // Only a misspelling gets a fix: eslint's block forms (`kube-netlint-disable`) mean something else entirely.
  const lower = d.word.toLowerCase(); // a directive in capitals is the directive, written in the wrong case
  const near = lower === DISABLE_NEXT_LINE || lower === DISABLE_LINE ? lower : closestId(d.word, [DISABLE_NEXT_LINE, DISABLE_LINE]);
  const suggestion = near && Math.abs(near.length - d.word.length) <= 2 ? near : undefined;
  return {
    ruleId: 'disable-comment-unknown-rule',
    severity: 'warning',
    message: `"${d.word}" is not a kube-netlint directive, so this comment silences nothing; ${suggestion ? `did you mean ${suggestion}?` : `use ${DISABLE_NEXT_LINE} (the line below) or ${DISABLE_LINE} (this line)`}`,
    span,
    related: [],
    fixes: suggestion ? [{ title: `Change "${d.word}" to "${suggestion}"`, edits: [{ span, newText: suggestion }], preferred: true }] : [],
  };
}

function finding(id: string, span: Span, where: 'comment' | 'annotation', known: ReadonlySet<string>, fixable = true): Finding {
  const suggestion = closestId(id, known);
  const what = where === 'comment' ? 'this comment' : `the ${IGNORE_ANNOTATION} annotation`;
  const fixes: Fix[] = suggestion && fixable ? [{ title: `Change "${id}" to "${suggestion}"`, edits: [{ span, newText: suggestion }], preferred: true }] : [];
  return {
    ruleId: 'disable-comment-unknown-rule',
    severity: 'warning',
    message: `"${id}" is not a kube-netlint rule, so ${what} silences nothing for it; ${suggestion ? `did you mean ${suggestion}?` : '`kube-netlint rules` lists the rule ids'}`,
    span,
    related: [],
    fixes,
  };
}

/** Where the ` -- reason` of a written annotation value (quotes included) starts; its length when it has none. */
function reasonAt(written: string): number {
  const m = /(?:^|[\s"'])--(?=[\s"']|$)/.exec(written);
  return m ? m.index : written.length;
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
