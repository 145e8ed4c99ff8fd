import { bundledRuleDocUri } from '../node/version';
import { SHOW_RULE_DOCUMENTATION_COMMAND } from '../protocol/messages';

/**
 * The `file:` URI of the rule's page shipped with the server (`docs/rules/<id>.md` of the installed package or
 * extension), or undefined when the page is not there: a link is given only where it leads to a real page.
 */
export function ruleDocFileUri(ruleId: string): string | undefined {
  // Asked for every diagnostic of every publish: the installed pages do not move while the server runs.
  if (!docUris.has(ruleId)) docUris.set(ruleId, bundledRuleDocUri(ruleId));
  return docUris.get(ruleId);
}
const docUris = new Map<string, string | undefined>();

/**
 * Where a hover's "Read more" points: the client's {@link SHOW_RULE_DOCUMENTATION_COMMAND} when it has one (a
 * `command:` URI, which the VS Code client trusts for that command only), else the shipped page's `file:` URI.
 */
export function ruleDocLink(ruleId: string, clientHasCommand: boolean): string | undefined {
  if (clientHasCommand) return `command:${SHOW_RULE_DOCUMENTATION_COMMAND}?${encodeURIComponent(JSON.stringify([ruleId]))}`;
  return ruleDocFileUri(ruleId);
}

/**
 * The first 2-4 lines of a rule's explanation for a hover: its first paragraph from its start, cut after the
 * sentence that reaches about 280 characters, with " …" when cut (the rest is on the rule's page).
 */
export function ruleSummary(explanation: string): string {
  const first = explanation.split(/\n\s*\n/)[0].replace(/\s*\n\s*/g, ' ').trim();
  if (first.length <= 320) return first;
  // A sentence ends at . ! or ? followed by a space; a dot inside a word (service_health.go, v1.33) does not end one.
  const sentences = first.split(/(?<=[.!?])\s+/);
  let out = '';
  for (const s of sentences) {
    if (out && out.length + 1 + s.length > 320) break;
    out = out ? `${out} ${s}` : s;
    if (out.length >= 280) break;
  }
  return out.length > 400 ? `${out.slice(0, 397).replace(/\s+\S*$/, '')}…` : out.length < first.length ? `${out} …` : out;
}
