import type { ScalarTag, Tags } from 'yaml';

const FLOAT_TAG = 'tag:yaml.org,2002:float';
const INT_TAG = 'tag:yaml.org,2002:int';

/**
 * `!!float 30081`: go-yaml v2 (kubectl's YAML 1.1 reader, via sigs.k8s.io/yaml) resolves the text as an
 * integer and converts it to float64 30081, which the API decodes into an int32 field as 30081. The `yaml`
 * library's 1.1 float tags only accept text with a `.` or an exponent, so it would keep the string "30081"
 * (and the linter would ask to remove quotes that are not there). This tag, tried first for explicit
 * `!!float`, defers to the schema's own float tags and reads integer text as the schema's int tags read it
 * (`30081`, `3_0081`, `0o73601`) as a number. Source: go-yaml v2 resolve.go (resolve: yaml_FLOAT_TAG with an int result → float64).
 */
export function withExplicitFloat(tags: Tags): Tags {
  const floats = tags.filter((t): t is ScalarTag => typeof t !== 'string' && t.tag === FLOAT_TAG && !('collection' in t && t.collection));
  const ints = tags.filter((t): t is ScalarTag => typeof t !== 'string' && t.tag === INT_TAG && !!t.test);
  const explicit: ScalarTag = {
    tag: FLOAT_TAG,
    resolve(text, onError, options) {
      const own = floats.find((t) => t.test?.test(text));
      if (own) return own.resolve(text, onError, options);
      const int = ints.find((t) => t.test?.test(text));
      if (int) return Number(int.resolve(text, onError, options));
      onError(`not a float: ${text}`);
      return text;
    },
  };
  return [explicit, ...tags];
}
