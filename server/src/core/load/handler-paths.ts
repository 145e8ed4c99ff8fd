import { CONTAINER_HANDLER_KEYS, MAX_SURGE_PATHS } from '../model/objects';
import type { Span } from '../source/span';
import type { NodeReader } from './node-reader';
import type { RawCheck } from '../model/objects';

const CONTAINER_LISTS = ['initContainers', 'containers'] as const;
const SELECTOR_EXPRESSIONS = ['spec', 'selector', 'matchExpressions'];
/** Pod spec fields whose subtrees are recorded: weights, topology spread settings and selector requirements. */
const SCHEDULING_KEYS = ['affinity', 'topologySpreadConstraints'] as const;

/**
 * A JSON key that a plain YAML 1.1 scalar other than a string may have been read as: a boolean (`on`, `yes`, `y`
 * are `true`), null, or a number in Go's spelling (`0x10` is `16`). sigs.k8s.io/yaml yaml.go
 * convertToJSONableObject writes such keys with fmt (`"true"`, `"16"`); go-yaml v2 resolve.go decides the type.
 */
export const READ_KEY = /^(true|false|null|[-+.0-9])/;

/**
 * The label maps of a pod workload whose keys messages may need to show as written: the pod template's labels
 * (a Pod's own) and the selector's matchLabels (a ReplicationController's `spec.selector` map).
 */
function labelMaps(podPath: readonly string[], kind: string): readonly (readonly string[])[] {
  const template = podPath.length === 1 ? ['metadata', 'labels'] : [...podPath.slice(0, -1), 'metadata', 'labels'];
  return [template, kind === 'ReplicationController' ? ['spec', 'selector'] : ['spec', 'selector', 'matchLabels']];
}

/**
 * The `paths` of a pod workload: spans of the probe and lifecycle-handler subtrees of every container
 * ({@link CONTAINER_HANDLER_KEYS}), keyed as in `raw` (`spec.template.spec.containers.0.readinessProbe.httpGet.port`),
 * of a Deployment's or DaemonSet's `maxSurge` when it is written ({@link MAX_SURGE_PATHS}), of
 * `spec.selector.matchExpressions` when it is a list (where pod-spec-invalid reports a requirement validation refuses),
 * where pod-spec-invalid reports the values validation refuses there, of a container's own `restartPolicy` and the pod
 * spec's {@link SCHEDULING_KEYS} subtrees when the loader's run of those checks found something (`found`), and of the template labels and the selector's matchLabels when a
 * key of theirs may be a plain YAML 1.1 word read as another key (`on: web` is the label `true`), for messages and quick
 * fixes to tell how it is written ({@link READ_KEY}).
 * Only those subtrees are walked, so workloads without probes cost nothing; undefined when there is none.
 * @param kind the workload's kind (which surge path applies)
 * @param raw the object as JSON (which containers have which handlers)
 * @param podPath the pod spec's path (`['spec', 'template', 'spec']`)
 */
export function containerHandlerPaths(reader: NodeReader, root: unknown, raw: Record<string, unknown>, podPath: readonly string[], kind: string, found: readonly RawCheck[] = []): ReadonlyMap<string, Span> | undefined {
  const walks: [unknown, string][] = [];
  const surgePath = Object.hasOwn(MAX_SURGE_PATHS, kind) ? MAX_SURGE_PATHS[kind] : undefined;
  if (surgePath && valueAt(raw, surgePath) !== undefined) walks.push([reader.at(root, surgePath), surgePath.join('.')]);
  if (Array.isArray(valueAt(raw, SELECTOR_EXPRESSIONS))) walks.push([reader.at(root, SELECTOR_EXPRESSIONS), SELECTOR_EXPRESSIONS.join('.')]);
  for (const map of labelMaps(podPath, kind)) {
    const labels = valueAt(raw, map);
    if (isRecord(labels) && Object.keys(labels).some((k) => READ_KEY.test(k))) walks.push([reader.at(root, map), map.join('.')]);
  }
  const spec = valueAt(raw, podPath);
  if (!isRecord(spec)) return reader.objectPaths(walks);
  // Where the loader's run of those checks found something: their findings need the spans (see PodTemplate.rawChecks).
  if (found.includes('scheduling')) for (const key of SCHEDULING_KEYS) if (spec[key] !== undefined) walks.push([reader.at(root, [...podPath, key]), [...podPath, key].join('.')]);
  const restartPolicy = found.includes('restartPolicy');
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      if (!isRecord(c)) return;
      for (const key of [...CONTAINER_HANDLER_KEYS, 'restartPolicy']) {
        if (c[key] === undefined || (key === 'restartPolicy' && !restartPolicy)) continue;
        walks.push([reader.at(root, [...podPath, list, i, key]), [...podPath, list, i, key].join('.')]);
      }
    });
  }
  return reader.objectPaths(walks);
}

/** The value at `path` in a JSON value, undefined when a step is missing or not a mapping. */
function valueAt(raw: unknown, path: readonly string[]): unknown {
  let value = raw;
  for (const step of path) value = isRecord(value) ? value[step] : undefined;
  return value;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
