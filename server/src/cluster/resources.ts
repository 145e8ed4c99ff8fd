import type { AppsV1Api, ConfigurationOptions, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { clientNode } from './client-node';

/** A List response, as far as we read it. */
export interface ApiList {
  readonly items: readonly unknown[];
  /** `_continue` is client-node's name of ListMeta `continue` (more pages to read). */
  readonly metadata?: { readonly resourceVersion?: string; readonly _continue?: string };
}

/** One page of a chunked list: https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks (v1.33). */
export interface Page {
  readonly limit: number;
  readonly _continue?: string;
}

/** Objects per page: big clusters answer in chunks, each within the per-request timeout. */
export const PAGE_SIZE = 500;

/** The typed API clients a list call uses. */
export interface Apis {
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
}

/**
 * One thing the cluster source reads: a list (with its watch path for the watch mode). Only `list`
 * and `watch` are ever called: the adapter is read-only towards the cluster.
 */
export interface ResourceSpec {
  /** Stable key, e.g. `services`, `services/team-a`. */
  readonly id: string;
  /** For status lines: `Services`, `Services in team-a`, `the kube-proxy ConfigMap`. */
  readonly label: string;
  /** What RBAC must allow, for the Forbidden message: `list services at the cluster scope`. */
  readonly permission: string;
  readonly kind: string;
  readonly apiVersion: string;
  /** URL path of the collection (watch requests add `?watch=true`). */
  readonly path: string;
  readonly fieldSelector?: string;
  list(apis: Apis, options: ConfigurationOptions, page: Page): Promise<ApiList>;
}

/** API clients for a loaded kubeconfig (no request is sent here). */
export function makeApis(kc: KubeConfig): Apis {
  const k8s = clientNode();
  return { core: kc.makeApiClient(k8s.CoreV1Api), apps: kc.makeApiClient(k8s.AppsV1Api) };
}

/**
 * What the analysis needs from a cluster: Services (allocated nodePorts and healthCheckNodePorts),
 * Pods (host-level ports, nodeName), Nodes (addresses, count, Calico annotation), the kube-system
 * kube-proxy ConfigMap (mode, nodePortAddresses, strictARP) and the kube-system DaemonSets (CNI and
 * kube-proxy images). With `namespaces`, Services and Pods are read from those namespaces only
 * (for users who may not list them cluster-wide).
 */
export function resourceSpecs(namespaces: readonly string[] = []): ResourceSpec[] {
  const perNamespace = (plural: 'services' | 'pods', kind: string, all: ResourceSpec['list'], one: (ns: string) => ResourceSpec['list']): ResourceSpec[] =>
    namespaces.length === 0
      ? [{ id: plural, label: `${kind}s`, permission: `list ${plural} at the cluster scope`, kind, apiVersion: 'v1', path: `/api/v1/${plural}`, list: all }]
      : namespaces.map((ns) => ({ id: `${plural}/${ns}`, label: `${kind}s in ${ns}`, permission: `list ${plural} in namespace ${ns}`, kind, apiVersion: 'v1', path: `/api/v1/namespaces/${ns}/${plural}`, list: one(ns) }));
  return [
    ...perNamespace('services', 'Service', (a, o, p) => a.core.listServiceForAllNamespaces({ ...p }, o), (namespace) => (a, o, p) => a.core.listNamespacedService({ namespace, ...p }, o)),
    ...perNamespace('pods', 'Pod', (a, o, p) => a.core.listPodForAllNamespaces({ ...p }, o), (namespace) => (a, o, p) => a.core.listNamespacedPod({ namespace, ...p }, o)),
    { id: 'nodes', label: 'Nodes', permission: 'list nodes (cluster-scoped)', kind: 'Node', apiVersion: 'v1', path: '/api/v1/nodes', list: (a, o, p) => a.core.listNode({ ...p }, o) },
    {
      id: 'kube-proxy-config', label: 'kube-proxy ConfigMap', permission: 'list configmaps in namespace kube-system', kind: 'ConfigMap', apiVersion: 'v1',
      path: '/api/v1/namespaces/kube-system/configmaps', fieldSelector: 'metadata.name=kube-proxy',
      list: (a, o, p) => a.core.listNamespacedConfigMap({ namespace: 'kube-system', fieldSelector: 'metadata.name=kube-proxy', ...p }, o),
    },
    {
      id: 'kube-system-daemonsets', label: 'DaemonSets in kube-system', permission: 'list daemonsets.apps in namespace kube-system', kind: 'DaemonSet', apiVersion: 'apps/v1',
      path: '/apis/apps/v1/namespaces/kube-system/daemonsets', list: (a, o, p) => a.apps.listNamespacedDaemonSet({ namespace: 'kube-system', ...p }, o),
    },
  ];
}

/** Request options that abort a call after `timeoutMs` (client-side; the API server's own timeout may be longer). */
export function timeoutOptions(timeoutMs: number): ConfigurationOptions {
  const { Observable } = clientNode();
  return {
    middleware: [{
      pre: (ctx) => {
        ctx.setSignal(AbortSignal.timeout(timeoutMs));
        return new Observable(Promise.resolve(ctx));
      },
      post: (res) => new Observable(Promise.resolve(res)),
    }],
    middlewareMergeStrategy: 'append',
  };
}

/**
 * Lists every page of a resource (`limit` + `continue`), each request bounded by `timeoutMs`.
 * @returns all items, with the resourceVersion of the list (the same on every page)
 * @throws the client's error of the first page that failed
 */
export async function listAllPages(spec: ResourceSpec, apis: Apis, timeoutMs: number): Promise<ApiList> {
  const items: unknown[] = [];
  let page: Page = { limit: PAGE_SIZE };
  for (;;) {
    const list = await spec.list(apis, timeoutOptions(timeoutMs), page);
    for (const item of list.items ?? []) items.push(item); // no spread: one page may be large
    const next = list.metadata?._continue;
    if (!next) return { items, metadata: { resourceVersion: list.metadata?.resourceVersion } };
    page = { limit: PAGE_SIZE, _continue: next };
  }
}

/** A list item as plain API JSON (typed client models hold Dates; items of a List carry no kind). */
export function toApiJson(item: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(item ?? {})) as Record<string, unknown>;
}
