import type { ServiceObject, ServicePort } from '../../model/objects';

/**
 * How an Ingress backend's port picks a Service port.
 *
 * The API (and every controller that follows it): a `number` is a Service `port`, a `name` a Service port's
 * `name`; v1beta1's `servicePort` IntOrString is either. The API server never checks that the Service or the
 * port exists. ingress-nginx is more lenient: it also takes a Service port whose `targetPort` equals the
 * backend port (`strconv.Itoa(port) == backendPort || targetPort.String() == backendPort || name ==
 * backendPort`), so an Ingress written with the targetPort works there and nowhere else; with no match its
 * upstream has no endpoints and requests get 503. An ExternalName Service needs no ports at all in
 * ingress-nginx (the backend's number is used against the external name).
 * Sources: kubernetes pkg/apis/networking/validation/validation.go (validateIngressBackend, v1.33);
 * kubernetes/ingress-nginx internal/ingress/controller/controller.go (serviceEndpoints), controller-v1.15.
 */
export type BackendPortMatch =
  | { readonly kind: 'port'; readonly servicePort: ServicePort }
  | { readonly kind: 'targetPort'; readonly servicePort: ServicePort }
  | { readonly kind: 'none' };

/** Matches a backend port (a number or a name) against a Service's ports, as described above. */
export function matchBackendPort(svc: ServiceObject, port: number | string): BackendPortMatch {
  for (const sp of svc.ports) {
    if (typeof port === 'number' ? sp.port?.value === port : sp.name?.value === port) return { kind: 'port', servicePort: sp };
  }
  for (const sp of svc.ports) {
    const target = sp.targetPort?.value;
    if (target !== undefined && target === port) return { kind: 'targetPort', servicePort: sp };
  }
  return { kind: 'none' };
}

/** True when ingress-nginx (and other controllers) route to the Service without checking its ports: ExternalName. */
export function ignoresServicePorts(svc: ServiceObject): boolean {
  return svc.type.value === 'ExternalName';
}
