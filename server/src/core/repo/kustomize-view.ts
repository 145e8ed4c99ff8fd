import type { LoadedFile } from '../load/load-file';
import type { K8sObject } from '../model/objects';

/**
 * What kustomize's builtin namespace and prefix/suffix transformers do to a raw (unrendered) file along one path
 * from an entry point, knowable without running kustomize:
 * - `namespace:` sets every namespaced object's namespace, over any written; cluster-scoped kinds keep none; the
 *   outermost kustomization that sets one wins, since each level transforms everything below it
 *   (sigs.k8s.io/kustomize api/filters/namespace/namespace.go with api/konfig/builtinpluginconsts/namespace.go, v5);
 * - `namePrefix:` / `nameSuffix:` wrap metadata.name of every object but CustomResourceDefinitions, APIServices
 *   and Namespaces (api/internal/builtins/PrefixSuffixTransformer.go prefixSuffixFieldSpecsToSkip, v5.4); each
 *   level wraps what the levels below built (`top-` + `prod-` + name + `-v2`);
 * - the name-reference transformer then rewrites references to a renamed Service (api/filters/nameref with
 *   api/konfig/builtinpluginconsts/namereference.go, v5.4): of the fields the port rules read, Ingress backends
 *   (`service.name`, v1beta1 `serviceName`) and StatefulSet `serviceName`.
 * Checked against `kubectl kustomize` v1.31 (kustomize v5.4.2). Not applied: other name references (ConfigMaps,
 * Secrets, RBAC subjects, webhook Services), `Namespace` objects renamed by `namespace:`, and every other transformer.
 */
export interface KustomizeView {
  /** The namespace transformer's namespace, if a kustomization on the way sets one. */
  readonly namespace?: string;
  /** Prefix and suffix of every kustomization on the way, outermost prefix first and outermost suffix last ('' for none). */
  readonly namePrefix: string;
  readonly nameSuffix: string;
  /**
   * Service references this path rewrites, as [namespace, written name, built name]: a reference from an object
   * built into that namespace to a Service of the written name goes to the Service built along this path, else to
   * the only one the entry point builds in that namespace (kustomize matches a reference by the Service's earlier
   * names, in the referrer's namespace). Only renamed Services are listed.
   */
  readonly services?: readonly (readonly [string, string, string])[];
}

/** Two views that transform objects the same way have the same key. */
export function viewKey(v: KustomizeView): string {
  return JSON.stringify([v.namespace ?? null, v.namePrefix, v.nameSuffix, v.services ?? []]);
}

/** True when a view changes nothing. */
export function isIdentityView(v: KustomizeView): boolean {
  return v.namespace === undefined && v.namePrefix === '' && v.nameSuffix === '';
}

const KEEPS_NAME = (obj: Pick<K8sObject, 'kind' | 'group'>): boolean =>
  obj.kind === 'CustomResourceDefinition' || obj.kind === 'Namespace' || (obj.kind === 'APIService' && obj.group === 'apiregistration.k8s.io');

/** metadata.name of `obj` as the view builds it. */
export function builtName(obj: Pick<K8sObject, 'kind' | 'group' | 'name'>, view: KustomizeView): string {
  return KEEPS_NAME(obj) || obj.name === '' ? obj.name : `${view.namePrefix}${obj.name}${view.nameSuffix}`;
}

/** Copies per original object, view and copy number, so every cluster that builds an object the same way shares one. */
const objectCopies = new WeakMap<K8sObject, Map<string, K8sObject>>();
const fileCopies = new WeakMap<LoadedFile, Map<string, LoadedFile>>();

/**
 * `obj` as kustomize builds it along `view`: the same object (same spans) with the namespace, name, identity and
 * Service references that go with it. `copy` (0, 1 …) numbers the views of a file reached along several paths
 * (two overlays in different namespaces): each copy gets its own uid (`<uid>@<copy>`), the only copy keeps the
 * original uid. The object itself is returned when the view changes nothing in it; the same copy for the same inputs.
 */
export function objectAsBuilt(obj: K8sObject, view: KustomizeView, copy = 0, copies = 1): K8sObject {
  const namespace = obj.namespace === '' || view.namespace === undefined ? obj.namespace : view.namespace;
  const name = builtName(obj, view);
  const raw = withReferences(obj, view, namespace);
  if (namespace === obj.namespace && name === obj.name && raw === obj.raw && copies === 1) return obj;
  const key = `${copy}/${copies}\u0000${viewKey(view)}`;
  let byKey = objectCopies.get(obj);
  if (!byKey) objectCopies.set(obj, (byKey = new Map()));
  let out = byKey.get(key);
  if (!out) {
    const metadata = raw.metadata && typeof raw.metadata === 'object' ? (raw.metadata as Record<string, unknown>) : {};
    out = {
      ...obj,
      ...(copies > 1 ? { uid: `${obj.uid}@${copy}` } : {}),
      namespace,
      name,
      identity: `${obj.group}/${obj.kind}/${namespace}/${name}`,
      raw: { ...raw, metadata: { ...metadata, ...(obj.name !== '' ? { name } : {}), ...(namespace !== '' ? { namespace } : {}) } },
    } as K8sObject;
    byKey.set(key, out);
  }
  return out;
}

/**
 * The objects of `obj` as each view builds it (the object itself for no view); copies that come out the same (a
 * cluster-scoped object two overlays build alike) are one.
 */
export function objectsAsBuilt(obj: K8sObject, views: readonly KustomizeView[] | undefined): K8sObject[] {
  if (!views?.length) return [obj];
  const built = views.map((v, i) => objectAsBuilt(obj, v, i, views.length));
  return built.filter((b, i) => built.findIndex((x) => x.identity === b.identity) === i);
}

/** `file` with its objects as every view builds them (see {@link objectsAsBuilt}); the file itself when none changes. */
export function fileAsBuilt(file: LoadedFile, views: readonly KustomizeView[]): LoadedFile {
  const objects = file.objects.flatMap((o) => objectsAsBuilt(o, views));
  if (objects.length === file.objects.length && objects.every((o, i) => o === file.objects[i])) return file;
  const key = JSON.stringify(views.map(viewKey));
  let byKey = fileCopies.get(file);
  if (!byKey) fileCopies.set(file, (byKey = new Map()));
  let out = byKey.get(key);
  if (!out) byKey.set(key, (out = { ...file, objects }));
  return out;
}

/** `obj.raw` with the Service references the view rewrites (the same object when it rewrites none). */
function withReferences(obj: K8sObject, view: KustomizeView, namespace: string): Record<string, unknown> {
  if (!view.services?.length) return obj.raw;
  const renamed = new Map(view.services.filter(([ns]) => ns === namespace).map(([, from, to]) => [from, to]));
  if (renamed.size === 0) return obj.raw;
  const spec = record(obj.raw.spec);
  if (!spec) return obj.raw;
  if (obj.kind === 'StatefulSet' && obj.group === 'apps') {
    const to = typeof spec.serviceName === 'string' ? renamed.get(spec.serviceName) : undefined;
    return to === undefined ? obj.raw : { ...obj.raw, spec: { ...spec, serviceName: to } };
  }
  if (obj.kind !== 'Ingress' || (obj.group !== 'networking.k8s.io' && obj.group !== 'extensions')) return obj.raw;
  let changed = false;
  const backend = (b: unknown): unknown => {
    const r = record(b);
    if (!r) return b;
    const service = record(r.service);
    const v1 = service && typeof service.name === 'string' ? renamed.get(service.name) : undefined;
    const legacy = typeof r.serviceName === 'string' ? renamed.get(r.serviceName) : undefined;
    if (v1 === undefined && legacy === undefined) return b;
    changed = true;
    return { ...r, ...(v1 !== undefined ? { service: { ...service, name: v1 } } : {}), ...(legacy !== undefined ? { serviceName: legacy } : {}) };
  };
  const next: Record<string, unknown> = { ...spec };
  for (const key of ['defaultBackend', 'backend']) if (spec[key] !== undefined) next[key] = backend(spec[key]);
  if (Array.isArray(spec.rules)) {
    next.rules = spec.rules.map((rule) => {
      const http = record(record(rule)?.http);
      if (!http || !Array.isArray(http.paths)) return rule;
      return { ...record(rule), http: { ...http, paths: http.paths.map((p) => (record(p) ? { ...record(p), backend: backend(record(p)!.backend) } : p)) } };
    });
  }
  return changed ? { ...obj.raw, spec: next } : obj.raw;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
