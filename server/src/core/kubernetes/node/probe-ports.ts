import type { Container, ContainerPort } from '../../model/objects';
import type { HandlerKind } from '../../model/views/container-handlers';

/**
 * How the kubelet resolves the port of a probe or lifecycle hook: a number is used as it is; a name is
 * looked up in the **probed container's own** `ports`, by name only (no protocol, no other container).
 * A probe whose name is not found errors with `port "x" not found` on every period: the kubelet records a
 * Warning `Unhealthy` event ("… probe errored …") and throws the result away, so a liveness probe never
 * restarts the container and a readiness probe keeps the Pod not Ready. A postStart hook that cannot find
 * its port fails (`couldn't find port: x in …`) and the container is killed; a failing preStop hook is
 * logged and the container is stopped without it.
 * Sources: kubernetes pkg/probe/util.go (ResolveContainerPort, findPortByName), pkg/kubelet/prober/prober.go
 * and worker.go ("Prober error, throw away the result"), pkg/kubelet/lifecycle/handlers.go (resolvePort),
 * https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/ (v1.33).
 */
export function findProbePort(container: Container, name: string): ContainerPort | undefined {
  return container.ports.find((p) => p.name?.value === name);
}

/** What the kubelet does when the handler's named port is not found, for messages (≤ ~100 characters). */
export function unresolvedConsequence(handler: HandlerKind): string {
  switch (handler) {
    case 'livenessProbe':
      return 'the kubelet logs "probe errored" every period and discards the result: liveness never restarts the container';
    case 'readinessProbe':
      return 'the kubelet logs "probe errored" every period and discards the result: the Pod never becomes Ready';
    case 'startupProbe':
      return 'the kubelet logs "probe errored" every period and discards the result: the container never starts up, so it is never Ready';
    case 'postStart':
      return 'the hook fails and the kubelet kills the container (FailedPostStartHook), so it restarts forever';
    case 'preStop':
      return 'the hook fails (FailedPreStopHook) and the container is stopped without it';
  }
}
