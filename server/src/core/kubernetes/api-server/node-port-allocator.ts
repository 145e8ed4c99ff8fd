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
