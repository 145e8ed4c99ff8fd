import { firstOf } from '../../output/first-of';
import type { Container, ContainerPort, ServicePort, WorkloadObject } from '../../model/objects';

/**
 * How the EndpointSlice controller turns a Service port's `targetPort` into a Pod port (FindPort): a number
 * is used as it is; a name is looked up, per Pod, among the ports of `spec.containers` and, since v1.32
 * (kubernetes PR #127976 in FindPort, PR #128850 in the EndpointSlice controller's own copy), of restartable
 * init containers (`restartPolicy: Always`, sidecars; older clusters give them no endpoint), matching the
 * name **and** the Service port's protocol. Ordinary init containers never count. A Pod without the name
 * gets no endpoint for that Service port. Sources: kubernetes pkg/api/v1/pod/util.go (FindPort),
 * pkg/controller/endpointslice (v1.33).
 */

/** A declared container port of a pod template. */
export interface DeclaredPort {
  readonly container: Container;
  readonly port: ContainerPort;
}

/** Containers whose ports FindPort searches: regular containers and restartable init containers (sidecars). */
export function servingContainers(w: WorkloadObject): Container[] {
  return w.pod.containers.filter((c) => c.role === 'container' || c.role === 'sidecar');
}

/** Every port the serving containers declare (with a containerPort), in container order. */
export function declaredPorts(w: WorkloadObject): DeclaredPort[] {
  return servingContainers(w).flatMap((container) => container.ports.filter((port) => port.containerPort).map((port) => ({ container, port })));
}

/** The port a named targetPort resolves to on this pod template (FindPort's name and protocol test), if any. */
export function findNamedPort(w: WorkloadObject, name: string, protocol: string): DeclaredPort | undefined {
  for (const container of servingContainers(w)) {
    for (const port of container.ports) if (port.name?.value === name && port.protocol.value.toUpperCase() === protocol) return { container, port };
  }
  return undefined;
}

/** Declared ports of the serving containers with this number and protocol. */
export function findNumberedPort(w: WorkloadObject, number: number, protocol: string): DeclaredPort | undefined {
  return declaredPorts(w).find((d) => d.port.containerPort!.value === number && d.port.protocol.value.toUpperCase() === protocol);
}

/**
 * The targetPort the Service port sends traffic to: the written `targetPort`, else `port` (the API server
 * defaults targetPort to port). Undefined when neither is readable.
 */
export function effectiveTargetPort(sp: ServicePort): number | string | undefined {
  const t = sp.targetPort?.value;
  if (t !== undefined && t !== '' && t !== 0) return t;
  return sp.port?.value;
}

/**
 * The Pod port number a Service port reaches on this pod template: the number, or the containerPort its
 * name resolves to; undefined when a name does not resolve.
 */
export function resolveTargetPort(sp: ServicePort, w: WorkloadObject): number | undefined {
  const target = effectiveTargetPort(sp);
  if (typeof target === 'number') return target;
  if (target === undefined) return undefined;
  return findNamedPort(w, target, sp.protocol.value.toUpperCase())?.port.containerPort?.value;
}

/** `metrics/TCP, https/UDP` — the named ports a workload does declare, to show what is there instead; beyond `max`, the first `max` and "and N more". */
export function declaredNames(w: WorkloadObject, max = Infinity): string {
  const names = servingContainers(w).flatMap((c) => c.ports.filter((p) => p.name).map((p) => `${p.name!.value}/${p.protocol.value.toUpperCase()}`));
  return names.length ? firstOf(names, max) : 'no named ports';
}

/** `8080/TCP, 9090/TCP` — the port numbers a workload's serving containers declare; beyond `max`, the first `max` and "and N more". */
export function declaredNumbers(w: WorkloadObject, max = Infinity): string {
  const numbers = [...new Set(declaredPorts(w).map((d) => `${d.port.containerPort!.value}/${d.port.protocol.value.toUpperCase()}`))];
  return numbers.length ? firstOf(numbers, max) : 'no ports';
}
