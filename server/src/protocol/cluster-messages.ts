/**
 * Custom LSP messages of the live-cluster feature, shared by the language server and the
 * VS Code client. Plain types and method names only.
 *
 * SECURITY: cluster settings (kubeconfig path, context) reach the server only through
 * {@link CLUSTER_SETTINGS_NOTIFICATION} (the VS Code client sends the *user-level* values only) or
 * `initializationOptions.kubeNetlint.cluster` (other editors: the user's own editor config) — never
 * through `workspace/configuration`, which merges workspace settings in.
 */

/** Client → server: the user-scoped cluster settings (sent after start and on every change). */
export const CLUSTER_SETTINGS_NOTIFICATION = 'kubeNetlint/clusterSettings';

/** Settings `kubeNetlint.cluster.*`. */
export interface ClusterSettings {
  /** Read the live cluster (default false). */
  readonly enabled?: boolean;
  /** kubeconfig context; empty = the kubeconfig's current-context. */
  readonly context?: string;
  /** kubeconfig file; empty = KUBECONFIG, else ~/.kube/config. */
  readonly kubeconfig?: string;
  /** 0 = watch (default); N > 0 = re-read every N seconds. */
  readonly refreshSeconds?: number;
  /** Namespaces to read Services and Pods from; empty = all. */
  readonly namespaces?: readonly string[];
}

/** Server → client: the cluster's status after every change (also when cluster findings changed). */
export const CLUSTER_STATUS_NOTIFICATION = 'kubeNetlint/clusterStatus';

export interface ClusterStatusParams {
  /** `disabled`, `connecting`, `connected`, `partial`, `unreachable`, `error`. */
  readonly state: string;
  readonly context: string;
  /** One line: what was read or what is missing (never credentials). */
  readonly message: string;
  /** ISO time of the last successful read. */
  readonly lastSync?: string;
  /** Objects read from the cluster. */
  readonly objects: number;
  /** Findings located in cluster objects (shown in the "kube-netlint: Cluster" view). */
  readonly findings: number;
}

/** Client → server request: the findings located in cluster objects, grouped by object. */
export const CLUSTER_FINDINGS_REQUEST = 'kubeNetlint/clusterFindings';

export interface ClusterFindingItem {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  /** Where the finding is in the object's read-only view (0-based LSP positions; absent when the view is gone). */
  readonly range?: { readonly start: { readonly line: number; readonly character: number }; readonly end: { readonly line: number; readonly character: number } };
  /** Other places the finding names: a workspace file (uri + 0-based line) or another cluster object (file only). */
  readonly related: readonly { readonly file: string; readonly uri?: string; readonly line?: number; readonly message: string }[];
}

export interface ClusterObjectGroup {
  /** `cluster:<context>/<kind>/<namespace>/<name>`. */
  readonly file: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly findings: readonly ClusterFindingItem[];
}

/** Client → server request `{file}` → the object as YAML (for a read-only view), or null when unknown. */
export const CLUSTER_OBJECT_REQUEST = 'kubeNetlint/clusterObject';

/** Client → server request: read the cluster again now ("kube-netlint: Refresh Cluster"). */
export const CLUSTER_REFRESH_REQUEST = 'kubeNetlint/refreshCluster';

/** URI scheme of the read-only YAML views of cluster objects. */
export const CLUSTER_URI_SCHEME = 'kube-netlint-cluster';

/** `cluster:prod/Service/shop/web` → `kube-netlint-cluster:/prod/Service/shop/web.yaml` (percent-encoded segments). */
export function clusterUri(file: string): string {
  const path = file.replace(/^cluster:/, '').split('/').map(encodeURIComponent).join('/');
  return `${CLUSTER_URI_SCHEME}:/${path}.yaml`;
}

/** The inverse of {@link clusterUri} (a `#L12` fragment, as hover links carry, is ignored). */
export function clusterFileOfUri(uri: string): string | undefined {
  const m = new RegExp(`^${CLUSTER_URI_SCHEME}:/([^#?]*)\\.yaml(?:[#?].*)?$`).exec(uri);
  if (!m) return undefined;
  try {
    return `cluster:${m[1].split('/').map(decodeURIComponent).join('/')}`;
  } catch {
    return undefined; // a malformed percent escape: no such object
  }
}
