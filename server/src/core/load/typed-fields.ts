import { isAlias, isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { InvalidField } from '../model/objects';
import type { Located, Span } from '../source/span';
import { isBoolean, isInteger, isMergeKey, isString, NodeReader } from './node-reader';
import { MAX_MAP_VALUES } from '../kubernetes/api-server/object-envelope';
import { shownTag } from '../kubernetes/api-server/string-advice';

/**
 * Unquoted YAML 1.1 booleans. kubectl turns YAML into JSON with sigs.k8s.io/yaml (go-yaml v2, YAML 1.1), which
 * reads `hostNetwork: yes` as `true`; the `yaml` library (YAML 1.2) reads it as the string "yes". Source:
 * go-yaml v2 resolve.go (resolve table), as vendored by sigs.k8s.io/yaml v1.4.
 */
const YAML11_BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON'].map((s) => [s, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF'].map((s) => [s, false] as const),
]);

/** A LabelSelector's matchExpressions entry (apimachinery pkg/apis/meta/v1/types.go LabelSelectorRequirement). */
export const LABEL_REQUIREMENT = { struct: 'LabelSelectorRequirement', goType: 'v1.LabelSelectorRequirement', operator: 'v1.LabelSelectorOperator' } as const;
/** A NodeSelectorTerm's matchExpressions / matchFields entry (core/v1 types.go NodeSelectorRequirement). */
export const NODE_REQUIREMENT = { struct: 'NodeSelectorRequirement', goType: 'v1.NodeSelectorRequirement', operator: 'v1.NodeSelectorOperator' } as const;

/** A map value's key or a list element's index, as {@link InvalidField} holds them. */
const where = (key: string | number | undefined): { key?: string; index?: number } =>
  key === undefined ? {} : typeof key === 'number' ? { index: key } : { key };

const isIntOrString = (v: unknown): v is number | string => isInteger(v) || isString(v);

/** Most merge-key values followed from one string map (those of the maps they bring in included). */
const MAX_MERGE_SOURCES = 32;

/**
 * Reads typed scalars like {@link NodeReader.integer} / `string` / `boolean` (one lookup each, same cost) and
 * records, in {@link invalid}, every value that is present but of a JSON type the API server cannot decode
 * into the field (null counts as absent, as in the API's JSON decoder). Only the fields that the networking
 * rules read go through here, so valid manifests allocate nothing extra.
 */
export class TypedFields {
  readonly invalid: InvalidField[] = [];
  /** The merge-key values {@link mapValues} met, for {@link stringMap} to follow (undefined when none: no allocation). */
  private merges: unknown[] | undefined;

  constructor(readonly reader: NodeReader) {}

  /** An int32 field (`containerPort`, `hostPort`, `replicas`). */
  integer(node: unknown, key: string, path: string, goStruct: string): Located<number> | undefined {
    return this.read(node, key, isInteger, path, goStruct, 'int32');
  }

  /**
   * An IntOrString field (a probe's or hook's `httpGet.port` / `tcpSocket.port`): records a value that is neither an
   * integer nor a string (`port: 80.5`, `port: true`, `port: [80]`), which IntOrString's UnmarshalJSON decodes as an
   * int32 and refuses (staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go, v1.33).
   */
  intOrString(node: unknown, key: string, path: string, goStruct: string): void {
    this.read(node, key, isIntOrString, path, goStruct, 'intstr.IntOrString');
  }

  /** A string field; `goType` names a Go string type such as `v1.Protocol`. */
  string(node: unknown, key: string, path: string, goStruct: string, goType = 'string'): Located<string> | undefined {
    return this.read(node, key, isString, path, goStruct, goType);
  }

  /** A bool field; unquoted YAML 1.1 spellings (`yes`, `off`) are read as kubectl reads them. */
  boolean(node: unknown, key: string, path: string, goStruct: string): Located<boolean> | undefined {
    const yaml11 = (scalar: unknown): boolean | undefined => {
      const plain = isScalar(scalar) && scalar.type === 'PLAIN' && typeof scalar.value === 'string';
      return plain ? YAML11_BOOLEANS.get(scalar.value as string) : undefined;
    };
    return this.read(node, key, isBoolean, path, goStruct, 'bool', yaml11);
  }

  /** Records `key` when it is present but not a sequence (`ports: 80`). */
  list(node: unknown, key: string, path: string, goStruct: string, goType: string): void {
    const valueNode = this.reader.at(node, [key]);
    if (valueNode !== undefined && !isSeq(this.reader.resolve(valueNode))) this.record(valueNode, path, goStruct, goType);
  }

  /**
   * A map[string]string field (`labels`, `annotations`, `nodeSelector`, `matchLabels`): records it when it is present
   * but not a mapping (goType `map[string]string`), else each value that is not a string (goType `string`, with its
   * `key`; at most {@link MAX_MAP_VALUES}). A null value is the empty string to the decoder (it sets the map element
   * to its zero value), so it passes. Keys a merge key (`<<: *labels`) brings in count unless the map writes them.
   */
  stringMap(node: unknown, key: string, path: string, goStruct: string): void {
    const valueNode = this.reader.at(node, [key]);
    if (valueNode === undefined) return;
    const map = this.reader.asMap(valueNode);
    if (!map) {
      this.record(valueNode, path, goStruct, 'map[string]string');
      return;
    }
    // Own keys first, then those merge keys bring in that the map does not write itself (YAML 1.1 merge, as kubectl's
    // go-yaml v2 applies it). A map without merge keys allocates nothing.
    let recorded = this.mapValues(map, path, goStruct, undefined, 0);
    const merges = this.takeMerges();
    if (!merges) return;
    const seen = new Set<string>();
    for (const item of map.items) {
      const k = this.reader.scalarValue(item.key);
      if (k !== undefined && k !== null && typeof k !== 'object' && !isMergeKey(k)) seen.add(String(k));
    }
    // A merged value written in another object is reported at the merge key's value written in this map
    // (`<<: *common`), the place that brings it into this object (the reader's own choice, the first alias that
    // brings it, may be another map's); one written in this object keeps its own place and quick fix.
    const at: unknown[] = merges.slice();
    for (let i = 0; i < merges.length && i < MAX_MERGE_SOURCES; i++) {
      for (const source of this.reader.asSeq(merges[i])?.items ?? [merges[i]]) {
        const m = this.reader.asMap(source);
        if (m) recorded = this.mapValues(m, path, goStruct, seen, recorded, at[i]);
        const more = this.takeMerges();
        if (more) {
          merges.push(...more);
          for (let j = 0; j < more.length; j++) at.push(at[i]);
        }
      }
    }
  }

  /** The merge-key values met since the last call (undefined for none). */
  private takeMerges(): unknown[] | undefined {
    const merges = this.merges;
    this.merges = undefined;
    return merges;
  }

  /**
   * Records the values of `map` that are not strings (keys in `seen` skipped, then added), up to
   * {@link MAX_MAP_VALUES} in all; puts its merge-key values in {@link merges}.
   * @returns how many values of the string map are recorded now
   */
  private mapValues(map: YAMLMap, path: string, goStruct: string, seen: Set<string> | undefined, recorded: number, mergedAt?: unknown): number {
    for (const item of map.items) {
      const k = this.reader.scalarValue(item.key);
      if (k === undefined || k === null || typeof k === 'object') continue;
      if (isMergeKey(k)) {
        (this.merges ??= []).push(item.value);
        continue;
      }
      const name = String(k);
      if (seen) {
        if (seen.has(name)) continue;
        seen.add(name);
      }
      const value = this.reader.resolve(item.value);
      if (value === undefined || (isScalar(value) && (value.value === null || typeof value.value === 'string'))) continue;
      if (recorded++ < MAX_MAP_VALUES) this.record(item.value, path, goStruct, 'string', name, mergedAt !== undefined && this.reader.isBrought(item.value) ? mergedAt : undefined, item.key);
    }
    return recorded;
  }

  /**
   * A []string field (a selector requirement's `values`): records it when it is present but not a sequence (goType
   * `[]string`), else each element that is not a string (goType `string`, with its `index`; at most
   * {@link MAX_MAP_VALUES}). A null element decodes to "" (the element's zero value), so it passes.
   */
  stringList(node: unknown, key: string, path: string, goStruct: string): void {
    const valueNode = this.reader.at(node, [key]);
    if (valueNode === undefined) return;
    const seq = this.reader.asSeq(valueNode);
    if (!seq) {
      this.record(valueNode, path, goStruct, '[]string');
      return;
    }
    let recorded = 0;
    seq.items.forEach((item, i) => {
      const value = this.reader.resolve(item);
      if (value === undefined || (isScalar(value) && (value.value === null || typeof value.value === 'string'))) return;
      if (recorded++ < MAX_MAP_VALUES) this.record(item, path, goStruct, 'string', i);
    });
  }

  /**
   * A list of selector requirements (a LabelSelector's `matchExpressions`, a NodeSelectorTerm's `matchExpressions` or
   * `matchFields`) held by `goStruct`: records the list when it is not a sequence, an entry that is not a mapping
   * (null decodes to an empty entry), and a `key`, `operator` or `values` of the wrong type (`values: "a"`,
   * `values: [1, true]`, `key: 5`). `item`: the entry's Go struct and its type, and the operator's Go type
   * (`LabelSelectorRequirement`, `v1.LabelSelectorRequirement`, `v1.LabelSelectorOperator`).
   */
  requirements(node: unknown, key: string, path: string, goStruct: string, item: { readonly struct: string; readonly goType: string; readonly operator: string }): void {
    const listNode = this.reader.at(node, [key]);
    if (listNode === undefined) return;
    const seq = this.reader.asSeq(listNode);
    if (!seq) {
      this.record(listNode, path, goStruct, `[]${item.goType}`);
      return;
    }
    seq.items.forEach((entry, i) => {
      const p = `${path}[${i}]`;
      if (!this.mapping(entry, p, goStruct, item.goType)) return;
      this.string(entry, 'key', `${p}.key`, item.struct);
      this.string(entry, 'operator', `${p}.operator`, item.struct, item.operator);
      this.stringList(entry, 'values', `${p}.values`, item.struct);
    });
  }

  /**
   * A *metav1.LabelSelector field (`labelSelector`, `namespaceSelector`) held by `goStruct`: records it when it is
   * present but not a mapping, and the wrong types of its matchLabels ({@link stringMap}) and matchExpressions
   * ({@link requirements}).
   */
  labelSelector(node: unknown, key: string, path: string, goStruct: string): void {
    const selector = this.reader.at(node, [key]);
    if (selector === undefined || !this.mapping(selector, path, goStruct, 'v1.LabelSelector')) return;
    this.stringMap(selector, 'matchLabels', `${path}.matchLabels`, 'LabelSelector');
    this.requirements(selector, 'matchExpressions', `${path}.matchExpressions`, 'LabelSelector', LABEL_REQUIREMENT);
  }

  /** Records a sequence item that is not a mapping (`ports: ["80:80"]`); true when it is one. */
  mapping(item: unknown, path: string, goStruct: string, goType: string): boolean {
    if (isMap(this.reader.resolve(item))) return true;
    this.record(item, path, goStruct, goType);
    return false;
  }

  private read<T>(
    node: unknown, key: string, accept: (v: unknown) => v is T, path: string, goStruct: string, goType: string,
    coerce?: (scalar: unknown) => T | undefined,
  ): Located<T> | undefined {
    const valueNode = this.reader.at(node, [key]);
    if (valueNode === undefined) return undefined;
    const resolved = this.reader.resolve(valueNode);
    const span = this.reader.span(valueNode);
    if (!span) return undefined;
    const value = isScalar(resolved) ? resolved.value : undefined;
    if (accept(value)) return { value, span };
    const coerced = coerce?.(resolved);
    if (coerced !== undefined) return { value: coerced, span };
    this.record(valueNode, path, goStruct, goType);
    return undefined;
  }

  /**
   * `at`: the node whose span the finding takes instead of the value's (a merge key's value); the value is then not
   * editable there. `key`: a string map's key, or a list element's index. `keyNode`: the map key of a string map's
   * value, whose span goes with an editable value.
   */
  private record(valueNode: unknown, path: string, goStruct: string, goType: string, key?: string | number, at?: unknown, keyNode?: unknown): void {
    const resolved = this.reader.resolve(valueNode);
    const span: Span | undefined = this.reader.span(at ?? valueNode);
    if (!span || resolved === undefined || resolved === null) return;
    const editable = at === undefined && !isAlias(valueNode) && isScalar(valueNode) && !valueNode.anchor;
    if (isSeq(resolved) || isMap(resolved)) {
      this.invalid.push({ path, goStruct, goType, found: isSeq(resolved) ? 'array' : 'object', editable: false, span, ...where(key) });
      return;
    }
    const value = isScalar(resolved) ? resolved.value : undefined;
    const found = typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'bool' : undefined;
    // null (and exotic scalars) decode as "not set" or are not ours to judge.
    if (!found) return;
    const keySpan = editable && keyNode !== undefined && !this.reader.isBrought(valueNode) ? this.reader.span(keyNode) : undefined;
    const tag = isScalar(resolved) && resolved.tag ? shownTag(resolved.tag) : undefined;
    this.invalid.push({ path, goStruct, goType, found, value: value as string | number | boolean, editable, span, ...where(key), ...(keySpan ? { keySpan } : {}), ...(tag ? { tag } : {}) });
  }
}
