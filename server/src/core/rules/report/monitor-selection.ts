import type { K8sObject, ServiceObject, WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { Span } from '../../source/span';
import { LabelSelector, selectorText } from '../../model/views/label-selector';
import type { MonitorView } from '../../model/views/monitors';
import { entrySpanAt, rawAt, spanAt } from '../../model/views/raw-fields';
import { monitorNamespaces } from '../../kubernetes/prometheus-operator/monitor-targets';
import { mayCreatePods } from '../../kubernetes/api-server/custom-resources';
import type { Finding } from '../rule';
import { refOf } from '../rule';
import { joinNames } from './collisions';
import { candidateText, nearestPodTemplate } from './selector-candidates';

/** Namespaces whose Services and Pods the cluster installer (or the Prometheus Operator itself: the kubelet Service) creates. */
const INSTALLER_NAMESPACES: ReadonlySet<string> = new Set(['kube-system']);

/**
 * The finding for a ServiceMonitor whose selector matches no Service (by the Services' own `metadata.labels`) or
 * a PodMonitor whose selector matches no pod template, within the namespaces of its `namespaceSelector`. The
 * operator turns the selector into relabel `keep` rules on `__meta_kubernetes_service_label_<key>` (pod labels for a
 * PodMonitor), so nothing matching means a scrape job without targets and no error anywhere.
 *
 * Severity as `service-selector-unmatched` has it: warning when those namespaces hold Services (pod templates)
 * here; info when they hold none (the monitored app may be deployed from elsewhere), hold custom resources an
 * operator may turn into Services and Pods, or are kube-system. Undefined when the monitor selects something, or
 * when the model holds no Service (pod template) at all: a repository of monitors alone says nothing.
 * `candidates` are the Services (ServiceMonitor) or pod templates (PodMonitor) of the whole model, partial objects
 * (kustomize patches, Helm hooks) left out.
 */
export function monitorSelectsNothing(
  model: WorkspaceModel,
  monitor: K8sObject,
  view: MonitorView<unknown>,
  candidates: { readonly services: readonly ServiceObject[]; readonly pods: readonly WorkloadObject[] },
  ruleId: string,
): Finding | undefined {
  const forServices = view.kind === 'ServiceMonitor';
  const all: readonly (ServiceObject | WorkloadObject)[] = forServices ? candidates.services : candidates.pods;
  if (all.length === 0) return undefined;
  const namespaces = new Set(monitorNamespaces(model, view));
  const held = all.filter((o) => namespaces.has(o.namespace));
  const what = forServices ? 'Service' : 'pod template';
  const where = view.namespaces.any ? 'any namespace' : `namespace${namespaces.size > 1 ? 's' : ''} ${[...namespaces].join(', ')}`;
  const head = `selector ${selectorText(view.selector) || '{}'} of ${describe(monitor)}`;
  const crs = model.objects.filter((o) => namespaces.has(o.namespace) && mayCreatePods(o));
  const hint = forServices ? serviceHint(view.selector, held as ServiceObject[]) : podHint(view.selector, held as WorkloadObject[]);
  let severity: Finding['severity'] = 'info';
  let message: string;
  if (held.length === 0) {
    message = `${head} matches no ${what} here (${where} holds none): fine if it is deployed from elsewhere, else Prometheus gets no targets from it`;
  } else if (crs.length || [...namespaces].some((ns) => INSTALLER_NAMESPACES.has(ns))) {
    message = `${head} matches no known ${what} of ${where}${crs.length ? `, which holds custom resources an operator may turn into ${forServices ? 'Services' : 'Pods'} (${joinNames(crs.map(describe), 3)})` : ' (the installer creates some there)'}: else Prometheus gets no targets from it${hint ? `; ${hint.text}` : ''}`;
  } else {
    severity = 'warning';
    message = `${head} matches no ${what} of ${where}${forServices ? ' (it matches Services\' own metadata.labels)' : ''}: Prometheus gets no targets from it and reports no error${hint ? `; ${hint.text}` : ''}`;
  }
  return {
    ruleId,
    severity,
    message,
    span: selectorSpan(monitor),
    object: refOf(monitor),
    related: hint ? [{ span: hint.span, message: hint.related }] : [],
    fixes: [],
  };
}

/** The selector's first entry (a matchLabels pair or the first matchExpressions item), else `spec.selector`. */
function selectorSpan(monitor: K8sObject): Span {
  const matchLabels = rawAt(monitor.raw, 'spec.selector.matchLabels');
  const first = matchLabels && typeof matchLabels === 'object' ? Object.keys(matchLabels)[0] : undefined;
  if (first !== undefined) return entrySpanAt(monitor, `spec.selector.matchLabels.${first}`);
  return spanAt(monitor, Array.isArray(rawAt(monitor.raw, 'spec.selector.matchExpressions')) ? 'spec.selector.matchExpressions.0' : 'spec.selector');
}

interface Hint {
  readonly text: string;
  readonly related: string;
  readonly span: Span;
}

/**
 * A Service that carries the selector's labels in `spec.selector` but not in `metadata.labels` (the classic
 * mix-up: a ServiceMonitor selects Services, not Pods), else the Service whose labels come closest.
 */
function serviceHint(selector: LabelSelector, services: readonly ServiceObject[]): Hint | undefined {
  const wanted = Object.entries(selector.matchLabels);
  if (wanted.length === 0) return undefined;
  const mixed = services.find((s) => s.selector && wanted.every(([k, v]) => s.selector![k] === v));
  if (mixed) {
    return {
      text: `${describe(mixed)} has ${wanted.map(([k, v]) => `${k}=${v}`).join(', ')} only in spec.selector: add ${wanted.length > 1 ? 'them' : 'it'} to its metadata.labels`,
      related: `${describe(mixed)}: ${wanted.map(([k, v]) => `${k}=${v}`).join(', ')} in spec.selector, not in metadata.labels`,
      span: mixed.span,
    };
  }
  // The Service whose own labels match the most entries (then: have the most of the keys); ties to the first.
  let best: { s: ServiceObject; score: number } | undefined;
  for (const svc of services) {
    const score = wanted.filter(([k, v]) => svc.labels[k] === v).length * 1000 + wanted.filter(([k]) => Object.hasOwn(svc.labels, k)).length;
    if (score > 0 && (!best || score > best.score)) best = { s: svc, score };
  }
  if (!best) return undefined;
  const service = best.s;
  const differences = wanted.filter(([k, v]) => service.labels[k] !== v).map(([k]) => (Object.hasOwn(service.labels, k) ? `${k}=${service.labels[k]}` : `no ${k}`));
  const shown = `${describe(service)} (${differences.join(', ')})`;
  return { text: `closest: ${shown}`, related: `closest Service: ${shown}`, span: service.span };
}

function podHint(selector: LabelSelector, pods: readonly WorkloadObject[]): Hint | undefined {
  const nearest = Object.keys(selector.matchLabels).length ? nearestPodTemplate(selector.matchLabels, pods) : undefined;
  return nearest ? { text: `closest: ${candidateText(nearest)}`, related: `closest pod template: ${candidateText(nearest)}`, span: nearest.workload.span } : undefined;
}
