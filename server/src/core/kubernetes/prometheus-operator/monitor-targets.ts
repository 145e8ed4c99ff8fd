import type { ServiceObject, WorkloadObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { MonitorView } from '../../model/views/monitors';
import { labelSelectorMatches } from '../api-server/label-selector';
import { podSelectorMatches } from '../controller-manager/pod-labels';

/**
 * What the Prometheus Operator turns a ServiceMonitor or PodMonitor into: a scrape job over the Services
 * (ServiceMonitor, role endpoints/endpointslice) or Pods (PodMonitor, role pod) whose labels match
 * `spec.selector`, in the namespaces of `namespaceSelector` (`any: true`, `matchNames`, or — when empty —
 * the monitor's own namespace), with relabel `keep` rules on the port:
 * - ServiceMonitor `endpoints[].port` keeps `__meta_kubernetes_endpoint_port_name` = the Service port's name
 *   (it wins over targetPort; an unnamed Service port cannot be selected);
 * - ServiceMonitor `targetPort` and PodMonitor `port` / `portNumber` / `targetPort` keep
 *   `__meta_kubernetes_pod_container_port_name` / `_number`: ports the Pod's containers declare (PodMonitor
 *   precedence: port > portNumber > targetPort).
 * A port that nothing has gives no targets and no error: the metrics silently stop.
 * Sources: prometheus-operator pkg/prometheus/promcfg.go (generateServiceMonitorConfig,
 * generatePodMonitorConfig), pkg/apis/monitoring/v1/types.go (Endpoint, NamespaceSelector),
 * podmonitor_types.go (PodMetricsEndpoint, PR #7150: portNumber in v0.79), v0.80.
 */

/** The namespaces a monitor reads: the listed ones, or every namespace of the model for `any: true`. */
export function monitorNamespaces(model: WorkspaceModel, view: MonitorView<unknown>): readonly string[] {
  return view.namespaces.any ? model.namespaces() : view.namespaces.names;
}

/** The Services a ServiceMonitor selects (by the Services' own labels). */
export function monitoredServices(model: WorkspaceModel, view: MonitorView<unknown>): ServiceObject[] {
  return monitorNamespaces(model, view).flatMap((ns) => model.servicesIn(ns).filter((s) => labelSelectorMatches(view.selector, s.labels)));
}

/** The pod templates a PodMonitor selects (by pod template labels); kustomize patches (partial) left out. */
export function monitoredPods(model: WorkspaceModel, view: MonitorView<unknown>, partial: (w: WorkloadObject) => boolean): WorkloadObject[] {
  return monitorNamespaces(model, view).flatMap((ns) => model.workloadsIn(ns).filter((w) => !partial(w) && podSelectorMatches(view.selector, w)));
}

/** True when any container (init containers too: Prometheus' pod role lists them) declares the port name. */
export function podsDeclareName(pods: readonly WorkloadObject[], name: string): boolean {
  return pods.some((w) => w.pod.containers.some((c) => c.ports.some((p) => p.name?.value === name)));
}

/** True when any container declares the containerPort number. */
export function podsDeclareNumber(pods: readonly WorkloadObject[], number: number): boolean {
  return pods.some((w) => w.pod.containers.some((c) => c.ports.some((p) => p.containerPort?.value === number)));
}
