import type { K8sObject, ServiceObject } from './objects';
import type { WorkspaceModel } from './workspace-model';

/**
 * `model` without the objects `drop` picks (the objects the API server rejects, see
 * kubernetes/api-server/rejection.ts): every list, claim index and lookup of the model leaves them out, so a rule
 * run over it neither reports them nor names them among the other objects of a finding. Lists and claims are
 * filtered on first use; selector lookups per call. The rejected Services stay reachable through
 * `rejectedServicesIn`, for the references that name one.
 */
export function modelWithout(model: WorkspaceModel, drop: (o: K8sObject) => boolean): WorkspaceModel {
  const keep = <T extends K8sObject>(list: readonly T[]): readonly T[] => (list.some(drop) ? list.filter((o) => !drop(o)) : list);
  const claims = <C>(map: ReadonlyMap<number, readonly C[]>, owner: (c: C) => K8sObject): (() => ReadonlyMap<number, readonly C[]>) => {
    let filtered: Map<number, readonly C[]> | undefined;
    return () => {
      if (filtered) return filtered;
      filtered = new Map();
      for (const [port, list] of map) {
        const kept = list.filter((c) => !drop(owner(c)));
        if (kept.length) filtered.set(port, kept.length === list.length ? list : kept);
      }
      return filtered;
    };
  };
  const lazy = <T>(make: () => T): (() => T) => {
    let value: { v: T } | undefined;
    return () => (value ??= { v: make() }).v;
  };
  const objects = lazy(() => keep(model.objects));
  const services = lazy(() => keep(model.services));
  const workloads = lazy(() => keep(model.workloads));
  const nodes = lazy(() => keep(model.nodes));
  const nodePorts = claims(model.nodePorts, (c) => c.service);
  const hostPorts = claims(model.hostPorts, (c) => c.workload);
  const servicePorts = claims(model.servicePorts, (c) => c.service);
  const externalIPs = claims(model.externalIPs, (c) => c.service);
  const rejectedServices = new Map<string, readonly ServiceObject[]>();
  return {
    get objects() { return objects(); },
    get services() { return services(); },
    get workloads() { return workloads(); },
    get nodes() { return nodes(); },
    problems: model.problems,
    settings: model.settings,
    get nodePorts() { return nodePorts(); },
    get hostPorts() { return hostPorts(); },
    get servicePorts() { return servicePorts(); },
    get externalIPs() { return externalIPs(); },
    selectedWorkloads: (service) => keep(model.selectedWorkloads(service)),
    selectingServices: (workload) => keep(model.selectingServices(workload)),
    servicesIn: (namespace) => keep(model.servicesIn(namespace)),
    workloadsIn: (namespace) => keep(model.workloadsIn(namespace)),
    namespaces: () => model.namespaces(),
    rejectedServicesIn: (namespace) => {
      let list = rejectedServices.get(namespace);
      if (!list) rejectedServices.set(namespace, (list = model.servicesIn(namespace).filter(drop)));
      return list;
    },
  };
}
