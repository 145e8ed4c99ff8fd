/**
 * The length a finding's message should stay within, in characters (UTF-16 code units), cluster suffix included:
 * the developers' guide asks for the fact, the consequence and the fix in at most ~300 characters, the rest
 * belonging in the rule's page.
 */
export const MESSAGE_MAX = 300;

/**
 * The first of `messages` (fullest first) that fits within {@link MESSAGE_MAX}; the last (the shortest) when none
 * does. For a message with optional parts (the closest candidate and how it differs, a controller's own words) that
 * long names leave no room for: they are dropped in the order given, the related locations keeping them. (The
 * core's `(in cluster prod)` suffix comes on top, as for any message.)
 */
export function firstFitting(...messages: readonly [string, ...string[]]): string {
  return messages.find((m) => m.length <= MESSAGE_MAX) ?? messages[messages.length - 1];
}
