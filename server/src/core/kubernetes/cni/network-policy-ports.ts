import type { K8sObject, ServiceObject, ServicePort, WorkloadObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import type { LabelSelector } from '../../model/views/label-selector';
import type { NetworkPolicyView, PolicyPeer, PolicyRule } from '../../model/views/network-policy';
import { labelSelectorMatches, selectsEverything } from '../api-server/label-selector';
import { podSelectorMatches } from '../controller-manager/pod-labels';
import { resolveTargetPort } from '../controller-manager/find-port';

/**
 * How network plugins match a NetworkPolicy's `ports[]` against a Pod. The API only says "a numerical or
 * named port on a pod"; the CNI resolves a name to a number per Pod from its container ports (Calico maps
 * name **and** protocol; init-container ports count since Calico PR #8885, 2024) and matches the
 * destination port of the packet — **after** kube-proxy's DNAT, so traffic sent to a Service arrives with the
 * Pod's port (the Service's targetPort), never the Service `port` ("k8s NP is defined in terms of pods, not
 * services", projectcalico/calico#2088). `endPort` widens a numeric `port` to a range (GA in v1.25; the CNI
 * must support it). A port entry that matches nothing on a Pod allows nothing: the traffic is dropped with no
 * error or status.
 * Sources: kubernetes staging/src/k8s.io/api/networking/v1/types.go (NetworkPolicyPort), kubernetes#125285,
 * https://kubernetes.io/docs/concepts/services-networking/network-policies/ (v1.33).
 */

/** The Namespace labels the API server sets on every namespace (v1.21+): `kubernetes.io/metadata.name`. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * The pods a rule's ports are judged on: for an ingress rule the pods the policy selects (`podSelector` in
 * its namespace), for an egress rule the pods of its `to` peers. Undefined when they cannot be known from
 * the workspace: egress to everywhere (no `to`), to an `ipBlock` (outside the cluster too), or to namespaces
 * chosen by labels of Namespace objects the workspace does not hold. Workloads of kustomize patch files
 * (partial objects) are left out.
 */
export function podsOfRule(model: WorkspaceModel, policy: K8sObject, view: NetworkPolicyView, rule: PolicyRule, partial: (w: WorkloadObject) => boolean): WorkloadObject[] | undefined {
  if (rule.direction === 'ingress') return selectPods(model.workloadsIn(policy.namespace), view.podSelector, partial);
  if (!rule.peers || rule.peers.some((p) => p.ipBlock)) return undefined;
  const out = new Set<WorkloadObject>();
  for (const peer of rule.peers) {
    const pods = peerPods(model, policy, peer, partial);
    if (!pods) return undefined;
    for (const w of pods) out.add(w);
  }
  return [...out];
}

function peerPods(model: WorkspaceModel, policy: K8sObject, peer: PolicyPeer, partial: (w: WorkloadObject) => boolean): WorkloadObject[] | undefined {
  const selector = peer.podSelector ?? EVERYTHING;
  if (!peer.namespaceSelector) return selectPods(model.workloadsIn(policy.namespace), selector, partial);
  const namespaces = selectNamespaces(model, peer.namespaceSelector);
  if (!namespaces) return undefined;
  return namespaces.flatMap((ns) => selectPods(model.workloadsIn(ns), selector, partial));
}

/** The namespaces a namespaceSelector picks, or undefined when the workspace does not know their labels. */
function selectNamespaces(model: WorkspaceModel, selector: LabelSelector): string[] | undefined {
  if (selectsEverything(selector)) return [...model.namespaces()];
  const labelsOf = namespaceLabels(model);
  const onlyName = Object.keys(selector.matchLabels).every((k) => k === NAMESPACE_NAME_LABEL) && selector.matchExpressions.every((e) => e.key === NAMESPACE_NAME_LABEL);
  const out: string[] = [];
  // Only namespaces that hold pods here matter; their labels must be known to say which ones are chosen.
  for (const ns of model.namespaces()) {
    if (model.workloadsIn(ns).length === 0) continue;
    const labels = labelsOf.get(ns);
    if (!labels && !onlyName) return undefined;
    if (labelSelectorMatches(selector, labels ?? { [NAMESPACE_NAME_LABEL]: ns })) out.push(ns);
  }
  return out;
}

function namespaceLabels(model: WorkspaceModel): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const o of model.objects) if (o.kind === 'Namespace' && o.group === '' && o.name) out.set(o.name, { ...o.labels, [NAMESPACE_NAME_LABEL]: o.name });
  return out;
}

const EVERYTHING: LabelSelector = { matchLabels: {}, matchExpressions: [] };

function selectPods(workloads: readonly WorkloadObject[], selector: LabelSelector, partial: (w: WorkloadObject) => boolean): WorkloadObject[] {
  return workloads.filter((w) => !partial(w) && podSelectorMatches(selector, w));
}

/** True when any container of the pods (init containers too, as newer Calico) declares the name with the protocol. */
export function declaresNamedPort(pods: readonly WorkloadObject[], name: string, protocol: string): boolean {
  return pods.some((w) => w.pod.containers.some((c) => c.ports.some((p) => p.name?.value === name && p.protocol.value.toUpperCase() === protocol)));
}

/** True when any container of the pods declares a containerPort in `first`–`last` (inclusive) with the protocol. */
export function declaresPortInRange(pods: readonly WorkloadObject[], first: number, last: number, protocol: string): boolean {
  return pods.some((w) => w.pod.containers.some((c) => c.ports.some((p) => {
    const n = p.containerPort?.value;
    return n !== undefined && n >= first && n <= last && p.protocol.value.toUpperCase() === protocol;
  })));
}

/** A Service port number written in a policy where the Pod port (the Service's targetPort) was meant. */
export interface ServicePortConfusion {
  readonly service: ServiceObject;
  readonly servicePort: ServicePort;
  /** The targetPort as the Service writes it (a number, or the name of a container port). */
  readonly target: number | string;
  /** The Pod port number it reaches on the first of the pods where it resolves. */
  readonly podPort: number;
  /**
   * True when that pod declares `podPort` as a containerPort with the protocol (always so for a named targetPort,
   * which resolves only through a declared port). False for a number no container declares: the Service's
   * targetPort is itself unresolved (service-targetport-unresolved), so copying it into the policy fixes nothing.
   */
  readonly declared: boolean;
}

/**
 * The Services selecting any of `pods` that expose `first`–`last` as a Service `port` (same protocol) while
 * sending it to another Pod port: the policy was written with the Service's port, which never reaches the
 * Pod after DNAT. Only meaningful when no pod declares a container port in the range. Confusions whose Pod port a
 * pod declares come first (they name the port to allow).
 */
export function servicePortConfusions(model: WorkspaceModel, pods: readonly WorkloadObject[], first: number, last: number, protocol: string): ServicePortConfusion[] {
  const out: ServicePortConfusion[] = [];
  const seen = new Set<ServicePort>();
  for (const w of pods) {
    for (const svc of model.selectingServices(w)) {
      for (const sp of svc.ports) {
        const number = sp.port?.value;
        if (seen.has(sp) || number === undefined || number < first || number > last || sp.protocol.value.toUpperCase() !== protocol) continue;
        const podPort = resolveTargetPort(sp, w);
        if (podPort === undefined || (podPort >= first && podPort <= last)) continue;
        seen.add(sp);
        out.push({ service: svc, servicePort: sp, target: sp.targetPort?.value ?? number, podPort, declared: declaresPortInRange([w], podPort, podPort, protocol) });
      }
    }
  }
  return [...out.filter((c) => c.declared), ...out.filter((c) => !c.declared)];
}
