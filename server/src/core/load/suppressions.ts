import { CST, Lexer } from 'yaml';
import type { LineIndex } from '../source/line-index';

/** The comment directive that silences findings on the next line. */
export const DISABLE_NEXT_LINE = 'kube-netlint-disable-next-line';
/** The comment directive that silences findings on its own line (a comment after the value), as eslint's `eslint-disable-line`. */
export const DISABLE_LINE = 'kube-netlint-disable-line';

/**
 * Line-level suppressions of one file: 1-based line → rule ids silenced on that line (`'*'` = all). A comment
 * whose directive word is unknown maps its own line to an empty set (it silences nothing), so an empty map
 * means the file has no directive comment at all and readers never need its text to know that.
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

/** Which line a directive silences: the next one, its own, or none (a word that looks like a directive but is not one). */
export type DirectiveKind = 'next-line' | 'line' | 'unknown';

/** A comment read as a directive: its kind, the rule ids with their offsets in the comment, and where its word is. */
export interface Directive {
  readonly kind: DirectiveKind;
  /** The rule ids (empty: every rule; always empty for `unknown`). */
  readonly ids: readonly DirectiveId[];
  /** The directive word (`kube-netlint-disable-next-line`, or the unknown `kube-netlint-disable`) and its offset in the comment. */
  readonly word: string;
  readonly at: number;
}

/**
 * The start of every directive word, known or not: `kube-netlint-disable…` and `kube-netlint-enable…` (eslint's
 * block forms), in any case: directives are lower-case, so `# KUBE-NETLINT-DISABLE-NEXT-LINE` silences nothing,
 * and is reported (not ignored as an ordinary comment).
 */
const DIRECTIVE_WORD = /^kube-netlint-(?:disable|enable)\S*/i;
const ANY_DIRECTIVE_WORD = /kube-netlint-(?:disable|enable)/i;

/** True when `text` may hold a directive comment (a cheap test before lexing; one regex pass, faster than includes). */
export function mayHoldDirective(text: string): boolean {
  return ANY_DIRECTIVE_WORD.test(text);
}

/**
 * Reads a comment's text (`#` included) as a directive: `# kube-netlint-disable-next-line rule-a, rule-b -- reason`
 * (the next line), `# kube-netlint-disable-line …` (its own line), or — `unknown` — another word starting with
 * `kube-netlint-disable` / `kube-netlint-enable` (eslint's block comments, a misspelt directive), which silences
 * nothing. Undefined for any other comment. As in eslint, ` -- ` starts a free-text reason, which names no rule.
 */
export function readDirective(comment: string): Directive | undefined {
  const hash = comment.search(/\S/);
  if (comment[hash] !== '#') return undefined;
  const at = hash + 1 + comment.slice(hash + 1).search(/\S|$/);
  const word = DIRECTIVE_WORD.exec(comment.slice(at))?.[0];
  if (!word) return undefined;
  const kind: DirectiveKind = word === DISABLE_NEXT_LINE ? 'next-line' : word === DISABLE_LINE ? 'line' : 'unknown';
  const ids = kind !== 'unknown' ? listedRuleIds(comment, at + word.length) : [];
  return { kind, ids, word, at };
}

/**
 * The rule ids of a list (`rule-a, rule-b -- reason`) from offset `from` of `text`, with their offsets in it: words
 * separated by commas and whitespace, up to a ` -- ` (a `--` word with whitespace, or the start or end of the text,
 * on both sides), which starts a free-text reason naming no rule, as in eslint. The one reading of both the disable
 * comments and the `kube-netlint.io/ignore` annotation.
 */
export function listedRuleIds(text: string, from = 0): DirectiveId[] {
  const ids: DirectiveId[] = [];
  const rule = /[^\s,]+/g;
  rule.lastIndex = from;
  for (let m = rule.exec(text); m; m = rule.exec(text)) {
    const end = m.index + 2;
    if (m[0] === '--' && (m.index === 0 || /\s/.test(text[m.index - 1])) && (end === text.length || /\s/.test(text[end]))) break; // the reason
    ids.push({ id: m[0], at: m.index });
  }
  return ids;
}

/**
 * The rule ids of a `# kube-netlint-disable-next-line rule-a, rule-b -- reason` comment with their offsets in
 * `comment` (empty: every rule), or undefined when `comment` is not that directive (see {@link readDirective}).
 */
export function directiveIds(comment: string): DirectiveId[] | undefined {
  const d = readDirective(comment);
  return d?.kind === 'next-line' ? [...d.ids] : undefined;
}

/** The rule ids of a disable comment of either kind (empty: every rule), or undefined when it is none; see {@link readDirective}. */
export function disableDirectiveRules(comment: string): string[] | undefined {
  const d = readDirective(comment);
  return d && d.kind !== 'unknown' ? d.ids.map((i) => i.id) : undefined;
}

/** One directive comment of a text: its offset in the text, its text (`#` included) and how it reads. */
export interface DisableDirective extends Directive {
  readonly start: number;
  readonly comment: string;
}

/**
 * Every directive comment of `text` (known and unknown kinds), in order, found with `yaml`'s Lexer (so a `#`
 * inside a quoted or block scalar is never one). Cheap when the text does not mention a directive (no lexing).
 */
export function disableDirectives(text: string): DisableDirective[] {
  const out: DisableDirective[] = [];
  if (!mayHoldDirective(text)) return out;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (MARKERS.has(token)) continue;
    if (CST.tokenType(token) === 'comment') {
      const d = readDirective(token);
      if (d) out.push({ ...d, start: offset, comment: token });
    }
    offset += token.length;
  }
  return out;
}

export function findLineSuppressions(text: string, lines: LineIndex): LineSuppressions {
  const out = new Map<number, Set<string>>();
  for (const d of disableDirectives(text)) {
    const line = lines.position(d.start).line; // 1-based line of the comment
    const target = d.kind === 'next-line' ? line + 1 : line;
    const set = out.get(target) ?? new Set<string>();
    if (d.kind !== 'unknown') for (const id of d.ids.length ? d.ids.map((i) => i.id) : ['*']) set.add(id);
    out.set(target, set);
  }
  return out;
}
