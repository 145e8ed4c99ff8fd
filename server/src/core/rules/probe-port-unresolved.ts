import type { Container, ContainerPort, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import { handlerLabel, HandlerPort, handlerPorts, isUnrunHookAction } from '../model/views/container-handlers';
import { findProbePort, unresolvedConsequence } from '../kubernetes/node/probe-ports';
import { portNameErrors } from '../kubernetes/api-server/validation';
import type { Finding, Fix, Rule } from './rule';
import { refOf } from './rule';
import { patchLookup } from './report/kustomize-patches';
import { replaceScalarEdit } from './fixes/replace-scalar';

const id = 'probe-port-unresolved';

/**
 * A liveness / readiness / startup probe (`httpGet`, `tcpSocket`) or a postStart / preStop `httpGet` hook
 * whose named port the probed container itself does not declare.
 */
export const probePortUnresolved: Rule = {
  id,
  title: 'Probe or lifecycle hook names a port its container does not declare',
  severity: 'error',
  explanation: [
    'A probe\'s `httpGet.port` or `tcpSocket.port` (and a lifecycle hook\'s `httpGet.port`) may name a container port',
    'instead of giving its number. The kubelet looks the name up in the **probed container\'s own** `ports` — by name',
    'only, never in the Pod\'s other containers — and when it is not there the probe does not fail, it **errors**:',
    '',
    '- every period the kubelet records a Warning `Unhealthy` event, `Liveness probe errored and resulted in unknown',
    '  state: port "http" not found`, and throws the result away;',
    '- so a **liveness** probe never restarts the container (liveness is silently off), a **readiness** probe keeps the',
    '  Pod not Ready (no endpoints, no traffic, a rollout that never finishes), and a **startup** probe never lets the',
    '  container start up;',
    '- a **postStart** hook whose port is not found fails, and the kubelet kills the container (`FailedPostStartHook`):',
    '  it restarts forever; a **preStop** hook fails (`FailedPreStopHook`) and the container is stopped without it.',
    '',
    'It is an **error** because none of this shows at `kubectl apply` time. The finding points at the port value and',
    'says which ports the container does declare; when another container of the Pod declares the name, it says so',
    '(probes connect to the Pod\'s IP, so that container\'s port can be probed by number: the quick fix writes it).',
    'When the container declares exactly one port, the quick fix names that one instead.',
    '',
    'Numeric probe ports are not checked (declared ports are informational: a process may listen on any port). A',
    'quoted number (`port: "8080"`) is rejected by the API server and reported by `pod-spec-invalid`; `grpc.port`',
    'takes numbers only. Ports added to the container by a kustomize patch in the workspace count. Probes and hooks',
    'of a plain init container (without `restartPolicy: Always`) are not judged: the API server rejects the object',
    '(`pod-spec-invalid` reports the field), and a rejected object takes part in no other check.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/probe/util.go (ResolveContainerPort, findPortByName: `port %q not found`, v1.33)',
    'kubernetes pkg/kubelet/prober/prober.go and worker.go (a probe error is recorded as an event and its result thrown away, v1.33)',
    'kubernetes pkg/kubelet/lifecycle/handlers.go (resolvePort: `couldn\'t find port: %v in %v`, v1.33)',
    'https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/ ("If a PostStart or PreStop hook fails, it kills the Container", v1.33)',
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#lifecycle (LifecycleHandler: exec, httpGet, sleep; tcpSocket not supported, v1.33)',
  ],
  check({ model, layout, files }) {
    const findings: Finding[] = [];
    const patches = patchLookup(model, layout);
    for (const w of model.workloads) {
      // A patch's containers merge into its base by name: judged there, with the patch's ports.
      if (patches.isPatch(w)) continue;
      for (const h of handlerPorts(w)) {
        const name = h.port.value;
        if (typeof name !== 'string' || h.action === 'grpc' || portNameErrors(name).length) continue; // pod-spec-invalid reports those
        if (isUnrunHookAction(h)) continue; // never run, so never resolved: lifecycle-hook-tcpsocket reports it
        const own = containerPorts(patches.withPatches(w), h.container);
        if (own.some((p) => p.name?.value === name) || findProbePort(h.container, name)) continue;
        const elsewhere = w.pod.containers.filter((c) => c !== h.container && c.role !== 'init').flatMap((c) => c.ports.filter((p) => p.name?.value === name && p.containerPort).map((p) => ({ c, p })));
        const declared = own.filter((p) => p.containerPort).map((p) => (p.name ? `${p.name.value} (${p.containerPort!.value})` : String(p.containerPort!.value)));
        // The fix a probe can use: another container's port by number (probes connect to the Pod IP).
        const other = elsewhere.length ? `; use container "${elsewhere[0].c.name}"'s number ${elsewhere[0].p.containerPort!.value} (names resolve per container)` : '';
        findings.push({
          ruleId: id,
          severity: 'error',
          message: `${handlerLabel(h)} port "${name}" of container "${h.container.name}" in ${describe(w)} is not one of its ports (${declared.length ? `it declares ${declared.join(', ')}` : 'it declares none'}): ${unresolvedConsequence(h.handler)}${other || '; use one of its ports'}`,
          span: h.port.span,
          object: refOf(w),
          related: elsewhere.map(({ c, p }) => ({ span: p.name!.span, message: `port "${name}" of container "${c.name}"` })),
          fixes: fixes(h, name, elsewhere[0]?.p, own, files),
        });
      }
    }
    return findings;
  },
};

/** The container's ports, with those a kustomize patch adds to the container of the same name. */
function containerPorts(variants: readonly WorkloadObject[], container: Container): ContainerPort[] {
  return variants.flatMap((v) => v.pod.containers.filter((c) => c === container || (c.name === container.name && c.role === container.role)).flatMap((c) => c.ports));
}

function fixes(h: HandlerPort, name: string, elsewhere: ContainerPort | undefined, own: readonly ContainerPort[], files: Parameters<Rule['check']>[0]['files']): Fix[] {
  const target = elsewhere?.containerPort?.value;
  if (target !== undefined) {
    const edit = replaceScalarEdit(files, h.port.span, name, String(target));
    return edit ? [{ title: `Probe port ${target} (the number of "${name}" in its container)`, edits: [edit], preferred: true }] : [];
  }
  const declared = own.filter((p) => p.containerPort);
  if (declared.length !== 1) return [];
  const only = declared[0];
  const text = only.name?.value ?? String(only.containerPort!.value);
  const edit = replaceScalarEdit(files, h.port.span, name, text);
  return edit ? [{ title: `Use the container's only port ${only.name ? `"${text}"` : text}`, edits: [edit] }] : [];
}
