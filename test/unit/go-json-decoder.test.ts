import { strict as assert } from 'node:assert';
import { decodeGoJsonStream } from '../../server/out/core/load/go-json-decoder';

const svc = (name: string) => `{"apiVersion":"v1","kind":"Service","metadata":{"name":"${name}"}}`;

// Each expected message is what `kubectl create --dry-run=client --validate=false -o name -f FILE` (kubectl 1.31,
// in a network namespace of its own) printed after "error parsing FILE: " for the same text.
describe('Go encoding/json stream decoder (where and why kubectl refuses a file that starts with "{")', () => {
  const cases: [string, string, number, string][] = [
    ['a YAML flow mapping', '{apiVersion: v1, kind: Service}\n', 1, "json: offset 2: invalid character 'a' looking for beginning of object key string"],
    ['single-quoted keys', "{'apiVersion':'v1'}\n", 1, "json: offset 2: invalid character '\\'' looking for beginning of object key string"],
    ['a comment', '{\n  // c\n  "apiVersion":"v1","kind":"Service","metadata":{"name":"u"}}\n', 4, "json: offset 5: invalid character '/' looking for beginning of object key string"],
    ['a missing comma after leading blank lines', '\n\n   \n  {"apiVersion":"v1","kind":"Service","metadata":{"name":"a"},\n "spec": {"ports": [{"port": 80 "x": 1}]}}\n', 101, "json: offset 102: invalid character '\"' after object key:value pair"],
    ['a trailing comma after a two-byte character', '{"apiVersion":"v1","kind":"Service","metadata":{"name":"h\u00e9llo", "x": [1,2,]}}\n', 74, "json: offset 76: invalid character ']' looking for beginning of value"],
    ['junk after a valid object', `${svc('a')}\njunk here\n`, 61, "json: offset 62: invalid character 'j' looking for beginning of value"],
    ['a --- line after a valid object', `${svc('a')}\n---\n${svc('b')}\n`, 62, "json: offset 63: invalid character '-' in numeric literal"],
    ['an unclosed object', '{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"}\n', 0, 'unexpected EOF'],
  ];
  for (const [what, text, offset, message] of cases) {
    it(`${what}: ${message}`, () => {
      const { stop } = decodeGoJsonStream(text);
      assert.deepEqual([stop?.offset, stop?.message], [offset, message]);
    });
  }

  it('reads back-to-back and newline-separated objects and top-level scalars, and stops at nothing in valid JSON', () => {
    const text = `${svc('a')}${svc('b')}\n  ${svc('c')} 5 true\n`;
    const { values, stop } = decodeGoJsonStream(text);
    assert.equal(stop, undefined);
    assert.deepEqual(values.map(([s, e]) => text.slice(s, e)), [svc('a'), svc('b'), svc('c'), '5', 'true']);
    const valid = '{"a":"\\u00e9\\n","b":[1.5e+3,-0,null,false,{}],"c":[]}';
    assert.deepEqual(decodeGoJsonStream(valid), { values: [[0, valid.length]] });
  });

  it("reports Go's reasons for bad strings, escapes, numbers and literals", () => {
    const reason = (t: string) => decodeGoJsonStream(t).stop?.reason;
    assert.deepEqual(['{"a":"x\ny"}', '{"a":"\\x"}', '{"a":"\\u12g4"}', '{"a":01}', '{"a":1.}', '{"a":1e}', '{"a":tru}', '{"a":True}', '[1,}'].map(reason), [
      "invalid character '\\n' in string literal",
      "invalid character 'x' in string escape code",
      "invalid character 'g' in \\u hexadecimal character escape",
      "invalid character '1' after object key:value pair",
      "invalid character '}' after decimal point in numeric literal",
      "invalid character '}' in exponent of numeric literal",
      "invalid character '}' in literal true (expecting 'e')",
      "invalid character 'T' looking for beginning of value",
      "invalid character '}' looking for beginning of value",
    ]);
  });
});
