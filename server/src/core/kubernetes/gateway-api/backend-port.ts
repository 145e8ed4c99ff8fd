import type { ServiceObject, ServicePort } from '../../model/objects';

/**
 * How a Gateway API backendRef's `port` picks a Service port: it is "the service port number, not the target
 * port", and it is required for a Service (CEL rule `Must have port for Service reference` on
 * BackendObjectReference since v0.8.0; v0.7 webhooks said `missing port for Service reference`). A reference
 * that does not resolve sets the route's `ResolvedRefs` condition to False (reason `BackendNotFound` for a
 * missing Service), and HTTP requests to it MUST get a 500.
 * Sources: kubernetes-sigs/gateway-api apis/v1/object_reference_types.go (BackendObjectReference),
 * apis/v1/shared_types.go (RouteConditionResolvedRefs), apis/v1/httproute_types.go (HTTPBackendRef), v1.3.
 */
export function servicePortNumbered(svc: ServiceObject, port: number): ServicePort | undefined {
  return svc.ports.find((sp) => sp.port?.value === port);
}

/** The Service port whose numeric targetPort is `port` (a route written with the targetPort), if any. */
export function servicePortTargeting(svc: ServiceObject, port: number): ServicePort | undefined {
  return svc.ports.find((sp) => sp.targetPort?.value === port && sp.port?.value !== port);
}
