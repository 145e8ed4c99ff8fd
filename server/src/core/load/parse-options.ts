import type { Tags } from 'yaml';
import { withExplicitFloat } from './explicit-float';
import { withGoYamlIntegers } from './go-yaml-integers';

/**
 * The `yaml` parse options of every load (whole files and single documents alike). Kubernetes reads
 * manifests with sigs.k8s.io/yaml on go-yaml v2, i.e. YAML 1.1 scalars: `yes`/`on` are booleans,
 * `031502` and `0o73567` are octal, `3_1503`, `0b1…` and `0X1F90` are integers, `1:20` is a string (see
 * {@link withGoYamlIntegers}). The 1.1 schema gives the values kubectl sees; timestamps are left as strings (the JSON conversion turns them back into strings anyway); `!!float 30081`
 * is the number 30081 (see {@link withExplicitFloat}).
 */
export const PARSE_OPTIONS = {
  version: '1.1',
  merge: true,
  prettyErrors: false,
  strict: false,
  customTags: (tags: Tags) => withExplicitFloat(withGoYamlIntegers(tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'))),
} as const;
