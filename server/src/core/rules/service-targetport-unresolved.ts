import type { Container, ServicePort, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';

const id = 'service-targetport-unresolved';

/** Containers whose ports a Service can target: regular containers and restartable init containers (sidecars). */
function servingContainers(w: WorkloadObject): Container[] {
  return w.pod.containers.filter((c) => c.role === 'container' || c.role === 'sidecar');
}

/** True when a serving container declares a port with this name and protocol (FindPort's test). */
function declares(w: WorkloadObject, name: string, protocol: string): boolean {
  return servingContainers(w).some((c) => c.ports.some((p) => p.name?.value === name && p.protocol.value.toUpperCase() === protocol));
}

/** `metrics/TCP, https/UDP` — the named ports a workload does declare, to show what is there instead. */
function declaredNames(w: WorkloadObject): string {
  const names = servingContainers(w).flatMap((c) => c.ports.filter((p) => p.name).map((p) => `${p.name!.value}/${p.protocol.value.toUpperCase()}`));
  return names.length ? names.join(', ') : 'no named ports';
}

function listWorkloads(ws: readonly WorkloadObject[]): string {
  const names = ws.map(describe);
  return joinNames(names);
}

/**
 * A Service port whose named targetPort no selected pod template declares (with the same protocol).
 * Error when none of the selected workloads declares it, warning naming those that lack it otherwise.
 */
export const serviceTargetportUnresolved: Rule = {
  id,
  title: 'Named targetPort not declared by the selected pods',
  severity: 'error',
  explanation: [
    'A Service port with a **named** `targetPort` (e.g. `targetPort: https`) is resolved per Pod: the endpoints',
    'controller looks for a container port with that `name` **and** the same `protocol` in the Pod\'s containers',
    '(and restartable init containers, the sidecars of Kubernetes ≥1.28). A Pod without one gets **no endpoint** for',
    'that Service port — the Service exists, DNS resolves, but connections are refused or time out, and nothing in',
    '`kubectl apply` complains.',
    '',
    'kube-netlint checks the pod templates in the workspace whose labels the Service\'s selector matches (same',
    'namespace). It reports an **error** when none of them declares the name, and a **warning** naming the workloads',
    'that lack it when only some do (those Pods silently get no traffic on that port). It stays silent when the',
    'selector matches nothing in the workspace (the backends may be deployed from elsewhere).',
    '',
    'Fix: add `name: <targetPort>` to the right container port (container port names are IANA_SVC_NAMEs, at most',
    '15 characters), or use the port number as `targetPort`.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/api/v1/pod/util.go (FindPort: name and protocol must match; restartable init containers, v1.33)',
    'kubernetes pkg/controller/endpointslice (no endpoint for a Pod without the named port, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#field-spec-ports (named targetPort, v1.33)',
  ],
  check({ model, layout }) {
    const findings: Finding[] = [];
    const patches: ReadonlySet<string> = layout?.patchFiles ?? new Set();
    for (const svc of model.services) {
      // Kustomize patches are partial: a patch Deployment lists only the containers it changes.
      const selected = model.selectedWorkloads(svc).filter((w) => !patches.has(w.file));
      if (selected.length === 0) continue;
      for (const sp of svc.ports) {
        const target = sp.targetPort;
        if (!target || typeof target.value !== 'string' || target.value === '') continue;
        const name = target.value;
        const protocol = sp.protocol.value.toUpperCase();
        const lacking = selected.filter((w) => !declares(w, name, protocol));
        if (lacking.length === 0) continue;
        const all = lacking.length === selected.length;
        const portLabel = portText(sp);
        const message = all
          ? `targetPort "${name}" (${protocol}) of ${portLabel} in ${describe(svc)} is not declared by any container of ${listWorkloads(lacking)}${lacking.length === 1 ? ` (it declares ${declaredNames(lacking[0])})` : ''}: no Pod gets an endpoint for this port, so connections to it fail`
          : `targetPort "${name}" (${protocol}) of ${portLabel} in ${describe(svc)} is not declared by ${listWorkloads(lacking)} (the Service also selects ${listWorkloads(selected.filter((w) => !lacking.includes(w)))}, which declares it): those Pods get no endpoint for this port`;
        findings.push({
          ruleId: id,
          severity: all ? 'error' : 'warning',
          message,
          span: target.span,
          object: refOf(svc),
          related: lacking.map((w) => ({ span: w.span, message: `${describe(w)} declares ${declaredNames(w)}` })),
          fixes: [],
        });
      }
    }
    return findings;
  },
};

function portText(sp: ServicePort): string {
  return sp.name ? `port "${sp.name.value}"` : `port ${sp.port?.value ?? `#${sp.index}`}`;
}
