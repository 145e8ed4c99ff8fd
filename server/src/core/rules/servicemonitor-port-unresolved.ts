import type { K8sObject, ServiceObject, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import type { Located } from '../source/span';
import { podMonitorView, serviceMonitorView } from '../model/views/monitors';
import { monitoredPods, monitoredServices, podsDeclareName, podsDeclareNumber } from '../kubernetes/prometheus-operator/monitor-targets';
import type { Finding, Fix, Rule, RuleContext } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';
import { patchLookup } from './report/kustomize-patches';
import { isHelmHook } from './report/helm-hooks';
import { servicePortList } from './report/service-ports';
import { replaceScalarEdit } from './fixes/replace-scalar';
import { monitorSelectsNothing } from './report/monitor-selection';

const id = 'servicemonitor-port-unresolved';

/** A ServiceMonitor / PodMonitor endpoint port that nothing it selects has: no targets, no error. */
export const servicemonitorPortUnresolved: Rule = {
  id,
  title: 'ServiceMonitor or PodMonitor port matches nothing it selects',
  severity: 'warning',
  explanation: [
    'The Prometheus Operator turns a `ServiceMonitor` into a scrape job over the endpoints of the Services its',
    '`selector` matches (in the monitor\'s namespace, the `namespaceSelector.matchNames`, or any with `any: true`), and',
    'a `PodMonitor` into one over the matching Pods. The endpoint\'s port becomes a relabel `keep` rule:',
    '',
    '- ServiceMonitor `endpoints[].port` is the **name of a Service port** (an unnamed Service port cannot be',
    '  selected); it wins over `targetPort`;',
    '- ServiceMonitor `endpoints[].targetPort` is a **container port** name or number of the Pods behind those',
    '  Services;',
    '- PodMonitor `podMetricsEndpoints[].port` is a **container port name**, `portNumber` (operator v0.79+) a container',
    '  port number the Pod must declare, `targetPort` the deprecated form of either (precedence: port, portNumber,',
    '  targetPort).',
    '',
    'A port that none of them has keeps nothing: the job has no targets, Prometheus shows no error, and the metrics —',
    'and every alert built on them — silently stop. kube-netlint reports a **warning** at the port value when the',
    'monitor selects Services (or Pods) in the workspace and none of them has the port; the message lists what they',
    'have, and for a ServiceMonitor whose Services share a single named port the quick fix uses it.',
    '',
    '**A selector that matches nothing.** A ServiceMonitor selects *Services* by their own `metadata.labels` (not by',
    'the pod labels in their `spec.selector`), a PodMonitor selects pod templates by their labels, each within its',
    '`namespaceSelector`. When nothing matches, the job has no targets and nothing says so. kube-netlint reports it at',
    'the selector\'s first entry, like `service-selector-unmatched`: a **warning** when those namespaces hold Services',
    '(pod templates) in the workspace, naming a Service that carries the labels only in `spec.selector` or the one',
    'whose labels come closest; **info** when they hold none (the app may be deployed from elsewhere), hold custom',
    'resources an operator may turn into Services and Pods, or are `kube-system`; nothing when the workspace holds no',
    'Service (pod template) at all.',
  ].join('\n'),
  sources: [
    'prometheus-operator pkg/apis/monitoring/v1/types.go (Endpoint: port "Name of the Service port this endpoint refers to", targetPort; NamespaceSelector), v0.80',
    'prometheus-operator pkg/apis/monitoring/v1/podmonitor_types.go (PodMetricsEndpoint: port, portNumber since v0.79 (PR #7150), targetPort), v0.80',
    'prometheus-operator pkg/prometheus/promcfg.go (relabel keep on __meta_kubernetes_endpoint_port_name, __meta_kubernetes_pod_container_port_name / _number), v0.80',
    'prometheus-operator pkg/prometheus/promcfg.go (generateServiceMonitorConfig: selector matchLabels / matchExpressions become keep / drop relabelings on __meta_kubernetes_service_label_<key> and _labelpresent_<key>; getNamespacesFromNamespaceSelector: any → every namespace, no matchNames → the monitor\'s own), v0.80',
  ],
  check(ctx) {
    const findings: Finding[] = [];
    const patches = patchLookup(ctx.model, ctx.layout);
    const patchFiles: ReadonlySet<string> = ctx.layout?.patchFiles ?? new Set();
    const skip = (w: WorkloadObject): boolean => patches.isPatch(w) || isHelmHook(w);
    let candidates: { services: ServiceObject[]; pods: WorkloadObject[] } | undefined;
    const everything = () => (candidates ??= {
      services: ctx.model.namespaces().flatMap((ns) => ctx.model.servicesIn(ns)).filter((s) => s.origin.type !== 'builtin' && !patchFiles.has(s.file)),
      pods: ctx.model.namespaces().flatMap((ns) => ctx.model.workloadsIn(ns)).filter((w) => !skip(w)),
    });
    for (const obj of ctx.model.objects) {
      const sm = serviceMonitorView(obj);
      if (sm) {
        const services = monitoredServices(ctx.model, sm).filter((s) => !patchFiles.has(s.file) && s.origin.type !== 'builtin');
        if (services.length === 0) {
          const f = patchFiles.has(obj.file) ? undefined : monitorSelectsNothing(ctx.model, obj, sm, everything(), id);
          if (f) findings.push(f);
          continue;
        }
        const pods = [...new Set(services.flatMap((s) => ctx.model.selectedWorkloads(s)))].filter((w) => !skip(w));
        sm.endpoints.forEach((e, i) => {
          if (e.port) findings.push(...servicePortName(ctx, obj, i, e.port, services));
          else if (e.targetPort) findings.push(...podPort(obj, `endpoint #${i}`, 'targetPort', e.targetPort, pods, `the Pods behind ${joinNames(services.map(describe), 3)}`));
        });
        continue;
      }
      const pm = podMonitorView(obj);
      if (!pm) continue;
      const pods = monitoredPods(ctx.model, pm, skip);
      if (pods.length === 0) {
        const f = patchFiles.has(obj.file) ? undefined : monitorSelectsNothing(ctx.model, obj, pm, everything(), id);
        if (f) findings.push(f);
        continue;
      }
      pm.endpoints.forEach((e, i) => {
        const chosen = e.port ? ['port', e.port] as const : e.portNumber ? ['portNumber', e.portNumber] as const : e.targetPort ? ['targetPort', e.targetPort] as const : undefined;
        if (chosen) findings.push(...podPort(obj, `podMetricsEndpoint #${i}`, chosen[0], chosen[1], pods, 'the Pods it selects'));
      });
    }
    return findings;
  },
};

function servicePortName({ files }: RuleContext, monitor: K8sObject, index: number, port: Located<string>, services: readonly ServiceObject[]): Finding[] {
  if (services.some((s) => s.ports.some((sp) => sp.name?.value === port.value))) return [];
  const names = [...new Set(services.flatMap((s) => s.ports.flatMap((sp) => (sp.name ? [sp.name.value] : []))))];
  const edit = names.length === 1 ? replaceScalarEdit(files, port.span, port.value, names[0]) : undefined;
  const fixes: Fix[] = edit ? [{ title: `Scrape the Service port "${names[0]}"`, edits: [edit] }] : [];
  const lacking = services.length === 1 ? `${describe(services[0])} does not have (it has ${servicePortList(services[0])})` : `none of ${joinNames(services.map(describe), 3)} has`;
  const hint = /^\d+$/.test(port.value) ? ' (port takes a Service port name, not a number)' : '';
  return [{
    ruleId: id,
    severity: 'warning',
    message: `endpoint #${index} of ${describe(monitor)} scrapes the Service port named "${port.value}"${hint}, which ${lacking}: the operator keeps only that port name, so there are no targets and no error${hint ? '' : '; use one of its port names'}`,
    span: port.span,
    object: refOf(monitor),
    related: services.map((s) => ({ span: s.span, message: `${describe(s)} has ${servicePortList(s)}` })),
    fixes,
  }];
}

function podPort(monitor: K8sObject, what: string, field: string, port: Located<number | string>, pods: readonly WorkloadObject[], whose: string): Finding[] {
  if (pods.length === 0) return [];
  const declared = typeof port.value === 'number' ? podsDeclareNumber(pods, port.value) : podsDeclareName(pods, port.value);
  if (declared) return [];
  const shown = typeof port.value === 'number' ? String(port.value) : `"${port.value}"`;
  const hint = field === 'port' && /^\d+$/.test(String(port.value)) ? ' (port takes a container port name; a number goes in portNumber)' : '';
  return [{
    ruleId: id,
    severity: 'warning',
    message: `${what} of ${describe(monitor)} scrapes ${field} ${shown}${hint}, which none of ${whose} declares (${joinNames(pods.map(describe), 3)}): Prometheus keeps only declared container ports, so there are no targets and no error${hint ? '' : '; declare that port or scrape a declared one'}`,
    span: port.span,
    object: refOf(monitor),
    related: pods.map((w) => ({ span: w.span, message: `${describe(w)} declares ${containerPorts(w)}` })),
    fixes: [],
  }];
}

function containerPorts(w: WorkloadObject): string {
  const ports = w.pod.containers.flatMap((c) => c.ports.filter((p) => p.containerPort).map((p) => (p.name ? `${p.name.value} (${p.containerPort!.value})` : String(p.containerPort!.value))));
  return ports.length ? ports.join(', ') : 'no ports';
}
