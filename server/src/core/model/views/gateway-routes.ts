import type { Located, Span } from '../../source/span';
import type { K8sObject } from '../objects';
import { asArray, asRecord, asString, cachedView, isIntegerValue, locatedAt, mappingSpanAt, rawAt } from './raw-fields';

export const GATEWAY_GROUP = 'gateway.networking.k8s.io';
/** Route kinds whose rules forward to backendRefs (every served version: v1, v1beta1, v1alpha2). */
export const ROUTE_KINDS: ReadonlySet<string> = new Set(['HTTPRoute', 'GRPCRoute', 'TCPRoute', 'TLSRoute', 'UDPRoute']);

/** A backendRef of a Gateway API route that names a Service (group "" and kind Service, the defaults). */
export interface RouteBackendRef {
  /** Dotted path of the reference (`spec.rules.0.backendRefs.1`, or `….filters.0.requestMirror.backendRef`). */
  readonly path: string;
  /** The reference's span (the list item or mapping), where a finding about a missing `port` points. */
  readonly span: Span;
  /** `rule #0 backendRef #1`, `rule #0 requestMirror` — for messages. */
  readonly label: string;
  readonly name: Located<string>;
  /** The Service's namespace: `namespace` when written (a cross-namespace reference), else the route's. */
  readonly namespace: string;
  /** `port`: the Service port number ("not the target port"); absent when not written or not an integer. */
  readonly port?: Located<number>;
  /** True when `port` is written but is not an integer (the CRD schema rejects it). */
  readonly portInvalid: boolean;
  readonly mirror: boolean;
}

export function isRoute(obj: K8sObject): boolean {
  return obj.group === GATEWAY_GROUP && ROUTE_KINDS.has(obj.kind);
}

/**
 * The Service backendRefs of a route: `spec.rules[].backendRefs[]` and the `requestMirror.backendRef` of rule
 * filters and backendRef filters (HTTPRoute, GRPCRoute). References to other kinds (ServiceImport, a vendor
 * CRD) are left out. Source: kubernetes-sigs/gateway-api apis/v1/object_reference_types.go
 * (BackendObjectReference: group "" / kind Service defaults, "Port is required when the referent is a
 * Kubernetes Service"), apis/v1/httproute_types.go (HTTPRequestMirrorFilter), v1.3.
 */
export const routeBackendRefs = cachedView((obj: K8sObject): readonly RouteBackendRef[] => {
  if (!isRoute(obj)) return [];
  const out: RouteBackendRef[] = [];
  asArray(rawAt(obj.raw, 'spec.rules')).forEach((rule, r) => {
    const rulePath = `spec.rules.${r}`;
    mirrors(obj, rulePath, asRecord(rule).filters, `rule #${r}`, out);
    asArray(asRecord(rule).backendRefs).forEach((ref, i) => {
      const path = `${rulePath}.backendRefs.${i}`;
      add(obj, path, ref, `rule #${r} backendRef #${i}`, false, out);
      mirrors(obj, path, asRecord(ref).filters, `rule #${r} backendRef #${i}`, out);
    });
  });
  return out;
});

function mirrors(obj: K8sObject, path: string, filters: unknown, label: string, out: RouteBackendRef[]): void {
  asArray(filters).forEach((f, i) => {
    const ref = asRecord(asRecord(f).requestMirror).backendRef;
    if (ref !== undefined) add(obj, `${path}.filters.${i}.requestMirror.backendRef`, ref, `${label} requestMirror`, true, out);
  });
}

function add(obj: K8sObject, path: string, ref: unknown, label: string, mirror: boolean, out: RouteBackendRef[]): void {
  const r = asRecord(ref);
  const group = r.group === undefined || r.group === null ? '' : r.group;
  const kind = r.kind === undefined || r.kind === null ? 'Service' : r.kind;
  if (group !== '' || kind !== 'Service') return;
  const name = locatedAt(obj, `${path}.name`, (v): v is string => typeof v === 'string' && v !== '');
  if (!name) return;
  const port = locatedAt(obj, `${path}.port`, isIntegerValue);
  out.push({
    path, span: mappingSpanAt(obj, path), label, name,
    namespace: asString(r.namespace) || obj.namespace,
    ...(port ? { port } : {}),
    portInvalid: !port && r.port !== undefined && r.port !== null,
    mirror,
  });
}
