import type { LoadedFile } from '../core/load/load-file';
import { mergeClusterObjects } from '../core/model/merge-cluster-objects';
import type { K8sObject } from '../core/model/objects';
import type { Finding } from '../core/rules/rule';
import { isVirtualFile } from '../core/source/span';
import { readCluster } from './read-cluster';

/** `--require-cluster` and the cluster could not be read whole: the command exits 2 with this message. */
export class ClusterUnavailableError extends Error {}

/**
 * Reads the live cluster for the CLI and merges it under the workspace (workspace objects replace their
 * cluster twins). The kubeconfig comes from the environment only (KUBECONFIG, else ~/.kube/config).
 * Reports one status line on stderr. An unusable cluster leaves the workspace analysis alone, unless `required`.
 * @throws ClusterUnavailableError when `required` and some list of the cluster was not read (the status says why)
 */
export async function clusterObjectsForCli(context: string, files: readonly LoadedFile[], stderr: (text: string) => void, timeoutMs?: number, required = false): Promise<readonly K8sObject[]> {
  const snapshot = await readCluster({ context: context || undefined, env: process.env, timeoutMs });
  if (required && snapshot.status.state !== 'connected') throw new ClusterUnavailableError(`--require-cluster: ${snapshot.status.message}`);
  const merge = mergeClusterObjects(files.flatMap((f) => f.objects), snapshot.objects);
  const shadowed = merge.shadowed.length ? `; ${merge.shadowed.length} replaced by workspace manifests` : '';
  stderr(`kube-netlint: ${snapshot.status.message}${snapshot.status.state === 'connected' || snapshot.status.state === 'partial' ? shadowed : ''}\n`);
  return merge.objects;
}

/**
 * Whether to show a finding once the cluster joined the analysis: notices (info, hint) about cluster
 * objects alone are dropped — they are about objects the workspace does not manage (every running
 * ingress controller's hostPort…). Findings on workspace files, findings that name a workspace file,
 * and cluster warnings and errors (e.g. calico-node-address-mismatch) are kept.
 */
export function keepClusterFinding(f: Finding): boolean {
  if (!f.span.file.startsWith('cluster:')) return true;
  if (f.severity === 'error' || f.severity === 'warning') return true;
  return f.related.some((r) => !isVirtualFile(r.span.file));
}
