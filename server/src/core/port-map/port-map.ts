import type { Analysis } from '../analyze';
import type { CoreConfig, PortRange, Severity } from '../config/config';
import { NodePortBand, nodePortBands, staticBandSize } from '../kubernetes/api-server/node-port-allocator';
import { allocatesNodePorts, needsHealthCheck } from '../kubernetes/api-server/validation';
import type { Sourced } from '../model/cluster-settings';
import { describe } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import type { LoadedFile } from '../load/load-file';
import { sourceOf } from '../render/source-map';
import type { Finding } from '../rules/rule';
import type { Span } from '../source/span';
import { claimedPorts, NODE_CLAIM_KINDS, NodeClaim, nodeClaimsOf, serviceRejected } from './node-claims';
import { ClaimNodes, claimNodesResolver } from './node-scope';

/**
 * Rules whose findings are collisions between two claims on one port number: a claim carrying one of their
 * findings "collides". The port map takes collisions from the rules rather than judging them again, so the map,
 * the diagnostics and the CLI findings always agree (rule severities, `off` and suppressions included).
 */
export const COLLISION_RULES: ReadonlySet<string> = new Set([
  'nodeport-duplicate', 'healthcheck-nodeport-duplicate', 'host-port-conflicts-nodeport', 'host-port-conflicts-healthcheck-nodeport',
  'hostport-conflict', 'hostport-shadows-service-port', 'externalip-port-conflict', 'host-port-reserved',
]);

/** A collision of one claim, from one finding. */
export interface ClaimCollision {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  /** Ids of the claims of the same port it collides with. */
  readonly with: readonly number[];
  /** Other places the finding names that are not node-level claims (e.g. a ClusterIP Service port). */
  readonly others: readonly { readonly span: Span; readonly message: string }[];
}

/** A claim as the map shows it. */
export interface PortMapClaim extends NodeClaim {
  /** Unique within its map, in row order (1, 2, …). */
  readonly id: number;
  /**
   * For a claim of a rendered object (kustomize / Helm output): the source span the user edits (a base or patch
   * line, a values-file line, a template line) and the render's label; `span` stays the rendered place.
   */
  readonly source?: { readonly span: Span; readonly label: string };
  readonly nodes: ClaimNodes;
  readonly collisions: readonly ClaimCollision[];
}

/** Every claim on one port number. */
export interface PortRow {
  readonly port: number;
  readonly claims: readonly PortMapClaim[];
  /** The worst severity of the row's collisions; undefined when none collides. */
  readonly collision?: Severity;
}

/** How full one band of the NodePort range is. Ports are integers, intervals inclusive. */
export interface BandUsage extends NodePortBand {
  readonly size: number;
  /**
   * Port numbers of the band with at least one claim that takes the port (of any kind, not only nodePorts); a port
   * whose claims the API server all rejects or ignores (NODES `none: …`) is free.
   */
  readonly used: number;
  /** Port numbers of the band held in the NodePort allocator (written nodePorts and healthCheckNodePorts that take a port). */
  readonly allocated: number;
  readonly free: number;
  /** Maximal runs of free ports, ascending. */
  readonly freeIntervals: readonly PortRange[];
}

/** The node-port map of one cluster group. */
export interface PortMap {
  /** Cluster group name; '' when the workspace is one cluster. */
  readonly group: string;
  readonly range: Sourced<PortRange>;
  /** One row per claimed port number, ascending. */
  readonly rows: readonly PortRow[];
  /** The NodePort range's static and dynamic bands (KEP-3668). */
  readonly bands: readonly BandUsage[];
  /**
   * nodePorts and healthCheckNodePorts the API server will allocate itself (Services that need one and do not
   * write it), from the dynamic band: their numbers are unknown until applied.
   */
  readonly automatic: { readonly nodePorts: number; readonly healthCheckNodePorts: number };
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };
const spanKey = (s: Span): string => `${s.file}#${s.start}#${s.end}`;

/**
 * The port map of one model: its claims ({@link nodeClaimsOf}) by port, where each applies
 * ({@link claimNodesResolver}), their collisions (from `findings` of {@link COLLISION_RULES}: pass the findings
 * of this model's cluster group), and the NodePort range's bands with their free intervals. O(claims log claims
 * + findings + range size).
 */
export function buildPortMap(model: WorkspaceModel, config: CoreConfig, findings: readonly Finding[], group = '', files?: ReadonlyMap<string, LoadedFile>): PortMap {
  const nodesOf = claimNodesResolver(model, config);
  // Rendered objects: claims point back at the source lines, as their findings do (core/render/apply.ts).
  const sourceOfClaim = (c: NodeClaim): PortMapClaim['source'] => {
    const rendered = c.span && files?.get(c.span.file)?.render;
    const src = rendered && c.span ? sourceOf(rendered.map, c.span.start, c.span.end) : undefined;
    return src && rendered ? { span: src.span, label: rendered.label } : undefined;
  };
  const byPort = new Map<number, NodeClaim[]>();
  for (const c of nodeClaimsOf(model, config)) (byPort.get(c.port) ?? byPort.set(c.port, []).get(c.port)!).push(c);
  let id = 0;
  const rows = [...byPort.keys()].sort((a, b) => a - b).map((port) => ({
    port,
    claims: byPort.get(port)!.sort(compareClaims).map((c): PortMapClaim & { collisions: ClaimCollision[] } => {
      const source = sourceOfClaim(c);
      return { ...c, id: ++id, nodes: nodesOf(c), collisions: [], ...(source ? { source } : {}) };
    }),
  }));
  markCollisions(rows, findings);
  const range = model.settings.nodePortRange;
  return {
    group,
    range,
    rows: rows.map((r) => ({ ...r, collision: worst(r.claims.flatMap((c) => c.collisions.map((x) => x.severity))) })),
    bands: bandUsage(rows, range.value),
    automatic: automaticAllocations(model),
  };
}

/**
 * One port map per cluster group of an analysis (one, named '', when the workspace is one cluster), each with the
 * findings of its group. `config` must be the one the analysis ran with.
 */
export function portMapsOf(analysis: Analysis, config: CoreConfig): PortMap[] {
  const groups = analysis.layout.groups;
  if (!groups || analysis.clusterModels.size === 0) return [buildPortMap(analysis.model, config, analysis.findings, '', analysis.files)];
  return groups.flatMap((g) => {
    const model = analysis.clusterModels.get(g.name);
    if (!model) return [];
    return [buildPortMap(model, config, analysis.findings.filter((f) => !f.clusters || f.clusters.includes(g.name)), g.name, analysis.files)];
  });
}

/**
 * `count` nodePorts that no claim of the model takes and `avoid` does not list, ascending: from the static band of
 * the NodePort range first (automatic allocation uses it last, so a port chosen by hand there is least likely to
 * collide), then from the rest of the range. Fewer when the range has fewer free ports. The quick fixes that pick a
 * nodePort and `kube-netlint ports --free` both use this, so they agree with the map's free intervals.
 */
export function freeNodePorts(model: WorkspaceModel, config: CoreConfig, count: number, avoid: ReadonlySet<number> = new Set()): number[] {
  return commonFreeNodePorts([model], config, count, avoid);
}

/**
 * Like {@link freeNodePorts}, for ports free in every model at once (several cluster groups: a number for a
 * manifest that every cluster shares): ports inside every model's NodePort range and free in each, those in every
 * model's static band first.
 */
export function commonFreeNodePorts(models: readonly WorkspaceModel[], config: CoreConfig, count: number, avoid: ReadonlySet<number> = new Set()): number[] {
  if (models.length === 0 || count <= 0) return [];
  if (models.length === 1) return firstFree(orderedFree(models[0], config), count, avoid);
  const each = models.map((m) => ({ taken: claimedPorts(m, config), range: m.settings.nodePortRange.value, staticEnd: m.settings.nodePortRange.value.min + staticBandSize(m.settings.nodePortRange.value) - 1 }));
  // reduce, not Math.max(...): no call takes one argument per cluster group
  const lo = each.reduce((m, e) => Math.max(m, e.range.min), 0);
  const hi = each.reduce((m, e) => Math.min(m, e.range.max), 65535);
  const inStatic = (p: number): boolean => each.every((e) => p <= e.staticEnd);
  const out: number[] = [];
  for (const wantStatic of [true, false]) {
    for (let p = lo; p <= hi && out.length < count; p++) {
      if (inStatic(p) === wantStatic && !avoid.has(p) && each.every((e) => !e.taken.has(p))) out.push(p);
    }
  }
  return out;
}

/** The free nodePorts of one model in preference order (static band first), computed once per model and config. */
const ORDERED_FREE = new WeakMap<ReadonlySet<number>, readonly number[]>();
function orderedFree(model: WorkspaceModel, config: CoreConfig): readonly number[] {
  const taken = claimedPorts(model, config); // cached per model and config: its identity keys this cache
  let free = ORDERED_FREE.get(taken);
  if (!free) {
    const range = model.settings.nodePortRange.value;
    const staticEnd = range.min + staticBandSize(range) - 1;
    const ports: number[] = [];
    for (const wantStatic of [true, false]) for (let p = range.min; p <= range.max; p++) if ((p <= staticEnd) === wantStatic && !taken.has(p)) ports.push(p);
    ORDERED_FREE.set(taken, (free = ports));
  }
  return free;
}

/**
 * The first `count` ports of `free` not in `avoid`. Rules grow one `avoid` set as they propose ports, one fix after
 * another: where the previous call stopped is remembered per set, so a rule proposing N ports scans the free list
 * once in all, not N times.
 */
const SCANNED = new WeakMap<ReadonlySet<number>, { readonly free: readonly number[]; at: number }>();
function firstFree(free: readonly number[], count: number, avoid: ReadonlySet<number>): number[] {
  const cursor = SCANNED.get(avoid);
  let i = cursor && cursor.free === free ? cursor.at : 0;
  while (i < free.length && avoid.has(free[i])) i++; // every port before i is in `avoid` (sets only grow)
  SCANNED.set(avoid, { free, at: i });
  const out: number[] = [];
  for (let j = i; j < free.length && out.length < count; j++) if (!avoid.has(free[j])) out.push(free[j]);
  return out;
}

function compareClaims(a: NodeClaim, b: NodeClaim): number {
  const name = (c: NodeClaim): string => (c.object ? describe(c.object) : c.component?.component ?? '');
  return NODE_CLAIM_KINDS.indexOf(a.kind) - NODE_CLAIM_KINDS.indexOf(b.kind) || a.protocol.localeCompare(b.protocol)
    || name(a).localeCompare(name(b)) || (a.span?.file ?? '').localeCompare(b.span?.file ?? '') || (a.span?.start ?? 0) - (b.span?.start ?? 0);
}

function worst(severities: readonly Severity[]): Severity | undefined {
  return severities.length ? [...severities].sort((a, b) => SEVERITY_RANK[a] - SEVERITY_RANK[b])[0] : undefined;
}

/**
 * Marks the claims that carry a collision finding, with the claims of the same port the finding names (its
 * related locations; for host-port-reserved, the component claims of that port and protocol). The other side
 * gets the collision too when it has no finding of that rule itself (component ports never do).
 */
function markCollisions(rows: readonly { port: number; claims: (PortMapClaim & { collisions: ClaimCollision[] })[] }[], findings: readonly Finding[]): void {
  // A claim is found by its own span and, for a rendered object, by the source span its findings were moved to.
  const bySpan = new Map<string, (PortMapClaim & { collisions: ClaimCollision[] })[]>();
  const byPort = new Map<number, (PortMapClaim & { collisions: ClaimCollision[] })[]>();
  const keysOf = (c: PortMapClaim): string[] => (c.span ? [spanKey(c.span), ...(c.source ? [spanKey(c.source.span)] : [])] : []);
  for (const row of rows) {
    byPort.set(row.port, row.claims);
    for (const c of row.claims) if (c.kind !== 'component') for (const k of keysOf(c)) (bySpan.get(k) ?? bySpan.set(k, []).get(k)!).push(c);
  }
  const reverse: { target: PortMapClaim & { collisions: ClaimCollision[] }; from: PortMapClaim; finding: Finding }[] = [];
  for (const f of findings) {
    if (!COLLISION_RULES.has(f.ruleId)) continue;
    const related = new Set(f.related.map((r) => spanKey(r.span)));
    // A finding on a rendered object keeps its rendered place: that is the claim's own span (its source line may be shared by copies).
    const at = bySpan.get(spanKey(f.rendered?.span ?? f.span)) ?? [];
    for (const claim of at) {
      const row = byPort.get(claim.port) ?? [];
      const others = f.ruleId === 'host-port-reserved'
        ? row.filter((o) => o.kind === 'component' && o.protocol === claim.protocol)
        : row.filter((o) => o !== claim && o.kind !== 'component' && keysOf(o).some((k) => related.has(k)));
      const mapped = new Set(others.flatMap(keysOf));
      // A finding on a shared span (one externalIPs entry claims every port of its Service) concerns the ports
      // whose other side it names; a finding naming only non-claims (Service ports) concerns every such claim.
      if (others.length === 0 && f.related.length > 0 && f.related.every((r) => bySpan.has(spanKey(r.span)))) continue;
      claim.collisions.push({
        ruleId: f.ruleId, severity: f.severity, message: f.message, with: others.map((o) => o.id),
        others: f.related.filter((r) => !mapped.has(spanKey(r.span)) && !bySpan.has(spanKey(r.span))).map((r) => ({ span: r.span, message: r.message })),
      });
      for (const o of others) reverse.push({ target: o, from: claim, finding: f });
    }
  }
  for (const { target, from, finding } of reverse) {
    const own = target.collisions.find((x) => x.ruleId === finding.ruleId);
    if (!own) target.collisions.push({ ruleId: finding.ruleId, severity: finding.severity, message: finding.message, with: [from.id], others: [] });
    else if (!own.with.includes(from.id)) (own.with as number[]).push(from.id);
  }
}

function bandUsage(rows: readonly { port: number; claims: readonly PortMapClaim[] }[], range: PortRange): BandUsage[] {
  // Only claims that take their port count: an inactive one (rejected externalIP, nodePort on a ClusterIP Service…)
  // never reaches a node. The quick fixes still avoid every written number (claimedPorts).
  const taken = new Set(rows.filter((r) => r.claims.some((c) => !c.inactive)).map((r) => r.port));
  const allocatedPorts = new Set(rows.filter((r) => r.claims.some((c) => (c.kind === 'nodePort' || c.kind === 'healthCheckNodePort') && !c.inactive)).map((r) => r.port));
  return nodePortBands(range).map((b) => {
    const freeIntervals: PortRange[] = [];
    let used = 0;
    let allocated = 0;
    let start: number | undefined;
    for (let p = b.min; p <= b.max; p++) {
      if (allocatedPorts.has(p)) allocated++;
      if (taken.has(p)) {
        used++;
        if (start !== undefined) freeIntervals.push({ min: start, max: p - 1 });
        start = undefined;
      } else start ??= p;
    }
    if (start !== undefined) freeIntervals.push({ min: start, max: b.max });
    const size = b.max - b.min + 1;
    return { ...b, size, used, allocated, free: size - used, freeIntervals };
  });
}

function automaticAllocations(model: WorkspaceModel): PortMap['automatic'] {
  let nodePorts = 0;
  let healthCheckNodePorts = 0;
  for (const svc of model.services) {
    if (svc.origin.type !== 'file') continue; // live Services already hold their allocated numbers
    if (serviceRejected(model, svc)) continue; // never created: nothing is allocated for it
    // A LoadBalancer with allocateLoadBalancerNodePorts: false gets only the nodePorts it writes.
    if (allocatesNodePorts(svc) && svc.allocateLoadBalancerNodePorts?.value !== false) nodePorts += svc.ports.filter((p) => !p.nodePort).length;
    if (needsHealthCheck(svc) && !svc.healthCheckNodePort) healthCheckNodePorts++;
  }
  return { nodePorts, healthCheckNodePorts };
}
