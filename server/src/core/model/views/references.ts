import type { K8sObject } from '../objects';
import { ingressBackends, isIngress } from './ingress';
import { isRoute, routeBackendRefs } from './gateway-routes';
import { isNetworkPolicy, networkPolicyView } from './network-policy';
import { podMonitorView, serviceMonitorView } from './monitors';

/**
 * The namespaces whose Services and pods an object's port references are judged against: its own for an
 * Ingress, the route's and its backendRefs' namespaces, `any` for a NetworkPolicy with egress peers selected
 * by namespace and for monitors with `namespaceSelector.any`. Undefined for objects that reference no
 * ports (Services, workloads, ConfigMaps…). Used to re-check exactly these objects when a Service or
 * workload they may name changes.
 */
export function referencedNamespaces(obj: K8sObject): 'any' | ReadonlySet<string> | undefined {
  if (obj.category !== 'other') return undefined;
  if (isIngress(obj)) return ingressBackends(obj).length ? new Set([obj.namespace]) : undefined;
  if (isRoute(obj)) return new Set([obj.namespace, ...routeBackendRefs(obj).map((r) => r.namespace)]);
  if (isNetworkPolicy(obj)) {
    const view = networkPolicyView(obj);
    return view?.rules.some((r) => r.peers?.some((p) => p.namespaceSelector)) ? 'any' : new Set([obj.namespace]);
  }
  const monitor = serviceMonitorView(obj) ?? podMonitorView(obj);
  if (monitor) return monitor.namespaces.any ? 'any' : new Set(monitor.namespaces.names);
  return undefined;
}
