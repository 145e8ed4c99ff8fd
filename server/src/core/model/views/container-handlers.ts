import type { Located } from '../../source/span';
import type { Container, WorkloadObject } from '../objects';
import { asRecord, cachedView, isPortValue, isRecord, locatedAt, rawAt } from './raw-fields';

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

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
const HOOKS = ['postStart', 'preStop'] as const;

/** Dotted path of a container in its workload (`spec.template.spec.initContainers.1`). */
export function containerPath(w: WorkloadObject, c: Container): string {
  return `${w.pod.path}.${c.role === 'container' ? 'containers' : 'initContainers'}.${c.index}`;
}

/**
 * Every port a container's probes (`httpGet`, `tcpSocket`, `grpc`) and lifecycle hooks (`httpGet` only:
 * LifecycleHandler has no grpc, and its tcpSocket "is NOT supported") name, for every container of the pod.
 * Source: kubernetes staging/src/k8s.io/api/core/v1/types.go (Probe, ProbeHandler, LifecycleHandler), v1.33.
 */
export const handlerPorts = cachedView((obj): readonly HandlerPort[] => {
  if (obj.category !== 'workload') return [];
  const w = obj;
  const out: HandlerPort[] = [];
  for (const c of w.pod.containers) {
    const base = containerPath(w, c);
    const raw = asRecord(rawAt(w.raw, base));
    for (const handler of PROBES) {
      const probe = raw[handler];
      if (probe === undefined) continue;
      for (const action of ['httpGet', 'tcpSocket', 'grpc'] as const) {
        // Most probes hold one action: skip the others without building their path (what `add` reads is absent).
        if (hasPort(probe, action)) add(out, w, c, handler, action, `${base}.${handler}.${action}.port`);
      }
    }
    const lifecycle = asRecord(raw.lifecycle);
    for (const handler of HOOKS) {
      if (lifecycle[handler] !== undefined && hasPort(lifecycle[handler], 'httpGet')) add(out, w, c, handler, 'httpGet', `${base}.lifecycle.${handler}.httpGet.port`);
    }
  }
  return out;
});

/** True when `handler.<action>.port` holds a value (as {@link rawAt} reads it: through records only, for these keys). */
function hasPort(handler: unknown, action: HandlerPort['action']): boolean {
  return isRecord(handler) && isRecord(handler[action]) && (handler[action] as Record<string, unknown>).port !== undefined;
}

function add(out: HandlerPort[], w: WorkloadObject, container: Container, handler: HandlerKind, action: HandlerPort['action'], path: string): void {
  const port = locatedAt(w, path, isPortValue);
  if (port) out.push({ container, handler, action, path, port });
}

/** `readinessProbe` / `postStart hook` — for messages. */
export function handlerLabel(h: Pick<HandlerPort, 'handler' | 'action'>): string {
  return h.handler === 'postStart' || h.handler === 'preStop' ? `${h.handler} hook` : h.handler;
}
