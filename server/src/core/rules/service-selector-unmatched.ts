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
import type { LoadedFile } from '../load/load-file';
import { MisreadKey, misreadKeysOf, misreadNote, selectorLabelsPath, templateLabelsPath } from '../kubernetes/api-server/misread-keys';
import { fileTextOf } from '../render/source-map';

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
    'kubectl reads manifests as YAML 1.1, so an unquoted label or selector key `on`, `yes`, `y` (or `off`, `no`) is',
    'the key `true` (`false`): `on: web` is the label `true=web`, `"on": web` the label `on=web`. When the selector',
    'misses a pod template only by such a key written quoted on one side and unquoted on the other, the finding says',
    'which side writes it unquoted and where; when it is the selector, the quick fix quotes its key (the Service',
    'selects nothing as it is). When it is the pod template and the workload\'s own selector reads the key the same',
    'way, the Service is the one to change (an existing apps/v1 workload\'s `spec.selector` is immutable): the quick fix',
    'writes its key as the Pods carry it (`"true"`). A selector shown with such a key says how it is read.',
    '',
    'Fix: make the selector and the pod template labels (`spec.template.metadata.labels`) agree, or move the Service',
    'to the pods\' namespace.',
  ].join('\n'),
  sources: [
    'kubernetes staging/src/k8s.io/api/core/v1/types.go (ServiceSpec.Selector: "If empty or not present, the service is assumed to have an external process managing its endpoints"; ignored for ExternalName, v1.33)',
    'kubernetes pkg/controller/endpointslice (endpoints from the Pods of the Service\'s namespace matching its selector, v1.33)',
    'sigs.k8s.io/yaml v1.4 yaml.go (convertToJSONableObject: a bool or number map key becomes the JSON key "true", "16"); go-yaml v2 resolve.go (on, yes, y are true); checked with kubectl v1.31.9 (kubectl label --local -o json: `on: web` is the label "true": "web")',
    'https://kubernetes.io/docs/concepts/services-networking/service/#services-without-selectors (v1.33)',
    'https://kubernetes.io/docs/tasks/debug/debug-application/debug-service/#does-the-service-have-any-endpoints (v1.33)',
    'https://kubernetes.io/docs/reference/labels-annotations-taints/ (labels the controllers set on Pods: statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index, pod-template-hash, controller-revision-hash, batch.kubernetes.io/job-name, batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-completion-index; v1.33)',
    'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#pod-name-label (v1.33)',
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-template-v1/ (PodTemplate: a template stored for others to copy; the built-in controllers create Pods from their own spec.template, never from a PodTemplate object, v1.33)',
  ],
  check({ model, layout, files }) {
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
        findings.push(templatesOnly(svc, selector, selected, files));
        continue;
      }
      const workloads = model.workloadsIn(svc.namespace).filter((w) => !patches.isPatch(w));
      // A StatefulSet's HPA keeps at least minReplicas Pods (ordinals up to minReplicas - 1) unless spec.replicas is 0.
      if (workloads.some((w) => w.kind === 'StatefulSet' && w.replicas?.value !== 0 && scaledMatch(w, selector))) continue;
      // A workspace without any pod template (Services only) says nothing about where the pods are.
      if (workloads.length === 0 && !holdsPodTemplates(model)) continue;
      findings.push(finding(model, svc, selector, workloads, patches, files));
    }
    return findings;
  },
};

/**
 * A Service whose selector matches only `PodTemplate` objects: a PodTemplate is stored as written and runs nothing
 * (no built-in controller makes Pods from one; workloads carry their own `spec.template`), so the Service has no
 * endpoints although its selector matches a pod template of the workspace.
 */
function templatesOnly(svc: ServiceObject, selector: Readonly<Record<string, string>>, templates: readonly WorkloadObject[], files: Files): Finding {
  const first = Object.keys(selector)[0];
  const shown = `${selectorText(selector)}${misreadNote(misreadKeysOf(svc, 'spec.selector', Object.keys(selector), fileTextOf(files)))}`;
  return {
    ruleId: id,
    severity: 'warning',
    message: firstFitting(
      `selector ${shown} of ${describe(svc)} matches only ${joinNames(templates.map(describe), 3)}: a PodTemplate object runs no Pods by itself, so the Service gets no endpoints and connections fail; select the labels of the workload that runs the Pods`,
      `selector ${shown} of ${describe(svc)} matches only PodTemplate objects, which run no Pods: the Service gets no endpoints; select the labels of the workload that runs the Pods`,
    ),
    span: entrySpanAt(svc, `spec.selector.${first}`),
    object: refOf(svc),
    related: templates.slice(0, 5).map((w) => ({ span: w.span, message: `${describe(w)} matches the selector but runs no Pods` })),
    fixes: [],
  };
}

type Files = ReadonlyMap<string, LoadedFile> | undefined;


/**
 * A pod template whose labels carry the selector once a key one side writes as a plain YAML 1.1 word is read as
 * written (`on` is read `true`, see {@link MisreadKey}): the selector's `"on": web` and a template's `on: web` (the
 * label `true=web`), or the selector's `on: web` (`true=web`) and a template's `"on": web`.
 */
interface KeyMisread {
  readonly workload: WorkloadObject;
  /** The misread key, and whether the Service's selector or the pod template writes it. */
  readonly key: MisreadKey;
  readonly side: 'selector' | 'template';
}

/** The first of `workloads` that the selector misses only by misread keys ({@link KeyMisread}), with the first such key. */
function keyMisread(svc: ServiceObject, selector: Readonly<Record<string, string>>, workloads: readonly WorkloadObject[], files: Files): KeyMisread | undefined {
  const entries = Object.entries(selector);
  const selectorKeys = new Map(misreadKeysOf(svc, 'spec.selector', Object.keys(selector), fileTextOf(files)).map((k) => [k.read, k]));
  for (const w of workloads) {
    const labels = w.pod.labels;
    const templateKeys = misreadKeysOf(w, templateLabelsPath(w), Object.keys(labels), fileTextOf(files));
    if (selectorKeys.size === 0 && templateKeys.length === 0) continue;
    let first: KeyMisread | undefined;
    const misses = entries.filter(([k, v]) => {
      if (serviceSelectorMatches({ [k]: v }, w)) return false;
      // The entry holds once the key is read as the side that misreads it wrote it.
      const bySelector = selectorKeys.get(k);
      const byTemplate = templateKeys.find((t) => t.written === k && labels[t.read] === v);
      const misread: KeyMisread | undefined = bySelector && Object.hasOwn(labels, bySelector.written) && labels[bySelector.written] === v ? { workload: w, key: bySelector, side: 'selector' }
        : byTemplate ? { workload: w, key: byTemplate, side: 'template' } : undefined;
      first ??= misread;
      return misread === undefined;
    });
    if (misses.length === 0 && first) return first;
  }
  return undefined;
}

/** `a.yaml:21`: the file's name and the line of `span`, for a message (the file alone when its text is unknown). */
function placeOf(span: MisreadKey['span'], files: Files): string {
  const name = span.file.slice(span.file.lastIndexOf('/') + 1);
  const file = files?.get(span.file);
  return file ? `${name}:${file.lines.position(span.start).line}` : name;
}

/**
 * The finding for a Service that misses a pod template only by a misread key ({@link KeyMisread}): the selector and
 * the labels look alike, but kubectl sends `true` for the unquoted `on`. When the selector writes the key, quoting it
 * there is the fix (the quick fix: the Service selects nothing now, so nothing else can lose a match); when the
 * template writes it and the workload's own selector does not ask for the key, the template's key is to be quoted (no
 * quick fix: the workload's Pods change, which is pod-spec-invalid's to judge). When the workload's selector reads the
 * key the same way, the Service is what differs: its key is to be written as read (`"true"`, the quick fix), since
 * the selector of an existing apps/v1 workload cannot change (`field is immutable`: ValidateUpdate of
 * pkg/registry/apps/deployment/strategy.go and of replicaset/, daemonset/, ValidateStatefulSetUpdate in
 * pkg/apis/apps/validation/validation.go, kubernetes v1.31).
 */
function misreadFinding(svc: ServiceObject, selector: Readonly<Record<string, string>>, m: KeyMisread, files: Files): Finding {
  const first = Object.keys(selector)[0];
  const w = m.workload;
  const k = m.key;
  const reads = `reads as ${k.read} in YAML 1.1, as kubectl reads it`;
  const noEndpoints = 'so the Service gets no endpoints';
  const head = `selector ${selectorText(selector)} of ${describe(svc)} matches no pod template`;
  let message: string;
  let fixes: Finding['fixes'] = [];
  if (m.side === 'selector') {
    const said = `its key written ${k.written} (${placeOf(k.span, files)}) ${reads}, while ${describe(w)} labels its Pods ${k.written}=${w.pod.labels[k.written]}`;
    message = firstFitting(`${head}: ${said}, ${noEndpoints}; quote the key ("${k.written}")`, `${head}: its key written ${k.written} ${reads}, ${noEndpoints}; quote it ("${k.written}")`);
    fixes = [{ title: `Quote "${k.written}"`, edits: [{ span: k.span, newText: `"${k.written}"` }], preferred: true }];
  } else {
    const alsoSelector = w.selector && Object.hasOwn(w.selector.value.matchLabels, k.read) && misreadKeysOf(w, selectorLabelsPath(w), [k.read], fileTextOf(files)).length > 0;
    const said = `the template label key of ${describe(w)} written ${k.written} (${placeOf(k.span, files)}) ${reads}`;
    const own = alsoSelector ? svc.paths?.get(`spec.selector.${k.written}#key`) : undefined;
    if (own) {
      // The workload's selector and template agree: the Service is what differs, and the one to change (an existing
      // workload's selector may be immutable).
      const immutable = w.group === 'apps' ? ` (spec.selector of an existing ${w.kind} is immutable)` : '';
      const fix = `write the key as "${k.read}" in the Service's selector`;
      message = firstFitting(`${head}: ${said}, ${noEndpoints}; ${fix}${immutable}`, `${head}: ${said}; ${fix}${immutable}`, `${head}: ${said}; ${fix}`);
      fixes = [{ title: `Change the key "${k.written}" to "${k.read}"`, edits: [{ span: own, newText: `"${k.read}"` }], preferred: true }];
    } else {
      message = firstFitting(`${head}: ${said}, ${noEndpoints}; quote "${k.written}" in its template labels`, `${head}: ${said}; quote "${k.written}" in its template labels`, `${head}: ${said}; quote it`);
    }
  }
  return {
    ruleId: id,
    severity: 'warning',
    message,
    span: entrySpanAt(svc, `spec.selector.${first}`),
    object: refOf(svc),
    related: [{ span: k.span, message: m.side === 'selector' ? `the key written ${k.written} ${reads}` : `${describe(w)}: the key written ${k.written} ${reads}` }],
    fixes,
  };
}

function finding(model: WorkspaceModel, svc: ServiceObject, selector: Readonly<Record<string, string>>, workloads: readonly WorkloadObject[], patches: PatchLookup, files: Files): Finding {
  const first = Object.keys(selector)[0];
  const span = entrySpanAt(svc, `spec.selector.${first}`);
  const misread = workloads.length && !customResourcesIn(model, svc.namespace).length ? keyMisread(svc, selector, workloads, files) : undefined;
  if (misread) return misreadFinding(svc, selector, misread, files);
  // A pod template of another namespace that matches exactly says more than the closest one of this namespace.
  // Only when the namespace holds workloads: a kustomize base's placeholder namespace (set by its overlays) holds none.
  const elsewhere = workloads.length ? matchesInOtherNamespaces(model, svc, patches.isPatch) : [];
  const nearest = elsewhere.length ? undefined : nearestPodTemplate(selector, workloads);
  const nearestText = elsewhere.length
    ? `; ${otherNamespaceText(elsewhere)} matches it (is the Service's namespace wrong?)`
    : nearest ? `; closest: ${candidateText(nearest)}` : '';
  const crs = customResourcesIn(model, svc.namespace);
  const head = `selector ${selectorText(selector)}${misreadNote(misreadKeysOf(svc, 'spec.selector', Object.keys(selector), fileTextOf(files)))} of ${describe(svc)}`;
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
