import type { Span } from '../../source/span';
import type { Fix } from '../../rules/rule';
import type { K8sObject } from '../../model/objects';
import { spanAt } from '../../model/views/raw-fields';
import { jsonType, type SpecProblem, type WrittenText } from './service-spec';
import { MAX_MAP_VALUES } from './object-envelope';
import { firstFitting } from '../../output/fit-message';

/** JSON type of a written value, as Go's decoder names it in `cannot unmarshal <type>`. */
export type FoundKind = 'string' | 'number' | 'bool' | 'array' | 'object';

const FOUND: Readonly<Record<FoundKind, string>> = { string: 'a string', number: 'a number', bool: 'a boolean', array: 'a list', object: 'a mapping' };

/** One value of a map[string]string field that is not a string, as {@link mapValueProblem} reports it. */
export interface MapValue {
  readonly span: Span;
  /** The map's path for the message, as the API prints paths (`spec.ingress[0].from[1].podSelector.matchLabels`). */
  readonly path: string;
  /** The map key, or for an element of a []string field (a selector requirement's `values`) its index. */
  readonly key: string | number;
  readonly found: FoundKind;
  /** The scalar as read (YAML 1.1), for numbers and booleans. */
  readonly value?: unknown;
  /** The Go struct holding the map and its path without indices, as the decoder names them: `LabelSelector.spec.selector.matchLabels`. */
  readonly goField: string;
  /** `Deployment shop/web`, for the message. */
  readonly who: string;
  /** False when the value is not written in place (an alias, an anchored value): no quick fix. */
  readonly editable: boolean;
}

/**
 * A decoder field path cut for a message that has no room for it: the struct and the last two fields, the middle as
 * `…` (`LabelSelectorRequirement.….matchExpressions.values`), as ingress-spec.ts cuts `IngressServiceBackend.….service.port`.
 * The finding's place and the message's own path say where the field is.
 */
export function elidedGoField(goField: string): string {
  const parts = goField.split('.');
  return parts.length <= 4 ? goField : `${parts[0]}.….${parts.slice(-2).join('.')}`;
}

/**
 * A value of a map[string]string field beyond the object's own metadata (pod template labels and annotations,
 * nodeSelector, a selector's matchLabels) that YAML reads as a number, a boolean or a collection, said as
 * object-invalid says it of `metadata.labels` (kubernetes/api-server/object-envelope.ts metadataTypeProblems):
 * `spec.template.metadata.labels.tier is a number, not a string (YAML 1.1 reads the unquoted value as the number 1):
 * the API server cannot decode Deployment default/web ("json: cannot unmarshal number into Go struct field
 * ObjectMeta.spec.template.metadata.labels of type string"); quote it`. kubectl converts YAML to JSON as YAML 1.1
 * reads it (sigs.k8s.io/yaml on go-yaml v2: `yes`, `on`, `1`, `1.10`, `0123` are not strings), and the API server's
 * decoder (sigs.k8s.io/json, encoding/json's UnmarshalTypeError: the last struct entered and the field path from
 * the root, no map key) refuses the whole object. A plain scalar gets the quick fix that quotes it as written
 * (`yes` → `"yes"`, the value the author meant).
 */
export function mapValueProblem(v: MapValue, written?: WrittenText): SpecProblem {
  const scalar = v.found === 'bool' || v.found === 'number';
  const text = written?.(v.span);
  const at = typeof v.key === 'number' ? `[${v.key}]` : `.${v.key}`;
  const head = `${v.path}${at} is ${FOUND[v.found]}, not a string`;
  // A JSON manifest says what it means (`1` is a number there): only YAML needs the reading explained.
  const read = scalar && !/\.json$/i.test(v.span.file) ? ` (YAML 1.1 reads the unquoted value as ${v.found === 'bool' ? '' : 'the number '}${String(v.value)})` : '';
  const refusedAs = (goField: string): string => `: the API server cannot decode ${v.who} ("json: cannot unmarshal ${v.found} into Go struct field ${goField} of type string")`;
  const refused = refusedAs(v.goField);
  const cut = refusedAs(elidedGoField(v.goField));
  const fix = scalar ? '; quote it' : '; give a string';
  const quotable = scalar && v.editable && text !== undefined && /^[A-Za-z0-9_.+-]+$/.test(text);
  const fixes: Fix[] = quotable ? [{ title: `Quote "${text}"`, edits: [{ span: v.span, newText: `"${text}"` }], preferred: true }] : [];
  // Deep paths leave no room for everything: the map's own name then stands for its path (the decoder's error
  // quotes the whole path), and then the YAML 1.1 reading and the fix go (the rule's page has them).
  const short = `${v.path.slice(v.path.lastIndexOf('.') + 1)}${at} is ${FOUND[v.found]}, not a string`;
  // Then the decoder's path loses its middle (a CronJob's affinity term is deep).
  return { span: v.span, message: firstFitting(`${head}${read}${refused}${fix}`, `${short}${read}${refused}${fix}`, `${short}${refused}${fix}`, `${short}${refused}`, `${short}${cut}${fix}`, `${short}${cut}`), fixes };
}

/**
 * The values of a written map[string]string (`map`, found at the raw path `at` of `obj`) that are not strings, at
 * most {@link MAX_MAP_VALUES}, each as {@link mapValueProblem} says it (a null value decodes to "" and passes), for
 * checks that read the object's JSON rather than the loader's typed fields (a Service's selector, a NetworkPolicy's
 * matchLabels). `path` and `goField` as in {@link MapValue}; `who`: `Service shop/web` or a placeholder.
 */
export function rawMapValueProblems(obj: K8sObject, map: Readonly<Record<string, unknown>>, at: string, path: string, goField: string, who: string, written?: WrittenText): SpecProblem[] {
  const out: SpecProblem[] = [];
  for (const key in map) {
    const value = map[key];
    if (value === null || typeof value === 'string') continue;
    if (out.length === MAX_MAP_VALUES) break;
    const found = jsonType(value) as FoundKind;
    out.push(mapValueProblem({ span: spanAt(obj, `${at}.${key}`), path, key, found, value, goField, who, editable: true }, written));
  }
  return out;
}
