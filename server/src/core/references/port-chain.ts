import type { Container, ContainerPort, K8sObject, ServiceObject, ServicePort, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import type { Span } from '../source/span';
import { handlerLabel, HandlerPort, handlerPorts, isUnrunHookAction } from '../model/views/container-handlers';
import { ingressBackends, IngressBackend } from '../model/views/ingress';
import { RouteBackendRef, routeBackendRefs } from '../model/views/gateway-routes';
import { networkPolicyView, PolicyPort } from '../model/views/network-policy';
import { podMonitorView, serviceMonitorView } from '../model/views/monitors';
import { entrySpanAt } from '../model/views/raw-fields';
import { findNamedPort, findNumberedPort, servingContainers } from '../kubernetes/controller-manager/find-port';
import { findProbePort } from '../kubernetes/node/probe-ports';
import { matchBackendPort } from '../kubernetes/ingress/backend-port';
import { podSelectorMatches } from '../kubernetes/controller-manager/pod-labels';
import { podsOfRule } from '../kubernetes/cni/network-policy-ports';
import { monitoredPods, monitoredServices } from '../kubernetes/prometheus-operator/monitor-targets';
import { candidateText, matchesInOtherNamespaces, nearestPodTemplate } from '../rules/report/selector-candidates';

/**
 * The chain a port belongs to, for hovers: what names it (Ingress backends, Gateway API routes, monitors) →
 * the Service port → its targetPort → the containerPort on each selected pod template → the probes and
 * NetworkPolicies that use that containerPort. Built on demand from the model, for the field under the
 * cursor; the same Kubernetes semantics as the rules (FindPort, the kubelet's probe lookup, ingress-nginx,
 * Gateway API, CNI named ports, Prometheus Operator relabelling).
 */
export interface ChainStep {
  /** Markdown-free text: `port 80 "http" of Service shop/web`. */
  readonly text: string;
  readonly span: Span;
  /** Nesting: 0 for what names the port, 1 for the Service port, 2 for container ports, 3 for what uses them. */
  readonly depth: number;
  /** The step the cursor is on. */
  readonly here?: boolean;
}

export interface PortChain {
  /** The field the chain was built for (the hover's range). */
  readonly anchor: Span;
  readonly steps: readonly ChainStep[];
}

type Step = Omit<ChainStep, 'depth'>;

const within = (span: Span | undefined, file: string, offset: number): span is Span => !!span && span.file === file && span.start <= offset && offset <= span.end;

/**
 * The chain of the port field at `offset` of `obj` (a Service port or selector entry, a containerPort, a probe
 * port, an Ingress backend, a route backendRef, a NetworkPolicy port, a monitor endpoint), or undefined when
 * the cursor is on no such field.
 */
export function portChainAt(model: WorkspaceModel, obj: K8sObject, offset: number): PortChain | undefined {
  const file = obj.file;
  if (obj.category === 'service') {
    for (const sp of obj.ports) {
      const spans = [sp.port?.span, sp.targetPort?.span, sp.name?.span, sp.nodePort?.span];
      const hit = spans.find((s) => within(s, file, offset));
      if (hit) return { anchor: hit, steps: servicePortChain(model, obj, sp, 'service') };
    }
    for (const key of Object.keys(obj.selector ?? {})) {
      const entry = entrySpanAt(obj, `spec.selector.${key}`);
      if (entry !== obj.span && within(entry, file, offset)) return selectorChain(model, obj, entry);
    }
    return undefined;
  }
  if (obj.category === 'workload') {
    for (const c of obj.pod.containers) {
      for (const p of c.ports) {
        const hit = [p.containerPort?.span, p.name?.span].find((s) => within(s, file, offset));
        if (hit) return { anchor: hit, steps: containerPortChain(model, obj, c, p) };
      }
    }
    // A hook's tcpSocket is never run (the kubelet fails it), so its port leads nowhere.
    const h = handlerPorts(obj).find((x) => !isUnrunHookAction(x) && within(x.port.span, file, offset));
    if (h) return { anchor: h.port.span, steps: probeChain(model, obj, h) };
    return undefined;
  }
  for (const b of ingressBackends(obj)) {
    const hit = [b.port?.span, b.service.span].find((s) => within(s, file, offset));
    if (hit) return { anchor: hit, steps: ingressChain(model, obj, b) };
  }
  for (const r of routeBackendRefs(obj)) {
    const hit = [r.port?.span, r.name.span].find((s) => within(s, file, offset));
    if (hit) return { anchor: hit, steps: routeChain(model, obj, r) };
  }
  const policy = networkPolicyView(obj);
  if (policy) {
    for (const rule of policy.rules) {
      for (const p of rule.ports) {
        if (!p.port || !within(p.port.span, file, offset)) continue;
        const pods = podsOfRule(model, obj, policy, rule, () => false) ?? [];
        const head: Step = { text: `${rule.direction} rule #${rule.index} of ${describe(obj)}: port ${portValue(p.port.value)}/${p.protocol.toUpperCase()}`, span: p.port.span, here: true };
        const matched = pods.flatMap((w) => allPorts(w).filter(({ port }) => policyMatches(p, port)).map(({ container, port }) => ({ w, container, port })));
        return {
          anchor: p.port.span,
          steps: [{ ...head, depth: 0 }, ...(matched.length ? matched.map(({ w, container, port }) => ({ text: containerPortText(w, container, port), span: port.containerPort?.span ?? port.span, depth: 2 })) : [{ text: pods.length ? 'no port of the pods it applies to' : 'no pod here it applies to', span: p.port.span, depth: 2 }])],
        };
      }
    }
    return undefined;
  }
  return monitorChain(model, obj, offset);
}

function servicePortChain(model: WorkspaceModel, svc: ServiceObject, sp: ServicePort, here: 'service' | 'referrer'): ChainStep[] {
  const steps: ChainStep[] = referrersOf(model, svc, sp).map((s) => ({ ...s, depth: 0 }));
  steps.push({ text: `${servicePortText(sp)} of ${describe(svc)}${targetText(sp)}`, span: sp.port?.span ?? sp.span, depth: 1, ...(here === 'service' ? { here: true } : {}) });
  append(steps, backendsOf(model, svc, sp));
  return steps;
}

/** The container ports a Service port reaches on each selected pod template, and what uses them. */
function backendsOf(model: WorkspaceModel, svc: ServiceObject, sp: ServicePort, usersOf: PortUsers = portUsers(model)): ChainStep[] {
  const out: ChainStep[] = [];
  const target = sp.targetPort?.value ?? sp.port?.value;
  const protocol = sp.protocol.value.toUpperCase();
  const selected = model.selectedWorkloads(svc);
  if (selected.length === 0) {
    out.push({ text: svc.selector && Object.keys(svc.selector).length ? 'no pod template here matches the selector' : 'no selector: endpoints are managed elsewhere', span: svc.span, depth: 2 });
    return out;
  }
  for (const w of selected) {
    const found = typeof target === 'string' ? findNamedPort(w, target, protocol) : target !== undefined ? findNumberedPort(w, target, protocol) : undefined;
    if (!found) {
      out.push({ text: `${describe(w)}: ${typeof target === 'string' ? `no port named "${target}"/${protocol}` : `port ${target}/${protocol} not declared`}`, span: w.span, depth: 2 });
      continue;
    }
    out.push({ text: containerPortText(w, found.container, found.port), span: found.port.containerPort?.span ?? found.port.span, depth: 2 });
    append(out, usersOf(w, found.container, found.port));
  }
  return out;
}

/** Ingress backends, route backendRefs and ServiceMonitor endpoints that name this Service port. */
function referrersOf(model: WorkspaceModel, svc: ServiceObject, sp: ServicePort): Step[] {
  const out: Step[] = [];
  for (const o of model.objects) {
    if (o.category !== 'other') continue;
    if (o.namespace === svc.namespace) {
      for (const b of ingressBackends(o)) {
        if (b.service.value !== svc.name || b.port === undefined) continue;
        const m = matchBackendPort(svc, b.port.value);
        if (m.kind !== 'none' && m.servicePort === sp) out.push({ text: `${b.label} of ${describe(o)}${m.kind === 'targetPort' ? ' (by targetPort: ingress-nginx only)' : ''}`, span: b.port.span });
      }
    }
    for (const r of routeBackendRefs(o)) {
      if (r.namespace === svc.namespace && r.name.value === svc.name && r.port?.value === sp.port?.value && r.port) out.push({ text: `${r.label} of ${describe(o)}`, span: r.port.span });
    }
    const sm = serviceMonitorView(o);
    if (sm && sp.name && sm.endpoints.some((e) => e.port?.value === sp.name!.value) && monitoredServices(model, sm).includes(svc)) {
      for (const e of sm.endpoints) if (e.port?.value === sp.name.value) out.push({ text: `${e.path.replace(/^spec\.endpoints\.(\d+)$/, 'endpoint #$1')} of ${describe(o)}`, span: e.port.span });
    }
  }
  return out;
}

/** What uses one container port: probes of its container, NetworkPolicy ingress entries and PodMonitor endpoints. */
type PortUsers = (w: WorkloadObject, container: Container, port: ContainerPort) => ChainStep[];

/**
 * The {@link PortUsers} of one chain. The model's NetworkPolicies and PodMonitors (and the pods each PodMonitor
 * selects) are found once, on first use, not once per pod template: a Service port selecting 15,000 templates
 * scanned every object 15,000 times (minutes of hover).
 */
function portUsers(model: WorkspaceModel): PortUsers {
  let watchers: { o: K8sObject; policy?: NonNullable<ReturnType<typeof networkPolicyView>>; podMonitor?: { view: NonNullable<ReturnType<typeof podMonitorView>>; pods: ReadonlySet<WorkloadObject> } }[] | undefined;
  const find = (): NonNullable<typeof watchers> => {
    const out: NonNullable<typeof watchers> = [];
    for (const o of model.objects) {
      const policy = networkPolicyView(o);
      if (policy) out.push({ o, policy });
      const pm = podMonitorView(o);
      if (pm) out.push({ o, podMonitor: { view: pm, pods: new Set(monitoredPods(model, pm, () => false)) } });
    }
    return out;
  };
  return (w, container, port) => {
    const out: ChainStep[] = [];
    for (const h of handlerPorts(w)) {
      if (h.container !== container || isUnrunHookAction(h)) continue;
      if (h.port.value === port.containerPort?.value || (typeof h.port.value === 'string' && h.port.value === port.name?.value)) {
        out.push({ text: `${handlerLabel(h)} of container "${container.name}"`, span: h.port.span, depth: 3 });
      }
    }
    watchers ??= find();
    for (const { o, policy, podMonitor } of watchers) {
      if (policy && o.namespace === w.namespace && podSelectorMatches(policy.podSelector, w)) {
        for (const rule of policy.rules) {
          if (rule.direction !== 'ingress') continue;
          for (const p of rule.ports) if (p.port && policyMatches(p, port)) out.push({ text: `allowed by ingress rule #${rule.index} of ${describe(o)}`, span: p.port.span, depth: 3 });
        }
      }
      if (podMonitor?.pods.has(w)) {
        for (const e of podMonitor.view.endpoints) {
          const chosen = e.port ?? e.portNumber ?? e.targetPort;
          if (chosen && (chosen.value === port.name?.value || chosen.value === port.containerPort?.value)) out.push({ text: `scraped by ${e.path.replace(/^spec\.podMetricsEndpoints\.(\d+)$/, 'podMetricsEndpoint #$1')} of ${describe(o)}`, span: chosen.span, depth: 3 });
        }
      }
    }
    return out;
  };
}

function containerPortChain(model: WorkspaceModel, w: WorkloadObject, container: Container, port: ContainerPort): ChainStep[] {
  const steps: ChainStep[] = [];
  const serving = servingContainers(w).includes(container);
  for (const svc of serving ? model.selectingServices(w) : []) {
    for (const sp of svc.ports) {
      const target = sp.targetPort?.value ?? sp.port?.value;
      const protocol = sp.protocol.value.toUpperCase();
      const reaches = typeof target === 'string' ? findNamedPort(w, target, protocol)?.port === port : target === port.containerPort?.value && protocol === port.protocol.value.toUpperCase();
      if (!reaches) continue;
      for (const s of referrersOf(model, svc, sp)) steps.push({ ...s, depth: 0 });
      steps.push({ text: `${servicePortText(sp)} of ${describe(svc)}${targetText(sp)}`, span: sp.port?.span ?? sp.span, depth: 1 });
    }
  }
  steps.push({ text: containerPortText(w, container, port), span: port.containerPort?.span ?? port.span, depth: 2, here: true });
  append(steps, portUsers(model)(w, container, port));
  return steps;
}

function probeChain(model: WorkspaceModel, w: WorkloadObject, h: HandlerPort): ChainStep[] {
  const value = h.port.value;
  const port = typeof value === 'string' ? findProbePort(h.container, value) : h.container.ports.find((p) => p.containerPort?.value === value);
  const head: ChainStep = { text: `${handlerLabel(h)} of container "${h.container.name}": port ${portValue(value)}`, span: h.port.span, depth: 3, here: true };
  if (!port) return [head, { text: typeof value === 'string' ? `container "${h.container.name}" declares no port named "${value}"` : `container "${h.container.name}" does not declare port ${value}`, span: h.container.nameSpan ?? h.container.span, depth: 2 }];
  return [...containerPortChain(model, w, h.container, port).map((s) => ({ ...s, here: false })).filter((s) => s.span !== h.port.span), head];
}

function ingressChain(model: WorkspaceModel, ing: K8sObject, b: IngressBackend): ChainStep[] {
  const head: ChainStep = { text: `${b.label} of ${describe(ing)}: Service ${b.service.value}${b.port ? `, port ${portValue(b.port.value)}` : ''}`, span: b.port?.span ?? b.service.span, depth: 0, here: true };
  const svc = model.servicesIn(ing.namespace).find((s) => s.name === b.service.value);
  if (!svc) return [head, { text: `no Service ${ing.namespace}/${b.service.value} here`, span: b.service.span, depth: 1 }];
  const m = b.port ? matchBackendPort(svc, b.port.value) : { kind: 'none' as const };
  if (m.kind === 'none') return [head, { text: `${describe(svc)} has no such port`, span: svc.span, depth: 1 }];
  return [head, ...servicePortChain(model, svc, m.servicePort, 'referrer').filter((s) => s.depth > 0)];
}

function routeChain(model: WorkspaceModel, route: K8sObject, r: RouteBackendRef): ChainStep[] {
  const head: ChainStep = { text: `${r.label} of ${describe(route)}: Service ${r.namespace}/${r.name.value}${r.port ? `, port ${r.port.value}` : ', no port'}`, span: r.port?.span ?? r.name.span, depth: 0, here: true };
  const svc = model.servicesIn(r.namespace).find((s) => s.name === r.name.value);
  if (!svc) return [head, { text: `no Service ${r.namespace}/${r.name.value} here`, span: r.name.span, depth: 1 }];
  const sp = svc.ports.find((p) => p.port?.value === r.port?.value);
  if (!sp) return [head, { text: `${describe(svc)} has no port ${r.port?.value ?? '(none given)'}`, span: svc.span, depth: 1 }];
  return [head, ...servicePortChain(model, svc, sp, 'referrer').filter((s) => s.depth > 0)];
}

function monitorChain(model: WorkspaceModel, obj: K8sObject, offset: number): PortChain | undefined {
  const sm = serviceMonitorView(obj);
  if (sm) {
    const users = portUsers(model);
    for (const [i, e] of sm.endpoints.entries()) {
      const hit = [e.port?.span, e.targetPort?.span].find((s) => within(s, obj.file, offset));
      if (!hit) continue;
      const head: ChainStep = { text: `endpoint #${i} of ${describe(obj)}: ${e.port ? `Service port "${e.port.value}"` : `targetPort ${portValue(e.targetPort!.value)}`}`, span: hit, depth: 0, here: true };
      const services = monitoredServices(model, sm);
      const steps: ChainStep[] = [head];
      for (const svc of services) {
        if (e.port) {
          for (const sp of svc.ports) {
            if (sp.name?.value !== e.port.value) continue;
            steps.push({ text: `${servicePortText(sp)} of ${describe(svc)}${targetText(sp)}`, span: sp.port?.span ?? sp.span, depth: 1 });
            append(steps, backendsOf(model, svc, sp, users));
          }
        } else if (e.targetPort) {
          for (const w of model.selectedWorkloads(svc)) {
            for (const { container, port } of allPorts(w)) if (port.name?.value === e.targetPort.value || port.containerPort?.value === e.targetPort.value) steps.push({ text: containerPortText(w, container, port), span: port.containerPort?.span ?? port.span, depth: 2 });
          }
        }
      }
      if (steps.length === 1) steps.push({ text: services.length ? 'nothing it selects has this port' : 'selects no Service here', span: hit, depth: 1 });
      return { anchor: hit, steps };
    }
    return undefined;
  }
  const pm = podMonitorView(obj);
  if (!pm) return undefined;
  for (const [i, e] of pm.endpoints.entries()) {
    const chosen = e.port ?? e.portNumber ?? e.targetPort;
    if (!chosen || !within(chosen.span, obj.file, offset)) continue;
    const steps: ChainStep[] = [{ text: `podMetricsEndpoint #${i} of ${describe(obj)}: port ${portValue(chosen.value)}`, span: chosen.span, depth: 0, here: true }];
    for (const w of monitoredPods(model, pm, () => false)) {
      for (const { container, port } of allPorts(w)) if (port.name?.value === chosen.value || port.containerPort?.value === chosen.value) steps.push({ text: containerPortText(w, container, port), span: port.containerPort?.span ?? port.span, depth: 2 });
    }
    if (steps.length === 1) steps.push({ text: 'no selected pod here declares it', span: chosen.span, depth: 2 });
    return { anchor: chosen.span, steps };
  }
  return undefined;
}

/** What a Service selector needs, the pod templates it matches, or the one that comes closest. */
function selectorChain(model: WorkspaceModel, svc: ServiceObject, anchor: Span): PortChain {
  const selector = svc.selector ?? {};
  const needs = Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(', ');
  const steps: ChainStep[] = [{ text: `selector of ${describe(svc)} needs pod labels ${needs} in namespace ${svc.namespace}`, span: anchor, depth: 1, here: true }];
  const selected = model.selectedWorkloads(svc);
  for (const w of selected) steps.push({ text: `matches ${describe(w)}`, span: w.span, depth: 2 });
  const elsewhere = selected.length === 0 ? matchesInOtherNamespaces(model, svc) : [];
  for (const w of elsewhere.slice(0, 5)) steps.push({ text: `matches no pod template of namespace ${svc.namespace}; ${describe(w)} of namespace ${w.namespace} matches (a Service selects only its own namespace's Pods)`, span: w.span, depth: 2 });
  if (selected.length === 0 && elsewhere.length === 0) {
    const nearest = nearestPodTemplate(selector, model.workloadsIn(svc.namespace));
    steps.push(nearest
      ? { text: `matches no pod template; closest: ${candidateText(nearest)}`, span: nearest.workload.span, depth: 2 }
      : { text: 'matches no pod template here', span: anchor, depth: 2 });
  }
  return { anchor, steps };
}

function policyMatches(p: PolicyPort, port: ContainerPort): boolean {
  if (!p.port) return p.protocol.toUpperCase() === port.protocol.value.toUpperCase();
  if (p.protocol.toUpperCase() !== port.protocol.value.toUpperCase()) return false;
  if (typeof p.port.value === 'string') return p.port.value === port.name?.value;
  const n = port.containerPort?.value;
  return n !== undefined && n >= p.port.value && n <= (p.endPort?.value ?? p.port.value);
}

function allPorts(w: WorkloadObject): { container: Container; port: ContainerPort }[] {
  return w.pod.containers.flatMap((container) => container.ports.filter((p) => p.containerPort).map((port) => ({ container, port })));
}

function containerPortText(w: WorkloadObject, c: Container, p: ContainerPort): string {
  return `containerPort ${p.containerPort?.value ?? '?'}${p.name ? ` "${p.name.value}"` : ''}/${p.protocol.value.toUpperCase()} of ${describe(w)} (container ${c.name})`;
}

function servicePortText(sp: ServicePort): string {
  return `port ${sp.port?.value ?? '?'}${sp.name ? ` "${sp.name.value}"` : ''}/${sp.protocol.value.toUpperCase()}`;
}

function targetText(sp: ServicePort): string {
  const t = sp.targetPort?.value;
  return t === undefined ? '' : ` → targetPort ${portValue(t)}`;
}

function portValue(v: number | string): string {
  return typeof v === 'number' ? String(v) : `"${v}"`;
}

/** Appends `items` to `out` one by one: a Service selecting 100,000s of pod templates gives more steps than a call takes arguments (`push(...items)`). */
function append(out: ChainStep[], items: readonly ChainStep[]): void {
  for (const item of items) out.push(item);
}
