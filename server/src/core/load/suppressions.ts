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

/**
 * The rule ids of a `# kube-netlint-disable-next-line rule-a, rule-b -- reason` comment (empty: every rule), or
 * undefined when `comment` (a comment's text, `#` included) is not that directive.
 */
export function disableDirectiveRules(comment: string): string[] | undefined {
  const text = comment.trim();
  if (!text.startsWith('#')) return undefined;
  const body = text.slice(1).trim();
  if (!body.startsWith(DISABLE_NEXT_LINE)) return undefined;
  const rest = body.slice(DISABLE_NEXT_LINE.length);
  if (rest && !/^\s/.test(rest)) return undefined; // `kube-netlint-disable-next-lines` is another word
  // As in eslint, ` -- ` starts a free-text reason: `# kube-netlint-disable-next-line hostport-usage -- node agent`.
  const reason = rest.search(/(^|\s)--(\s|$)/);
  return (reason < 0 ? rest : rest.slice(0, reason)).split(/[\s,]+/).filter(Boolean);
}

/** One `# kube-netlint-disable-next-line` comment: its offset in the text, its text (`#` included) and the rule ids it names. */
export interface DisableDirective {
  readonly start: number;
  readonly comment: string;
  /** Empty: every rule. */
  readonly ruleIds: readonly string[];
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
      const ids = disableDirectiveRules(token);
      if (ids) out.push({ start: offset, comment: token, ruleIds: ids });
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
    for (const id of d.ruleIds.length ? d.ruleIds : ['*']) set.add(id);
    out.set(target, set);
  }
  return out;
}
