import type { CoreConfig } from '../config/config';
import { daemonSetRestriction, nodeSelectionText } from '../kubernetes/scheduler/daemonset-coverage';
import { nodeLabelsOf, nodesSelecting, pinnedNode } from '../kubernetes/scheduler/placement';
import type { WorkloadObject } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import { addressKey, nodeAddressIndex } from '../rules/externalip-is-node-ip';
import type { NodeClaim } from './node-claims';
import { firstOf } from '../output/first-of';

/**
 * The nodes a claim holds its port on:
 * - `every-node`: kube-proxy's ports (nodePort, healthCheckNodePort, externalIP), the kubelet, a DaemonSet
 *   without a node selection;
 * - `control-plane`: control-plane components;
 * - `selection`: a DaemonSet (one pod per selected node) or a component run by one, with the selection as text;
 * - `pinned`: pods pinned to one node (`nodeName`, or a single `kubernetes.io/hostname` value);
 * - `scheduled`: the pods of any other workload, on nodes the scheduler picks (`replicas` of them when known,
 *   within `selector` when the pods select nodes);
 * - `none`: the claim takes no port (see {@link NodeClaim.inactive}).
 */
export type NodeScope =
  | { readonly kind: 'every-node' }
  | { readonly kind: 'control-plane' }
  | { readonly kind: 'selection'; readonly selector: string }
  | { readonly kind: 'pinned'; readonly node: string }
  | { readonly kind: 'scheduled'; readonly replicas?: number; readonly selector?: string }
  | { readonly kind: 'none'; readonly reason: string };

/** Where a claim applies, for display and data. */
export interface ClaimNodes {
  readonly scope: NodeScope;
  /** One line: `every node`, `DaemonSet on node-role=ingress (node-3)`, `3 replicas on nodes the scheduler picks`. */
  readonly text: string;
  /**
   * Names of the workspace's Node objects the claim applies to (for `scheduled`: the nodes the pods may land on);
   * undefined when the workspace has no Node objects.
   */
  readonly names?: readonly string[];
  /** externalIP claims: the Node whose address the externalIP is, when one is. */
  readonly addressOf?: string;
}

const CONTROL_PLANE_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/** Replica count of a workload's pods, when the manifest says (Pod: 1; Deployment, StatefulSet, …: `replicas`, default 1). */
function replicasOf(w: WorkloadObject): number | undefined {
  if (w.kind === 'Pod') return 1;
  if (['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'].includes(w.kind)) return w.replicas?.value ?? 1;
  return undefined; // Job, CronJob: parallelism is a ceiling, not a count (0, which runs none, is in idleWorkload)
}

/**
 * Computes {@link ClaimNodes} for the claims of one model. Node names come from the model's Node objects (the
 * kubernetes.io/hostname label included); taints are not known and nodes are assumed untainted.
 */
export function claimNodesResolver(model: WorkspaceModel, config: CoreConfig): (claim: NodeClaim) => ClaimNodes {
  const labels = nodeLabelsOf(model.nodes);
  const all = labels.size ? [...labels.keys()] : undefined;
  const addresses = nodeAddressIndex(model, config);
  const matching = (w: WorkloadObject): string[] | undefined => (all ? nodesSelecting(w, labels) : undefined);
  const ofWorkload = (w: WorkloadObject): ClaimNodes => {
    const pinned = pinnedNode(w);
    if (pinned !== undefined) return { scope: { kind: 'pinned', node: pinned }, text: `node ${pinned}`, names: [pinned] };
    if (w.kind === 'DaemonSet') {
      const selector = daemonSetRestriction(w);
      const names = matching(w);
      if (selector === undefined) return { scope: { kind: 'every-node' }, text: 'every node', names };
      return { scope: { kind: 'selection', selector }, text: `DaemonSet on ${selector}${nameList(names)}`, names };
    }
    const replicas = replicasOf(w);
    const selector = nodeSelectionText(w);
    const names = matching(w);
    const count = replicas === undefined ? `pods of the ${w.kind}` : `${replicas} replica${replicas === 1 ? '' : 's'}`;
    const where = selector ? `on ${selector}` : 'on nodes the scheduler picks';
    return { scope: { kind: 'scheduled', replicas, selector }, text: `${count} ${where}${nameList(names)}`, names };
  };
  return (claim) => {
    if (claim.inactive) return { scope: { kind: 'none', reason: claim.inactive }, text: 'none' };
    switch (claim.kind) {
      case 'nodePort':
      case 'healthCheckNodePort':
        return { scope: { kind: 'every-node' }, text: 'every node', names: all };
      case 'externalIP': {
        const owner = claim.address === undefined ? undefined : addresses.get(addressKey(claim.address))?.[0]?.node;
        return { scope: { kind: 'every-node' }, text: owner ? `every node (${claim.address} is the address of Node ${owner})` : 'every node', names: all, addressOf: owner };
      }
      case 'hostPort':
      case 'hostNetwork':
        return ofWorkload(claim.object as WorkloadObject);
      case 'component': {
        const row = claim.component!;
        if (row.scope === 'control-plane') {
          const names = all?.filter((n) => CONTROL_PLANE_LABELS.some((k) => k in labels.get(n)!));
          return { scope: { kind: 'control-plane' }, text: `control-plane nodes${nameList(names)}`, names };
        }
        if (row.scope !== 'every-node' && claim.object?.category === 'workload') return ofWorkload(claim.object);
        return { scope: { kind: 'every-node' }, text: 'every node', names: all };
      }
    }
  };
}

/** ` (node-1, node-2)`; `` when the workspace has no Node objects; ` (no declared node)` for none. */
function nameList(names: readonly string[] | undefined): string {
  if (!names) return '';
  if (names.length === 0) return ' (none declared)';
  return ` (${firstOf(names, 5)})`;
}
