import type { ScalarTag, Tags } from 'yaml';

const INT_TAG = 'tag:yaml.org,2002:int';
const FLOAT_TAG = 'tag:yaml.org,2002:float';

/**
 * A plain scalar go-yaml v2 reads as a prefixed or legacy-octal integer: go-yaml v2 removes every `_` and calls
 * `strconv.ParseInt(plain, 0, 64)`, which takes an optional sign, then `0b`/`0B` (binary), `0o`/`0O` (octal),
 * `0x`/`0X` (hex) or a leading `0` (octal). The first character must be a sign or a digit (go-yaml's resolve
 * table), so `_` may appear anywhere after it. Decimal integers are left to the schema's own `int` tag.
 */
const PREFIXED = /^(?:[-+]_*)?0_*(?:[bB]_*[01][01_]*|[oO]_*[0-7][0-7_]*|[xX]_*[0-9a-fA-F][0-9a-fA-F_]*|[0-7_]*)$/;
const RADIX: Readonly<Record<string, number>> = { b: 2, o: 8, x: 16 };

/** Resolves only (no `identify`): numbers the loader writes back are still stringified by the schema's `int`. */
const goPrefixedInt: ScalarTag = {
  default: true,
  tag: INT_TAG,
  test: PREFIXED,
  resolve(text) {
    const plain = text.replace(/_/g, '');
    const sign = plain[0] === '-' ? -1 : 1;
    const unsigned = plain.replace(/^[-+]/, '');
    const radix = RADIX[unsigned[1]?.toLowerCase() ?? ''];
    const n = radix ? parseInt(unsigned.slice(2), radix) : parseInt(unsigned, 8);
    return sign * n;
  },
};

/**
 * The `yaml` library's YAML 1.1 integer tags, made to read what kubectl reads. kubectl (sigs.k8s.io/yaml on
 * go-yaml v2) resolves integers with `strconv.ParseInt(plain, 0, 64)`, so `nodePort: 0o73567` is 30583 and
 * `0X1F90` is 8080, which the `yaml` library's 1.1 tags (`0b…`, `0…`, `0x…` in lower case only) keep as
 * strings; and go-yaml v2 does not read base-60 numbers (`1:20` stays the string "1:20", where the `yaml`
 * library reads 80). This replaces the binary, octal and hex tags with one that accepts exactly ParseInt's
 * prefixed forms and drops the base-60 int and float tags. Decimal integers and floats keep the schema's tags.
 * Source: gopkg.in/yaml.v2 v2.4.0 resolve.go (`resolve`, hint 'D'/'S'; "Base 60 floats … are purposefully
 * unsupported"), Go strconv.ParseInt (base 0); checked with kubectl 1.31 (`kubectl label --local -f FILE x=y -o json`).
 */
export function withGoYamlIntegers(tags: Tags): Tags {
  const replaced = new Set(['BIN', 'OCT', 'HEX', 'TIME']);
  const kept = tags.filter((t) => typeof t === 'string' || !((t.tag === INT_TAG || t.tag === FLOAT_TAG) && replaced.has(t.format ?? '')));
  return [goPrefixedInt, ...kept];
}
