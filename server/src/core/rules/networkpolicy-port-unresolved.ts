import type { K8sObject, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import { isNetworkPolicy, networkPolicyView, PolicyPort, PolicyRule } from '../model/views/network-policy';
import { declaresNamedPort, declaresPortInRange, podsOfRule, servicePortConfusions } from '../kubernetes/cni/network-policy-ports';
import type { Finding, Rule, RuleContext } from './rule';
import { refOf } from './rule';
import { joinNames } from './report/collisions';
import { patchLookup } from './report/kustomize-patches';
import { isHelmHook } from './report/helm-hooks';
import { replaceScalarEdit } from './fixes/replace-scalar';

const id = 'networkpolicy-port-unresolved';

/** A NetworkPolicy port that no pod it applies to declares: a named port none has, or a Service port written for the Pod port. */
export const networkpolicyPortUnresolved: Rule = {
  id,
  title: 'NetworkPolicy port matches no port of the pods it applies to',
  severity: 'warning',
  explanation: [
    'A NetworkPolicy rule\'s `ports[].port` is "a numerical or named port **on a pod**", matched with its `protocol`',
    '(default TCP): for an ingress rule the port of the pods the policy selects (`podSelector`), for an egress rule',
    'the port of the destination pods. The network plugin resolves a name per Pod from the Pod\'s container ports',
    '(Calico matches name **and** protocol) and compares the packet\'s destination port **after** kube-proxy\'s DNAT:',
    'traffic sent to a Service arrives with the Pod\'s port (the Service\'s targetPort), never the Service `port`.',
    'An entry that matches nothing allows nothing, and the traffic is dropped with no error, event or status.',
    '',
    'kube-netlint reports a **warning** at the port value:',
    '',
    '- a **named** port that no pod the rule applies to declares (with that protocol);',
    '- a **number** (or `port`–`endPort` range) that none of those pods declares as a containerPort but that is the',
    '  `port` of a Service selecting them, which sends it to another Pod port — the policy was written with the',
    '  Service\'s port. The message names the Service and the targetPort, and the quick fix writes the targetPort.',
    '  When that targetPort is itself a number none of the pods declares (the Service is broken too, see',
    '  `service-targetport-unresolved`), the message says so and lists the ports the pods do declare, with no fix:',
    '  copying the Service\'s targetPort would allow a port nothing listens on.',
    '',
    'Pods are the workspace\'s pod templates (and live cluster Pods, when read) of the policy\'s cluster. Egress rules',
    'are judged only when their destinations are known: `to` peers with a `podSelector`, in the policy\'s namespace or',
    'in namespaces chosen by `namespaceSelector` whose labels the workspace holds (Namespace objects, or the',
    '`kubernetes.io/metadata.name` label); never for egress to everywhere or to an `ipBlock`. Nothing is reported',
    'when no pod matches (the policy may be for pods deployed from elsewhere), for numbers that are neither declared',
    'nor a Service port (declared ports are informational), nor for Helm hooks and kustomize patches.',
  ].join('\n'),
  sources: [
    'kubernetes staging/src/k8s.io/api/networking/v1/types.go (NetworkPolicyPort: port "a numerical or named port on a pod", protocol default TCP, endPort, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/network-policies/ (v1.33)',
    'kubernetes/kubernetes#125285 (named ports are resolved by the network plugin)',
    'projectcalico/calico#2088 ("k8s NP is defined in terms of pods, not services": Service traffic is matched after DNAT)',
    'projectcalico/calico PR #8885 (named ports of init containers, 2024)',
  ],
  check(ctx) {
    const findings: Finding[] = [];
    const patches = patchLookup(ctx.model, ctx.layout);
    const skip = (w: WorkloadObject): boolean => patches.isPatch(w) || isHelmHook(w);
    for (const obj of ctx.model.objects) {
      if (!isNetworkPolicy(obj)) continue;
      const view = networkPolicyView(obj)!;
      for (const rule of view.rules) {
        if (!rule.ports.some((p) => p.port)) continue;
        const pods = podsOfRule(ctx.model, obj, view, rule, skip);
        if (!pods || pods.length === 0) continue;
        for (const p of rule.ports) {
          const f = checkPort(ctx, obj, rule, p, pods);
          if (f) findings.push(f);
        }
      }
    }
    return findings;
  },
};

function checkPort({ model, files }: RuleContext, policy: K8sObject, rule: PolicyRule, p: PolicyPort, pods: readonly WorkloadObject[]): Finding | undefined {
  const port = p.port;
  if (!port) return undefined;
  const protocol = p.protocol.toUpperCase();
  const where = `${rule.direction} rule #${rule.index} of ${describe(policy)}`;
  const whose = rule.direction === 'ingress' ? 'the pods it applies to' : 'its destination pods';
  const base = { ruleId: id, severity: 'warning' as const, span: port.span, object: refOf(policy) };
  if (typeof port.value === 'string') {
    if (/^\d+$/.test(port.value) || declaresNamedPort(pods, port.value, protocol)) return undefined;
    return {
      ...base,
      message: `${where} allows port "${port.value}"/${protocol}, which none of ${whose} declares (${joinNames(pods.map(describe), 3)}): the CNI resolves names per Pod, so this entry matches nothing and the traffic is dropped; allow a port they declare`,
      related: pods.map((w) => ({ span: w.span, message: `${describe(w)} declares ${namedPorts(w)}` })),
      fixes: [],
    };
  }
  const first = port.value;
  const last = p.endPort?.value ?? first;
  if (last < first || declaresPortInRange(pods, first, last, protocol)) return undefined;
  const confusions = servicePortConfusions(model, pods, first, last, protocol);
  if (confusions.length === 0) return undefined;
  const c = confusions[0];
  const range = p.endPort ? `${first}-${last}` : String(first);
  const related = confusions.map((x) => ({ span: x.servicePort.port?.span ?? x.service.span, message: `port ${x.servicePort.port?.value} of ${describe(x.service)} → targetPort ${x.target}${x.declared ? '' : ', which no selected pod declares'}` }));
  if (!c.declared) {
    // The Service's own targetPort reaches no declared port: copying it into the policy would allow nothing either.
    return {
      ...base,
      message: `${where} allows port ${range}/${protocol}, the port of ${describe(c.service)}, whose targetPort ${c.podPort} none of ${whose} declares (they declare ${declaredList(pods, protocol)}): policies match the Pod's port after DNAT; fix that targetPort, then allow the Pod port`,
      related,
      fixes: [],
    };
  }
  const target = typeof c.target === 'string' ? `"${c.target}" (${c.podPort})` : String(c.podPort);
  const declared = confusions.filter((x) => x.declared);
  const targets = new Set(declared.map((x) => String(x.target)));
  const edit = !p.endPort && targets.size === 1 ? replaceScalarEdit(files, port.span, port.value, String(c.target)) : undefined;
  return {
    ...base,
    message: `${where} allows port ${range}/${protocol}, the port of ${describe(c.service)}, which sends it to Pod port ${target}: policies match the Pod's port after DNAT, so this entry never matches Service traffic; allow ${target}`,
    related,
    fixes: edit ? [{ title: `Allow the Pod port ${typeof c.target === 'string' ? `"${c.target}"` : c.target} (targetPort of ${describe(c.service)})`, edits: [edit], preferred: true }] : [],
  };
}

/** `8080/TCP, 9090/TCP`: the container ports the pods declare with the protocol (up to three, then "and N more"). */
function declaredList(pods: readonly WorkloadObject[], protocol: string): string {
  const ports = [...new Set(pods.flatMap((w) => w.pod.containers.flatMap((c) => c.ports.filter((p) => p.containerPort && p.protocol.value.toUpperCase() === protocol).map((p) => `${p.containerPort!.value}/${protocol}`))))];
  return ports.length ? joinNames(ports, 3) : `no ${protocol} ports`;
}

function namedPorts(w: WorkloadObject): string {
  const names = w.pod.containers.flatMap((c) => c.ports.filter((p) => p.name).map((p) => `${p.name!.value}/${p.protocol.value.toUpperCase()}`));
  return names.length ? names.join(', ') : 'no named ports';
}
