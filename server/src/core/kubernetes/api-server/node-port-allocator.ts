import type { PortRange } from '../../config/config';

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

/** One band of the NodePort range (KEP-3668), inclusive at both ends. */
export interface NodePortBand {
  /** `static`: kept for ports chosen by hand; `dynamic`: where automatic allocation draws first. */
  readonly band: 'static' | 'dynamic';
  readonly min: number;
  readonly max: number;
}

/**
 * The NodePort range split into its static band (the lowest {@link staticBandSize} ports) and its dynamic band
 * (the rest); a range of 16 ports or fewer has only a dynamic band. The API server allocates automatic nodePorts
 * and healthCheckNodePorts from the dynamic band and uses the static band only once the dynamic one is full.
 * Sources: kubernetes pkg/registry/core/service/allocator/bitmap.go (NewAllocationMapWithOffset) and
 * portallocator/allocator.go (calculateRangeOffset), v1.29+ (gate ServiceNodePortStaticSubrange: beta on in
 * 1.28, GA in 1.29); https://kubernetes.io/blog/2023/05/11/nodeport-dynamic-and-static-allocation/.
 */
export function nodePortBands(range: PortRange): NodePortBand[] {
  const size = staticBandSize(range);
  const dynamic: NodePortBand = { band: 'dynamic', min: range.min + size, max: range.max };
  return size > 0 ? [{ band: 'static', min: range.min, max: range.min + size - 1 }, dynamic] : [dynamic];
}
