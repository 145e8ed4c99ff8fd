import type { Located, Span } from '../../source/span';
import type { K8sObject } from '../objects';
import { asArray, asRecord, asString, cachedView, isIntegerValue, isPortValue, locatedAt, rawAt, spanAt } from './raw-fields';

/** API groups that serve (or served) Ingress: networking.k8s.io (v1, v1beta1) and extensions (v1beta1). */
const INGRESS_GROUPS: ReadonlySet<string> = new Set(['networking.k8s.io', 'extensions']);

/** One Service backend of an Ingress (a rule path or the default backend). */
export interface IngressBackend {
  /** Dotted path of the backend in the object (`spec.rules.0.http.paths.1.backend`, `spec.defaultBackend`). */
  readonly path: string;
  /** Where it is, for messages: `default backend`, `backend of host shop.example.com path /api`. */
  readonly label: string;
  readonly service: Located<string>;
  /**
   * The port: v1 `service.port.number` (a number) or `service.port.name` (a name); v1beta1 `servicePort`
   * (IntOrString: a number or a name). Absent when none is written (the API server rejects that).
   */
  readonly port?: Located<number | string>;
  /** The field that holds the port, as the user wrote it. */
  readonly portField?: 'number' | 'name' | 'servicePort';
}

export function isIngress(obj: K8sObject): boolean {
  return obj.kind === 'Ingress' && INGRESS_GROUPS.has(obj.group);
}

/**
 * The Service backends of an Ingress: `spec.defaultBackend` (v1) / `spec.backend` (v1beta1) and every
 * `spec.rules[].http.paths[].backend`, in that order; `resource` backends are left out. Empty for other
 * kinds. Source: kubernetes staging/src/k8s.io/api/networking/v1/types.go (IngressBackend,
 * IngressServiceBackend, ServiceBackendPort) and networking/v1beta1/types.go (serviceName, servicePort), v1.33.
 */
export const ingressBackends = cachedView((obj: K8sObject): readonly IngressBackend[] => {
  if (!isIngress(obj)) return [];
  const out: IngressBackend[] = [];
  const spec = asRecord(rawAt(obj.raw, 'spec'));
  for (const key of ['defaultBackend', 'backend']) {
    if (spec[key] !== undefined) push(out, obj, `spec.${key}`, 'default backend');
  }
  asArray(spec.rules).forEach((rule, r) => {
    const host = asString(asRecord(rule).host);
    asArray(asRecord(asRecord(rule).http).paths).forEach((p, i) => {
      push(out, obj, `spec.rules.${r}.http.paths.${i}.backend`, backendLabel(host, asString(asRecord(p).path), r));
    });
  });
  return out;
});

/** How messages name a rule path's backend: `backend of host shop.example.com path /api`, else `backend of rule #0`. */
export function backendLabel(host: string | undefined, path: string | undefined, rule: number): string {
  const where = [host ? `host ${host}` : '', path ? `path ${path}` : ''].filter(Boolean).join(' ');
  return where ? `backend of ${where}` : `backend of rule #${rule}`;
}

function push(out: IngressBackend[], obj: K8sObject, path: string, label: string): void {
  const v1 = locatedAt(obj, `${path}.service.name`, isName);
  if (v1) {
    const number = locatedAt(obj, `${path}.service.port.number`, isIntegerValue);
    const name = locatedAt(obj, `${path}.service.port.name`, isName);
    const port = number ?? name;
    out.push({ path, label, service: v1, ...(port ? { port, portField: number ? 'number' : 'name' } : {}) });
    return;
  }
  const legacy = locatedAt(obj, `${path}.serviceName`, isName);
  if (!legacy) return;
  const port = locatedAt(obj, `${path}.servicePort`, isPortValue);
  out.push({ path, label, service: legacy, ...(port ? { port, portField: 'servicePort' as const } : {}) });
}

const isName = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** The span of the backend's port value, else of the backend. */
export function backendPortSpan(obj: K8sObject, b: IngressBackend): Span {
  return b.port?.span ?? spanAt(obj, b.path);
}
