import type { PodTemplate, WorkloadObject } from '../objects';
import { containerPathIn, HOOKS, isHook, PROBES, type HandlerKind } from './container-handlers';
import { asRecord, isRecord, rawAt } from './raw-fields';

/** The actions a probe handler and a lifecycle handler may set, in the order validateHandler counts them. */
export const PROBE_ACTIONS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
export const HOOK_ACTIONS = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;

/**
 * A probe or lifecycle hook (a mapping) of a container that validateHandler would not take as it is, as plain data:
 * it sets no action or more than one, or its one `httpGet` / `tcpSocket` / `grpc` has no port, or its one `exec` no
 * command, or one of its actions is not a mapping (a decode error: the API server validates nothing then, see
 * decodeProblems). A handler setting exactly one action, a mapping with what that action needs, is left out.
 * Sources: kubernetes pkg/apis/core/validation/validation.go (validateHandler, validateExecAction,
 * validateHTTPGetAction, validateTCPSocketAction, validateGRPCAction), v1.33.
 */
export interface HandlerShape {
  /** The container's position in `pod.containers`. */
  readonly container: number;
  readonly handler: HandlerKind;
  /** The actions set (present and not null), in validateHandler's order ({@link PROBE_ACTIONS} / {@link HOOK_ACTIONS}). */
  readonly actions: readonly string[];
  /** With no action set: the actions written as `null` (`tcpSocket: null` sets none), in the same order. */
  readonly nulls?: readonly string[];
  /** With one or more actions, all mappings: what the first one lacks (`port` for httpGet / tcpSocket / grpc, `command` for exec). */
  readonly missing?: 'port' | 'command';
  /** True when an action set is not a mapping (`httpGet: 80`): the decoder refuses the object, nothing else is judged. */
  readonly undecodable?: true;
}

/**
 * The {@link HandlerShape}s of a pod template read from its object's `raw` (`pod.path` is the pod spec's dotted path
 * in it), container by container, probes before hooks. Plain init containers are read too (their probes and hooks are
 * forbidden as a whole, InitForbiddenField, but their ports are still checked by the first action).
 */
export function handlerShapesOf(raw: unknown, pod: Pick<PodTemplate, 'path' | 'containers'>): HandlerShape[] {
  const out: HandlerShape[] = [];
  pod.containers.forEach((c, container) => {
    const spec = rawAt(raw, containerPathIn(pod.path, c));
    if (!isRecord(spec)) return;
    const lifecycle = asRecord(spec.lifecycle);
    for (const handler of [...PROBES, ...HOOKS]) {
      const hook = isHook(handler);
      const value = hook ? lifecycle[handler] : spec[handler];
      if (!isRecord(value)) continue;
      const kinds = hook ? HOOK_ACTIONS : PROBE_ACTIONS;
      const actions = kinds.filter((a) => value[a] !== undefined && value[a] !== null);
      if (actions.some((a) => !isRecord(value[a]))) {
        out.push({ container, handler, actions, undecodable: true });
        continue;
      }
      if (actions.length === 0) {
        out.push({ container, handler, actions, nulls: kinds.filter((a) => a in value) });
        continue;
      }
      const first = actions[0];
      const action = value[first] as Record<string, unknown>;
      // A command that is not a list is a decode error (the loader records it), not a missing one.
      const command = action.command;
      const missing = first === 'exec' ? (command === undefined || command === null || (Array.isArray(command) && command.length === 0) ? 'command' : undefined)
        : first === 'sleep' ? undefined
        : action.port === undefined || action.port === null ? 'port' : undefined;
      if (actions.length > 1 || missing) out.push({ container, handler, actions, ...(missing ? { missing } : {}) });
    }
  });
  return out;
}

/** Per workload (objects are immutable), its shapes read from `raw` when the loader did not record them. */
const fromRaw = new WeakMap<WorkloadObject, readonly HandlerShape[]>();

/**
 * The {@link HandlerShape}s of a workload: as the loader recorded them ({@link PodTemplate.handlerShapes}, so the
 * main thread need not parse every workload's `raw`), else read from `raw` once (objects from a live cluster).
 */
export function handlerShapes(w: WorkloadObject): readonly HandlerShape[] {
  if (w.pod.handlerShapes) return w.pod.handlerShapes;
  let shapes = fromRaw.get(w);
  if (!shapes) fromRaw.set(w, (shapes = handlerShapesOf(w.raw, w.pod)));
  return shapes;
}

/** The {@link HandlerShape} of a container's probe or hook; undefined when that handler sets exactly one action as it should (or is not written). */
export function handlerShapeOf(w: WorkloadObject, container: number, handler: HandlerKind): HandlerShape | undefined {
  return handlerShapes(w).find((s) => s.container === container && s.handler === handler);
}
