/**
 * Every finding message the rule tests' inputs produced in this mocha run, as `{ruleId, message, test}`: the
 * rule tests lint through {@link lint} (test/helpers/lint.ts), which records here, and the message-length test
 * bounds them all once every test has run (a root `after` hook). Kept in memory only; one entry per distinct
 * rule and message.
 */
export interface SeenMessage {
  readonly ruleId: string;
  readonly message: string;
}

const seen = new Map<string, SeenMessage>();

/** Records the findings' messages (duplicates are kept once). */
export function recordMessages(findings: readonly { ruleId: string; message: string }[]): void {
  for (const f of findings) seen.set(`${f.ruleId}\0${f.message}`, { ruleId: f.ruleId, message: f.message });
}

/** The messages recorded so far. */
export function seenMessages(): SeenMessage[] {
  return [...seen.values()];
}
