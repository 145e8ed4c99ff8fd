import type { LoadedFile } from '../../load/load-file';
import { describe, isBuiltinWorkload, K8sObject, ServiceObject, WorkloadObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { RepoLayout } from '../../repo/layout';
import type { Fix } from '../../rules/rule';
import type { Span } from '../../source/span';
import type { FileText } from '../../source/string-number';
import { fileTextOf } from '../../render/source-map';
import { isIngress } from '../../model/views/ingress';
import { isNetworkPolicy } from '../../model/views/network-policy';
import { ingressBackendProblems } from './ingress-spec';
import { networkPolicyPortProblems, networkPolicySelectorProblems } from './network-policy-spec';
import { containerPortProblems, containerRestartPolicyProblems, decodeProblems, handlerPortProblems, handlerTypeProblems, httpSchemeProblems, initContainerHandlerProblems, type ManifestRole, PodSpecProblem, probeSettingProblems, type SelectingByKey, selectorProblems } from './pod-spec';
import { schedulingProblems } from './pod-scheduling';
import { checkServiceShapes } from './service-shape';
import type { SelectedByKey } from './string-maps';
import { checkServiceFields, checkServicePort, SERVICE, SpecProblem, WrittenText } from './service-spec';
import { apiRejects, nodePortsOutsideRange } from './validation';

/*
 * Objects the API server rejects on their own fields, and the one rule that follows from it: an object that
 * `kubectl apply` cannot create (a decoder error or a ValidateX error in it: the API server stores nothing of an
 * object with one invalid field) never exists in the cluster, so it takes part in no check against other objects.
 * Its own rejection findings (pod-spec-invalid, service-spec-invalid, ingress-spec-invalid,
 * networkpolicy-spec-invalid, nodeport-out-of-range) are all it gets; every other finding that lies in it, or whose
 * related locations all lie in rejected objects, is left out (core/engine/run-rules.ts), in either role: it neither
 * collides with other objects nor is reported for what it would do to them, and the other objects' checks that would
 * name only it (a Service selecting it, a port it would take) say nothing about it either, until it is fixed and
 * accepted. A finding that also names an accepted object stays, naming only the accepted ones (the other rules run
 * over the model without the rejected objects: core/model/model-without.ts): an accepted collision must never be
 * lost because a rejected object shares the port.
 * Warnings the API server only prints (the object is stored) do not count. Live cluster objects were accepted.
 * Sources: kubernetes pkg/registry/rest/create.go (BeforeCreate: any validation error fails the whole create) and
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (a decode error answers 400 before anything is stored), v1.33.
 */

/** Kinds whose `spec.replicas` the API server validates (elsewhere it is an unknown field that is dropped). */
const REPLICA_KINDS: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** The same (protocol, port) twice: `spec.ports[i]: Duplicate value: core.ServicePort{...}` on the second. */
function duplicatePorts(svc: ServiceObject): SpecProblem[] {
  const seen = new Map<string, Span>();
  const out: SpecProblem[] = [];
  for (const sp of svc.ports) {
    if (!sp.port) continue;
    const key = `${sp.protocol.value}/${sp.port.value}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, sp.port.span);
      continue;
    }
    out.push({
      span: sp.port.span,
      message: `${apiRejects(`port ${sp.port.value}/${sp.protocol.value} is listed twice in this Service`, SERVICE, `spec.ports[${sp.index}]`, `Duplicate value: core.ServicePort{Protocol:"${sp.protocol.value}", Port:${sp.port.value}, …}`)} (the same number with another protocol is allowed)`,
      related: [{ span: first, message: `first use of port ${sp.port.value}/${sp.protocol.value}` }],
    });
  }
  return out;
}

/**
 * `problems` remembering, per object and `role` (`partial`, or a workload's ManifestRole), the objects that have none
 * (most have none): the verdict ({@link rejectionReason}) and the rule reporting the problems both ask for every
 * object's, and the second asks of a clean object costs nothing. Whether there are problems depends only on the
 * (immutable) object and `role`: the file text and the fix makers passed besides shape only the messages and fixes of
 * the problems found.
 */
function rememberingClean<O extends object, K, P, R extends unknown[]>(problems: (obj: O, role: K, ...rest: R) => P[]): (obj: O, role: K, ...rest: R) => P[] {
  const clean = new Map<K, WeakSet<O>>();
  return (obj, role, ...rest) => {
    let known = clean.get(role);
    if (!known) clean.set(role, (known = new WeakSet<O>()));
    if (known.has(obj)) return [];
    const found = problems(obj, role, ...rest);
    if (found.length === 0) known.add(obj);
    return found;
  };
}

/**
 * Everything the API server's decoder or ValidateService rejects (or only warns about: `warning`) in a Service
 * written in a file, messages with the {@link SERVICE} placeholder. `partial`: a kustomize patch (required fields may be missing).
 */
export const serviceSpecProblems: (svc: ServiceObject, partial: boolean, written?: WrittenText, source?: FileText, selected?: SelectedByKey) => SpecProblem[] = rememberingClean(
  (svc: ServiceObject, partial: boolean, written?: WrittenText, source?: FileText, selected?: SelectedByKey): SpecProblem[] => {
    const names = new Map<string, Span>();
    return [...checkServiceShapes(svc, written, source, selected), ...checkServiceFields(svc, partial, written, source), ...svc.ports.flatMap((sp) => checkServicePort(svc, sp, names, partial, written, source)), ...duplicatePorts(svc)];
  },
);

/**
 * Everything the API server rejects (or warns about) in the networking fields of a pod template written in a file:
 * decoder errors, validateContainerPorts, probe and hook ports, handlers and httpGet schemes, probes and hooks on plain
 * init containers, containers' restartPolicy, affinity weights and topology spread constraints (pod-scheduling.ts), the
 * selector (missing, empty, refused or not matching the template), a negative `spec.replicas`. `role`: how the file
 * reaches the API server (a kustomize patch or resource may lack what kustomize adds). `unquote` makes the quick fix
 * that removes quotes from a number (none when not given). None for a custom resource's pod template (an Argo
 * Rollout, an OpenKruise CloneSet: {@link isBuiltinWorkload}): the API server validates it against its CRD's schema,
 * not as a pod template, and the Pods its controller creates are refused, not the object itself.
 */
export const podTemplateProblems: (w: WorkloadObject, role: ManifestRole, written?: WrittenText, source?: FileText, unquote?: (span: Span, value: string, title: string) => Fix[], selecting?: SelectingByKey) => PodSpecProblem[] = rememberingClean(
  (w: WorkloadObject, role: ManifestRole, written?: WrittenText, source?: FileText, unquote: (span: Span, value: string, title: string) => Fix[] = () => [], selecting?: SelectingByKey): PodSpecProblem[] => {
    if (!isBuiltinWorkload(w)) return [];
    const partial = role === 'patch';
    const problems: PodSpecProblem[] = [...decodeProblems(w, written, source, selecting), ...containerPortProblems(w, partial), ...handlerPortProblems(w, unquote, source), ...handlerTypeProblems(w, partial), ...probeSettingProblems(w), ...initContainerHandlerProblems(w, partial), ...httpSchemeProblems(w), ...containerRestartPolicyProblems(w), ...schedulingProblems(w, partial, source), ...selectorProblems(w, role, source)];
    const replicas = REPLICA_KINDS.has(w.kind) ? w.replicas : undefined;
    if (replicas && replicas.value < 0) {
      problems.push({ span: replicas.span, message: apiRejects(`replicas ${replicas.value} is negative`, describe(w), 'spec.replicas', `Invalid value: ${replicas.value}: must be greater than or equal to 0`) });
    }
    return problems;
  },
);

/**
 * ingressBackendProblems (see ingress-spec.ts) of a networking.k8s.io/v1 Ingress, remembering the Ingresses that have
 * none, as {@link serviceSpecProblems} does. `partial`: a kustomize patch.
 */
export const ingressProblems: (ingress: K8sObject, partial: boolean, written?: WrittenText, source?: FileText) => SpecProblem[] = rememberingClean(
  (ingress: K8sObject, partial: boolean, written?: WrittenText, source?: FileText): SpecProblem[] => ingressBackendProblems(ingress, written, partial, source),
);

/**
 * networkPolicySelectorProblems and networkPolicyPortProblems (see network-policy-spec.ts) of a NetworkPolicy,
 * remembering the policies that have none.
 */
export const networkPolicyProblems: (policy: K8sObject, written?: WrittenText, source?: FileText, selected?: SelectedByKey) => SpecProblem[] = (() => {
  const problems = rememberingClean((policy: K8sObject, _partial: boolean, written?: WrittenText, source?: FileText, selected?: SelectedByKey): SpecProblem[] => [...networkPolicySelectorProblems(policy, written, source, selected), ...networkPolicyPortProblems(policy, written, source)]);
  return (policy: K8sObject, written?: WrittenText, source?: FileText, selected?: SelectedByKey): SpecProblem[] => problems(policy, false, written, source, selected);
})();

/** What {@link rejectedByApiServer} needs besides the object. */
export interface RejectionContext {
  /** Files as loaded (their texts give the decoder's messages). */
  readonly files?: ReadonlyMap<string, LoadedFile>;
  /** Kustomize patch files: their objects are partial on purpose (see RepoLayout.patchFiles). */
  readonly patchFiles: ReadonlySet<string>;
  /** Kustomize resources: kustomize builds their objects and may add fields (see RepoLayout.resourceFiles). */
  readonly resourceFiles: ReadonlySet<string>;
  /** The cluster's NodePort range, inclusive (model.settings.nodePortRange). */
  readonly nodePortRange: { readonly min: number; readonly max: number };
}

/**
 * Why the API server refuses to create `obj` because of its own fields: the message of the first error (not a
 * warning) of {@link podTemplateProblems}, {@link serviceSpecProblems}, ingressBackendProblems or
 * networkPolicyPortProblems (as their rules report it), or of a nodePort / healthCheckNodePort outside the NodePort
 * range (as nodeport-out-of-range says it). Undefined when it is accepted; always for live objects.
 */
export function rejectionReason(obj: K8sObject, ctx: RejectionContext): string | undefined {
  if (obj.origin.type !== 'file') return undefined;
  const written = (span: Span): string | undefined => ctx.files?.get(span.file)?.text.slice(span.start, span.end);
  const source = fileTextOf(ctx.files);
  const role = manifestRole(obj.file, ctx);
  const partial = role === 'patch';
  const first = (problems: readonly SpecProblem[]): string | undefined => problems.find((p) => !p.warning)?.message.split(SERVICE).join(describe(obj));
  if (obj.category === 'workload') return first(podTemplateProblems(obj, role, written, source));
  if (obj.category === 'service') {
    const { min, max } = ctx.nodePortRange;
    const [out] = nodePortsOutsideRange(obj, min, max);
    if (out) return `${out.field} ${out.loc.value} is outside the NodePort range ${min}-${max}: the API server rejects ${describe(obj)} ("provided port is not in the valid range")`;
    return first(serviceSpecProblems(obj, partial, written, source));
  }
  if (obj.apiVersion !== 'networking.k8s.io/v1') return undefined;
  if (isNetworkPolicy(obj)) return first(networkPolicyProblems(obj, written, source));
  if (isIngress(obj)) return first(ingressProblems(obj, partial, written, source));
  return undefined;
}

/** How the file of an object reaches the API server (see {@link ManifestRole}): a kustomize patch, a kustomize resource, or as written. */
export function manifestRole(file: string, files: Pick<RejectionContext, 'patchFiles' | 'resourceFiles'>): ManifestRole {
  return files.patchFiles.has(file) ? 'patch' : files.resourceFiles.has(file) ? 'resource' : 'applied';
}

/** True when the API server refuses to create `obj` because of its own fields (see {@link rejectionReason}). */
export function rejectedByApiServer(obj: K8sObject, ctx: RejectionContext): boolean {
  return rejectionReason(obj, ctx) !== undefined;
}

/** The rejected objects of a rule run: where they are, to leave out the findings that lie in them or name them. */
export interface RejectedObjects {
  /** True when `span` lies inside a rejected object (its whole extent). */
  covers(span: Span): boolean;
  /** True when no object is rejected (the usual case: nothing to leave out). */
  readonly none: boolean;
}

/** Per object (objects are immutable), the verdict (the reason, or undefined when accepted) and what it was judged with. */
const verdicts = new WeakMap<K8sObject, { role: ManifestRole; min: number; max: number; files: boolean; reason: string | undefined }>();

/** {@link rejectionReason} of `o`, judged once per object and context. */
function verdictOf(o: K8sObject, ctx: RejectionContext): string | undefined {
  const role = manifestRole(o.file, ctx);
  const { min, max } = ctx.nodePortRange;
  const files = ctx.files !== undefined;
  let v = verdicts.get(o);
  if (!v || v.role !== role || v.min !== min || v.max !== max || v.files !== files) {
    v = { role, min, max, files, reason: rejectionReason(o, ctx) };
    verdicts.set(o, v);
  }
  return v.reason;
}

/**
 * Per loaded file (immutable: an edit makes a new one), the extents of its rejected objects and what they were
 * judged with: a rule run after an edit reads one entry per file, not every object of the workspace.
 */
const fileVerdicts = new WeakMap<LoadedFile, { role: ManifestRole; min: number; max: number; extents: readonly Span[] }>();

const NO_FILES: ReadonlySet<string> = new Set();

/**
 * Per file map (one analysis builds one and runs several rule runs over it), the rejected extents of its files'
 * objects by file, and what they were judged with.
 */
const mapVerdicts = new WeakMap<ReadonlyMap<string, LoadedFile>, { patchFiles: ReadonlySet<string>; resourceFiles: ReadonlySet<string>; min: number; max: number; size: number; byFile: ReadonlyMap<string, readonly Span[]> }>();

/**
 * The rejected objects among every object of `files` and `model` (the files give the whole workspace also when
 * the model is a part of it, as in the language server's re-checks), each judged once per object and context.
 * A file is judged again only when it changed (a new LoadedFile), or its patch-file role or the NodePort range
 * did, and then each object's verdict is looked up (an edit re-creates only the edited document's objects); the files'
 * part is shared by the rule runs over one file map. The model's objects are looked up too (its own objects, such as
 * kustomize views and live objects, are in no file; a rejected file object is then listed twice, which changes nothing).
 */
export function rejectedObjects(model: WorkspaceModel, files: ReadonlyMap<string, LoadedFile> | undefined, layout: RepoLayout | undefined): RejectedObjects {
  const ctx = contextOf(model, files, layout);
  const rejected = (o: K8sObject): boolean => verdictOf(o, ctx) !== undefined;
  const byFile = files ? filesRejected(files, ctx, rejected) : new Map<string, readonly Span[]>();
  const extra: Span[] = [];
  for (const o of model.objects) if (rejected(o)) extra.push(o.extent);
  const inside = (span: Span) => (e: Span): boolean => e.file === span.file && span.start >= e.start && span.end <= e.end;
  return {
    none: byFile.size === 0 && extra.length === 0,
    covers: (span) => (byFile.get(span.file)?.some(inside(span)) ?? false) || extra.some(inside(span)),
  };
}

/** The rejected extents of the objects of `files`, by file (cached per map and context, and per loaded file). */
function filesRejected(files: ReadonlyMap<string, LoadedFile>, ctx: RejectionContext, rejected: (o: K8sObject) => boolean): ReadonlyMap<string, readonly Span[]> {
  const { min, max } = ctx.nodePortRange;
  const hit = mapVerdicts.get(files);
  if (hit && hit.patchFiles === ctx.patchFiles && hit.resourceFiles === ctx.resourceFiles && hit.min === min && hit.max === max && hit.size === files.size) return hit.byFile;
  const byFile = new Map<string, Span[]>();
  for (const f of files.values()) {
    const role = manifestRole(f.file, ctx);
    let v = fileVerdicts.get(f);
    if (!v || v.role !== role || v.min !== min || v.max !== max) {
      const extents: Span[] = [];
      for (const o of f.objects) if (rejected(o)) extents.push(o.extent);
      v = { role, min, max, extents };
      fileVerdicts.set(f, v);
    }
    for (const e of v.extents) {
      const list = byFile.get(e.file);
      if (list) list.push(e);
      else byFile.set(e.file, [e]);
    }
  }
  mapVerdicts.set(files, { patchFiles: ctx.patchFiles, resourceFiles: ctx.resourceFiles, min, max, size: files.size, byFile });
  return byFile;
}

function contextOf(model: WorkspaceModel, files: ReadonlyMap<string, LoadedFile> | undefined, layout: RepoLayout | undefined): RejectionContext {
  return { files, patchFiles: layout?.patchFiles ?? NO_FILES, resourceFiles: layout?.resourceFiles ?? NO_FILES, nodePortRange: model.settings.nodePortRange.value };
}

/** The files and layout each model's rules ran with ({@link rememberRejectionContext}). */
const runContexts = new WeakMap<WorkspaceModel, { files: ReadonlyMap<string, LoadedFile>; layout: RepoLayout | undefined }>();

/**
 * Records the files and layout a model's rules run with (engine/run-rules.ts), so that judges without them (the
 * node-port map, the free ports of quick fixes and `ports --free`) reach the same verdict as the rule filter.
 */
export function rememberRejectionContext(model: WorkspaceModel, files: ReadonlyMap<string, LoadedFile>, layout: RepoLayout | undefined): void {
  const known = runContexts.get(model);
  // The same files and layout again keep the entry: its identity keys the caches of the node-level claims.
  if (known && known.files === files && known.layout === layout) return;
  runContexts.set(model, { files, layout });
}

/**
 * For the objects of `model`: why the API server rejects one (see {@link rejectionReason}), or undefined when it
 * accepts it, judged with the files and layout the model's rules ran with (without them before any run: no
 * decoder checks on the written text, no file taken as a kustomize patch), so the port map and the rule filter
 * agree. Cached per object.
 */
export function objectRejection(model: WorkspaceModel): (obj: K8sObject) => string | undefined {
  const run = runContexts.get(model);
  const ctx = contextOf(model, run?.files, run?.layout);
  return (obj) => verdictOf(obj, ctx);
}

/** What {@link objectRejection} judges `model` with, as an identity: it changes when a rule run records new files or layout. */
export function rejectionContextKey(model: WorkspaceModel): object | undefined {
  return runContexts.get(model);
}
