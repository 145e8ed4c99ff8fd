import { fromApiObject } from '../core/model/from-api-object';
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
  readonly status: ClusterStatus;
}

/** Converts the items of one list (typed client models or watch JSON) into model objects. */
export function convertItems(items: readonly unknown[], spec: Pick<ResourceSpec, 'kind' | 'apiVersion'>, context: string): K8sObject[] {
  const out: K8sObject[] = [];
  for (const item of items) {
    const obj = fromApiObject(toApiJson(item), context, { kind: spec.kind, apiVersion: spec.apiVersion });
    if (obj) out.push(obj);
  }
  return out;
}

/**
 * Lists every resource once, in parallel, each call bounded by the timeout. A failed list (Forbidden,
 * timeout, unreachable) leaves that resource out and says so in the status; the others are kept.
 */
export async function listOnce(loaded: LoadedKubeconfig, apis: Apis, specs: readonly ResourceSpec[], timeoutMs: number): Promise<{ objects: K8sObject[]; resources: ResourceStatus[]; resourceVersions: Map<string, string> }> {
  const objects: K8sObject[] = [];
  const resourceVersions = new Map<string, string>();
  const resources = await Promise.all(
    specs.map(async (spec): Promise<ResourceStatus> => {
      try {
        const list = await listAllPages(spec, apis, timeoutMs);
        const converted = convertItems(list.items ?? [], spec, loaded.context);
        for (const o of converted) objects.push(o); // no spread: a cluster may hold 100,000s of Pods
        if (list.metadata?.resourceVersion) resourceVersions.set(spec.id, list.metadata.resourceVersion);
        return { id: spec.id, label: spec.label, state: 'ok', count: converted.length };
      } catch (err) {
        return classifyError(err, spec, timeoutMs, loaded.redactor);
      }
    }),
  );
  return { objects, resources, resourceVersions };
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
    return { context: options.context ?? '', objects: [], status: kubeconfigStatus(err, options.context) };
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { objects, resources } = await listOnce(loaded, makeApis(loaded.kc), resourceSpecs(options.namespaces), timeoutMs);
  const status = summarize(loaded.context, loaded.server, resources, new Date());
  return { context: loaded.context, objects, status };
}
