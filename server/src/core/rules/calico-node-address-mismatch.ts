import ipaddr from 'ipaddr.js';
import { describe, K8sObject, WorkloadObject } from '../model/objects';
import type { Span } from '../source/span';
import { ImageVersion, imageVersion, isOlderThan, parseImage } from '../kubernetes/images';
import type { Finding, RelatedLocation, Rule } from './rule';
import { refOf } from './rule';

const id = 'calico-node-address-mismatch';
const ANNOTATION = 'projectcalico.org/IPv4Address';
/** First calico/node release with IP_AUTODETECTION_METHOD=kubernetes-internal-ip (projectcalico/node PR #1242, v3.22). */
const HAS_K8S_INTERNAL_IP = '3.22.0';

/** Where the calico-node address autodetection is configured in the workspace, and how. */
interface CalicoManifest {
  readonly object: K8sObject;
  readonly span: Span;
  /** The autodetection method as written (`first-found`, `interface=eth1`, `kubernetes: NodeInternalIP`…), '' when not set. */
  readonly method: string;
}

/**
 * A Node whose Calico address (annotation `projectcalico.org/IPv4Address`, CIDR form) is not one of its
 * InternalIPs: calico-node autodetected another interface (e.g. a Docker bridge after a reboot), so BGP
 * peerings, IP-in-IP/VXLAN tunnels and every route to that node's pods use an address other nodes may not
 * reach. Reads Node objects from the workspace (`kubectl get nodes -o yaml`) or the live cluster.
 */
export const calicoNodeAddressMismatch: Rule = {
  id,
  title: 'Calico node address differs from the Node InternalIP',
  severity: 'warning',
  explanation: [
    'With the Kubernetes datastore, calico-node stores the IPv4 address it chose for the node in the Node annotation',
    '`projectcalico.org/IPv4Address` (CIDR form, e.g. `10.0.0.5/24`). Calico peers over BGP and builds IP-in-IP / VXLAN',
    'tunnels to that address. When it is not the InternalIP the kubelet reports, calico-node autodetected another',
    'interface: with `IP=autodetect` and the default `IP_AUTODETECTION_METHOD=first-found`, the first interface found',
    'wins, and before Calico v3.25 Docker\'s `br-*` bridges were not skipped, so a reboot can move the node to a',
    'bridge address that no other node can reach. Pods on that node lose cross-node traffic, and Services pinned',
    'to the node go dark.',
    '',
    'The finding is reported on the calico-node DaemonSet (or the operator `Installation`) when it is in the',
    'workspace, at the autodetection setting; otherwise on the Node, which the live cluster (`--cluster`) or an',
    'exported Node manifest provides. It is a warning; when an explicit method other than first-found is set',
    '(`interface=`, `cidr=`, `can-reach=`…), a different address may be intended and the finding is info.',
    '',
    'Fix: set `IP_AUTODETECTION_METHOD=kubernetes-internal-ip` on calico-node (v3.22 or later; operator:',
    '`nodeAddressAutodetectionV4: {kubernetes: NodeInternalIP}`), or `interface=`/`cidr=` naming the right network',
    '(older calico/node releases, whose image tag the message checks: an unknown method stops calico-node), then',
    'restart calico-node on the node.',
  ].join('\n'),
  sources: [
    'projectcalico/calico libcalico-go/lib/backend/k8s/resources/node.go (annotation projectcalico.org/IPv4Address)',
    'projectcalico/calico node/pkg/lifecycle/startup/autodetection/autodetection_methods.go (first-found, kubernetes-internal-ip)',
    'projectcalico/node PR #1242 (kubernetes-internal-ip, released in v3.22)',
    'projectcalico/calico node/pkg/lifecycle/startup/autodetection/autodetection_linux.go (default exclusions; ^br-.* since v3.25)',
    'https://docs.tigera.io/calico/latest/networking/ipam/ip-autodetection (IP autodetection methods)',
    'moby/moby libnetwork/ipamutils/utils.go (Docker bridge default pools 172.17.0.0/16-172.31.0.0/16)',
  ],
  check({ model }) {
    // Read only when a Node's annotation disagrees (each is a pass over every object).
    let context: { manifest: CalicoManifest | undefined; advice: string } | undefined;
    const findings: Finding[] = [];
    for (const node of model.nodes) {
      const annotation = node.annotations[ANNOTATION];
      const calico = annotation ? ipv4Of(annotation) : undefined;
      const internal = node.addresses.filter((a) => a.type === 'InternalIP' && ipv4Of(a.address.value));
      if (!calico || internal.length === 0) continue;
      if (internal.some((a) => ipv4Of(a.address.value) === calico)) continue;
      context ??= { manifest: findCalicoManifest(model.objects), advice: fixAdvice(calicoVersion(model.objects)) };
      const { manifest, advice } = context;
      const internalText = internal.map((a) => a.address.value).join(', ');
      const bridge = isDockerPool(calico) ? ' (a Docker bridge address)' : '';
      const annotationSpan = node.paths?.get(`metadata.annotations.${ANNOTATION}`) ?? node.span;
      const explicit = manifest && manifest.method !== '' && !/^first-?found/i.test(manifest.method);
      // The annotation, the Docker pools and the BGP details are in the related location and the rule's page.
      const picked = manifest ? `${manifest.method || 'first-found (the default)'} picked another interface` : 'calico-node autodetected another interface';
      const message = `${describe(node)}: Calico uses ${calico}${bridge}, not its InternalIP ${internalText}: ${picked}, so BGP and tunnels to this node may fail; ${advice}`;
      const nodeRelated: RelatedLocation = { span: annotationSpan, message: `${describe(node)}: ${ANNOTATION} ${annotation}, InternalIP ${internalText}` };
      findings.push(
        manifest
          ? { ruleId: id, severity: explicit ? 'info' : 'warning', message, span: manifest.span, object: refOf(manifest.object), related: [nodeRelated], fixes: [] }
          : { ruleId: id, severity: 'warning', message, span: annotationSpan, object: refOf(node), related: [], fixes: [] },
      );
    }
    return findings;
  },
};

/** The calico/node image version of the first calico-node container (workspace or cluster), if any. */
function calicoVersion(objects: readonly K8sObject[]): ImageVersion | undefined {
  for (const o of objects) {
    if (o.category !== 'workload') continue;
    const c = o.pod.containers.find((x) => parseImage(x.image?.value ?? '').path.endsWith('calico/node'));
    if (c?.image) return imageVersion(c.image.value);
  }
  return undefined;
}

/** The fix to suggest: kubernetes-internal-ip exists from calico/node v3.22 on; an unknown method terminates calico-node. */
function fixAdvice(version: ImageVersion | undefined): string {
  if (version?.known && isOlderThan(version, HAS_K8S_INTERNAL_IP)) {
    return `set IP_AUTODETECTION_METHOD=interface=<NIC> or cidr=<subnet> (${version.tag} predates kubernetes-internal-ip)`;
  }
  return 'set IP_AUTODETECTION_METHOD=kubernetes-internal-ip (calico/node v3.22+; operator: nodeAddressAutodetectionV4)';
}

/** The IPv4 address of `10.0.0.5/24` or `10.0.0.5`, normalised; undefined when not IPv4. */
function ipv4Of(text: string): string | undefined {
  const address = text.trim().split('/')[0];
  return ipaddr.IPv4.isValidFourPartDecimal(address) ? ipaddr.IPv4.parse(address).toString() : undefined;
}

function isDockerPool(address: string): boolean {
  return ipaddr.IPv4.parse(address).match(ipaddr.IPv4.parseCIDR('172.16.0.0/12')) && !address.startsWith('172.16.');
}

/** The calico-node DaemonSet/Pod template or operator Installation in workspace files, at its autodetection setting. */
function findCalicoManifest(objects: readonly K8sObject[]): CalicoManifest | undefined {
  for (const o of objects) {
    if (o.origin.type !== 'file') continue;
    if (o.kind === 'Installation' && o.group === 'operator.tigera.io') {
      const v4 = ((o.raw.spec as Record<string, unknown> | undefined)?.calicoNetwork as Record<string, unknown> | undefined)?.nodeAddressAutodetectionV4;
      const method = v4 && typeof v4 === 'object' ? Object.entries(v4).map(([k, v]) => `${k}: ${String(v)}`).join(', ') : '';
      const span = o.paths?.get('spec.calicoNetwork.nodeAddressAutodetectionV4') ?? o.paths?.get('spec.calicoNetwork') ?? o.span;
      return { object: o, span, method };
    }
    if (o.category !== 'workload') continue;
    const found = calicoContainer(o);
    if (found) return found;
  }
  return undefined;
}

function calicoContainer(w: WorkloadObject): CalicoManifest | undefined {
  const c = w.pod.containers.find((x) => x.role !== 'init' && (x.name === 'calico-node' || parseImage(x.image?.value ?? '').path.endsWith('calico/node')));
  if (!c) return undefined;
  const method = c.env.find((e) => e.name === 'IP_AUTODETECTION_METHOD');
  const ip = c.env.find((e) => e.name === 'IP');
  const span = method?.value?.span ?? ip?.value?.span ?? c.image?.span ?? c.span;
  return { object: w, span, method: method?.value?.value ?? '' };
}
