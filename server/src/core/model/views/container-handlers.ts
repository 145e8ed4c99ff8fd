import type { Located } from '../../source/span';
import type { Container, PodTemplate, WorkloadObject } from '../objects';
import { asRecord, cachedView, isPortValue, isRecord, lazilyLocated, rawAt } from './raw-fields';

/** A probe or lifecycle handler of a container. */
export type HandlerKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe' | 'postStart' | 'preStop';

/** A port named by a container's probe or lifecycle hook. */
export interface HandlerPort {
  readonly container: Container;
  readonly handler: HandlerKind;
  /** `httpGet` and `tcpSocket` ports are IntOrString; `grpc.port` is an int32. */
  readonly action: 'httpGet' | 'tcpSocket' | 'grpc';
  /** Dotted path of the port value (`spec.template.spec.containers.0.readinessProbe.httpGet.port`). */
  readonly path: string;
  /** A number, or a string (a port name; a quoted number is a string too, and the API server rejects it). */
  readonly port: Located<number | string>;
}

/** A container's probes and its lifecycle hooks, in the order the API server validates them. */
export const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
export const HOOKS = ['postStart', 'preStop'] as const;

/** True for a lifecycle hook (`postStart`, `preStop`), false for a probe. */
export function isHook(handler: HandlerKind): handler is (typeof HOOKS)[number] {
  return handler === 'postStart' || handler === 'preStop';
}

/** Dotted path of a container in its workload (`spec.template.spec.initContainers.1`). */
export function containerPath(w: WorkloadObject, c: Container): string {
  return containerPathIn(w.pod.path, c);
}

/** Dotted path of a container in its object's `raw`, from the pod spec's path (`spec.template.spec.initContainers.1`). */
export function containerPathIn(podPath: string, c: Pick<Container, 'role' | 'index'>): string {
  return `${podPath}.${c.role === 'container' ? 'containers' : 'initContainers'}.${c.index}`;
}

/**
 * A port a container's probe or lifecycle hook names, as plain data: what the loader records for each workload it
 * reads ({@link PodTemplate.handlerPorts}), before any span is looked up.
 */
export interface HandlerPortValue {
  /** The container's position in `pod.containers`. */
  readonly container: number;
  readonly handler: HandlerKind;
  readonly action: HandlerPort['action'];
  readonly value: number | string;
}

/**
 * Every port a container's probes (`httpGet`, `tcpSocket`, `grpc`) and lifecycle hooks (`httpGet`, `tcpSocket`:
 * LifecycleHandler has no grpc) name, for every container of the pod. A hook's `tcpSocket` "is NOT supported" (the
 * kubelet never runs it: {@link isUnrunHookAction}), but the API server validates its port as a probe's
 * (validateTCPSocketAction through handlerFromLifecycle), so it is here for the port checks.
 * Sources: kubernetes staging/src/k8s.io/api/core/v1/types.go (Probe, ProbeHandler, LifecycleHandler) and
 * pkg/apis/core/validation/validation.go (validateLifecycle, validateHandler), v1.33.
 */
export const handlerPorts = cachedView((obj): readonly HandlerPort[] => {
  if (obj.category !== 'workload') return [];
  const w = obj;
  // The loader read them off `raw` while it had it as objects (a loaded file's `raw` is parsed here when first
  // read, and nothing else reads most workloads' raw); objects it did not read (from a live cluster) are read now.
  const values = w.pod.handlerPorts ?? handlerPortValues(w.raw, w.pod);
  return values.map((h) => {
    const container = w.pod.containers[h.container];
    const path = handlerPortPath(w.pod.path, container, h);
    return { container, handler: h.handler, action: h.action, path, port: lazilyLocated(w, path, h.value) };
  });
});

/**
 * The {@link HandlerPortValue}s of a pod template read from its object's `raw` (`pod.path` is the pod spec's
 * dotted path in it), container by container, probes before hooks; values that are neither a string nor an
 * integer are left out.
 */
export function handlerPortValues(raw: unknown, pod: Pick<PodTemplate, 'path' | 'containers'>): HandlerPortValue[] {
  const out: HandlerPortValue[] = [];
  pod.containers.forEach((c, container) => {
    const spec = asRecord(rawAt(raw, containerPathIn(pod.path, c)));
    for (const handler of PROBES) {
      const probe = spec[handler];
      if (probe === undefined) continue;
      for (const action of ['httpGet', 'tcpSocket', 'grpc'] as const) {
        const value = portOf(probe, action);
        if (isPortValue(value)) out.push({ container, handler, action, value });
      }
    }
    const lifecycle = asRecord(spec.lifecycle);
    for (const handler of HOOKS) {
      for (const action of ['httpGet', 'tcpSocket'] as const) {
        const value = portOf(lifecycle[handler], action);
        if (isPortValue(value)) out.push({ container, handler, action, value });
      }
    }
  });
  return out;
}

/** `handler.<action>.port`, read through records only (as {@link rawAt} reads it, for these keys). */
function portOf(handler: unknown, action: HandlerPort['action']): unknown {
  return isRecord(handler) && isRecord(handler[action]) ? (handler[action] as Record<string, unknown>).port : undefined;
}

/** Dotted path of a handler's port value (`spec.template.spec.containers.0.lifecycle.preStop.httpGet.port`). */
function handlerPortPath(podPath: string, container: Container, h: Pick<HandlerPortValue, 'handler' | 'action'>): string {
  const base = containerPathIn(podPath, container);
  return isHook(h.handler) ? `${base}.lifecycle.${h.handler}.${h.action}.port` : `${base}.${h.handler}.${h.action}.port`;
}

/**
 * True for a lifecycle hook's `tcpSocket`: the API server accepts it, but the kubelet's handler runner runs only
 * `exec`, `httpGet` and `sleep` and fails any other handler ("invalid handler"), so its port is never connected to
 * (rules/lifecycle-hook-tcpsocket.ts reports it). Source: kubernetes pkg/kubelet/lifecycle/handlers.go
 * (handlerRunner.Run), v1.33.
 */
export function isUnrunHookAction(h: Pick<HandlerPort, 'handler' | 'action'>): boolean {
  return isHook(h.handler) && h.action === 'tcpSocket';
}

/** Dotted path of a lifecycle hook (`spec.template.spec.containers.0.lifecycle.preStop`). */
export function hookPath(podPath: string, container: Pick<Container, 'role' | 'index'>, hook: 'postStart' | 'preStop'): string {
  return `${containerPathIn(podPath, container)}.lifecycle.${hook}`;
}

/** `readinessProbe` / `postStart hook` — for messages. */
export function handlerLabel(h: Pick<HandlerPort, 'handler' | 'action'>): string {
  return isHook(h.handler) ? `${h.handler} hook` : h.handler;
}
