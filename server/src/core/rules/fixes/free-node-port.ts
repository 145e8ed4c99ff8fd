import type { CoreConfig } from '../../config/config';
import type { WorkspaceModel } from '../../model/workspace-model';
import { claimedPorts } from '../../port-map/node-claims';
import { freeNodePorts } from '../../port-map/port-map';

/**
 * A nodePort for a quick fix: the first port of the NodePort range that no claim of the node-port map takes
 * (nodePort, healthCheckNodePort, hostPort, hostNetwork port, externalIP port, component port), from the static
 * band first, else the rest of the range (see {@link freeNodePorts}, the computation `kube-netlint ports` shows).
 * `avoid` lists further ports to skip (e.g. ports another fix of the same run proposes). Undefined when the range
 * is full.
 */
export function freeNodePort(model: WorkspaceModel, config: CoreConfig, avoid: ReadonlySet<number> = new Set()): number | undefined {
  return freeNodePorts(model, config, 1, avoid)[0];
}

/**
 * A hostPort for a quick fix that moves a host-level port out of the NodePort range: the highest port below
 * `below` that no claim of the node-port map takes, that no Service uses as its `port` (a hostPort equal to a
 * Service port hijacks it under kube-proxy IPVS, see rule hostport-shadows-service-port) and that `avoid` does
 * not list. Undefined when every port below is taken.
 */
export function freeHostPortBelow(model: WorkspaceModel, config: CoreConfig, below: number, avoid: ReadonlySet<number> = new Set()): number | undefined {
  const taken = claimedPorts(model, config);
  for (let p = below - 1; p >= 1; p--) if (!taken.has(p) && !model.servicePorts.has(p) && !avoid.has(p)) return p;
  return undefined;
}
