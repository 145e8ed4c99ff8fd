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
 * The rule ids of a `# kube-netlint-disable-next-line rule-a, rule-b` comment (empty: every rule), or
 * undefined when `comment` (a comment's text, `#` included) is not that directive.
 */
export function disableDirectiveRules(comment: string): string[] | undefined {
  const text = comment.trim();
  if (!text.startsWith('#')) return undefined;
  const body = text.slice(1).trim();
  if (!body.startsWith(DISABLE_NEXT_LINE)) return undefined;
  return body.slice(DISABLE_NEXT_LINE.length).split(/[\s,]+/).filter(Boolean);
}

export function findLineSuppressions(text: string, lines: LineIndex): LineSuppressions {
  const out = new Map<number, Set<string>>();
  if (!text.includes(DISABLE_NEXT_LINE)) return out;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (MARKERS.has(token)) continue;
    if (CST.tokenType(token) === 'comment') {
      const ids = disableDirectiveRules(token);
      if (ids) {
        const target = lines.position(offset).line + 1;
        const set = out.get(target) ?? new Set<string>();
        for (const id of ids.length ? ids : ['*']) set.add(id);
        out.set(target, set);
      }
    }
    offset += token.length;
  }
  return out;
}
