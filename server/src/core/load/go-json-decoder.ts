/**
 * Where Go's `encoding/json` Decoder — the decoder kubectl uses for a file or stdin whose first non-space
 * character is `{` — reads each top-level value of a stream and where it refuses the text, with Go's own
 * message and offset, so a finding can say exactly what `kubectl apply` prints (`json: offset 2: invalid
 * character 'a' looking for beginning of object key string`).
 *
 * Why a port and not a JSON library: kubectl refuses a file where Go's decoder refuses it, and the place and
 * wording are Go's; JavaScript's JSON.parse and jsonc-parser accept other texts (comments, a trailing comma) or
 * report other places. The states below are Go's scanner, one character at a time: encoding/json scanner.go
 * (stateBeginValue … stateNul, quoteChar, maxNestingDepth) and stream.go (Decoder.readValue: the byte count runs
 * on across the values of one stream; an end of input inside a value is `unexpected EOF`, with no offset), Go 1.22.
 * kubectl wraps a syntax error as `json: offset N: …` (apimachinery util/yaml decoder.go JSONSyntaxError), v1.31;
 * checked with kubectl 1.31 `create --dry-run=client -f` on the cases in test/unit/go-json-decoder.test.ts.
 */

/** Where the decoder stopped. */
export interface GoJsonStop {
  /** UTF-16 index in the text of the character Go refused (for an end of input: the start of the unfinished value). */
  readonly offset: number;
  /** Go's error as kubectl prints it after `error parsing FILE: `. */
  readonly message: string;
  /** Go's reason alone (`invalid character 'a' looking for beginning of object key string`, `unexpected EOF`). */
  readonly reason: string;
  /** True when the stop is inside a value (that value is not read either), false between values. */
  readonly inValue: boolean;
}

/** The decoded top-level values of a stream, as `[start, end)` UTF-16 offsets, and where decoding stopped, if it did. */
export interface GoJsonStream {
  readonly values: readonly (readonly [number, number])[];
  readonly stop?: GoJsonStop;
}

/** encoding/json maxNestingDepth. */
const MAX_DEPTH = 10000;

type Step = (c: number) => void;

/** Thrown inside the scanner to end it at a refused character. */
class Refused {
  constructor(readonly reason: string) {}
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's quoteChar: the character in single quotes, escaped as strconv.Quote escapes it (`'\''`, `'"'`, `'\n'`, `'\x01'`). */
export function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[c]) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

/** UTF-8 length of the UTF-16 code unit `c` (a high surrogate counts the whole pair, its low surrogate nothing). */
const utf8Bytes = (c: number): number => (c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : c >= 0xdc00 && c <= 0xdfff ? 0 : 3);

/**
 * Decodes `text` from `from` (after a byte order mark kubectl drops) as Go's json.Decoder reads a stream:
 * value after value, each ended by its closing bracket (a bare number or literal by the next character),
 * whitespace between them skipped, until the end of the text or the first refused character.
 * Never throws.
 */
export function decodeGoJsonStream(text: string, from = 0): GoJsonStream {
  const values: [number, number][] = [];
  const stack: ('objectKey' | 'objectValue' | 'arrayValue')[] = [];
  let bytes = 0;
  let valueStart = -1;
  /** Set by a step that ends a top-level value; `consumed` says whether the ending character belongs to it. */
  let ended: { consumed: boolean } | undefined;
  let step: Step;

  const refuse = (c: number, context: string): never => {
    throw new Refused(`invalid character ${quoteChar(c)} ${context}`);
  };
  const push = (state: 'objectKey' | 'arrayValue'): void => {
    if (stack.length >= MAX_DEPTH) throw new Refused('exceeded max depth');
    stack.push(state);
  };

  const endValue: Step = (c) => {
    const n = stack.length;
    if (n === 0) {
      ended = { consumed: false };
      return;
    }
    if (isSpace(c)) {
      step = endValue;
      return;
    }
    const top = stack[n - 1];
    if (top === 'objectKey') {
      if (c === 0x3a) {
        stack[n - 1] = 'objectValue';
        step = beginValue;
        return;
      }
      refuse(c, 'after object key');
    }
    if (top === 'objectValue') {
      if (c === 0x2c) {
        stack[n - 1] = 'objectKey';
        step = beginString;
        return;
      }
      if (c === 0x7d) return popParseState();
      refuse(c, 'after object key:value pair');
    }
    if (c === 0x2c) {
      step = beginValue;
      return;
    }
    if (c === 0x5d) return popParseState();
    refuse(c, 'after array element');
  };
  const popParseState = (): void => {
    stack.pop();
    if (stack.length === 0) ended = { consumed: true };
    else step = endValue;
  };
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x5d) return endValue(c);
    beginValue(c);
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b: push('objectKey'); step = beginStringOrEmpty; return;
      case 0x5b: push('arrayValue'); step = beginValueOrEmpty; return;
      case 0x22: step = inString; return;
      case 0x2d: step = neg; return;
      case 0x30: step = zero; return;
      case 0x74: step = literal('true', 1); return;
      case 0x66: step = literal('false', 1); return;
      case 0x6e: step = literal('null', 1); return;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return;
    }
    refuse(c, 'looking for beginning of value');
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x7d) {
      stack[stack.length - 1] = 'objectValue';
      return endValue(c);
    }
    beginString(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x22) {
      step = inString;
      return;
    }
    refuse(c, 'looking for beginning of object key string');
  };
  const inString: Step = (c) => {
    if (c === 0x22) step = endValue;
    else if (c === 0x5c) step = inStringEsc;
    else if (c < 0x20) refuse(c, 'in string literal');
  };
  const inStringEsc: Step = (c) => {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) step = inString;
    else if (c === 0x75) step = hexEscape(4);
    else refuse(c, 'in string escape code');
  };
  const hexEscape = (left: number): Step => (c) => {
    if (!isHex(c)) refuse(c, 'in \\u hexadecimal character escape');
    step = left > 1 ? hexEscape(left - 1) : inString;
  };
  const neg: Step = (c) => {
    if (c === 0x30) step = zero;
    else if (c >= 0x31 && c <= 0x39) step = one;
    else refuse(c, 'in numeric literal');
  };
  const one: Step = (c) => {
    if (isDigit(c)) return;
    zero(c);
  };
  const zero: Step = (c) => {
    if (c === 0x2e) step = dot;
    else if (c === 0x65 || c === 0x45) step = exponent;
    else endValue(c);
  };
  const dot: Step = (c) => {
    if (isDigit(c)) step = dot0;
    else refuse(c, 'after decimal point in numeric literal');
  };
  const dot0: Step = (c) => {
    if (isDigit(c)) return;
    if (c === 0x65 || c === 0x45) step = exponent;
    else endValue(c);
  };
  const exponent: Step = (c) => {
    if (c === 0x2b || c === 0x2d) step = exponentSign;
    else exponentSign(c);
  };
  const exponentSign: Step = (c) => {
    if (isDigit(c)) step = exponentDigits;
    else refuse(c, 'in exponent of numeric literal');
  };
  const exponentDigits: Step = (c) => {
    if (isDigit(c)) return;
    endValue(c);
  };
  const literal = (word: string, i: number): Step => (c) => {
    if (c !== word.charCodeAt(i)) refuse(c, `in literal ${word} (expecting '${word[i]}')`);
    step = i + 1 < word.length ? literal(word, i + 1) : endValue;
  };

  const stopAt = (offset: number, reason: string, withOffset: boolean): GoJsonStream => ({
    values,
    stop: { offset, reason, message: withOffset ? `json: offset ${bytes}: ${reason}` : reason, inValue: valueStart >= 0 },
  });

  step = beginValue;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += utf8Bytes(c);
    if (valueStart < 0 && !isSpace(c)) valueStart = i;
    try {
      step(c);
    } catch (err) {
      if (err instanceof Refused) return stopAt(i, err.reason, true);
      throw err;
    }
    if (ended) {
      // A number or literal at the top level ends at the character after it, which starts the next value.
      const end = ended.consumed ? i + 1 : i;
      values.push([valueStart, end]);
      valueStart = -1;
      ended = undefined;
      step = beginValue;
      // Go's decoder counts that character again when it reads the next value (stream.go readValue).
      if (end === i) i--;
    }
  }
  if (valueStart < 0) return { values };
  // The end of the text: a top-level number or literal that is complete ends there; anything else is unfinished.
  try {
    step(0x20);
  } catch {
    /* refused below as unexpected EOF */
  }
  if (ended) {
    values.push([valueStart, text.length]);
    return { values };
  }
  return stopAt(valueStart, 'unexpected EOF', false);
}
