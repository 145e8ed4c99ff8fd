import type { K8sObject, ServiceObject, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import { entrySpanAt } from '../model/views/raw-fields';
import { mayCreatePods } from '../kubernetes/api-server/custom-resources';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';
import { firstFitting } from '../output/fit-message';
import { patchLookup } from './report/kustomize-patches';
import { Autoscaler, autoscalersOf } from '../kubernetes/controller-manager/autoscalers';
import { serviceSelectorMatches } from '../kubernetes/controller-manager/pod-labels';
import { candidateText, matchesInOtherNamespaces, nearestPodTemplate, otherNamespaceText } from './report/selector-candidates';
import type { PatchLookup } from './report/kustomize-patches';

const id = 'service-selector-unmatched';

/** Namespaces whose Pods the cluster's installer creates (static control-plane Pods, kube-proxy, CoreDNS). */
const INSTALLER_NAMESPACES: ReadonlySet<string> = new Set(['kube-system']);

/** `app=web, tier=frontend`. */
function selectorText(selector: Readonly<Record<string, string>>): string {
  return Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(', ');
}

/** Custom resources per namespace that an operator may turn into Pods, computed once per model. */
const operatorInputs = new WeakMap<WorkspaceModel, Map<string, K8sObject[]>>();
function customResourcesIn(model: WorkspaceModel, namespace: string): readonly K8sObject[] {
  let byNs = operatorInputs.get(model);
  if (!byNs) {
    byNs = new Map();
    for (const o of model.objects) if (o.namespace && mayCreatePods(o)) byNs.set(o.namespace, [...(byNs.get(o.namespace) ?? []), o]);
    operatorInputs.set(model, byNs);
  }
  return byNs.get(namespace) ?? [];
}

/** True when the model holds a pod template of any namespace (cached per model). */
const anyPodTemplates = new WeakMap<WorkspaceModel, boolean>();
function holdsPodTemplates(model: WorkspaceModel): boolean {
  let has = anyPodTemplates.get(model);
  if (has === undefined) anyPodTemplates.set(model, (has = model.namespaces().some((ns) => model.workloadsIn(ns).length > 0)));
  return has;
}

/**
 * A Service whose selector matches no pod template of its namespace: warning when the namespace holds other
 * workloads here, info when it holds none, holds custom resources an operator may turn into Pods, or is
 * kube-system.
 */
export const serviceSelectorUnmatched: Rule = {
  id,
  title: 'Service selector matches no pod template',
  severity: 'warning',
  explanation: [
    'A Service with a `selector` gets its endpoints from the Pods of **its own namespace** whose labels carry every',
    'selector key/value. When no Pod matches, the Service has **no endpoints**: DNS still resolves, but connections',
    'are refused or time out, and an Ingress or Gateway in front answers 503. A typo in a label, a label changed on',
    'one side only, or a Service applied to the wrong namespace all look like this, and `kubectl apply` accepts them.',
    '',
    'kube-netlint matches the selector against every pod template in the workspace (and the live cluster, when it',
    'is read) — Pods, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs, ReplicaSets, ReplicationControllers,',
    'Argo Rollouts and OpenKruise workloads — within the file\'s cluster, with the labels their controllers add to the',
    'Pods they create: a StatefulSet\'s `statefulset.kubernetes.io/pod-name` (`<name>-<ordinal>`) and',
    '`apps.kubernetes.io/pod-index` for the ordinals from `spec.ordinals.start` below start + `spec.replicas`; a Job\'s',
    '`batch.kubernetes.io/job-name` and `job-name` (its name) and, for an Indexed Job, `batch.kubernetes.io/job-completion-index`',
    'below `spec.completions`. A HorizontalPodAutoscaler targeting a StatefulSet keeps at least its `minReplicas` (default',
    '1) Pods, so their ordinals count too (not when `spec.replicas` is 0: the HPA then leaves it alone). Values nobody can know from a manifest — `pod-template-hash`, `controller-revision-hash`,',
    '`pod-template-generation`, the controller uids, the names of a CronJob\'s Jobs — count as possibly matching. The',
    'finding points at the selector\'s first',
    'entry and names the pod template whose labels come closest — or, when a pod template of **another namespace**',
    'matches the selector exactly while the Service\'s namespace holds other workloads, names it and its namespace: the',
    'Service was most likely written for (or applied to) the wrong namespace.',
    '',
    '- **warning** when the namespace holds other workloads in the workspace: the Service\'s pods are expected here;',
    '- **warning** when the selector matches only `PodTemplate` objects: a PodTemplate is stored as written and runs',
    '  no Pods (no built-in controller creates Pods from one; workloads carry their own `spec.template`);',
    '- **info** when the namespace holds no workload at all here (the pods may be deployed from elsewhere), when it',
    '  holds custom resources an operator may turn into Pods ("no known pod template"), or in `kube-system`, whose',
    '  Pods the cluster installer creates (static control-plane Pods, kube-proxy, CoreDNS);',
    '- nothing when the workspace (and the live cluster, when read) holds no pod template in any namespace: a',
    '  repository of Services alone cannot say where their pods are.',
    '',
    'Never reported for a Service without a selector or with `selector: {}` — both mean the endpoints are managed',
    'elsewhere (EndpointSlices or Endpoints written by hand or by a controller) — nor for `type: ExternalName`,',
    'whose selector is ignored. Services and workloads in kustomize patch files are partial and not judged alone.',
    '',
    'Fix: make the selector and the pod template labels (`spec.template.metadata.labels`) agree, or move the Service',
    'to the pods\' namespace.',
  ].join('\n'),
  sources: [
    'kubernetes staging/src/k8s.io/api/core/v1/types.go (ServiceSpec.Selector: "If empty or not present, the service is assumed to have an external process managing its endpoints"; ignored for ExternalName, v1.33)',
    'kubernetes pkg/controller/endpointslice (endpoints from the Pods of the Service\'s namespace matching its selector, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#services-without-selectors (v1.33)',
    'https://kubernetes.io/docs/tasks/debug/debug-application/debug-service/#does-the-service-have-any-endpoints (v1.33)',
    'https://kubernetes.io/docs/reference/labels-annotations-taints/ (labels the controllers set on Pods: statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index, pod-template-hash, controller-revision-hash, batch.kubernetes.io/job-name, batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-completion-index; v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#pod-name-label (v1.33)',
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-template-v1/ (PodTemplate: a template stored for others to copy; the built-in controllers create Pods from their own spec.template, never from a PodTemplate object, v1.33)',
  ],
  check({ model, layout }) {
    const findings: Finding[] = [];
    const patches = patchLookup(model, layout);
    let autoscalers: ReadonlyMap<string, Autoscaler> | undefined;
    const minReplicas = (w: WorkloadObject): number | undefined => (autoscalers ??= autoscalersOf(model.objects)).get(`${w.kind}/${w.namespace}/${w.name}`)?.min;
    const scaledMatch = (w: WorkloadObject, selector: Readonly<Record<string, string>>): boolean => {
      const min = minReplicas(w);
      return min !== undefined && serviceSelectorMatches(selector, w, min);
    };
    const patchFiles: ReadonlySet<string> = layout?.patchFiles ?? new Set();
    for (const svc of model.services) {
      const selector = svc.selector;
      if (!selector || Object.keys(selector).length === 0 || svc.origin.type === 'builtin' || svc.type.value === 'ExternalName') continue;
      if (patchFiles.has(svc.file)) continue;
      const selected = model.selectedWorkloads(svc);
      if (selected.some((w) => w.kind !== 'PodTemplate')) continue;
      if (selected.length > 0) {
        findings.push(templatesOnly(svc, selector, selected));
        continue;
      }
      const workloads = model.workloadsIn(svc.namespace).filter((w) => !patches.isPatch(w));
      // A StatefulSet's HPA keeps at least minReplicas Pods (ordinals up to minReplicas - 1) unless spec.replicas is 0.
      if (workloads.some((w) => w.kind === 'StatefulSet' && w.replicas?.value !== 0 && scaledMatch(w, selector))) continue;
      // A workspace without any pod template (Services only) says nothing about where the pods are.
      if (workloads.length === 0 && !holdsPodTemplates(model)) continue;
      findings.push(finding(model, svc, selector, workloads, patches));
    }
    return findings;
  },
};

/**
 * A Service whose selector matches only `PodTemplate` objects: a PodTemplate is stored as written and runs nothing
 * (no built-in controller makes Pods from one; workloads carry their own `spec.template`), so the Service has no
 * endpoints although its selector matches a pod template of the workspace.
 */
function templatesOnly(svc: ServiceObject, selector: Readonly<Record<string, string>>, templates: readonly WorkloadObject[]): Finding {
  const first = Object.keys(selector)[0];
  return {
    ruleId: id,
    severity: 'warning',
    message: firstFitting(
      `selector ${selectorText(selector)} of ${describe(svc)} matches only ${joinNames(templates.map(describe), 3)}: a PodTemplate object runs no Pods by itself, so the Service gets no endpoints and connections fail; select the labels of the workload that runs the Pods`,
      `selector ${selectorText(selector)} of ${describe(svc)} matches only PodTemplate objects, which run no Pods: the Service gets no endpoints; select the labels of the workload that runs the Pods`,
    ),
    span: entrySpanAt(svc, `spec.selector.${first}`),
    object: refOf(svc),
    related: templates.slice(0, 5).map((w) => ({ span: w.span, message: `${describe(w)} matches the selector but runs no Pods` })),
    fixes: [],
  };
}

function finding(model: WorkspaceModel, svc: ServiceObject, selector: Readonly<Record<string, string>>, workloads: readonly WorkloadObject[], patches: PatchLookup): Finding {
  const first = Object.keys(selector)[0];
  const span = entrySpanAt(svc, `spec.selector.${first}`);
  // A pod template of another namespace that matches exactly says more than the closest one of this namespace.
  // Only when the namespace holds workloads: a kustomize base's placeholder namespace (set by its overlays) holds none.
  const elsewhere = workloads.length ? matchesInOtherNamespaces(model, svc, patches.isPatch) : [];
  const nearest = elsewhere.length ? undefined : nearestPodTemplate(selector, workloads);
  const nearestText = elsewhere.length
    ? `; ${otherNamespaceText(elsewhere)} matches it (is the Service's namespace wrong?)`
    : nearest ? `; closest: ${candidateText(nearest)}` : '';
  const crs = customResourcesIn(model, svc.namespace);
  const head = `selector ${selectorText(selector)} of ${describe(svc)}`;
  let severity: Finding['severity'] = 'info';
  let message: string;
  if (crs.length) {
    message = `${head} matches no known pod template in namespace ${svc.namespace}, which holds custom resources an operator may turn into Pods (${joinNames(crs.map(describe), 3)})${nearestText}`;
  } else if (INSTALLER_NAMESPACES.has(svc.namespace)) {
    message = `${head} matches no pod template here; in ${svc.namespace} the cluster installer creates Pods (static control-plane Pods, kube-proxy, CoreDNS), else the Service has no endpoints${nearestText}`;
  } else if (elsewhere.length) {
    severity = 'warning';
    message = `${head} matches no pod template of namespace ${svc.namespace}, but ${otherNamespaceText(elsewhere)} matches it: a Service selects Pods of its own namespace only, so it gets no endpoints; is its namespace meant to be ${elsewhere[0].namespace}?`;
  } else if (workloads.length === 0) {
    message = `${head} matches no pod template here (namespace ${svc.namespace} holds none): fine if its Pods are deployed from elsewhere, else it has no endpoints and connections fail`;
  } else {
    severity = 'warning';
    // Long label selectors and names (app.kubernetes.io/name=…, instance=…) leave no room for everything. The
    // closest pod template's differences say how to fix it and are kept before the general fix; then its name,
    // then the detail of the consequence give way. The related location keeps the closest pod template.
    const noMatch = `${head} matches no pod template of namespace ${svc.namespace}${nearest ? '' : ` (it holds ${joinNames(workloads.map(describe), 3)})`}`;
    const consequence = `${noMatch}: the Service gets no endpoints, so connections fail (503 behind an Ingress)`;
    const fix = 'fix the selector or the labels';
    const short = `${noMatch}: the Service gets no endpoints; ${fix}`;
    message = nearest
      ? firstFitting(`${consequence}; ${fix}${nearestText}`, `${consequence}${nearestText}`, `${consequence}; ${fix}; closest: ${describe(nearest.workload)}`, `${consequence}; ${fix}`, short)
      : firstFitting(`${consequence}; ${fix}`, short);
  }
  return {
    ruleId: id,
    severity,
    message,
    span,
    object: refOf(svc),
    related: elsewhere.length
      ? elsewhere.slice(0, 5).map((w) => ({ span: w.span, message: `${describe(w)} of namespace ${w.namespace} matches the selector` }))
      : nearest ? [{ span: nearest.workload.span, message: `closest pod template: ${candidateText(nearest)}` }] : [],
    fixes: [],
  };
}
