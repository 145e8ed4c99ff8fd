/**
 * Characters that would let a manifest forge or hide terminal output when printed raw: C0 and C1 controls
 * (newline, carriage return, ESC starting an ANSI sequence, backspace…), DEL, the Unicode line and paragraph
 * separators, and the bidirectional controls behind "Trojan Source" (CVE-2021-42574: U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

const escape = (ch: string): string => NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * One line of text output made safe: every unsafe character becomes a visible escape (`\n`, `\r`, `\e`,
 * `\u202e`), so an object name, a value or a file name from the workspace can never start a new line, move
 * the cursor or reorder what the terminal shows. JSON and SARIF need none of this: they escape by construction.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** Like {@link escapeForTerminal}, keeping the newlines of multi-line text the CLI writes itself (stderr messages, help). */
export function escapeKeepingNewlines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, escape);
}
