import { staticBandSize } from '../../kubernetes/api-server/node-port-allocator';
import type { WorkspaceModel } from '../../model/workspace-model';


/**
 * A nodePort no Service and no host-level port in the model uses: the first free port of the static
 * band, else of the whole range. `avoid` lists further ports to skip (e.g. ports another fix will take).
 * Returns undefined when the range is full.
 */
export function freeNodePort(model: WorkspaceModel, avoid: ReadonlySet<number> = new Set()): number | undefined {
  const range = model.settings.nodePortRange.value;
  const band = staticBandSize(range);
  const taken = (p: number): boolean => model.nodePorts.has(p) || model.hostPorts.has(p) || avoid.has(p);
  const scan = (from: number, to: number): number | undefined => {
    for (let p = from; p <= to; p++) if (!taken(p)) return p;
    return undefined;
  };
  return (band > 0 ? scan(range.min, range.min + band - 1) : undefined) ?? scan(range.min, range.max);
}

/** True when any Service, nodePort, healthCheckNodePort or host-level port of the model uses the number. */
export function portUsed(model: WorkspaceModel, port: number): boolean {
  return model.nodePorts.has(port) || model.hostPorts.has(port) || model.servicePorts.has(port);
}
