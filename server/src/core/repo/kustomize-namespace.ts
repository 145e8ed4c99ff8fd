import type { LoadedFile } from '../load/load-file';
import type { K8sObject } from '../model/objects';

/**
 * Kustomize's namespace transformer, applied to raw (unrendered) files: what `namespace:` in a kustomization does to
 * the objects it builds, knowable without running kustomize. Every namespaced object gets that namespace, over any
 * namespace written; cluster-scoped kinds keep none; the outermost kustomization that sets one wins, since each
 * level transforms everything below it (sigs.k8s.io/kustomize api/filters/namespace/namespace.go with the field
 * specs of api/konfig/builtinpluginconsts/namespace.go, kustomize v5; checked with `kubectl kustomize` v1.32).
 * Only the object's namespace and identity change: RoleBinding subjects and webhook Service references, which the
 * transformer also rewrites, are not read by the port rules.
 */

/** Copies per original object and namespace, so every cluster that transforms an object the same way shares one. */
const objectCopies = new WeakMap<K8sObject, Map<string, K8sObject>>();
const fileCopies = new WeakMap<LoadedFile, Map<string, LoadedFile>>();

/**
 * `obj` as a kustomization with `namespace: <namespace>` builds it: the same object (same uid and spans) with that
 * namespace and the identity that goes with it. Cluster-scoped objects (namespace '') and objects already in that
 * namespace are returned as they are. The same copy is returned for the same object and namespace.
 */
export function inNamespace(obj: K8sObject, namespace: string): K8sObject {
  if (obj.namespace === '' || obj.namespace === namespace) return obj;
  let copies = objectCopies.get(obj);
  if (!copies) objectCopies.set(obj, (copies = new Map()));
  let copy = copies.get(namespace);
  if (!copy) {
    const metadata = obj.raw.metadata && typeof obj.raw.metadata === 'object' ? (obj.raw.metadata as Record<string, unknown>) : {};
    copy = { ...obj, namespace, identity: `${obj.group}/${obj.kind}/${namespace}/${obj.name}`, raw: { ...obj.raw, metadata: { ...metadata, namespace } } } as K8sObject;
    copies.set(namespace, copy);
  }
  return copy;
}

/** `file` with every object {@link inNamespace}; the file itself when none changes. The same copy for the same file and namespace. */
export function fileInNamespace(file: LoadedFile, namespace: string): LoadedFile {
  if (!file.objects.some((o) => o.namespace !== '' && o.namespace !== namespace)) return file;
  let copies = fileCopies.get(file);
  if (!copies) fileCopies.set(file, (copies = new Map()));
  let copy = copies.get(namespace);
  if (!copy) {
    copy = { ...file, objects: file.objects.map((o) => inNamespace(o, namespace)) };
    copies.set(namespace, copy);
  }
  return copy;
}
