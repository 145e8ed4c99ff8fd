import type { Container, ContainerPort, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'container-port-duplicate';

interface Entry {
  readonly container: Container;
  readonly port: ContainerPort;
  readonly containerPort: number;
}

/** `container "a"`, `sidecar "a"` (restartable init container) or `init container "a"`, for messages. */
function containerLabel(c: Container): string {
  if (c.role === 'sidecar') return `sidecar (restartable init container) "${c.name}"`;
  return c.role === 'init' ? `init container "${c.name}"` : `container "${c.name}"`;
}

/**
 * True when the two containers can run at the same time in the pod: regular containers and
 * restartable init containers (sidecars) run together; a plain init container runs alone after the
 * init containers before it, so it only overlaps sidecars declared earlier in `initContainers`.
 * Source: https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/ (v1.33).
 */
function runTogether(a: Container, b: Container): boolean {
  const longRunning = (c: Container) => c.role === 'container' || c.role === 'sidecar';
  if (longRunning(a) && longRunning(b)) return true;
  const [init, other] = a.role === 'init' ? [a, b] : [b, a];
  return other.role === 'sidecar' && other.index < init.index;
}

/**
 * The host-level key the API server's AccumulateUniqueHostPorts would compare (protocol/hostIP/hostPort,
 * hostPort defaulted to containerPort under hostNetwork), or undefined when the entry holds no host port.
 * Pairs with the same key are rejected by the API ("Duplicate value") and reported by `hostport-conflict`.
 */
function hostKey(w: WorkloadObject, e: Entry): string | undefined {
  const hostPort = e.port.hostPort?.value ?? (w.pod.hostNetwork?.value === true ? e.containerPort : undefined);
  return hostPort === undefined ? undefined : `${e.port.protocol.value.toUpperCase()}/${e.port.hostIP?.value ?? ''}/${hostPort}`;
}

/**
 * The same containerPort/protocol declared twice in one pod. Across containers it is a real bind
 * conflict (one network namespace per pod); inside one container it is a listing mistake the API server
 * warns about. Source: kubernetes pkg/api/pod/warnings.go ("duplicate port definition", v1.28+).
 */
export const containerPortDuplicate: Rule = {
  id,
  title: 'containerPort declared twice in one pod',
  severity: 'warning',
  explanation: [
    'All containers of a pod share one network namespace (the node\'s, with `hostNetwork: true`): a port can be',
    'bound by one process only. When two containers declare the same `containerPort` and protocol, whichever',
    'process binds second fails with "address already in use" and usually crash-loops.',
    '',
    'Which containers run together: regular containers and restartable init containers (sidecars,',
    '`restartPolicy: Always`) for the whole life of the pod; a plain init container runs alone, before the app',
    'containers, so it only overlaps the sidecars declared before it in `initContainers`. Plain init containers',
    'never conflict with app containers or with each other (they run one after the other).',
    '',
    'The same port twice **inside one container** is no bind conflict but a listing mistake: the API server warns',
    '`duplicate port definition` (v1.28+), and the `ports` list is keyed on (containerPort, protocol), so',
    '`kubectl apply` and strategic-merge patches can merge or drop one of the entries. Often another protocol',
    '(TCP and UDP, e.g. DNS on 53) was meant. Two entries that publish the same containerPort on different non-zero',
    'hostPorts are left alone.',
    '',
    'Entries with the same host-level key (protocol/hostIP/hostPort, including hostNetwork ports) are rejected by',
    'the API server with `hostPort: Duplicate value: "TCP//80"`; that case is reported by `hostport-conflict`.',
    '',
    'Fix: give one container another port (and update the Services\' `targetPort`s), or remove the duplicate entry.',
  ].join('\n'),
  sources: [
    'https://kubernetes.io/docs/concepts/workloads/pods/#pod-networking (containers of a pod share the network namespace, v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/ (v1.33)',
    'kubernetes pkg/api/pod/warnings.go warningsForPodSpecAndMeta (duplicate / overlapping port definition, v1.28+)',
    'kubernetes pkg/apis/core/validation/validation.go AccumulateUniqueHostPorts (v1.33)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    for (const w of model.workloads) {
      const seen = new Map<string, Entry[]>();
      for (const container of w.pod.containers) {
        for (const port of container.ports) {
          if (!port.containerPort) continue;
          const entry: Entry = { container, port, containerPort: port.containerPort.value };
          const key = `${entry.containerPort}/${port.protocol.value.toUpperCase()}`;
          const earlier = seen.get(key) ?? [];
          const clash = earlier.find((e) => conflicts(w, e, entry));
          if (clash) findings.push(report(w, key, clash, entry));
          seen.set(key, [...earlier, entry]);
        }
      }
    }
    return findings;
  },
};

function conflicts(w: WorkloadObject, a: Entry, b: Entry): boolean {
  const ka = hostKey(w, a);
  if (ka !== undefined && ka === hostKey(w, b)) return false; // API "Duplicate value": hostport-conflict's finding
  if (a.container === b.container) {
    // Different non-zero hostPorts publishing one containerPort: deliberate, and the API does not warn.
    return !(a.port.hostPort && b.port.hostPort && a.port.hostPort.value !== b.port.hostPort.value);
  }
  return runTogether(a.container, b.container);
}

function report(w: WorkloadObject, key: string, first: Entry, second: Entry): Finding {
  const ns = w.pod.hostNetwork?.value === true ? "the node's network namespace (hostNetwork: true)" : 'one network namespace';
  const message =
    first.container === second.container
      ? `containerPort ${key} is listed twice in ${containerLabel(second.container)} of ${describe(w)}: the API server warns "duplicate port definition" and the ports list is keyed on (containerPort, protocol), so kubectl apply can merge or drop one entry — was another protocol meant?`
      : `containerPort ${key} of ${containerLabel(second.container)} is also declared by ${containerLabel(first.container)} of ${describe(w)}: the containers share ${ns}, so whichever process binds ${key} second fails ("address already in use"); change one of the ports`;
  // A port list shared through a YAML alias (`<<: *base`) has one scalar for both containers: point at the
  // second container's name instead, so the finding and its related location differ.
  const secondSpan = second.port.containerPort!.span;
  const firstSpan = first.port.containerPort!.span;
  const shared = secondSpan.file === firstSpan.file && secondSpan.start === firstSpan.start && second.container.nameSpan;
  return {
    ruleId: id,
    severity: 'warning',
    message: shared ? `${message} (both get it from one YAML alias)` : message,
    span: shared || secondSpan,
    object: refOf(w),
    related: [{ span: first.port.containerPort!.span, message: `containerPort ${key} of ${containerLabel(first.container)}` }],
    fixes: [],
  };
}
