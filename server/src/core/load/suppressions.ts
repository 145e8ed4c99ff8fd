import { CST, Lexer } from 'yaml';
import type { LineIndex } from '../source/line-index';

/** The comment directive that silences findings on the next line. */
export const DISABLE_NEXT_LINE = 'kube-netlint-disable-next-line';

/**
 * Line-level suppressions of one file: 1-based line → rule ids silenced on that line (`'*'` = all).
 * Found with `yaml`'s own Lexer, so `#` inside quoted or block scalars is never mistaken for a comment.
 */
export type LineSuppressions = ReadonlyMap<number, ReadonlySet<string>>;

// Lexer control tokens that do not correspond to source characters.
const MARKERS = new Set(['\x02', '\x18', '\x1f']);

/** A rule id written in a disable directive, with its offset in the comment's text. */
export interface DirectiveId {
  readonly id: string;
  readonly at: number;
}

/**
 * The rule ids of a `# kube-netlint-disable-next-line rule-a, rule-b -- reason` comment with their offsets in
 * `comment` (empty: every rule), or undefined when `comment` (a comment's text, `#` included) is not that
 * directive. As in eslint, ` -- ` starts a free-text reason, which names no rule.
 */
export function directiveIds(comment: string): DirectiveId[] | undefined {
  const hash = comment.search(/\S/);
  if (comment[hash] !== '#') return undefined;
  const name = hash + 1 + comment.slice(hash + 1).search(/\S|$/);
  if (!comment.startsWith(DISABLE_NEXT_LINE, name)) return undefined;
  const from = name + DISABLE_NEXT_LINE.length;
  if (from < comment.length && !/\s/.test(comment[from])) return undefined; // `kube-netlint-disable-next-lines` is another word
  const out: DirectiveId[] = [];
  const word = /[^\s,]+/g;
  word.lastIndex = from;
  for (let m = word.exec(comment); m; m = word.exec(comment)) {
    const end = m.index + 2;
    if (m[0] === '--' && /\s/.test(comment[m.index - 1]) && (end === comment.length || /\s/.test(comment[end]))) break; // the reason
    out.push({ id: m[0], at: m.index });
  }
  return out;
}

/** The rule ids of a disable directive comment (empty: every rule), or undefined when it is not one; see {@link directiveIds}. */
export function disableDirectiveRules(comment: string): string[] | undefined {
  return directiveIds(comment)?.map((d) => d.id);
}

/** One `# kube-netlint-disable-next-line` comment: its offset in the text, its text (`#` included) and the rule ids it names. */
export interface DisableDirective {
  readonly start: number;
  readonly comment: string;
  /** The rule ids with their offsets in `comment`; empty: every rule. */
  readonly ids: readonly DirectiveId[];
}

/**
 * Every disable directive of `text`, in order, found with `yaml`'s Lexer (so a `#` inside a quoted or block
 * scalar is never one). Cheap when the text does not mention the directive (no lexing).
 */
export function disableDirectives(text: string): DisableDirective[] {
  const out: DisableDirective[] = [];
  if (!text.includes(DISABLE_NEXT_LINE)) return out;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (MARKERS.has(token)) continue;
    if (CST.tokenType(token) === 'comment') {
      const ids = directiveIds(token);
      if (ids) out.push({ start: offset, comment: token, ids });
    }
    offset += token.length;
  }
  return out;
}

export function findLineSuppressions(text: string, lines: LineIndex): LineSuppressions {
  const out = new Map<number, Set<string>>();
  for (const d of disableDirectives(text)) {
    const target = lines.position(d.start).line + 1;
    const set = out.get(target) ?? new Set<string>();
    for (const id of d.ids.length ? d.ids.map((i) => i.id) : ['*']) set.add(id);
    out.set(target, set);
  }
  return out;
}
