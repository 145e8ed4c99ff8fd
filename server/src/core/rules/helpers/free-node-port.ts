import type { PortRange } from '../../config/config';
import type { WorkspaceModel } from '../../model/workspace-model';

/**
 * Size of the static band at the bottom of the NodePort range (KEP-3668): min(max(16, size/32), 128),
 * 0 when the range has 16 ports or fewer. The API server allocates automatic nodePorts from the band
 * above it first, so a port chosen by hand from the static band is least likely to collide.
 * Source: kubernetes pkg/registry/core/service/portallocator/allocator.go (calculateRangeOffset, v1.29+).
 */
export function staticBandSize(range: PortRange): number {
  const size = range.max - range.min + 1;
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

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
