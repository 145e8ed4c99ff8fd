import type { Located, Span } from '../source/span';
import { type Container, type ContainerPort, type EnvVar, type InitForbiddenField, isBuiltinWorkload, type NodeRequirement, type ObjectBase, type PodTemplate, type ProbeSetting, type WorkloadObject } from '../model/objects';
import { isMergeKey, NodeReader } from './node-reader';
import { isMap, isScalar } from 'yaml';
import { hasOwnKey, isShared, pairRemovalSpan } from './pair-removal';
import { NODE_REQUIREMENT, LABEL_REQUIREMENT, TypedFields } from './typed-fields';
import { handlerPortValues, HOOKS, PROBES } from '../model/views/container-handlers';
import { HOOK_ACTIONS, handlerShapesOf, PROBE_ACTIONS } from '../model/views/handler-shapes';
import { labelSelectorFrom } from '../model/views/label-selector';
import { asRecord, isRecord } from '../model/views/raw-fields';
import { rawChecksFinding } from '../kubernetes/api-server/raw-checks';

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']);
/** Kinds whose spec has `replicas` (int32), so a wrongly typed value there is a decode error. */
const REPLICA_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** A string map field of a workload: its path from the object's root, and the Go struct holding it. */
type StringMapField = readonly [path: readonly string[], goStruct: string];

/** The labels and annotations of the ObjectMeta at `at`, and its pod spec's nodeSelector. */
const templateMaps = (...at: string[]): StringMapField[] => [
  [[...at, 'metadata', 'labels'], 'ObjectMeta'],
  [[...at, 'metadata', 'annotations'], 'ObjectMeta'],
  [[...at, 'spec', 'nodeSelector'], 'PodSpec'],
];
const matchLabels = (...at: string[]): StringMapField => [[...at, 'selector', 'matchLabels'], 'LabelSelector'];

/**
 * The map[string]string fields of the built-in workload kinds (groups core, apps, batch) that the API server's
 * decoder refuses a non-string value in, like an object's own metadata labels (kubernetes/api-server/object-envelope.ts
 * metadataTypeProblems): the pod template's metadata.labels / annotations (v1.PodTemplateSpec.ObjectMeta), the pod
 * spec's nodeSelector (v1.PodSpec), the selector (metav1.LabelSelector.matchLabels; a ReplicationController's
 * `spec.selector` is itself a map[string]string), and a CronJob's job template metadata. A Pod's own metadata is the
 * envelope's. Sources (v1.33): staging/src/k8s.io/api/core/v1/types.go (PodSpec.NodeSelector,
 * ReplicationControllerSpec.Selector, PodTemplate.Template), apps/v1/types.go and batch/v1/types.go (Selector
 * *metav1.LabelSelector, Template v1.PodTemplateSpec, JobTemplateSpec), apimachinery pkg/apis/meta/v1/types.go
 * (LabelSelector.MatchLabels, ObjectMeta.Labels / Annotations). CRD workloads (Argo Rollouts, OpenKruise) are
 * validated against their schema instead, with other messages: not judged.
 */
const WORKLOAD_STRING_MAPS: Readonly<Record<string, readonly StringMapField[]>> = {
  Pod: [[['spec', 'nodeSelector'], 'PodSpec']],
  ...Object.fromEntries(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job'].map((k) => [k, [matchLabels('spec'), ...templateMaps('spec', 'template')]])),
  ReplicationController: [[['spec', 'selector'], 'ReplicationControllerSpec'], ...templateMaps('spec', 'template')],
  CronJob: [
    [['spec', 'jobTemplate', 'metadata', 'labels'], 'ObjectMeta'],
    [['spec', 'jobTemplate', 'metadata', 'annotations'], 'ObjectMeta'],
    matchLabels('spec', 'jobTemplate', 'spec'),
    ...templateMaps('spec', 'jobTemplate', 'spec', 'template'),
  ],
  PodTemplate: templateMaps('template'),
};
/** The Go types of the structs a string map sits in that must be mappings too (`spec.selector: "app=web"`). */
const MAP_PARENTS: Readonly<Record<string, string>> = { metadata: 'v1.ObjectMeta', selector: 'v1.LabelSelector' };

/** One entry of {@link WORKLOAD_STRING_MAPS}, its paths joined once (they are read for every workload). */
interface StringMapRead {
  readonly parent: readonly string[];
  readonly key: string;
  readonly path: string;
  readonly goStruct: string;
  /** When the parent is a struct to check first (the first entry of that parent): its path, holder and Go type. */
  readonly parentCheck?: { readonly path: string; readonly holder: string; readonly goType: string };
}

const STRING_MAP_READS: ReadonlyMap<string, readonly StringMapRead[]> = new Map(Object.entries(WORKLOAD_STRING_MAPS).map(([kind, fields]) => {
  const seen = new Set<string>();
  return [kind, fields.map(([path, goStruct]): StringMapRead => {
    const parent = path.slice(0, -1);
    const field = parent[parent.length - 1];
    const at = parent.join('.');
    const goType = MAP_PARENTS[field];
    const first = goType !== undefined && !seen.has(at);
    seen.add(at);
    // The struct holding a template's metadata or a selector, as the decoder names it.
    const holder = field === 'metadata' ? (parent[parent.length - 2] === 'jobTemplate' ? 'JobTemplateSpec' : 'PodTemplateSpec') : parent.length === 2 ? `${kind}Spec` : 'JobSpec';
    return { parent, key: path[path.length - 1], path: path.join('.'), goStruct, ...(first ? { parentCheck: { path: at, holder, goType } } : {}) };
  })] as const;
}));

/**
 * Reads the pod spec at `podPath` of any workload kind into a {@link WorkloadObject}.
 * Restartable init containers (`restartPolicy: Always`, Kubernetes ≥1.28 sidecars) get role `sidecar`:
 * they run for the pod's whole life, so their ports count like regular containers' ports.
 */
export function extractWorkload(reader: NodeReader, root: unknown, base: ObjectBase, podPath: readonly string[]): WorkloadObject {
  const spec = reader.at(root, podPath);
  const templatePath = podPath.slice(0, -1);
  const labels = templatePath.length === 0 ? base.labels : reader.stringMap(root, [...templatePath, 'metadata', 'labels']);
  // Wrongly typed values of the fields read below are recorded for pod-spec-invalid (API paths as the API prints them).
  const typed = new TypedFields(reader);
  const specPath = podPath.join('.');
  // The structs between the object's spec and the pod spec (`template: "x"`, `containers: {web: …}`) must be
  // mappings and lists, or the API server cannot decode the object at all.
  for (let i = 1; i < podPath.length; i++) {
    const node = reader.at(root, podPath.slice(0, i + 1));
    if (node !== undefined && !typed.mapping(node, podPath.slice(0, i + 1).join('.'), enclosingStruct(base.kind, podPath, i), structOf(podPath[i], podPath[i - 1]))) break;
  }
  typed.list(spec, 'initContainers', `${specPath}.initContainers`, 'PodSpec', '[]v1.Container');
  typed.list(spec, 'containers', `${specPath}.containers`, 'PodSpec', '[]v1.Container');
  const containers: Container[] = [
    ...reader.items(spec, ['initContainers']).map((c, i) =>
      readContainer(reader, typed, `${specPath}.initContainers[${i}]`, c, i, reader.string(c, ['restartPolicy'])?.value === 'Always' ? 'sidecar' : 'init', base.span)),
    ...reader.items(spec, ['containers']).map((c, i) => readContainer(reader, typed, `${specPath}.containers[${i}]`, c, i, 'container', base.span)),
  ];
  const pod: PodTemplate = {
    path: podPath.join('.'),
    span: reader.span(spec) ?? base.span,
    labels,
    hostNetwork: typed.boolean(spec, 'hostNetwork', `${specPath}.hostNetwork`, 'PodSpec'),
    nodeName: reader.string(spec, ['nodeName']),
    nodeSelector: reader.stringMap(spec, ['nodeSelector']),
    nodeAffinityTerms: readAffinity(reader, spec),
    tolerations: reader.items(spec, ['tolerations']).map((t) => (reader.resolve(t)?.toJSON?.() ?? {}) as Record<string, unknown>),
    containers,
    handlerPorts: handlerPortValues(base.raw, { path: podPath.join('.'), containers }),
    handlerShapes: handlerShapesOf(base.raw, { path: podPath.join('.'), containers }),
  };
  const builtin = isBuiltinWorkload(base);
  if (builtin) {
    stringMaps(reader, typed, root, base.kind);
    podSelectors(typed, spec, specPath);
  }
  const replicas = base.kind === 'Pod' ? undefined
    : REPLICA_KINDS.has(base.kind) ? typed.integer(reader.at(root, ['spec']), 'replicas', 'spec.replicas', `${base.kind}Spec`)
    : reader.integer(root, ['spec', 'replicas']);
  if (builtin) jobCounts(typed, root, base.kind);
  const workload: WorkloadObject = { ...base, category: 'workload', replicas, pod };
  // Set on the fresh object rather than spread from a conditional one (a generic copy of every field). A custom
  // resource's values are not the API server's decoder's to refuse (its CRD's schema decides: isBuiltinWorkload).
  if (builtin && typed.invalid.length) (workload as { invalidFields?: WorkloadObject['invalidFields'] }).invalidFields = typed.invalid;
  if (SELECTOR_KINDS.has(base.kind)) {
    const selector = readSelector(reader, root, base);
    if (selector) (workload as { selector?: WorkloadObject['selector'] }).selector = selector;
  }
  // The checks that read raw run here, where it is at hand, and only those that find something run again later.
  if (builtin) (pod as { rawChecks?: PodTemplate['rawChecks'] }).rawChecks = rawChecksFinding(workload);
  return workload;
}

/** Where a Job's spec is, by kind: a Job's own, a CronJob's job template's. */
const JOB_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = { Job: ['spec'], CronJob: ['spec', 'jobTemplate', 'spec'] };

/**
 * Records a wrongly typed `parallelism` or `completions` of a Job or a CronJob's job template (`parallelism: "0"`),
 * which the decoder refuses as it refuses a quoted `replicas` ("json: cannot unmarshal string into Go struct field
 * JobSpec.spec.parallelism of type int32"). Source: kubernetes staging/src/k8s.io/api/batch/v1/types.go
 * (JobSpec.Parallelism, JobSpec.Completions *int32; CronJobSpec.JobTemplate JobTemplateSpec), v1.31.
 */
function jobCounts(typed: TypedFields, root: unknown, kind: string): void {
  const at = JOB_SPEC_PATHS[kind];
  if (!at) return;
  const spec = typed.reader.at(root, at);
  for (const key of ['parallelism', 'completions']) typed.integer(spec, key, [...at, key].join('.'), 'JobSpec');
}

/**
 * Records the wrongly typed values of the kind's {@link WORKLOAD_STRING_MAPS}, and a `metadata` or LabelSelector
 * `selector` on the way to one that is not a mapping (the pod spec and the templates are checked by the caller).
 */
function stringMaps(reader: NodeReader, typed: TypedFields, root: unknown, kind: string): void {
  for (const read of STRING_MAP_READS.get(kind) ?? []) {
    const parent = reader.at(root, read.parent);
    if (parent === undefined) continue;
    const check = read.parentCheck;
    if (check && !typed.mapping(parent, check.path, check.holder, check.goType)) continue;
    typed.stringMap(parent, read.key, read.path, read.goStruct);
    if (read.key === 'matchLabels') typed.requirements(parent, 'matchExpressions', `${read.parent.join('.')}.matchExpressions`, 'LabelSelector', LABEL_REQUIREMENT);
  }
}

/**
 * Records the wrongly typed parts of the pod spec's selectors, which the API server's decoder refuses as it refuses
 * a matchLabels value (`values: "a"` instead of a list, `values: [1, true]`, `key: 5`): the label selectors of pod
 * (anti-)affinity terms (required and preferred: `labelSelector`, `namespaceSelector`) and of
 * topologySpreadConstraints, and the node selector terms of node affinity (`matchExpressions`, `matchFields`), with
 * the structs on the way to them that must be mappings or lists; and the scalars beside them (`weight: "1"`,
 * `maxSkew: "1"`: int32; topologyKey, whenUnsatisfiable: strings). Sources (v1.33): staging/src/k8s.io/api/core/v1/types.go
 * (Affinity, PodAffinity, PodAntiAffinity, PodAffinityTerm, WeightedPodAffinityTerm, NodeAffinity, NodeSelector,
 * NodeSelectorTerm, NodeSelectorRequirement.Values []string, PreferredSchedulingTerm, TopologySpreadConstraint),
 * apimachinery pkg/apis/meta/v1/types.go (LabelSelectorRequirement.Values []string).
 */
function podSelectors(typed: TypedFields, spec: unknown, specPath: string): void {
  const reader = typed.reader;
  /** The mapping at `key` of `node` (undefined when absent or not a mapping, which is recorded). */
  const mapping = (node: unknown, key: string, path: string, goStruct: string, goType: string): unknown => {
    const value = reader.at(node, [key]);
    return value !== undefined && typed.mapping(value, path, goStruct, goType) ? value : undefined;
  };
  /** The mapping entries of the list at `key` of `node`, with their paths (a list or entry of the wrong type is recorded). */
  const entries = (node: unknown, key: string, path: string, goStruct: string, goType: string): [unknown, string][] => {
    const list = reader.at(node, [key]);
    if (list === undefined) return [];
    if (!reader.asSeq(list)) {
      typed.list(node, key, path, goStruct, `[]${goType}`);
      return [];
    }
    return reader.items(node, [key]).map((item, i): [unknown, string] => [item, `${path}[${i}]`]).filter(([item, p]) => typed.mapping(item, p, goStruct, goType));
  };
  const podTerm = (term: unknown, path: string): void => {
    typed.labelSelector(term, 'labelSelector', `${path}.labelSelector`, 'PodAffinityTerm');
    typed.labelSelector(term, 'namespaceSelector', `${path}.namespaceSelector`, 'PodAffinityTerm');
  };
  const nodeTerm = (term: unknown, path: string): void => {
    typed.requirements(term, 'matchExpressions', `${path}.matchExpressions`, 'NodeSelectorTerm', NODE_REQUIREMENT);
    typed.requirements(term, 'matchFields', `${path}.matchFields`, 'NodeSelectorTerm', NODE_REQUIREMENT);
  };
  const affinityPath = `${specPath}.affinity`;
  const affinity = mapping(spec, 'affinity', affinityPath, 'PodSpec', 'v1.Affinity');
  if (affinity !== undefined) {
    for (const [key, goStruct] of [['podAffinity', 'PodAffinity'], ['podAntiAffinity', 'PodAntiAffinity']] as const) {
      const at = `${affinityPath}.${key}`;
      const pod = mapping(affinity, key, at, 'Affinity', `v1.${goStruct}`);
      if (pod === undefined) continue;
      for (const [term, p] of entries(pod, 'requiredDuringSchedulingIgnoredDuringExecution', `${at}.requiredDuringSchedulingIgnoredDuringExecution`, goStruct, 'v1.PodAffinityTerm')) podTerm(term, p);
      for (const [weighted, p] of entries(pod, 'preferredDuringSchedulingIgnoredDuringExecution', `${at}.preferredDuringSchedulingIgnoredDuringExecution`, goStruct, 'v1.WeightedPodAffinityTerm')) {
        typed.integer(weighted, 'weight', `${p}.weight`, 'WeightedPodAffinityTerm');
        const term = mapping(weighted, 'podAffinityTerm', `${p}.podAffinityTerm`, 'WeightedPodAffinityTerm', 'v1.PodAffinityTerm');
        if (term !== undefined) podTerm(term, `${p}.podAffinityTerm`);
      }
    }
    const at = `${affinityPath}.nodeAffinity`;
    const node = mapping(affinity, 'nodeAffinity', at, 'Affinity', 'v1.NodeAffinity');
    if (node !== undefined) {
      const requiredPath = `${at}.requiredDuringSchedulingIgnoredDuringExecution`;
      const required = mapping(node, 'requiredDuringSchedulingIgnoredDuringExecution', requiredPath, 'NodeAffinity', 'v1.NodeSelector');
      if (required !== undefined) for (const [term, p] of entries(required, 'nodeSelectorTerms', `${requiredPath}.nodeSelectorTerms`, 'NodeSelector', 'v1.NodeSelectorTerm')) nodeTerm(term, p);
      for (const [preferred, p] of entries(node, 'preferredDuringSchedulingIgnoredDuringExecution', `${at}.preferredDuringSchedulingIgnoredDuringExecution`, 'NodeAffinity', 'v1.PreferredSchedulingTerm')) {
        typed.integer(preferred, 'weight', `${p}.weight`, 'PreferredSchedulingTerm');
        const term = mapping(preferred, 'preference', `${p}.preference`, 'PreferredSchedulingTerm', 'v1.NodeSelectorTerm');
        if (term !== undefined) nodeTerm(term, `${p}.preference`);
      }
    }
  }
  for (const [constraint, p] of entries(spec, 'topologySpreadConstraints', `${specPath}.topologySpreadConstraints`, 'PodSpec', 'v1.TopologySpreadConstraint')) {
    typed.integer(constraint, 'maxSkew', `${p}.maxSkew`, 'TopologySpreadConstraint');
    typed.string(constraint, 'topologyKey', `${p}.topologyKey`, 'TopologySpreadConstraint');
    typed.string(constraint, 'whenUnsatisfiable', `${p}.whenUnsatisfiable`, 'TopologySpreadConstraint', 'v1.UnsatisfiableConstraintAction');
    typed.labelSelector(constraint, 'labelSelector', `${p}.labelSelector`, 'TopologySpreadConstraint');
  }
}

/**
 * Kinds whose `spec.selector` must select their pod template: a metav1.LabelSelector, or a ReplicationController's
 * map[string]string (ValidatePodTemplateSpecForRC, kubernetes pkg/apis/core/validation/validation.go, v1.33).
 */
const SELECTOR_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'ReplicationController']);

/**
 * `spec.selector` when it is a mapping (a ReplicationController's as matchLabels). A missing or empty one is judged
 * from `raw` (pod-spec selectorProblems: not in a kustomize resource, whose `labels`/`commonLabels` may create it in
 * the build; a ReplicationController's empty selector is defaulted to its template's labels).
 */
function readSelector(reader: NodeReader, root: unknown, base: ObjectBase): WorkloadObject['selector'] {
  const written = asRecord(asRecord(base.raw).spec).selector;
  const value = base.kind === 'ReplicationController'
    ? (isRecord(written) ? labelSelectorFrom({ matchLabels: written }) : undefined)
    : labelSelectorFrom(written);
  const span = reader.span(reader.at(root, ['spec', 'selector']));
  return value && span ? { value, span } : undefined;
}

function readContainer(reader: NodeReader, typed: TypedFields, path: string, node: unknown, index: number, role: Container['role'], fallback: Span): Container {
  const span = reader.span(node) ?? fallback;
  const strings = (key: string): Located<string>[] =>
    reader.items(node, [key]).map((_, i) => reader.text(node, [key, i])).filter((x): x is Located<string> => !!x);
  const env: EnvVar[] = reader.items(node, ['env']).flatMap((item) => {
    const name = reader.string(item, ['name']);
    if (!name) return [];
    return [{ name: name.value, span: reader.span(item) ?? span, value: reader.text(item, ['value']) }];
  });
  // A hostPort entry written in a shared (anchored/aliased) place cannot be removed for this container alone.
  const portsShared = isShared(node) || !hasOwnKey(node, 'ports') || isShared(reader.at(node, ['ports']));
  typed.list(node, 'ports', `${path}.ports`, 'Container', '[]v1.ContainerPort');
  const ports: ContainerPort[] = reader.items(node, ['ports']).map((item, i) => {
    const itemSpan = reader.span(item) ?? span;
    const p = `${path}.ports[${i}]`;
    typed.mapping(item, p, 'Container', 'v1.ContainerPort');
    const hostPort = typed.integer(item, 'hostPort', `${p}.hostPort`, 'ContainerPort');
    const hostPortShared = portsShared || isShared(item) || !hasOwnKey(reader.resolve(item), 'hostPort') || isShared(reader.at(item, ['hostPort']));
    const removable = hostPort && hostPort.value !== 0 && !hostPortShared;
    return {
      index: i,
      span: itemSpan,
      name: typed.string(item, 'name', `${p}.name`, 'ContainerPort'),
      containerPort: typed.integer(item, 'containerPort', `${p}.containerPort`, 'ContainerPort'),
      // hostPort 0 is the API's "not set".
      hostPort: hostPort && hostPort.value !== 0 ? hostPort : undefined,
      hostIP: typed.string(item, 'hostIP', `${p}.hostIP`, 'ContainerPort'),
      hostPortRemoval: removable ? pairRemovalSpan(reader.file, item, 'hostPort') : undefined,
      hostPortShared: hostPort ? hostPortShared : undefined,
      protocol: typed.string(item, 'protocol', `${p}.protocol`, 'ContainerPort', 'v1.Protocol') ?? { value: 'TCP', span: itemSpan },
    };
  });
  const container: Container = {
    name: reader.string(node, ['name'])?.value ?? `#${index}`,
    nameSpan: reader.string(node, ['name'])?.span,
    role,
    index,
    span,
    image: reader.string(node, ['image']),
    command: strings('command'),
    args: strings('args'),
    env,
    ports,
  };
  // A container's restartPolicy is a string (v1.ContainerRestartPolicy); its values are pod-spec-invalid's.
  typed.string(node, 'restartPolicy', `${path}.restartPolicy`, 'Container', 'v1.ContainerRestartPolicy');
  const settings = handlerDecodeChecks(reader, typed, node, path);
  const forbidden = role === 'init' ? forbiddenHandlers(reader, node, span) : [];
  if (forbidden.length) (container as { forbiddenHandlers?: Container['forbiddenHandlers'] }).forbiddenHandlers = forbidden;
  // A plain init container's probes are forbidden as a whole (forbiddenHandlers): their settings are not judged.
  if (settings.length && role !== 'init') (container as { probeSettings?: Container['probeSettings'] }).probeSettings = settings;
  return container;
}

/** The Go types of a handler's actions (core/v1 types.go ProbeHandler, LifecycleHandler). */
const ACTION_TYPES: Readonly<Record<string, string>> = { exec: 'v1.ExecAction', httpGet: 'v1.HTTPGetAction', tcpSocket: 'v1.TCPSocketAction', grpc: 'v1.GRPCAction', sleep: 'v1.SleepAction' };

/** The int32 fields of a Probe (core/v1 types.go Probe; terminationGracePeriodSeconds is an int64, not read here). */
const PROBE_INT32_FIELDS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;

/**
 * Records a container's probes and lifecycle hooks that the API server's decoder refuses (`readinessProbe: tcp`,
 * `lifecycle: "x"`, `preStop: "x"`, `httpGet: "x"`): each must be a mapping, as must its actions; a probe's int32
 * fields (`periodSeconds: "10"`) must be integers, an `exec` action's `command` a list of strings
 * (`command: [true]`), an `httpGet` / `tcpSocket` port an integer or a string (`port: 80.5`), an `httpGet` scheme a
 * string and a `grpc` port an integer. The decoder names the struct holding the field: a probe's actions live in the ProbeHandler
 * inlined in Probe, so Probe holds them. Null is "not set" and passes. Sources: kubernetes
 * staging/src/k8s.io/api/core/v1/types.go (Container.LivenessProbe / ReadinessProbe / StartupProbe *Probe,
 * Container.Lifecycle *Lifecycle, Probe.ProbeHandler inlined, Probe.InitialDelaySeconds … FailureThreshold int32,
 * ExecAction.Command []string, Lifecycle.PostStart / PreStop *LifecycleHandler), v1.33.
 * @returns the probe settings that decode but that validation refuses ({@link probeSettingRefusal})
 */
function handlerDecodeChecks(reader: NodeReader, typed: TypedFields, node: unknown, path: string): ProbeSetting[] {
  const settings: ProbeSetting[] = [];
  const actions = (handler: unknown, at: string, goStruct: string, kinds: readonly string[]): void => {
    for (const action of kinds) {
      const value = reader.at(handler, [action]);
      if (value === undefined || !typed.mapping(value, `${at}.${action}`, goStruct, ACTION_TYPES[action])) continue;
      if (action === 'exec') typed.stringList(value, 'command', `${at}.exec.command`, 'ExecAction');
      else if (action === 'httpGet' || action === 'tcpSocket') typed.intOrString(value, 'port', `${at}.${action}.port`, action === 'httpGet' ? 'HTTPGetAction' : 'TCPSocketAction');
      if (action === 'httpGet') typed.string(value, 'scheme', `${at}.httpGet.scheme`, 'HTTPGetAction', 'v1.URIScheme');
      // A string grpc port (`"9"`, a name) is handlerPortProblems' finding, which says grpc takes no names.
      else if (action === 'grpc' && typeof reader.scalarValue(reader.at(value, ['port'])) !== 'string') typed.integer(value, 'port', `${at}.grpc.port`, 'GRPCAction');
    }
  };
  for (const probe of PROBES) {
    const value = reader.at(node, [probe]);
    if (value === undefined || !typed.mapping(value, `${path}.${probe}`, 'Container', 'v1.Probe')) continue;
    const judge = (field: string, n: Located<number> | undefined): void => {
      const refusal = n && probeSettingRefusal(probe, field, n.value);
      if (refusal) settings.push({ probe, field, value: n.value, span: n.span, refusal });
    };
    for (const field of PROBE_INT32_FIELDS) judge(field, typed.integer(value, field, `${path}.${probe}.${field}`, 'Probe'));
    judge('terminationGracePeriodSeconds', reader.integer(value, ['terminationGracePeriodSeconds']));
    actions(value, `${path}.${probe}`, 'Probe', PROBE_ACTIONS);
  }
  const lifecycle = reader.at(node, ['lifecycle']);
  if (lifecycle === undefined || !typed.mapping(lifecycle, `${path}.lifecycle`, 'Container', 'v1.Lifecycle')) return settings;
  for (const hook of HOOKS) {
    const value = reader.at(lifecycle, [hook]);
    if (value !== undefined && typed.mapping(value, `${path}.lifecycle.${hook}`, 'Lifecycle', 'v1.LifecycleHandler')) actions(value, `${path}.lifecycle.${hook}`, 'LifecycleHandler', HOOK_ACTIONS);
  }
  return settings;
}

/**
 * Which {@link ProbeSetting} refusal an integer probe setting meets, if any: an int32 timing below 0; a liveness or
 * startup successThreshold other than 0 (defaulted to 1 by SetDefaults_Probe) or 1; a readinessProbe
 * terminationGracePeriodSeconds; another probe's below 1. Sources: kubernetes pkg/apis/core/validation/validation.go
 * (validateProbe, validateContainers), pkg/apis/core/v1/defaults.go (SetDefaults_Probe), v1.33.
 */
function probeSettingRefusal(probe: string, field: string, value: number): ProbeSetting['refusal'] | undefined {
  if (field === 'terminationGracePeriodSeconds') return probe === 'readinessProbe' ? 'readinessGrace' : value <= 0 ? 'notPositive' : undefined;
  if (value < 0) return 'negative';
  if (field === 'successThreshold' && probe !== 'readinessProbe' && value !== 0 && value !== 1) return 'notOne';
  return undefined;
}

/** In validateInitContainers' order (kubernetes pkg/apis/core/validation/validation.go, v1.33). */
const INIT_FORBIDDEN: readonly InitForbiddenField[] = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'];

/**
 * The probes and `lifecycle` of a plain init container that the API server forbids, at their keys; one brought in
 * by a merge key (`<<: *probes`) at that merge key's value, where the container takes it. Only mappings count:
 * null is "not set" to the API's decoder, and any other value is a decode error rather than this one.
 */
function forbiddenHandlers(reader: NodeReader, node: unknown, span: Span): Located<InitForbiddenField>[] {
  const out: Located<InitForbiddenField>[] = [];
  const map = reader.asMap(node);
  if (!map) return out;
  for (const key of INIT_FORBIDDEN) {
    const pair = reader.pair(map, key);
    if (!pair || !isMap(reader.resolve(pair.value))) continue;
    const own = (map.items as unknown[]).includes(pair);
    const merge = own ? undefined : map.items.find((item) => isMergeKey(isScalar(item.key) ? item.key.value : item.key) && mergedPair(reader, item.value, key) === pair);
    const at = own ? reader.span(pair.key) : merge ? reader.span(merge.value) : undefined;
    out.push({ value: key, span: at ?? span });
  }
  return out;
}

/** The pair for `key` a merge key's value (an alias, a mapping, or a list of them) brings in. */
function mergedPair(reader: NodeReader, source: unknown, key: string): unknown {
  for (const s of reader.asSeq(source)?.items ?? [source]) {
    const found = reader.pair(reader.asMap(s), key);
    if (found) return found;
  }
  return undefined;
}

/** nodeSelectorTerms of requiredDuringSchedulingIgnoredDuringExecution (matchExpressions only). */
function readAffinity(reader: NodeReader, spec: unknown): NodeRequirement[][] {
  const terms = reader.items(spec, ['affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms']);
  return terms.map((term) =>
    reader.items(term, ['matchExpressions']).flatMap((expr) => {
      const key = reader.string(expr, ['key'])?.value;
      const operator = reader.string(expr, ['operator'])?.value;
      if (!key || !operator || !OPERATORS.has(operator)) return [];
      const values = reader.items(expr, ['values']).map((v) => String(reader.scalarValue(v)));
      return [{ key, operator: operator as NodeRequirement['operator'], values }];
    }),
  );
}

/** Go type of the struct at `field` (below `parent`) on the way to a pod spec: `template` → `v1.PodTemplateSpec`. */
function structOf(field: string, parent: string | undefined): string {
  if (field === 'template') return 'v1.PodTemplateSpec';
  if (field === 'jobTemplate') return 'v1.JobTemplateSpec';
  // `spec` below a jobTemplate is a JobSpec; below a template it is the pod spec.
  return parent === 'jobTemplate' ? 'v1.JobSpec' : 'v1.PodSpec';
}

/** The Go struct holding `podPath[i]`, as the decoder names it: `DeploymentSpec` for `spec.template`. */
function enclosingStruct(kind: string, podPath: readonly string[], i: number): string {
  return i === 1 && podPath[0] === 'spec' ? `${kind}Spec` : structOf(podPath[i - 1], podPath[i - 2]).replace(/^v1\./, '');
}
