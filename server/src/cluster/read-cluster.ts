import type { LoadedFile } from '../core/load/load-file';
import { clusterObjectFile } from '../core/model/from-api-object';
import type { K8sObject } from '../core/model/objects';
import { KubeconfigError, KubeconfigOptions, LoadedKubeconfig, loadKubeconfig } from './kubeconfig';
import { Apis, listAllPages, makeApis, ResourceSpec, resourceSpecs, toApiJson } from './resources';
import { classifyError, ClusterStatus, ResourceStatus, summarize } from './status';

/** Default client-side timeout of one API call, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 5000;

export interface ClusterReadOptions extends KubeconfigOptions {
  /** Read Services and Pods from these namespaces only (default: all namespaces). */
  readonly namespaces?: readonly string[];
  /** Client-side timeout of each API call in milliseconds (default 5000). */
  readonly timeoutMs?: number;
}

/** Objects read from a cluster and how the read went. */
export interface ClusterSnapshot {
  readonly context: string;
  /** Converted objects (origin `cluster`), not yet merged with the workspace. */
  readonly objects: readonly K8sObject[];
  /** The read-only view of each object (same order as `objects`): the YAML text its spans point into. */
  readonly views: readonly LoadedFile[];
  readonly status: ClusterStatus;
}

/** A converted item's key: the same uid at the same resourceVersion is the same object (undefined when the item has neither). */
export function itemVersion(item: unknown): string | undefined {
  const meta = (item as { metadata?: { uid?: unknown; resourceVersion?: unknown } } | undefined)?.metadata;
  return typeof meta?.uid === 'string' && typeof meta.resourceVersion === 'string' ? `${meta.uid}@${meta.resourceVersion}` : undefined;
}

/** Work done between two yields of {@link convertItems}, in milliseconds: the language server answers in between. */
const CONVERT_SLICE_MS = 20;

/**
 * Converts the items of one list (typed client models or watch JSON) into the read-only views of their
 * objects (see {@link clusterObjectFile}). Writing and reading each object's YAML costs about a millisecond per
 * kilobyte, so the work is done in slices of {@link CONVERT_SLICE_MS}, yielding to the event loop in between (a
 * language server reading 5,000 Pods keeps answering hovers and edits). With a `cache`, views are kept by
 * {@link itemVersion}: an item that did not change since the cache's last conversion is not written and read
 * again (a watch event on one Pod must not re-convert them all); the cache then holds this conversion's views only.
 */
export async function convertItems(items: readonly unknown[], spec: Pick<ResourceSpec, 'kind' | 'apiVersion'>, context: string, cache?: Map<string, LoadedFile>): Promise<LoadedFile[]> {
  const out: LoadedFile[] = [];
  const kept = new Map<string, LoadedFile>();
  let sliceStart = performance.now();
  for (const item of items) {
    const key = cache && itemVersion(item);
    let view = key ? cache.get(key) : undefined;
    if (!view) {
      view = clusterObjectFile(toApiJson(item), context, { kind: spec.kind, apiVersion: spec.apiVersion });
      if (performance.now() - sliceStart > CONVERT_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    if (!view) continue;
    out.push(view);
    if (key) kept.set(key, view);
  }
  if (cache) {
    cache.clear();
    for (const [k, v] of kept) cache.set(k, v);
  }
  return out;
}

/**
 * Lists every resource once, in parallel, each call bounded by the timeout. A failed list (Forbidden,
 * timeout, unreachable) leaves that resource out and says so in the status; the others are kept.
 * `caches` (by resource id, see {@link convertItems}) keeps unchanged objects from the previous list.
 */
export async function listOnce(loaded: LoadedKubeconfig, apis: Apis, specs: readonly ResourceSpec[], timeoutMs: number, caches?: Map<string, Map<string, LoadedFile>>): Promise<{ objects: K8sObject[]; views: LoadedFile[]; resources: ResourceStatus[]; resourceVersions: Map<string, string> }> {
  const objects: K8sObject[] = [];
  const views: LoadedFile[] = [];
  const resourceVersions = new Map<string, string>();
  const resources = await Promise.all(
    specs.map(async (spec): Promise<ResourceStatus> => {
      try {
        const list = await listAllPages(spec, apis, timeoutMs);
        let cache = caches?.get(spec.id);
        if (caches && !cache) caches.set(spec.id, (cache = new Map()));
        const converted = await convertItems(list.items ?? [], spec, loaded.context, cache);
        for (const v of converted) {
          // no spread: a cluster may hold 100,000s of Pods
          views.push(v);
          objects.push(v.objects[0]);
        }
        if (list.metadata?.resourceVersion) resourceVersions.set(spec.id, list.metadata.resourceVersion);
        return { id: spec.id, label: spec.label, state: 'ok', count: converted.length };
      } catch (err) {
        return classifyError(err, spec, timeoutMs, loaded.redactor);
      }
    }),
  );
  return { objects, views, resources, resourceVersions };
}

/** The status for a kubeconfig that could not be used. */
export function kubeconfigStatus(err: unknown, context: string | undefined): ClusterStatus {
  const message = err instanceof KubeconfigError ? err.message : `kubeconfig could not be loaded (${(err as Error)?.name ?? 'error'})`;
  return { state: 'error', context: context ?? '', message: `cluster: ${message}`, resources: [] };
}

/**
 * Reads the cluster once (the CLI's `--cluster`): loads the kubeconfig like kubectl, lists Services,
 * Pods, Nodes, the kube-proxy ConfigMap and kube-system DaemonSets. Never throws: a missing
 * kubeconfig or context, an unreachable server or a Forbidden list end up in `status`.
 */
export async function readCluster(options: ClusterReadOptions = {}): Promise<ClusterSnapshot> {
  let loaded: LoadedKubeconfig;
  try {
    loaded = loadKubeconfig(options);
  } catch (err) {
    return { context: options.context ?? '', objects: [], views: [], status: kubeconfigStatus(err, options.context) };
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { objects, views, resources } = await listOnce(loaded, makeApis(loaded.kc), resourceSpecs(options.namespaces), timeoutMs);
  const status = summarize(loaded.context, loaded.server, resources, new Date());
  return { context: loaded.context, objects, views, status };
}
