import type { LoadedFile } from '../load/load-file';
import { regionOf } from '../output/resolve';
import { isVirtualFile, Span } from '../source/span';
import type { NodeClaimKind } from './node-claims';
import type { NodeScope } from './node-scope';
import type { PortMap, PortMapClaim } from './port-map';

/**
 * The node-port map as data: what `kube-netlint ports --format json` prints and what the editor's "Node ports"
 * view shows. Version 1; a change that removes or retypes a field bumps `version` (new fields may be added).
 * Ports are integers 1–65535, intervals inclusive, lines and columns 1-based (end column exclusive).
 *
 * ```
 * { "version": 1,
 *   "clusterGroups": [{
 *     "name": "prod",                        // "" when the workspace is one cluster
 *     "nodePortRange": {"min": 30000, "max": 32767, "source": "default"},
 *     "ports": [{
 *       "port": 31990, "collision": "error",  // worst severity of the port's collisions, or null
 *       "claims": [{
 *         "id": 7, "port": 31990, "protocol": "TCP",
 *         "kind": "nodePort" | "healthCheckNodePort" | "hostPort" | "hostNetwork" | "externalIP" | "component",
 *         "owner": {"kind": "Service", "namespace": "streaming", "name": "broker-lb"} | null,
 *         "component": "kube-proxy healthz" | null,  // the node component whose port this is
 *         "container": "broker" | null, "portName": "client" | null, "hostIP": "0.0.0.0" | null, "address": "192.0.2.18" | null,
 *         "location": {"file": "streaming/broker-lb.yaml", "line": 11, "column": 24, "endLine": 11, "endColumn": 29} | null,
 *         "rendered": {"file": "render:kustomize:overlays/prod", "line": 40, "column": 17, "render": "rendered by overlays/prod"} | null,
 *         "nodes": {"scope": "every-node" | "control-plane" | "selection" | "pinned" | "scheduled" | "none",
 *                   "text": "every node", "selector": null, "node": null, "replicas": null,
 *                   "names": ["node-1"] | null, "addressOf": "node-1" | null},
 *         "inactive": null | "why the claim takes no port", "uncertain": null | "why the component may not run",
 *         "collisions": [{"rule": "host-port-conflicts-healthcheck-nodeport", "severity": "error", "message": "…",
 *                         "with": [8], "others": [{"file": "…", "line": 11, "message": "…"}]}]
 *       }]
 *     }],
 *     "bands": [{"band": "static" | "dynamic", "min": 30000, "max": 30085, "size": 86, "used": 1, "allocated": 1,
 *                "free": 85, "fill": 0.0116, "freeIntervals": [{"min": 30000, "max": 30079}]}],
 *     "automatic": {"nodePorts": 0, "healthCheckNodePorts": 0}
 *   }],
 *   "free": {"requested": 3, "ports": [30000, 30001, 30002]}   // only with --free
 * }
 * ```
 * `location.line` and the columns are null for objects read from a live cluster (`file` is then
 * `cluster:<context>/<kind>/<namespace>/<name>`). For an object of a kustomize or Helm render, `location` is the
 * source line the user edits (as findings are) and `rendered` its place in the rendered manifest. `with` lists ids of claims of the same port in the same group;
 * `used` counts port numbers of the band with any claim, `allocated` those holding a nodePort or
 * healthCheckNodePort. `link` is added by the language server only (where the editor opens the field).
 */
export interface PortMapDocument {
  readonly version: 1;
  readonly clusterGroups: readonly PortMapGroupJson[];
  readonly free?: { readonly requested: number; readonly ports: readonly number[] };
}

export const PORT_MAP_DOCUMENT_VERSION = 1 as const;

export interface PortMapGroupJson {
  readonly name: string;
  readonly nodePortRange: { readonly min: number; readonly max: number; readonly source: string };
  readonly ports: readonly PortRowJson[];
  readonly bands: readonly BandJson[];
  readonly automatic: { readonly nodePorts: number; readonly healthCheckNodePorts: number };
}

export interface PortRowJson {
  readonly port: number;
  readonly collision: string | null;
  readonly claims: readonly ClaimJson[];
}

export interface LocationJson {
  readonly file: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly endLine: number | null;
  readonly endColumn: number | null;
}

/** Where an editor opens a claim's field: a document URI and a 0-based range (language server only). */
export interface ClaimLink {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
  readonly endLine: number;
  readonly endCharacter: number;
}

export interface ClaimJson {
  readonly id: number;
  readonly port: number;
  readonly protocol: string;
  readonly kind: NodeClaimKind;
  readonly owner: { readonly kind: string; readonly namespace: string; readonly name: string } | null;
  readonly component: string | null;
  readonly container: string | null;
  readonly portName: string | null;
  readonly hostIP: string | null;
  readonly address: string | null;
  readonly location: LocationJson | null;
  readonly rendered: { readonly file: string; readonly line: number; readonly column: number; readonly render: string } | null;
  readonly nodes: {
    readonly scope: NodeScope['kind'];
    readonly text: string;
    readonly selector: string | null;
    readonly node: string | null;
    readonly replicas: number | null;
    readonly names: readonly string[] | null;
    readonly addressOf: string | null;
  };
  readonly inactive: string | null;
  readonly uncertain: string | null;
  readonly collisions: readonly CollisionJson[];
  readonly link?: ClaimLink;
}

export interface CollisionJson {
  readonly rule: string;
  readonly severity: string;
  readonly message: string;
  readonly with: readonly number[];
  readonly others: readonly { readonly file: string; readonly line: number | null; readonly message: string }[];
}

export interface BandJson {
  readonly band: 'static' | 'dynamic';
  readonly min: number;
  readonly max: number;
  readonly size: number;
  readonly used: number;
  readonly allocated: number;
  readonly free: number;
  /** used / size, rounded to 4 decimals. */
  readonly fill: number;
  readonly freeIntervals: readonly { readonly min: number; readonly max: number }[];
}

export interface DocumentOptions {
  /** `--free N`: the ports to list (computed by the caller with freeNodePorts). */
  readonly free?: { readonly requested: number; readonly ports: readonly number[] };
  /** Adds `link` to claims (the language server's click-through targets). */
  readonly link?: (span: Span) => ClaimLink | undefined;
}

/** The {@link PortMapDocument} of some port maps, with file positions resolved against the loaded files. */
export function portMapDocument(maps: readonly PortMap[], files: ReadonlyMap<string, LoadedFile>, options: DocumentOptions = {}): PortMapDocument {
  const location = (span: Span): LocationJson => {
    if (isVirtualFile(span.file)) return { file: span.file, line: null, column: null, endLine: null, endColumn: null };
    const r = regionOf(span, files);
    return { file: r.file, line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn };
  };
  const claim = (c: PortMapClaim): ClaimJson => {
    const scope = c.nodes.scope;
    const at = c.source?.span ?? c.span; // what the user edits
    const link = at && options.link ? options.link(at) : undefined;
    const rendered = c.source && c.span ? regionOf(c.span, files) : undefined;
    return {
      id: c.id,
      port: c.port,
      protocol: c.protocol,
      kind: c.kind,
      owner: c.object ? { kind: c.object.kind, namespace: c.object.namespace, name: c.object.name } : null,
      component: c.component?.component ?? null,
      container: c.container ?? null,
      portName: c.portName ?? null,
      hostIP: c.hostIP ?? null,
      address: c.address ?? null,
      location: at ? location(at) : null,
      rendered: rendered && c.source ? { file: rendered.file, line: rendered.line, column: rendered.column, render: c.source.label } : null,
      nodes: {
        scope: scope.kind,
        text: c.nodes.text,
        selector: 'selector' in scope ? scope.selector ?? null : null,
        node: scope.kind === 'pinned' ? scope.node : null,
        replicas: scope.kind === 'scheduled' ? scope.replicas ?? null : null,
        names: c.nodes.names ? [...c.nodes.names] : null,
        addressOf: c.nodes.addressOf ?? null,
      },
      inactive: c.inactive ?? null,
      uncertain: c.uncertain ?? null,
      collisions: c.collisions.map((x) => ({
        rule: x.ruleId, severity: x.severity, message: x.message, with: [...x.with],
        others: x.others.map((o) => ({ file: o.span.file, line: location(o.span).line, message: o.message })),
      })),
      ...(link ? { link } : {}),
    };
  };
  return {
    version: PORT_MAP_DOCUMENT_VERSION,
    clusterGroups: maps.map((m) => ({
      name: m.group,
      nodePortRange: { min: m.range.value.min, max: m.range.value.max, source: m.range.source },
      ports: m.rows.map((r) => ({ port: r.port, collision: r.collision ?? null, claims: r.claims.map(claim) })),
      bands: m.bands.map((b) => ({
        band: b.band, min: b.min, max: b.max, size: b.size, used: b.used, allocated: b.allocated, free: b.free,
        fill: Math.round((b.used / b.size) * 10000) / 10000, freeIntervals: b.freeIntervals.map((i) => ({ min: i.min, max: i.max })),
      })),
      automatic: { ...m.automatic },
    })),
    ...(options.free ? { free: { requested: options.free.requested, ports: [...options.free.ports] } } : {}),
  };
}
