import type { CoreConfig } from '../../config/config';
import type { Container, K8sObject, WorkloadObject } from '../../model/objects';
import { describe } from '../../model/objects';
import { flagValue } from '../../model/cluster-settings';
import { parseImage } from '../images';

/**
 * Node and cluster components that listen on well-known ports, recognised from their manifests
 * (container image or name). `kubelet` never runs as a workload; it is listed so the port table
 * can name it.
 */
export type ComponentId =
  | 'kubelet' | 'kube-proxy' | 'kube-apiserver' | 'etcd' | 'kube-scheduler' | 'kube-controller-manager' | 'cloud-controller-manager'
  | 'calico' | 'cilium' | 'flannel' | 'weave' | 'kube-router' | 'metallb';

/** Components that a workspace may or may not run (CNIs and node add-ons), as the config's `cni` names them. */
export const OPTIONAL_COMPONENTS: readonly ComponentId[] = ['calico', 'cilium', 'flannel', 'weave', 'kube-router', 'metallb'];

const CONTROL_PLANE: readonly ComponentId[] = ['kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager', 'cloud-controller-manager'];

/**
 * The component a container runs, from its image path (registry ignored, mirror prefixes such as
 * `rancher/mirrored-` accepted) or, failing that, its conventional container name. Test images of a
 * project (e.g. `cilium/json-mock`) are not the component.
 */
export function containerComponent(c: Container): ComponentId | undefined {
  const ref = parseImage(c.image?.value ?? '');
  const name = ref.name.replace(/^mirrored-(flannelcni-|calico-|cilium-|metallb-)?/, '');
  const path = ref.path;
  const words = [...c.command, ...c.args].map((w) => w.value);
  if (name === 'hyperkube') {
    // hyperkube images run every binary; the first word after the binary names it.
    const sub = words.find((w) => /^(kube-)?(proxy|apiserver|scheduler|controller-manager)$/.test(w.replace(/^.*\//, '')));
    if (sub) return (`kube-${sub.replace(/^.*\//, '').replace(/^kube-/, '')}`) as ComponentId;
  }
  for (const cp of [...CONTROL_PLANE, 'kube-proxy'] as ComponentId[]) {
    if (name === cp || name.startsWith(`${cp}-`) && /^-(amd64|arm64|arm|ppc64le|s390x)$/.test(name.slice(cp.length))) return cp;
  }
  if (/(^|\/)calico\/(node|typha)$/.test(path) || /^calico-(node|typha)$/.test(name) || /^calico-(node|typha)$/.test(c.name)) return 'calico';
  if (/(^|\/)cilium\/(cilium|cilium-dev|cilium-envoy|hubble-relay|operator(-[a-z]+)?)$/.test(path) || c.name === 'cilium-agent') return 'cilium';
  if (name === 'flannel' || c.name === 'kube-flannel') return 'flannel';
  if (/(^|\/)weaveworks\/weave-(kube|npc)$/.test(path) || c.name === 'weave' || c.name === 'weave-npc') return 'weave';
  if (name === 'kube-router' || c.name === 'kube-router') return 'kube-router';
  if (/(^|\/)metallb\/speaker$/.test(path)) return 'metallb';
  if (CONTROL_PLANE.includes(c.name as ComponentId) || c.name === 'kube-proxy') return c.name as ComponentId;
  return undefined;
}

// Per object: rules and the incremental analysis ask on every run, and the image parsing is not free.
// Objects are immutable in what this reads (an edit re-creates the object), so the answer never goes stale.
const componentsOf = new WeakMap<WorkloadObject, ReadonlySet<ComponentId>>();

/** Every component any container (init containers included) of the workload runs. */
export function workloadComponents(w: WorkloadObject): ReadonlySet<ComponentId> {
  let out = componentsOf.get(w);
  if (!out) {
    const ids = new Set<ComponentId>();
    for (const c of w.pod.containers) {
      const id = containerComponent(c);
      if (id) ids.add(id);
    }
    componentsOf.set(w, (out = ids));
  }
  return out;
}

/** A component the workspace (or the config's `cni`) shows, with the evidence for messages. */
export type PresentComponents = ReadonlyMap<ComponentId, string>;

const evidenceOf = new WeakMap<readonly K8sObject[], readonly K8sObject[]>();

/**
 * The objects that can tell what components a workspace runs and how they are configured, in order: every object
 * but Services and the workloads that run no component (pod workloads of applications). Cached per list.
 */
function componentEvidence(objects: readonly K8sObject[]): readonly K8sObject[] {
  let out = evidenceOf.get(objects);
  if (!out) {
    out = objects.filter(isComponentEvidence);
    evidenceOf.set(objects, out);
  }
  return out;
}

/** True for the objects {@link componentEvidence} keeps. */
export function isComponentEvidence(o: K8sObject): boolean {
  return o.category !== 'service' && (o.category !== 'workload' || workloadComponents(o).size > 0);
}

/**
 * Records the component evidence of `objects` computed elsewhere: `evidence` must be exactly the objects of
 * `objects` that {@link isComponentEvidence} keeps, in order (e.g. concatenated from per-file lists, or a partial
 * model's list that holds every such object of a whole one). Saves the pass over every object on each edit.
 */
export function rememberComponentEvidence(objects: readonly K8sObject[], evidence: readonly K8sObject[]): void {
  evidenceOf.set(objects, evidence);
}

/** {@link componentEvidence} of `objects` (for incremental models built from per-file parts). */
export function componentEvidenceOf(objects: readonly K8sObject[]): readonly K8sObject[] {
  return componentEvidence(objects);
}

/**
 * True when two objects read the same in everything but their source position: same identity (group, kind,
 * namespace, name), apiVersion, category and manifest content (`raw`, from which every other field is read).
 */
function sameContent(a: K8sObject, b: K8sObject): boolean {
  return a === b || (a.identity === b.identity && a.apiVersion === b.apiVersion && a.category === b.category && JSON.stringify(a.raw) === JSON.stringify(b.raw));
}

/**
 * `compute` (a fact of the whole workspace that reads only the objects {@link componentEvidence} keeps, and
 * answers with plain data: no object or span) memoised on those objects: the whole model and the partial models
 * of an incremental run hold the same component and configuration objects, so after an edit the fact is not
 * computed again for each model and rule. The last answer is kept while objects of the same content (see
 * {@link sameContent}; re-parsing a document that only moved re-creates its objects) come back in the same order,
 * with the same `arg`.
 */
export function memoOnComponentEvidence<A, R>(compute: (objects: readonly K8sObject[], arg: A) => R): (objects: readonly K8sObject[], arg: A) => R {
  let last: { evidence: readonly K8sObject[]; arg: A; result: R } | undefined;
  return (objects, arg) => {
    const evidence = componentEvidence(objects);
    if (last && last.arg === arg && last.evidence.length === evidence.length && last.evidence.every((o, i) => sameContent(o, evidence[i]))) {
      last.evidence = evidence; // the next comparison finds the same objects
      return last.result;
    }
    const result = compute(evidence, arg);
    last = { evidence, arg, result };
    return result;
  };
}

/**
 * Components the workspace runs: workloads recognised by {@link containerComponent}, operator and
 * configuration objects (tigera `Installation`, `cilium-config`, `kube-flannel-cfg`, MetalLB
 * `L2Advertisement`/`IPAddressPool`/legacy `config` ConfigMap), plus the config's `cni` list.
 */
export function presentComponents(objects: readonly K8sObject[], config: CoreConfig): PresentComponents {
  return presentComponentsMemo(objects, config);
}
const presentComponentsMemo = memoOnComponentEvidence((objects: readonly K8sObject[], config: CoreConfig): PresentComponents => {
  const out = new Map<ComponentId, string>();
  const add = (id: ComponentId, evidence: string) => {
    if (!out.has(id)) out.set(id, evidence);
  };
  for (const name of config.cni) if (OPTIONAL_COMPONENTS.includes(name as ComponentId)) add(name as ComponentId, 'the config\'s `cni` list');
  for (const obj of objects) {
    if (obj.category === 'workload') {
      for (const id of workloadComponents(obj)) add(id, describe(obj));
    } else if (obj.kind === 'Installation' && obj.group === 'operator.tigera.io') add('calico', describe(obj));
    else if (obj.kind === 'ConfigMap' && obj.name === 'cilium-config') add('cilium', describe(obj));
    else if (obj.kind === 'ConfigMap' && obj.name === 'kube-flannel-cfg') add('flannel', describe(obj));
    else if (obj.group === 'metallb.io') add('metallb', describe(obj));
  }
  return out;
});

/** A kube-proxy replacement the workspace shows, with the evidence. */
export interface KubeProxyReplacement {
  readonly component: ComponentId;
  readonly evidence: string;
}

const truthy = (v: unknown): boolean => v === true || (typeof v === 'string' && /^(true|strict)$/i.test(v.trim()));

/**
 * A kube-proxy replacement shown by the workspace: Cilium `kube-proxy-replacement: true|strict`
 * (cilium-config ConfigMap or agent flag), Calico eBPF (`FELIX_BPFENABLED=true`, FelixConfiguration
 * `bpfEnabled: true`, Installation `linuxDataplane: BPF`), kube-router with its service proxy on
 * (`--run-service-proxy`, default true). Sources: https://docs.cilium.io/en/stable/network/kubernetes/kubeproxy-free/ ,
 * https://docs.tigera.io/calico/latest/operations/ebpf/enabling-ebpf , https://www.kube-router.io/docs/user-guide/ .
 */
export function kubeProxyReplacement(objects: readonly K8sObject[]): KubeProxyReplacement | undefined {
  return kubeProxyReplacementMemo(objects, undefined);
}
const kubeProxyReplacementMemo = memoOnComponentEvidence((objects: readonly K8sObject[]): KubeProxyReplacement | undefined => {
  for (const obj of objects) {
    // `raw` is read only for the kinds that can say so: a loaded file's `raw` is parsed when first read.
    const raw = (): Record<string, any> => obj.raw;
    if (obj.kind === 'ConfigMap' && obj.name === 'cilium-config' && truthy(raw().data?.['kube-proxy-replacement'])) return { component: 'cilium', evidence: `kube-proxy-replacement in ${describe(obj)}` };
    if (obj.kind === 'FelixConfiguration' && raw().spec?.bpfEnabled === true) return { component: 'calico', evidence: `bpfEnabled in ${describe(obj)}` };
    if (obj.kind === 'Installation' && raw().spec?.calicoNetwork?.linuxDataplane === 'BPF') return { component: 'calico', evidence: `linuxDataplane: BPF in ${describe(obj)}` };
    if (obj.category !== 'workload') continue;
    const components = workloadComponents(obj);
    if (components.has('cilium')) {
      const flag = flagValue(obj, '--kube-proxy-replacement');
      if (flag && truthy(flag.value)) return { component: 'cilium', evidence: `--kube-proxy-replacement in ${describe(obj)}` };
    }
    if (components.has('calico') && obj.pod.containers.some((c) => c.env.some((e) => e.name === 'FELIX_BPFENABLED' && truthy(e.value?.value)))) {
      return { component: 'calico', evidence: `FELIX_BPFENABLED in ${describe(obj)}` };
    }
    if (components.has('kube-router')) {
      const flag = flagValue(obj, '--run-service-proxy');
      if (!flag || flag.value !== 'false') return { component: 'kube-router', evidence: `${describe(obj)} (service proxy ${flag ? `--run-service-proxy=${flag.value}` : 'on by default'})` };
    }
  }
  return undefined;
});

const CONTROL_PLANE_ROLE_KEYS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/**
 * True when the workload's pods run on control-plane nodes: they tolerate the control-plane taint
 * (a key-less `operator: Exists` toleration tolerates every taint) and are a DaemonSet, or they
 * select control-plane nodes by nodeSelector / required node affinity. kubeadm taints control-plane
 * nodes `node-role.kubernetes.io/control-plane:NoSchedule` (https://kubernetes.io/docs/reference/labels-annotations-taints/, v1.33).
 */
export function runsOnControlPlane(w: WorkloadObject): boolean {
  const selects = Object.keys(w.pod.nodeSelector).some((k) => CONTROL_PLANE_ROLE_KEYS.includes(k))
    || w.pod.nodeAffinityTerms.some((term) => term.some((r) => CONTROL_PLANE_ROLE_KEYS.includes(r.key) && (r.operator === 'Exists' || r.operator === 'In')));
  if (selects) return true;
  if (w.kind !== 'DaemonSet') return false;
  return w.pod.tolerations.some((t) => {
    const key = t.key as string | undefined;
    const effect = t.effect as string | undefined;
    if (effect && effect !== 'NoSchedule') return false;
    return (!key && t.operator === 'Exists') || (key !== undefined && CONTROL_PLANE_ROLE_KEYS.includes(key));
  });
}
