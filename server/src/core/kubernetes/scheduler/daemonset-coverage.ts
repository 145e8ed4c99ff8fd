import type { NodeRequirement, WorkloadObject } from '../../model/objects';
import { EVERY_NODE_LABELS, nodeTerms } from './placement';

export { EVERY_NODE_LABELS } from './placement';

/** Operators that keep only the nodes carrying a label (NotIn / DoesNotExist exclude some nodes and keep the rest). */
const SELECTING: ReadonlySet<NodeRequirement['operator']> = new Set(['In', 'Exists', 'Gt', 'Lt']);

function requirementText(r: NodeRequirement): string {
  switch (r.operator) {
    case 'In': return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(', ')})`;
    case 'NotIn': return `${r.key} not in (${r.values.join(', ')})`;
    case 'Exists': return r.key;
    case 'DoesNotExist': return `!${r.key}`;
    case 'Gt': return `${r.key} > ${r.values[0]}`;
    case 'Lt': return `${r.key} < ${r.values[0]}`;
  }
}

/**
 * For a DaemonSet whose nodeSelector or required node affinity selects only some nodes, the selection as
 * text (`node-role=ingress`, `zone in (a, b) or edge`); undefined when it runs on every node (no selection,
 * or only OS/architecture labels, or a term that only excludes nodes with NotIn / DoesNotExist) and for
 * other kinds. A DaemonSet puts one pod on every node its selection allows
 * (https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#running-pods-on-select-nodes, v1.33);
 * taints and tolerations are not considered.
 */
export function daemonSetRestriction(w: WorkloadObject): string | undefined {
  return w.kind === 'DaemonSet' ? nodeSelectionText(w) : undefined;
}

/**
 * The node selection of any workload's pods as text (`node-role=ingress`, `zone in (a, b) or edge`, pinned pods
 * as `kubernetes.io/hostname=node-1`), from nodeSelector, required node affinity and nodeName; undefined when the
 * pods may run on every node (no selection, only OS/architecture labels, or a term that only excludes nodes).
 */
export function nodeSelectionText(w: WorkloadObject): string | undefined {
  const terms = nodeTerms(w).map((t) => t.filter((r) => !EVERY_NODE_LABELS.has(r.key)));
  // ORed terms: one term that keeps (nearly) every node means the DaemonSet runs on (nearly) every node.
  if (terms.some((t) => !t.some((r) => SELECTING.has(r.operator)))) return undefined;
  return terms.map((t) => t.map(requirementText).join(', ')).join(' or ');
}
