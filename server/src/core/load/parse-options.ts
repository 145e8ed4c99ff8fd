import type { Tags } from 'yaml';
import { withExplicitFloat } from './explicit-float';
import { withGoYamlIntegers } from './go-yaml-integers';

/**
 * `yaml`'s log level for every document kube-netlint parses or makes: at its default (`warn`) the library reports
 * through process.emitWarning, i.e. on the CLI's stderr and in the editor's log, e.g. "Keys with collection values
 * will be stringified…" from toJS. What it would warn about is a finding (a collection key: yaml-syntax) or nothing
 * the user needs, so its warnings are never printed.
 */
export const QUIET = { logLevel: 'error' } as const;

/**
 * The `yaml` parse options of every load (whole files and single documents alike). Kubernetes reads
 * manifests with sigs.k8s.io/yaml on go-yaml v2, i.e. YAML 1.1 scalars: `yes`/`on` are booleans,
 * `031502` and `0o73567` are octal, `3_1503`, `0b1…` and `0X1F90` are integers, `1:20` is a string (see
 * {@link withGoYamlIntegers}). The 1.1 schema gives the values kubectl sees; timestamps are left as strings (the JSON conversion turns them back into strings anyway); `!!float 30081`
 * is the number 30081 (see {@link withExplicitFloat}).
 */
export const PARSE_OPTIONS = {
  ...QUIET,
  version: '1.1',
  merge: true,
  prettyErrors: false,
  strict: false,
  customTags: (tags: Tags) => withExplicitFloat(withGoYamlIntegers(tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'))),
} as const;
