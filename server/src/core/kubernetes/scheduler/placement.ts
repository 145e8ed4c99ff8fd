import type { NodeRequirement, WorkloadObject } from '../../model/objects';

/**
 * Whether two workloads' pods can run on the same node, judged from their manifests only:
 * - `never`: their node constraints exclude each other (e.g. `nodeSelector` `zone: a` vs `zone: b`, or
 *   pinned to two different nodes);
 * - `certain`: one of them runs on every node it allows (a DaemonSet, or a pod pinned to one node) and the
 *   other may only run on nodes among those (two DaemonSets where one's selection contains the other's, a
 *   DaemonSet and a pod pinned to a node it covers, two pods pinned to the same node);
 * - `possible`: anything else.
 */
export type Meeting = 'certain' | 'possible' | 'never';

/**
 * Node labels every node of a (single-OS, single-architecture) cluster carries with the same value: a
 * selector on them is taken to match every node. The kubelet sets them (k8s.io/api/core/v1
 * well_known_labels.go, https://kubernetes.io/docs/reference/labels-annotations-taints/, v1.33). Mixed-OS or
 * mixed-architecture clusters are the exception this accepts, to stay quiet on the many DaemonSets that
 * select `kubernetes.io/os: linux`. Two selections that name different values still never meet.
 */
export const EVERY_NODE_LABELS: ReadonlySet<string> = new Set(['kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch']);

/** The well-known node label the kubelet sets to the node's hostname (k8s.io/api/core/v1 well_known_labels.go). */
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** A conjunction of node requirements; a workload's selection is a disjunction (OR) of these. */
type Term = readonly NodeRequirement[];

/** Labels of the nodes the workspace declares (Node objects), by node name; used to resolve pinned pods. */
export type NodeLabels = ReadonlyMap<string, Readonly<Record<string, string>>>;

/**
 * A workload's node selection as ORed terms: `nodeSelector` (ANDed into every term) with each required
 * node-affinity term (`requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`, ORed — kubernetes
 * pkg/scheduler/framework/plugins/nodeaffinity, v1.33). `nodeName` counts as `kubernetes.io/hostname In
 * [name]`: it bypasses the scheduler, and the hostname label equals the node name on kubeadm/kubelet
 * defaults (an ASSUMPTION: clouds that set another hostname break it). Taints and tolerations are ignored:
 * nodes are assumed untainted, as the linter cannot know them.
 */
export function nodeTerms(w: WorkloadObject, nodes: NodeLabels = new Map()): Term[] {
  const base: NodeRequirement[] = Object.entries(w.pod.nodeSelector).map(([key, v]) => ({ key, operator: 'In', values: [v] }));
  if (w.pod.nodeName?.value) base.push({ key: HOSTNAME_LABEL, operator: 'In', values: [w.pod.nodeName.value] });
  const terms = w.pod.nodeAffinityTerms.length ? w.pod.nodeAffinityTerms.map((t) => [...base, ...t]) : [base];
  // A term pinned to a declared Node also carries that node's labels, so `certain` can be proven.
  return terms.map((t) => {
    const node = pinnedIn(t);
    const labels = node === undefined ? undefined : nodes.get(node);
    return labels ? [...t, ...Object.entries(labels).map(([key, v]): NodeRequirement => ({ key, operator: 'In', values: [v] }))] : t;
  });
}

/** The node a workload is pinned to (`nodeName`, or a single-valued `kubernetes.io/hostname` requirement in every term). */
export function pinnedNode(w: WorkloadObject): string | undefined {
  const names = new Set(nodeTerms(w).map(pinnedIn));
  const [only] = names;
  return names.size === 1 && only !== undefined ? only : undefined;
}

function pinnedIn(term: Term): string | undefined {
  const allowed = summarize(term, HOSTNAME_LABEL).allowed;
  return allowed && allowed.size === 1 ? [...allowed][0] : undefined;
}

/** True when the workload has a pod on every node its selection allows: a DaemonSet, or a pod pinned to one node. */
export function coversItsNodes(w: WorkloadObject): boolean {
  return w.kind === 'DaemonSet' || pinnedNode(w) !== undefined;
}

/** See {@link Meeting}. `nodes` (Node objects of the workspace) lets a pod pinned to a declared node be matched against selectors. */
export function canShareNode(a: WorkloadObject, b: WorkloadObject, nodes: NodeLabels = new Map()): Meeting {
  const ta = nodeTerms(a, nodes);
  const tb = nodeTerms(b, nodes);
  if (!ta.some((x) => tb.some((y) => satisfiable([...x, ...y])))) return 'never';
  if (coversItsNodes(a) && within(tb, ta)) return 'certain';
  if (coversItsNodes(b) && within(ta, tb)) return 'certain';
  return 'possible';
}

/**
 * True when a node with these labels (the hostname label included, see {@link nodeLabelsOf}) satisfies the
 * workload's node selection (some ORed term holds entirely). Gt/Lt compare the label value as an integer,
 * as the scheduler does (kubernetes staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity, v1.33).
 * A requirement on a key of `assumedPresent` that the labels lack holds (labels the kubelet sets on every node,
 * which trimmed Node exports often leave out).
 */
export function selectsNode(w: WorkloadObject, labels: Readonly<Record<string, string>>, assumedPresent: ReadonlySet<string> = new Set()): boolean {
  return nodeTerms(w).some((term) => term.every((r) => (assumedPresent.has(r.key) && !(r.key in labels)) || requirementHolds(r, labels)));
}

function requirementHolds(r: NodeRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case 'In': return has && r.values.includes(value);
    case 'NotIn': return !has || !r.values.includes(value);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'Gt':
    case 'Lt': {
      const [n, bound] = [Number.parseInt(value, 10), Number.parseInt(r.values[0] ?? '', 10)];
      if (!has || Number.isNaN(n) || Number.isNaN(bound)) return false;
      return r.operator === 'Gt' ? n > bound : n < bound;
    }
  }
}

/** Node labels of the workspace's Node objects, by name. */
export function nodeLabelsOf(nodes: readonly { name: string; nodeLabels: Readonly<Record<string, string>> }[]): NodeLabels {
  return new Map(nodes.map((n) => [n.name, { [HOSTNAME_LABEL]: n.name, ...n.nodeLabels }]));
}

/**
 * Names of the nodes (labels by name, from {@link nodeLabelsOf}) that satisfy the workload's node selection
 * ({@link selectsNode}, the labels every node carries taken as present). Taints are not known: nodes are taken as
 * untainted.
 */
export function nodesSelecting(w: WorkloadObject, nodes: NodeLabels): string[] {
  return [...nodes].filter(([, labels]) => selectsNode(w, labels, EVERY_NODE_LABELS)).map(([name]) => name);
}

interface KeySummary {
  /** Values the key must take (intersection of `In`s); undefined = unrestricted. */
  allowed?: Set<string>;
  forbidden: Set<string>;
  mustExist: boolean;
  mustNotExist: boolean;
  /** Gt/Lt requirements, compared only for equality. */
  numeric: NodeRequirement[];
}

function summarize(term: Term, key: string): KeySummary {
  const s: KeySummary = { forbidden: new Set(), mustExist: false, mustNotExist: false, numeric: [] };
  for (const r of term) {
    if (r.key !== key) continue;
    if (r.operator === 'In') {
      s.allowed = new Set(s.allowed ? r.values.filter((v) => s.allowed!.has(v)) : r.values);
      s.mustExist = true;
    } else if (r.operator === 'NotIn') r.values.forEach((v) => s.forbidden.add(v));
    else if (r.operator === 'Exists') s.mustExist = true;
    else if (r.operator === 'DoesNotExist') s.mustNotExist = true;
    else s.numeric.push(r);
  }
  if (s.allowed) s.forbidden.forEach((v) => s.allowed!.delete(v));
  return s;
}

/** False when some label key's requirements contradict each other (Gt/Lt are assumed satisfiable). */
function satisfiable(term: Term): boolean {
  for (const key of new Set(term.map((r) => r.key))) {
    const s = summarize(term, key);
    if ((s.allowed && s.allowed.size === 0) || (s.mustExist && s.mustNotExist)) return false;
  }
  return true;
}

/** True when every node matching `inner` matches `outer` (sufficient test: each inner term implies some outer term). */
function within(inner: readonly Term[], outer: readonly Term[]): boolean {
  // An OS / architecture requirement of `outer` holds on every node (EVERY_NODE_LABELS) unless `inner` contradicts it.
  return inner.every((y) => !satisfiable(y) || outer.some((x) => x.every((r) => implies(y, r) || (EVERY_NODE_LABELS.has(r.key) && satisfiable([...y, r])))));
}

function implies(term: Term, r: NodeRequirement): boolean {
  const s = summarize(term, r.key);
  switch (r.operator) {
    case 'In':
      return !!s.allowed && [...s.allowed].every((v) => r.values.includes(v));
    case 'NotIn':
      return s.mustNotExist || (!!s.allowed && [...s.allowed].every((v) => !r.values.includes(v))) || r.values.every((v) => s.forbidden.has(v));
    case 'Exists':
      return s.mustExist;
    case 'DoesNotExist':
      return s.mustNotExist;
    default:
      return s.numeric.some((n) => n.operator === r.operator && n.values.join() === r.values.join());
  }
}
