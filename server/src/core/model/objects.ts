import type { LabelSelector } from './views/label-selector';
import type { Located, Span } from '../source/span';
import type { HandlerPortValue } from './views/container-handlers';
import type { HandlerShape } from './views/handler-shapes';

/**
 * Typed, plain-data view of the Kubernetes objects the rules read. Everything here is serialisable
 * (no YAML nodes), so objects can be built in worker threads, cached per file and mixed with objects
 * read from a live cluster.
 */

/** Where an object came from. */
export type ObjectOrigin =
  | { readonly type: 'file' }
  | { readonly type: 'builtin' }
  | { readonly type: 'cluster'; readonly context: string };

/** Fields every object has. */
export interface ObjectBase {
  /** Unique within a workspace: `file#docIndex` plus `/itemIndex` for `kind: List` items. */
  readonly uid: string;
  readonly apiVersion: string;
  /** API group ('' for the core group), taken from apiVersion. */
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  /** Effective namespace: metadata.namespace, else the config's `namespace`, else `default`; '' for cluster-scoped kinds. */
  readonly namespace: string;
  /** `group/kind/namespace/name`: objects with the same identity are variants of one object (a base and its overlay copy). */
  readonly identity: string;
  readonly file: string;
  readonly docIndex: number;
  /** The object's anchor: metadata.name's value, else kind's value. */
  readonly span: Span;
  /** Span of the whole object (document or list item). */
  readonly extent: Span;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly origin: ObjectOrigin;
  /** The object as plain JSON (aliases resolved). */
  readonly raw: Record<string, unknown>;
  /**
   * Spans of nodes of the object, keyed by dotted path (`spec.calicoNetwork.nodeAddressAutodetectionV4`,
   * list items as `containers.0`, map keys also as `path#key`). Every node for Services and for the kinds
   * rules read through `raw`; for pod workloads only the subtrees of {@link CONTAINER_HANDLER_KEYS}, a container's
   * `restartPolicy` and the pod spec's `affinity` and `topologySpreadConstraints` where their checks found something
   * ({@link PodTemplate.rawChecks}), `spec.selector.matchExpressions`, a
   * written {@link MAX_SURGE_PATHS} value, and the template labels and selector when a key may be a YAML 1.1 word read
   * as another key (load/handler-paths.ts; their typed view carries the other spans). Values reached through a merge key
   * (`<<: *base`) have no entry: use the nearest written ancestor (model/views/raw-fields.ts `spanAt`).
   */
  readonly paths?: ReadonlyMap<string, Span>;
}

/** Service port protocol. The API defaults it to TCP. */
export type Protocol = 'TCP' | 'UDP' | 'SCTP';

/** One entry of `spec.ports` of a Service. */
export interface ServicePort {
  readonly index: number;
  readonly span: Span;
  readonly name?: Located<string>;
  /** Defaults to TCP; `span` is the item's span when not written. */
  readonly protocol: Located<string>;
  /** Service `port` (1–65535 when valid). Missing when not written or not an integer. */
  readonly port?: Located<number>;
  /** `targetPort`: an integer or an IANA_SVC_NAME; defaults to `port` when absent. */
  readonly targetPort?: Located<number | string>;
  /** `nodePort`: unknown (allocated at apply time) when not written; never 0. */
  readonly nodePort?: Located<number>;
}

/** A Service (v1). */
export interface ServiceObject extends ObjectBase {
  readonly category: 'service';
  /** spec.type, defaulted to ClusterIP (span = object anchor when not written). */
  readonly type: Located<string>;
  readonly typeWritten: boolean;
  /** spec.clusterIP (`None` = headless). */
  readonly clusterIP?: Located<string>;
  readonly selector?: Readonly<Record<string, string>>;
  readonly ports: readonly ServicePort[];
  readonly healthCheckNodePort?: Located<number>;
  /**
   * The span whose deletion removes the `healthCheckNodePort: N` entry of `spec` and keeps the YAML valid (see
   * load/pair-removal.ts); undefined when none is written or the edit would not be exact (anchors, comments).
   */
  readonly healthCheckNodePortRemoval?: Span;
  readonly externalTrafficPolicy?: Located<string>;
  readonly internalTrafficPolicy?: Located<string>;
  readonly externalIPs: readonly Located<string>[];
  readonly allocateLoadBalancerNodePorts?: Located<boolean>;
  readonly loadBalancerIP?: Located<string>;
  /** Spans of fields present in the manifest, by path relative to the object (for diagnostics on raw values). */
  readonly fieldSpans: ReadonlyMap<string, Span>;
}

/** One entry of a container's `ports`. */
export interface ContainerPort {
  readonly index: number;
  readonly span: Span;
  readonly name?: Located<string>;
  readonly containerPort?: Located<number>;
  readonly hostPort?: Located<number>;
  readonly hostIP?: Located<string>;
  /**
   * The span whose deletion removes the `hostPort: N` entry and keeps the YAML valid (see
   * load/pair-removal.ts); undefined when no hostPort is written or the edit would not be exact.
   */
  readonly hostPortRemoval?: Span;
  /**
   * True when the hostPort value is anchored, an alias, or reached through an alias or merge key: an edit
   * of its span would change other places too, so fixes must not rewrite it.
   */
  readonly hostPortShared?: boolean;
  /** Defaults to TCP. */
  readonly protocol: Located<string>;
}

export interface EnvVar {
  readonly name: string;
  readonly span: Span;
  /** The literal `value`, when written (valueFrom is not resolved). */
  readonly value?: Located<string>;
}

/** A container of a pod template: regular, init, or restartable init (sidecar, restartPolicy Always). */
export interface Container {
  readonly name: string;
  /** Span of the `name` value, when written (findings about a missing container setting point here). */
  readonly nameSpan?: Span;
  readonly role: 'container' | 'init' | 'sidecar';
  readonly index: number;
  readonly span: Span;
  readonly image?: Located<string>;
  readonly command: readonly Located<string>[];
  readonly args: readonly Located<string>[];
  readonly env: readonly EnvVar[];
  readonly ports: readonly ContainerPort[];
  /**
   * The probes and `lifecycle` written on a plain init container (role `init`), which the API server forbids
   * (only a restartable init container may have them), at their keys; absent when there are none, and for
   * every other container.
   */
  readonly forbiddenHandlers?: readonly Located<InitForbiddenField>[];
  /** The probe settings of this container that validation refuses, read by the loader (see ProbeSetting). */
  readonly probeSettings?: readonly ProbeSetting[];
}

/** Container fields the API server forbids on init containers without `restartPolicy: Always`. */
export type InitForbiddenField = 'lifecycle' | 'livenessProbe' | 'readinessProbe' | 'startupProbe';

/** A `key In (values)` style requirement from nodeSelector or required node affinity. */
export interface NodeRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  readonly values: readonly string[];
}

/** The pod spec of any workload kind, with the fields networking rules read. */
export interface PodTemplate {
  /** Dotted path of the pod spec inside the object (`spec.template.spec`, `spec` for a Pod, …). */
  readonly path: string;
  readonly span: Span;
  readonly labels: Readonly<Record<string, string>>;
  readonly hostNetwork?: Located<boolean>;
  readonly nodeName?: Located<string>;
  readonly nodeSelector: Readonly<Record<string, string>>;
  /**
   * Required node affinity: a list of terms (ORed), each a list of requirements (ANDed). Empty when
   * none is set.
   */
  readonly nodeAffinityTerms: readonly (readonly NodeRequirement[])[];
  readonly tolerations: readonly Readonly<Record<string, unknown>>[];
  readonly containers: readonly Container[];
  /**
   * The ports the containers' probes and lifecycle hooks name, read from `raw` by the loader (see
   * model/views/container-handlers.ts, whose `handlerPorts` view reads them from `raw` when this is absent, as for
   * objects from a live cluster): so the main thread need not parse the `raw` of every workload for them.
   */
  readonly handlerPorts?: readonly HandlerPortValue[];
  /**
   * The probes and lifecycle hooks that do not set exactly one action as it should be, read from `raw` by the loader
   * (see model/views/handler-shapes.ts, whose `handlerShapes` reads them from `raw` when this is absent), for the
   * same reason.
   */
  readonly handlerShapes?: readonly HandlerShape[];
  /**
   * The checks of pod-spec-invalid that read `raw` (see {@link RawCheck}) and find something in this pod template,
   * as the loader ran them (it holds `raw` parsed; on the main thread the first read parses the whole object): the
   * others are not run again. Absent for objects that are not from the loader: every check reads `raw` then.
   */
  readonly rawChecks?: readonly RawCheck[];
}

/**
 * A check of a workload that reads its `raw`: `httpScheme` (probe and hook httpGet schemes), `restartPolicy`
 * (containers' own), `scheduling` (affinity weights, topology spread constraints and their selectors) and
 * `selectorRequirements` (the matchExpressions of `spec.selector`, null entries included).
 */
export type RawCheck = 'httpScheme' | 'restartPolicy' | 'scheduling' | 'selectorRequirements';

/** False when the loader ran `check` on `w` and it found nothing (see {@link PodTemplate.rawChecks}). */
export function mayFind(w: { readonly pod: Pick<PodTemplate, 'rawChecks'> }, check: RawCheck): boolean {
  return w.pod.rawChecks === undefined || w.pod.rawChecks.includes(check);
}

/**
 * A value the loader left out of its typed field because its JSON type is not the one the API decodes
 * (`hostPort: "9100"`, `hostNetwork: "true"`, `replicas: "3"`, `ports: 80`): the API server refuses the whole
 * object, so `pod-spec-invalid` reports it. Recorded only for the few fields the networking rules read.
 */
/**
 * A probe setting of a container or sidecar that validateProbe / validateContainers refuse, as the loader read it:
 * `negative` for an int32 timing below 0 ("must be greater than or equal to 0"), `notOne` for a livenessProbe's or
 * startupProbe's successThreshold other than 1 (0 is defaulted to 1), `readinessGrace` for a readinessProbe's
 * terminationGracePeriodSeconds ("must not be set for readinessProbes"), `notPositive` for another probe's
 * terminationGracePeriodSeconds below 1. Source: kubernetes pkg/apis/core/validation/validation.go (validateProbe,
 * validateContainers, validateInitContainers), v1.33.
 */
export interface ProbeSetting {
  readonly probe: 'livenessProbe' | 'readinessProbe' | 'startupProbe';
  /** The field in the probe (`successThreshold`). */
  readonly field: string;
  /** Integer as written. */
  readonly value: number;
  readonly span: Span;
  readonly refusal: 'negative' | 'notOne' | 'readinessGrace' | 'notPositive';
}

export interface InvalidField {
  /** API field path relative to the object, as the API server prints it: `spec.template.spec.containers[0].ports[1].hostPort`. */
  readonly path: string;
  /** Go struct that holds the field and the field's Go type, as in the decoder's error: `ContainerPort`, `int32`. */
  readonly goStruct: string;
  readonly goType: string;
  /** JSON type of the value written: `string`, `number`, `bool`, `array` or `object`. */
  readonly found: 'string' | 'number' | 'bool' | 'array' | 'object';
  /** The scalar as written (absent for collections). */
  readonly value?: string | number | boolean;
  /** True when the value is a scalar written in place (no anchor, no alias), so a fix may replace its span. */
  readonly editable: boolean;
  readonly span: Span;
  /**
   * For a value of a map[string]string field (`labels`, `nodeSelector`, `matchLabels`): its key. `path` is then the
   * map's path and `goType` `string`, as the decoder names them (it names no map key).
   */
  readonly key?: string;
  /** Where that key is written, when it is written with an editable value (so a fix may quote it with the value). */
  readonly keySpan?: Span;
  /** The value's explicit tag (`!!int`), which decides its type whatever the quotes. */
  readonly tag?: string;
  /**
   * For an element of a []string field (a selector requirement's `values`): its index. `path` is then the list's
   * path and `goType` `string`, as the decoder names them (it names no index).
   */
  readonly index?: number;
}

/**
 * Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController (every API version),
 * and the pod templates of common CRD workloads: Argo Rollouts `Rollout`, OpenKruise `CloneSet`, Advanced
 * StatefulSet and Advanced DaemonSet (kinds `StatefulSet` / `DaemonSet` of apps.kruise.io).
 */
export interface WorkloadObject extends ObjectBase {
  readonly category: 'workload';
  /** spec.replicas (Deployment, ReplicaSet, StatefulSet, ReplicationController; default 1 when absent). */
  readonly replicas?: Located<number>;
  readonly pod: PodTemplate;
  /**
   * Wrongly typed values of replicas, a Job's parallelism and completions, hostNetwork, container ports and the string
   * maps of a built-in workload (pod template labels and annotations, nodeSelector, selector); absent when there are
   * none, for cluster objects and for custom resources (whose CRD's schema decides, not the API server's decoder).
   */
  readonly invalidFields?: readonly InvalidField[];
  /**
   * `spec.selector` of a Deployment, ReplicaSet, StatefulSet, DaemonSet or ReplicationController (its map as
   * matchLabels) written in a file, when it is a mapping (absent for other kinds and for cluster objects), for the
   * API server's selector checks.
   */
  readonly selector?: { readonly value: LabelSelector; readonly span: Span };
}

/** A Node (v1), e.g. from `kubectl get nodes -o yaml`. */
export interface NodeObject extends ObjectBase {
  readonly category: 'node';
  readonly addresses: readonly { readonly type: string; readonly address: Located<string> }[];
  readonly nodeLabels: Readonly<Record<string, string>>;
}

/** Any other object (ConfigMap, KubeProxyConfiguration, Installation, …): read through `raw` and `paths`. */
export interface OtherObject extends ObjectBase {
  readonly category: 'other';
}

export type K8sObject = ServiceObject | WorkloadObject | NodeObject | OtherObject;

/** Kinds whose pod spec the loader reads, with the path of the pod spec. */
export const POD_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  PodTemplate: ['template', 'spec'],
  // CRD workloads whose pods Services select (their controllers copy spec.template into the Pods):
  // argoproj/argo-rollouts pkg/apis/rollouts/v1alpha1/types.go (RolloutSpec.Template; a Rollout with
  // spec.workloadRef instead uses the template of the Deployment it names, which is read as a Deployment),
  // openkruise/kruise apis/apps/v1alpha1 cloneset_types.go (CloneSetSpec.Template). Advanced StatefulSet and
  // Advanced DaemonSet (apps.kruise.io) have the kinds StatefulSet and DaemonSet above.
  Rollout: ['spec', 'template', 'spec'],
  CloneSet: ['spec', 'template', 'spec'],
};

/**
 * The API group of each built-in workload kind of {@link POD_SPEC_PATHS} ('' for core). Only these are decoded and
 * validated by the API server as Pods and pod templates (kubernetes pkg/apis/core/validation/validation.go
 * ValidatePodTemplateSpec, pkg/apis/apps/validation, pkg/apis/batch/validation, v1.31). A custom resource (Argo
 * Rollouts' Rollout, OpenKruise's CloneSet and its apps.kruise.io StatefulSet / DaemonSet) is stored after its CRD's
 * OpenAPI schema and ObjectMeta checks only (staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresource/
 * strategy.go Validate, v1.31): the Pods or ReplicaSets its controller creates are validated later, when it creates them.
 */
const BUILTIN_WORKLOAD_GROUPS: Readonly<Record<string, string>> = {
  Pod: '', ReplicationController: '', PodTemplate: '',
  Deployment: 'apps', ReplicaSet: 'apps', StatefulSet: 'apps', DaemonSet: 'apps',
  Job: 'batch', CronJob: 'batch',
};

/** True for a built-in workload kind of its built-in API group (see {@link BUILTIN_WORKLOAD_GROUPS}), not a custom resource. */
export function isBuiltinWorkload(o: Pick<ObjectBase, 'kind' | 'group'>): boolean {
  return Object.hasOwn(BUILTIN_WORKLOAD_GROUPS, o.kind) && BUILTIN_WORKLOAD_GROUPS[o.kind] === o.group;
}

/**
 * Container fields whose subtrees the loader records in a pod workload's `paths`: the probes and lifecycle
 * handlers, whose ports (`httpGet.port`, `tcpSocket.port`, `grpc.port`) name container ports.
 */
export const CONTAINER_HANDLER_KEYS: readonly string[] = ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

/**
 * Where a rollout's surge is written, by kind, which the loader records in a workload's `paths` when it is written:
 * a Deployment's `strategy` and a DaemonSet's `updateStrategy` (apps/v1 DeploymentStrategy / DaemonSetUpdateStrategy,
 * `rollingUpdate.maxSurge`). A StatefulSet has no surge (its rollingUpdate has `maxUnavailable` and `partition` only).
 */
export const MAX_SURGE_PATHS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['spec', 'strategy', 'rollingUpdate', 'maxSurge'],
  DaemonSet: ['spec', 'updateStrategy', 'rollingUpdate', 'maxSurge'],
};

/** Kinds that are not namespaced (namespace '' in the model). */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Node', 'Namespace', 'PersistentVolume', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition',
  'StorageClass', 'PriorityClass', 'IngressClass', 'APIService', 'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration', 'PodSecurityPolicy', 'RuntimeClass', 'CSIDriver', 'VolumeAttachment',
  // Calico / tigera-operator and kube-proxy / kubeadm config types
  'Installation', 'APIServer', 'FelixConfiguration', 'BGPConfiguration', 'BGPPeer', 'IPPool', 'ClusterInformation',
  'GlobalNetworkPolicy', 'KubeProxyConfiguration', 'ClusterConfiguration', 'InitConfiguration', 'KubeletConfiguration',
]);

/** Longest namespace or name {@link describe} shows whole (a DNS label's 63); a longer one is cut with `…`. */
const MAX_NAME_SHOWN = 63;
const shownName = (name: string): string => (name.length > MAX_NAME_SHOWN ? `${name.slice(0, MAX_NAME_SHOWN - 1)}…` : name);

/**
 * A short human name: `Service team-a/app-a`, `Node node-1`. Names and namespaces over 63 characters are cut, so
 * a message naming an object stays short whatever the name (a 40 kB one is rejected, and still named).
 */
export function describe(obj: Pick<ObjectBase, 'kind' | 'namespace' | 'name'>): string {
  return obj.namespace ? `${obj.kind} ${shownName(obj.namespace)}/${shownName(obj.name)}` : `${obj.kind} ${shownName(obj.name)}`;
}
