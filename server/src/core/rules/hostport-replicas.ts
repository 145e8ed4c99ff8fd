import { HostPortClaim, hostPortClaims } from '../model/claims';
import { describe, MAX_SURGE_PATHS } from '../model/objects';
import type { K8sObject, WorkloadObject } from '../model/objects';
import type { Span } from '../source/span';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';
import { NodeLabels, nodeLabelsOf, nodesSelecting, pinnedNode } from '../kubernetes/scheduler/placement';
import { firstOf } from '../output/first-of';
import { firstFitting } from '../output/fit-message';
import { asRecord } from '../model/views/raw-fields';
import { Autoscaler, autoscalersOf } from '../kubernetes/controller-manager/autoscalers';

const id = 'hostport-replicas';
const REPLICATED_KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);

/** A replicated workload with a host-level port and replicas > 1: at most one pod per node. */
export const hostportReplicas: Rule = {
  id,
  title: 'Replicated workload with a host port',
  severity: 'warning',
  explanation: [
    'A pod that holds a host-level port (a `hostPort`, or a `containerPort` of a `hostNetwork` pod) can run only once',
    "per node: the scheduler's NodePorts filter refuses a second pod claiming the same (hostIP, protocol, port), so",
    'it stays Pending with `node(s) didn\'t have free ports for the requested pod ports`. With `replicas: N` the',
    'workload needs N schedulable nodes, and:',
    '- a **Deployment** rolling update (default `maxSurge: 25%` of the replicas, rounded up) creates new pods before',
    '  removing old ones, so it needs that many spare nodes without the port, or it stalls (set `maxSurge: 0` and',
    '  `maxUnavailable` ≥ 1). With `maxSurge: 0` (or `0%`) or `strategy: {type: Recreate}` (old pods are deleted',
    '  before new ones are created) an update needs no spare node, and the message does not ask for one;',
    '- a **StatefulSet** updates by deleting a pod first, but scaling beyond the number of nodes leaves pods Pending;',
    '- ReplicaSet / ReplicationController: pods beyond the number of nodes stay Pending;',
    '- a **DaemonSet** with `updateStrategy.rollingUpdate.maxSurge` above 0 starts the updated pod on a node while the',
    '  old one still runs there and deletes the old one only once the new one is available (KEP-1591). With a host',
    '  port the new pod cannot be scheduled next to the old one (the port is taken), so every update stalls at its',
    '  first nodes: set `maxSurge: 0` and `maxUnavailable` ≥ 1 (the default).',
    '',
    'When the workspace holds Node objects (exported ones, the config\'s `nodes:`, or the live cluster\'s with',
    '`--cluster`), the message counts those the workload\'s nodeSelector and required node affinity allow: with fewer',
    'of them than replicas, it says how many replicas will stay Pending.',
    '',
    'A HorizontalPodAutoscaler whose `scaleTargetRef` names the workload sets its replicas (`minReplicas`, default 1,',
    'to `maxReplicas`): the workload is replicated when `maxReplicas` is above 1, whatever `spec.replicas` says.',
    '',
    '**Error** when the workload is pinned to one node (`nodeName`, or a `kubernetes.io/hostname` nodeSelector or',
    'required affinity with a single value): only one replica can ever run there, the others stay Pending (or, with',
    '`nodeName`, are rejected by the kubelet: `Predicate NodePorts failed`). Warning otherwise.',
    '',
    'The message quotes the port the node actually holds: the hostPort, or for a hostNetwork pod its containerPort (a',
    'differing hostPort is invalid there and binds nothing).',
    '',
    'A workload that should run once per node is a DaemonSet; one that only needs to be reachable should use a',
    'Service (NodePort/LoadBalancer) instead of a hostPort.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go (NodePorts filter, v1.33)',
    'https://kubernetes.io/docs/tasks/debug/debug-application/debug-pods/#my-pod-stays-pending ("you can only schedule as many Pods as there are nodes")',
    'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#max-surge (v1.33)',
    'kubernetes pkg/controller/deployment/util/deployment_util.go (ResolveFenceposts: maxSurge percentage rounded up, v1.33)',
    'kubernetes pkg/controller/deployment/recreate.go (rolloutRecreate: old ReplicaSets scaled down before the new one is scaled up, v1.33)',
    'https://github.com/kubernetes/enhancements/tree/master/keps/sig-apps/1591-daemonset-surge (a HostPort keeps the surge pod from landing and the rollout from proceeding)',
    'kubernetes pkg/apis/apps/validation/validation.go (ValidateRollingUpdateDaemonSet: no hostPort check, v1.33)',
    'https://kubernetes.io/docs/concepts/configuration/overview/#services (hostPort guidance)',
    'https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/ (the HPA sets spec.replicas between minReplicas and maxReplicas, v1.33)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    let autoscalers: ReadonlyMap<string, Autoscaler> | undefined;
    let nodes: NodeLabels | undefined;
    for (const w of model.workloads) {
      if (w.kind === 'DaemonSet') {
        const surge = daemonSetSurge(w);
        const claims = surge ? hostPortClaims(w).filter((c) => c.container.role === 'container') : [];
        if (surge && claims.length) findings.push(surgeFinding(w, claims, surge));
        continue;
      }
      if (!REPLICATED_KINDS.has(w.kind)) continue;
      const claims = hostPortClaims(w).filter((c) => c.container.role === 'container');
      if (!claims.length) continue;
      const hpa = (autoscalers ??= autoscalersOf(model.objects)).get(`${w.kind}/${w.namespace}/${w.name}`);
      if (hpa && hpa.max > 1) {
        findings.push(autoscaledFinding(w, claims, hpa));
        continue;
      }
      const replicas = w.replicas?.value ?? 1;
      if (replicas <= 1) continue;
      const surge = rolloutSurge(w, replicas);
      const ports = [...new Set(claims.map((c) => `${boundPort(c)}/${c.protocol}`))].join(', ');
      const what = claims[0].hostNetwork ? 'hostNetwork port' : 'hostPort';
      const node = pinnedNode(w);
      // The Nodes the workload may run on, when the workspace declares Nodes (else the cluster's size is unknown).
      const room = node || model.nodes.length === 0 ? undefined : nodesSelecting(w, (nodes ??= nodeLabelsOf(model.nodes)));
      const short = room !== undefined && room.length < replicas;
      // The rollout's spare nodes are the consequence only when the node count is not already the problem.
      const surgeNamed = !node && !short && surge > 0;
      const consequence = node
        ? `it is pinned to node ${node}, where only one pod can hold the port: ${replicas - 1} replica${replicas > 2 ? 's' : ''} will never run`
        : short
          ? `at most one pod per node, and ${room.length ? `the workspace's Nodes it may run on are ${room.length} (${firstOf(room, 3)})` : 'none of the workspace\'s Nodes matches its node selection'}: ${replicas - room.length} replica${replicas - room.length > 1 ? 's' : ''} will stay Pending`
        : surgeNamed
          ? `at most one pod per node, so it needs ${replicas} nodes with the port free, and a rolling update (maxSurge) needs ${spare(surge)}`
          : `at most one pod per node, so it needs ${replicas} nodes with the port free; replicas beyond that stay Pending`;
      const head = `${describe(w)} has replicas: ${replicas} and ${what}${claims.length > 1 ? 's' : ''} ${ports}: ${consequence}`;
      const fix = node ? 'set replicas: 1 or remove the host port' : 'use a DaemonSet, or a Service instead of the host port';
      findings.push({
        ruleId: id,
        severity: node ? 'error' : 'warning',
        // The fix: one replica where the node is fixed; else a DaemonSet (one pod per node by design) or a Service
        // in place of the host port. The scheduler's own words give way to long names.
        message: firstFitting(`${head} ("node(s) didn't have free ports for the requested pod ports"); ${fix}`, `${head}; ${fix}`),
        span: claims[0].span,
        object: refOf(w),
        related: [...(w.replicas ? [{ span: w.replicas.span, message: `replicas: ${replicas}` }] : []), ...(surgeNamed ? writtenSurge(w) : [])],
        fixes: [],
      });
    }
    return findings;
  },
};

/**
 * The port the pod actually holds on the node: the hostPort, except on a hostNetwork pod, whose process
 * binds its containerPort on the node's addresses whatever hostPort says (a hostPort different from the
 * containerPort is invalid there — kubernetes pkg/apis/core/validation/validation.go validatePodHostNetworkDeps, v1.33).
 */
function boundPort(c: HostPortClaim): number {
  return c.hostNetwork ? c.containerPort.containerPort?.value ?? c.port : c.port;
}

/** Where an HPA's `maxReplicas` is written, looked up only for a finding (it decodes the HPA's path index). */
function maxReplicasSpan(a: Autoscaler): Span {
  return a.hpa.paths?.get('spec.maxReplicas') ?? a.hpa.span;
}

/** `one more spare node`, `3 more spare nodes`. */
const spare = (n: number): string => (n === 1 ? 'one more spare node' : `${n} more spare nodes`);

/**
 * The pods a rollout runs beyond `replicas`, each needing a node with the port free: only a Deployment surges. None
 * for `strategy.type: Recreate` (old pods are deleted first) or `maxSurge` 0 / `0%`; else `maxSurge`, a percentage
 * of the replicas rounded up (default 25%), as ResolveFenceposts does. A value it cannot read counts as the default.
 * Sources: kubernetes pkg/controller/deployment/recreate.go, pkg/controller/deployment/util/deployment_util.go, v1.33.
 */
function rolloutSurge(w: WorkloadObject, replicas: number): number {
  if (w.kind !== 'Deployment') return 0;
  if (asRecord(asRecord(w.raw.spec).strategy).type === 'Recreate') return 0;
  const written = writtenMaxSurge(w)?.value;
  if (typeof written === 'number' && Number.isInteger(written) && written >= 0) return written;
  const percent = typeof written === 'string' ? /^(\d+)%$/.exec(written)?.[1] : undefined;
  return Math.ceil(((percent === undefined ? 25 : Number(percent)) * replicas) / 100);
}

/**
 * The `rollingUpdate.maxSurge` a Deployment or DaemonSet writes ({@link MAX_SURGE_PATHS}) and where (the loader
 * records its span in `paths`); undefined when it is not written (a default) or the kind has none.
 */
function writtenMaxSurge(w: WorkloadObject): { value: unknown; span?: Span } | undefined {
  const path = Object.hasOwn(MAX_SURGE_PATHS, w.kind) ? MAX_SURGE_PATHS[w.kind] : undefined;
  if (!path) return undefined;
  let value: unknown = w.raw;
  for (const step of path) value = asRecord(value)[step];
  return value === undefined ? undefined : { value, span: w.paths?.get(path.join('.')) };
}

/** The written maxSurge as a related location of a finding that names the rollout's spare nodes (none for a default). */
function writtenSurge(w: WorkloadObject): { span: Span; message: string }[] {
  const written = writtenMaxSurge(w);
  return written?.span ? [{ span: written.span, message: `maxSurge: ${String(written.value)}` }] : [];
}

/**
 * A DaemonSet's `updateStrategy.rollingUpdate.maxSurge` when it is above 0 (an integer, or a percentage above 0%,
 * which the controller rounds up to at least 1), with where it is written; undefined for the default 0, for
 * `OnDelete`, and for values it cannot read.
 */
function daemonSetSurge(w: WorkloadObject): { text: string; span?: Span } | undefined {
  if (asRecord(asRecord(w.raw.spec).updateStrategy).type === 'OnDelete') return undefined;
  const written = writtenMaxSurge(w);
  const value = written?.value;
  const above0 = typeof value === 'number' ? Number.isInteger(value) && value > 0 : typeof value === 'string' && /^0*[1-9]\d*%$/.test(value);
  if (!above0) return undefined;
  return { text: String(value), span: written?.span };
}

function surgeFinding(w: WorkloadObject, claims: readonly HostPortClaim[], surge: { text: string; span?: Span }): Finding {
  const ports = [...new Set(claims.map((c) => `${boundPort(c)}/${c.protocol}`))].join(', ');
  const what = claims[0].hostNetwork ? 'hostNetwork port' : 'hostPort';
  return {
    ruleId: id,
    severity: 'warning',
    message: `${describe(w)} has maxSurge ${surge.text} and ${what}${claims.length > 1 ? 's' : ''} ${ports}: an update starts the new pod on a node whose old pod still holds the port, so it stays Pending and the update stalls; set maxSurge: 0 and maxUnavailable: 1`,
    span: claims[0].span,
    object: refOf(w),
    related: surge.span ? [{ span: surge.span, message: `maxSurge: ${surge.text}` }] : [],
    fixes: [],
  };
}

function autoscaledFinding(w: WorkloadObject, claims: readonly HostPortClaim[], a: Autoscaler): Finding {
  const surge = rolloutSurge(w, a.max);
  const ports = [...new Set(claims.map((c) => `${boundPort(c)}/${c.protocol}`))].join(', ');
  const what = claims[0].hostNetwork ? 'hostNetwork port' : 'hostPort';
  const node = pinnedNode(w);
  const consequence = node
    ? `it is pinned to node ${node}, where only one pod can hold the port: the others never run`
    : `one pod per node, so it needs up to ${a.max} nodes with the port free${surge > 0 ? `, plus ${surge === 1 ? 'one' : surge} for a rolling update` : ''}`;
  return {
    ruleId: id,
    severity: node ? 'error' : 'warning',
    message: `${describe(w)} is scaled to ${a.min}-${a.max} replicas by ${describe(a.hpa)} and has ${what}${claims.length > 1 ? 's' : ''} ${ports}: ${consequence}; use a DaemonSet or a Service`,
    span: claims[0].span,
    object: refOf(w),
    related: [{ span: maxReplicasSpan(a), message: `maxReplicas: ${a.max} of ${describe(a.hpa)}` }, ...(surge > 0 && !node ? writtenSurge(w) : [])],
    fixes: [],
  };
}
