import type { Located, Span } from '../source/span';
import type { Container, ContainerPort, EnvVar, K8sObject, NodeRequirement, ObjectBase, PodTemplate, ServicePort } from './objects';
import { CLUSTER_SCOPED_KINDS, POD_SPEC_PATHS } from './objects';

/**
 * Converts objects read from a live cluster (the JSON the API server returns, as `kubectl get -o json`
 * prints it) into the same typed model the YAML loader produces, so every rule sees cluster objects
 * and workspace objects alike. Pure data: no I/O, no client library.
 *
 * A cluster object lives in a virtual file `cluster:<context>/<kind>/<namespace>/<name>`
 * (`cluster:<context>/<kind>/<name>` for cluster-scoped kinds); every span points at offset 0 of that
 * file, since there is no text to point into.
 */

type Json = Record<string, unknown>;

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']);

/** Annotations and fields dropped from `raw`: large, and read by no rule. */
const DROPPED_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

/** The virtual file name of a cluster object. */
export function clusterFile(context: string, kind: string, namespace: string, name: string): string {
  return namespace ? `cluster:${context}/${kind}/${namespace}/${name}` : `cluster:${context}/${kind}/${name}`;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObj(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(obj(v))) out[k] = val === null || val === undefined ? '' : String(val);
  return out;
}

/**
 * Converts one API object into a {@link K8sObject} with origin `{type: 'cluster', context}`.
 * @param json the object as the API returns it (Dates as ISO strings); `kind`/`apiVersion` may be
 *   missing on items of a typed list, so `defaults` supplies them
 * @returns undefined when the value is not an object with a kind, apiVersion and metadata.name
 */
export function fromApiObject(json: unknown, context: string, defaults: { kind?: string; apiVersion?: string } = {}): K8sObject | undefined {
  if (!isObj(json)) return undefined;
  const kind = str(json.kind) ?? defaults.kind;
  const apiVersion = str(json.apiVersion) ?? defaults.apiVersion;
  const metadata = obj(json.metadata);
  const name = str(metadata.name);
  if (!kind || !apiVersion || !name) return undefined;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
  const namespace = CLUSTER_SCOPED_KINDS.has(kind) ? '' : str(metadata.namespace) || 'default';
  const file = clusterFile(context, kind, namespace, name);
  const span: Span = { file, start: 0, end: 0 };
  // apiVersion and kind first, as kubectl prints objects (the read-only YAML view shows raw).
  const raw = cleanRaw({ apiVersion, kind, ...json });
  Object.assign(raw, { apiVersion, kind });
  const base: ObjectBase = {
    uid: `${file}#0`, apiVersion, group, kind, name, namespace,
    identity: `${group}/${kind}/${namespace}/${name}`,
    file, docIndex: 0, span, extent: span,
    labels: stringMap(metadata.labels),
    annotations: stringMap(obj(raw.metadata).annotations),
    origin: { type: 'cluster', context },
    raw,
  };
  const at = <T>(value: T | undefined): Located<T> | undefined => (value === undefined ? undefined : { value, span });
  if (kind === 'Service' && group === '') return { ...serviceFrom(base, obj(json.spec), at), paths: zeroPaths(raw, span) };
  const podPath = POD_SPEC_PATHS[kind];
  if (podPath) return workloadFrom(base, json, podPath, at);
  if (kind === 'Node' && group === '') {
    const addresses = arr(obj(json.status).addresses).flatMap((a) => {
      const address = str(obj(a).address);
      return address ? [{ type: str(obj(a).type) ?? '', address: { value: address, span } }] : [];
    });
    return { ...base, category: 'node', addresses, nodeLabels: base.labels, paths: zeroPaths(raw, span) };
  }
  return { ...base, category: 'other', paths: zeroPaths(raw, span) };
}

type At = <T>(value: T | undefined) => Located<T> | undefined;

function serviceFrom(base: ObjectBase, spec: Json, at: At): K8sObject {
  const span = base.span;
  const ports: ServicePort[] = arr(spec.ports).map((p, index) => {
    const port = obj(p);
    const target = port.targetPort;
    return {
      index, span,
      name: at(str(port.name)),
      protocol: { value: str(port.protocol) ?? 'TCP', span },
      port: at(int(port.port)),
      targetPort: at(typeof target === 'string' || int(target) !== undefined ? (target as number | string) : undefined),
      nodePort: at(positive(int(port.nodePort))),
    };
  });
  const fieldSpans = new Map<string, Span>();
  for (const key of Object.keys(spec)) fieldSpans.set(key, span);
  arr(spec.ports).forEach((p, i) => Object.keys(obj(p)).forEach((key) => fieldSpans.set(`ports.${i}.${key}`, span)));
  const allocate = spec.allocateLoadBalancerNodePorts;
  return {
    ...base,
    category: 'service',
    type: { value: str(spec.type) ?? 'ClusterIP', span },
    typeWritten: str(spec.type) !== undefined,
    clusterIP: at(str(spec.clusterIP)),
    selector: isObj(spec.selector) ? stringMap(spec.selector) : undefined,
    ports,
    healthCheckNodePort: at(positive(int(spec.healthCheckNodePort))),
    externalTrafficPolicy: at(str(spec.externalTrafficPolicy)),
    internalTrafficPolicy: at(str(spec.internalTrafficPolicy)),
    externalIPs: arr(spec.externalIPs).flatMap((ip) => (typeof ip === 'string' ? [{ value: ip, span }] : [])),
    allocateLoadBalancerNodePorts: at(typeof allocate === 'boolean' ? allocate : undefined),
    loadBalancerIP: at(str(spec.loadBalancerIP)),
    fieldSpans,
  };
}

function workloadFrom(base: ObjectBase, json: Json, podPath: readonly string[], at: At): K8sObject {
  const span = base.span;
  let spec: unknown = json;
  for (const step of podPath) spec = obj(spec)[step];
  const podSpec = obj(spec);
  let template: unknown = json;
  for (const step of podPath.slice(0, -1)) template = obj(template)[step];
  const labels = podPath.length === 1 ? base.labels : stringMap(obj(obj(template).metadata).labels);
  const containers: Container[] = [
    ...arr(podSpec.initContainers).map((c, i) => containerFrom(obj(c), i, obj(c).restartPolicy === 'Always' ? 'sidecar' : 'init', span, at)),
    ...arr(podSpec.containers).map((c, i) => containerFrom(obj(c), i, 'container', span, at)),
  ];
  const pod: PodTemplate = {
    path: podPath.join('.'),
    span,
    labels,
    hostNetwork: at(typeof podSpec.hostNetwork === 'boolean' ? podSpec.hostNetwork : undefined),
    nodeName: at(str(podSpec.nodeName)),
    nodeSelector: stringMap(podSpec.nodeSelector),
    nodeAffinityTerms: affinityFrom(podSpec),
    tolerations: arr(podSpec.tolerations).map(obj),
    containers,
  };
  const replicas = base.kind === 'Pod' ? undefined : at(int(obj(json.spec).replicas));
  return { ...base, category: 'workload', replicas, pod };
}

function containerFrom(c: Json, index: number, role: Container['role'], span: Span, at: At): Container {
  const strings = (v: unknown): Located<string>[] => arr(v).flatMap((s) => (typeof s === 'string' ? [{ value: s, span }] : []));
  const env: EnvVar[] = arr(c.env).flatMap((e) => {
    const name = str(obj(e).name);
    const value = obj(e).value;
    return name ? [{ name, span, value: value === undefined || value === null ? undefined : { value: String(value), span } }] : [];
  });
  const ports: ContainerPort[] = arr(c.ports).map((p, i) => {
    const port = obj(p);
    return {
      index: i, span,
      name: at(str(port.name)),
      containerPort: at(int(port.containerPort)),
      hostPort: at(positive(int(port.hostPort))),
      hostIP: at(str(port.hostIP)),
      protocol: { value: str(port.protocol) ?? 'TCP', span },
    };
  });
  return { name: str(c.name) ?? `#${index}`, role, index, span, image: at(str(c.image)), command: strings(c.command), args: strings(c.args), env, ports };
}

function affinityFrom(podSpec: Json): NodeRequirement[][] {
  const required = obj(obj(obj(podSpec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution);
  return arr(required.nodeSelectorTerms).map((term) =>
    arr(obj(term).matchExpressions).flatMap((e) => {
      const key = str(obj(e).key);
      const operator = str(obj(e).operator);
      if (!key || !operator || !OPERATORS.has(operator)) return [];
      return [{ key, operator: operator as NodeRequirement['operator'], values: arr(obj(e).values).map(String) }];
    }),
  );
}

/** 0 is the API's "not set" for nodePort, hostPort and healthCheckNodePort. */
function positive(n: number | undefined): number | undefined {
  return n === undefined || n === 0 ? undefined : n;
}

/** A copy without managedFields, node image lists and last-applied-configuration (bulk no rule reads). */
function cleanRaw(json: Json): Json {
  const metadata = { ...obj(json.metadata) };
  delete metadata.managedFields;
  if (isObj(metadata.annotations)) {
    const annotations = { ...metadata.annotations };
    for (const a of DROPPED_ANNOTATIONS) delete annotations[a];
    metadata.annotations = annotations;
  }
  const out: Json = { ...json, metadata };
  if (json.kind === 'Node' && isObj(json.status)) {
    const status = { ...json.status };
    delete status.images;
    out.status = status;
  }
  return out;
}

/** Every dotted path of `raw` (and `path#key` for map keys), all at the object's zero span, like the loader's `paths`. */
function zeroPaths(raw: Json, span: Span): Map<string, Span> {
  const out = new Map<string, Span>();
  const walk = (value: unknown, prefix: string, depth: number): void => {
    if (prefix) out.set(prefix, span);
    if (depth > 64) return;
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, prefix ? `${prefix}.${i}` : String(i), depth + 1));
    else if (isObj(value)) {
      for (const [k, v] of Object.entries(value)) {
        const path = prefix ? `${prefix}.${k}` : k;
        out.set(`${path}#key`, span);
        walk(v, path, depth + 1);
      }
    }
  };
  walk(raw, '', 0);
  return out;
}
