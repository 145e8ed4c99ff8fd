import type { K8sObject } from '../../model/objects';
import { POD_SPEC_PATHS } from '../../model/objects';

/**
 * API groups served by kube-apiserver itself (v1.33: `kubectl api-resources` of a plain cluster). Objects of
 * any other group are custom resources, served through a CustomResourceDefinition or an aggregated API.
 */
export const BUILTIN_API_GROUPS: ReadonlySet<string> = new Set([
  '', 'apps', 'batch', 'autoscaling', 'policy', 'extensions', 'networking.k8s.io', 'discovery.k8s.io',
  'rbac.authorization.k8s.io', 'storage.k8s.io', 'scheduling.k8s.io', 'node.k8s.io', 'coordination.k8s.io',
  'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io', 'certificates.k8s.io',
  'events.k8s.io', 'flowcontrol.apiserver.k8s.io', 'resource.k8s.io', 'authentication.k8s.io',
  'authorization.k8s.io', 'storagemigration.k8s.io', 'internal.apiserver.k8s.io', 'metrics.k8s.io',
]);

/**
 * Custom resources of common projects that configure something and never make an operator create Pods
 * (monitoring rules and scrape configs, Gateway API routes, certificates, MetalLB and Calico settings).
 * Any other custom resource may be an operator's input that becomes Pods (Prometheus, Kafka, a database
 * cluster, an Argo CD Application…). Sources: the CRD lists of prometheus-operator v0.80, gateway-api v1.3,
 * cert-manager v1.17, metallb v0.14, calico v3.29.
 */
const CONFIG_ONLY: Readonly<Record<string, ReadonlySet<string> | 'all'>> = {
  'monitoring.coreos.com': new Set(['ServiceMonitor', 'PodMonitor', 'PrometheusRule', 'Probe', 'ScrapeConfig', 'AlertmanagerConfig']),
  'gateway.networking.k8s.io': new Set(['HTTPRoute', 'GRPCRoute', 'TCPRoute', 'TLSRoute', 'UDPRoute', 'ReferenceGrant', 'BackendTLSPolicy', 'GatewayClass']),
  'cert-manager.io': 'all',
  'metallb.io': 'all',
  'crd.projectcalico.org': 'all',
  'projectcalico.org': 'all',
};

/**
 * True for a custom resource that an operator may turn into Pods the workspace does not show: any object of
 * a group kube-apiserver does not serve, except the configuration-only kinds above and the CRD workloads the
 * model reads as pod templates (Argo Rollouts, OpenKruise).
 */
export function mayCreatePods(obj: K8sObject): boolean {
  if (obj.category !== 'other' || BUILTIN_API_GROUPS.has(obj.group) || POD_SPEC_PATHS[obj.kind]) return false;
  const known = CONFIG_ONLY[obj.group];
  return !(known === 'all' || known?.has(obj.kind));
}
