import { CONTAINER_HANDLER_KEYS } from '../model/objects';
import type { Span } from '../source/span';
import type { NodeReader } from './node-reader';

const CONTAINER_LISTS = ['initContainers', 'containers'] as const;

/**
 * The `paths` of a pod workload: spans of the probe and lifecycle-handler subtrees of every container
 * ({@link CONTAINER_HANDLER_KEYS}), keyed as in `raw` (`spec.template.spec.containers.0.readinessProbe.httpGet.port`).
 * Only those subtrees are walked, so workloads without probes cost nothing; undefined when there is none.
 * @param raw the object as JSON (which containers have which handlers)
 * @param podPath the pod spec's path (`['spec', 'template', 'spec']`)
 */
export function containerHandlerPaths(reader: NodeReader, root: unknown, raw: Record<string, unknown>, podPath: readonly string[]): ReadonlyMap<string, Span> | undefined {
  let spec: unknown = raw;
  for (const step of podPath) spec = isRecord(spec) ? spec[step] : undefined;
  if (!isRecord(spec)) return undefined;
  const walks: [unknown, string][] = [];
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      if (!isRecord(c)) return;
      for (const key of CONTAINER_HANDLER_KEYS) {
        if (c[key] === undefined) continue;
        walks.push([reader.at(root, [...podPath, list, i, key]), [...podPath, list, i, key].join('.')]);
      }
    });
  }
  return reader.objectPaths(walks);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
