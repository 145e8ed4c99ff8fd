import type { LoadedFile } from '../load/load-file';
import type { Container, EnvVar, K8sObject, OtherObject, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import { ImageVersion, imageVersion, isOlderThan, parseImage } from '../kubernetes/images';
import { insertKeysBefore, insertSeqItemAfter, verifiedEdit } from './fixes/yaml-insert';
import { isJsonManifest } from './fixes/json-manifest';
import type { Finding, Fix, Rule, TextEdit } from './rule';
import { refOf } from './rule';

const id = 'calico-ip-autodetection';
/** First calico/node release whose first-found skips Docker's `br-*` bridges (CAL autodetection_linux.go). */
const SKIPS_BRIDGES = '3.25.0';
/** First calico/node release with `kubernetes-internal-ip` (projectcalico/node PR #1242, tagged v3.22). */
const HAS_K8S_INTERNAL_IP = '3.22.0';
const CAN_REACH_PLACEHOLDER = 'can-reach=REPLACE-WITH-AN-IP-ON-THE-NODE-NETWORK';

/** The calico-node container of a workload: image `calico/node` (any registry or mirror) or container name `calico-node`. */
export function calicoNodeContainer(w: WorkloadObject): Container | undefined {
  return w.pod.containers.find((c) => c.role === 'container' && (c.name === 'calico-node' || /(^|\/)calico\/node$/.test(parseImage(c.image?.value ?? '').path) || parseImage(c.image?.value ?? '').name === 'mirrored-calico-node'));
}

const env = (c: Container, name: string): EnvVar | undefined => c.env.find((e) => e.name === name);

function versionNote(v: ImageVersion): string {
  if (!v.known) return ' (calico/node version unknown)';
  return isOlderThan(v, SKIPS_BRIDGES) ? ` (${v.tag} < v3.25: br-* not skipped)` : '';
}

function containerFixes(file: LoadedFile | undefined, w: WorkloadObject, c: Container, method: EnvVar | undefined, ip: EnvVar | undefined, version: ImageVersion): Fix[] {
  if (!file) return [];
  const supportsK8s = version.known ? !isOlderThan(version, HAS_K8S_INTERNAL_IP) : undefined;
  const candidates: { value: string; title: string; preferred: boolean }[] = [];
  if (supportsK8s !== false) {
    candidates.push({ value: 'kubernetes-internal-ip', title: `Set IP_AUTODETECTION_METHOD=kubernetes-internal-ip (the Node's InternalIP; needs calico/node ≥ v3.22${version.known ? '' : ', image version unknown'})`, preferred: supportsK8s === true });
  }
  candidates.push({ value: CAN_REACH_PLACEHOLDER, title: 'Set IP_AUTODETECTION_METHOD=can-reach=… (placeholder: replace it with an address reachable over the node network, e.g. the API server or gateway)', preferred: false });
  const hasMethod = (o: K8sObject) => o.category === 'workload' && o.pod.containers.some((x) => x.name === c.name && x.env.some((e) => e.name === 'IP_AUTODETECTION_METHOD'));
  const fixes: Fix[] = [];
  for (const cand of candidates) {
    let edit: TextEdit | undefined;
    if (method?.value) {
      const quoted = /^["']/.test(file.text.slice(method.value.span.start, method.value.span.start + 1));
      edit = { span: method.value.span, newText: quoted ? JSON.stringify(cand.value) : cand.value };
    } else if (!method) {
      const anchor = ip ?? c.env[c.env.length - 1];
      if (anchor) edit = insertSeqItemAfter(file, anchor.span, ['name: IP_AUTODETECTION_METHOD', `value: ${JSON.stringify(cand.value)}`]);
    }
    const ok = verifiedEdit(file, w, edit, hasMethod);
    if (ok) fixes.push({ title: cand.title, edits: [ok], preferred: cand.preferred });
  }
  return fixes;
}

function checkWorkload(w: WorkloadObject, files: ReadonlyMap<string, LoadedFile> | undefined): Finding | undefined {
  const c = calicoNodeContainer(w);
  if (!c) return undefined;
  // Policy-only mode (Canal: flannel routes, CALICO_NETWORKING_BACKEND=none): no BGP and no Calico tunnels use the address.
  if (env(c, 'CALICO_NETWORKING_BACKEND')?.value?.value.trim() === 'none') return undefined;
  const ip = env(c, 'IP');
  const method = env(c, 'IP_AUTODETECTION_METHOD');
  // IP: an address, `none`, or valueFrom (e.g. status.hostIP) means no autodetection.
  if (ip && !ip.value) return undefined;
  const ipValue = ip?.value?.value.trim();
  const autodetect = ip === undefined || ipValue === '' || ipValue?.toLowerCase() === 'autodetect';
  if (!autodetect) return undefined;
  const methodValue = method?.value?.value.trim();
  if (method && methodValue === undefined) return undefined; // valueFrom: cannot tell
  if (methodValue && methodValue !== 'first-found') return undefined;
  const version = imageVersion(c.image?.value ?? '');
  const old = isOlderThan(version, SKIPS_BRIDGES);
  const span = method?.value?.span ?? ip?.value?.span ?? c.nameSpan ?? ip?.span ?? c.span;
  const ipText = ip === undefined ? 'IP unset' : ipValue === '' ? 'IP empty' : 'IP=autodetect';
  const methodText = method ? 'IP_AUTODETECTION_METHOD=first-found' : 'no IP_AUTODETECTION_METHOD (first-found)';
  return {
    ruleId: id,
    severity: old ? 'error' : 'warning',
    message: `calico-node in ${describe(w)}: ${ipText}, ${methodText}: after a reboot first-found can pick a Docker bridge or wrong NIC${versionNote(version)}; BGP and the node's tunnels then break. Set IP_AUTODETECTION_METHOD (e.g. cidr=…)`,
    span,
    object: refOf(w),
    related: c.image ? [{ span: c.image.span, message: `calico/node image ${c.image.value}` }] : [],
    fixes: containerFixes(files?.get(w.file), w, c, method, ip, version),
  };
}

function checkInstallation(obj: OtherObject, files: ReadonlyMap<string, LoadedFile> | undefined): Finding | undefined {
  const isMap = (v: unknown) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v));
  // A spec or calicoNetwork that is not a mapping is invalid for the API server: not this rule's finding.
  if (!isMap(obj.raw.spec) || !isMap((obj.raw.spec as Record<string, unknown> | undefined)?.calicoNetwork)) return undefined;
  const spec = (obj.raw.spec ?? {}) as Record<string, any>;
  const v4 = spec.calicoNetwork?.nodeAddressAutodetectionV4 as Record<string, unknown> | undefined;
  const firstFound = v4?.firstFound === true;
  if (v4 && !firstFound) return undefined;
  const paths = obj.paths ?? new Map();
  const span = firstFound ? paths.get('spec.calicoNetwork.nodeAddressAutodetectionV4.firstFound') : paths.get('spec.calicoNetwork#key') ?? paths.get('spec#key') ?? obj.span;
  const fixes = installationFixes(files?.get(obj.file), obj, firstFound && Object.keys(v4!).length === 1);
  return {
    ruleId: id,
    severity: 'warning',
    message: `${describe(obj)}: ${firstFound ? 'nodeAddressAutodetectionV4 uses firstFound: true' : 'nodeAddressAutodetectionV4 unset (operator default firstFound: true)'}: after a reboot first-found can pick a Docker bridge or wrong NIC; BGP and the node's tunnels then break. Set nodeAddressAutodetectionV4 (e.g. kubernetes: NodeInternalIP)`,
    span: span ?? obj.span,
    object: refOf(obj),
    related: [],
    fixes,
  };
}

/**
 * Fixes for an Installation: `kubernetes: NodeInternalIP` (Calico ≥ v3.22; the version is not in the
 * Installation, so not preferred) and `canReach` with a placeholder, either replacing a lone
 * `firstFound: true` or inserting `nodeAddressAutodetectionV4` as the first key of calicoNetwork.
 */
function installationFixes(file: LoadedFile | undefined, obj: OtherObject, replaceFirstFound: boolean): Fix[] {
  if (!file) return [];
  const paths = obj.paths ?? new Map();
  const base = 'spec.calicoNetwork.nodeAddressAutodetectionV4';
  const candidates = [
    { key: 'kubernetes', value: 'NodeInternalIP', title: 'Set nodeAddressAutodetectionV4 to kubernetes: NodeInternalIP (the Node\'s InternalIP; needs Calico ≥ v3.22)' },
    { key: 'canReach', value: 'REPLACE-WITH-AN-IP-ON-THE-NODE-NETWORK', title: 'Set nodeAddressAutodetectionV4 to canReach: … (placeholder: replace it with an address reachable over the node network)' },
  ];
  const fixes: Fix[] = [];
  for (const c of candidates) {
    let edit: TextEdit | undefined;
    const key = paths.get(`${base}.firstFound#key`);
    const value = paths.get(`${base}.firstFound`);
    if (replaceFirstFound && key && value) {
      edit = { span: { file: obj.file, start: key.start, end: value.end }, newText: isJsonManifest(obj.file) ? `${JSON.stringify(c.key)}: ${JSON.stringify(c.value)}` : `${c.key}: ${c.value}` };
    } else if (!replaceFirstFound) {
      const sibling = [...paths.keys()].find((k) => /^spec\.calicoNetwork\.[^.#]+#key$/.test(k));
      if (sibling) edit = insertKeysBefore(file, paths.get(sibling)!, ['nodeAddressAutodetectionV4:', `  ${c.key}: ${c.value}`]);
    }
    const ok = verifiedEdit(file, obj, edit, (o) => (o.raw as any).spec?.calicoNetwork?.nodeAddressAutodetectionV4?.[c.key] === c.value);
    if (ok) fixes.push({ title: c.title, edits: [ok], preferred: false });
  }
  return fixes;
}

/** calico-node (or the operator's Installation) detecting the node address with first-found. */
export const calicoIpAutodetection: Rule = {
  id,
  title: 'Calico detects the node address with first-found',
  severity: 'warning',
  explanation: [
    'calico-node picks the node\'s IPv4 address (used for BGP peering, IP-in-IP/VXLAN tunnels and Services pinned to',
    'the node) by **autodetection** when the `IP` env var is `autodetect` (detected again on every start) or empty/unset',
    '(detected on the first start). The default method `first-found` takes the first valid address of the first',
    'interface that is not on a short exclusion list. After a reboot, a new NIC or a Docker install, it can pick',
    'another interface — a Docker `br-*` bridge, a VPN, a storage network — and the node\'s routes and BGP sessions',
    'break. Releases before **v3.25** do not exclude `br-*` bridges at all: **error** when the calico/node image',
    'tag is older than v3.25, **warning** otherwise (also when the tag is not a version, e.g. `master` or a digest —',
    'the message says the version is unknown). The operator\'s `Installation` defaults to `firstFound: true` when',
    '`spec.calicoNetwork.nodeAddressAutodetectionV4` is not set (warning; the Calico version comes from the',
    'tigera-operator image, so it is not known from the Installation). `IP` unset or empty means the address is',
    'detected on the first start only; `IP=autodetect` detects it again on every start, so a reboot can change it.',
    'A wrong address breaks BGP peering and the node\'s tunnel address, and Services pinned to that node go dark.',
    '',
    'Fix: set `IP_AUTODETECTION_METHOD` to a deterministic method: `kubernetes-internal-ip` (the Node\'s InternalIP,',
    'calico/node ≥ v3.22), `interface=<regex>`, `cidr=<cidr>` or `can-reach=<address>`; for the operator,',
    '`nodeAddressAutodetectionV4: {kubernetes: NodeInternalIP}`. The quick fix adds the env entry after `IP` (same',
    'indentation, comments kept); the `can-reach=` variant inserts a placeholder that **you must replace** with an',
    'address reachable over the node network.',
    '',
    'The finding points at `IP_AUTODETECTION_METHOD: first-found` when written, else at the `IP: autodetect` value,',
    'else at the container\'s name. Policy-only installs (`CALICO_NETWORKING_BACKEND=none`, e.g. Canal, where flannel',
    'routes) are not reported: neither BGP nor Calico tunnels use the detected address there.',
  ].join('\n'),
  sources: [
    'calico node/pkg/lifecycle/startup/startup.go (configureIPsAndSubnets: IP autodetect / empty / none)',
    'calico node/pkg/lifecycle/startup/autodetection/autodetection_methods.go (first-found default, kubernetes-internal-ip, can-reach)',
    'calico node/pkg/lifecycle/startup/autodetection/autodetection_linux.go (first-found exclusions; ^br-.* from v3.25.0)',
    'https://github.com/projectcalico/calico/pull/7045 (first-found skips Docker br-* bridges, merged 2022-12, v3.25)',
    'https://github.com/projectcalico/node/pull/1242 (kubernetes-internal-ip, v3.22)',
    'https://docs.tigera.io/calico/latest/networking/ipam/ip-autodetection',
    'tigera/operator api/v1/installation_types.go (NodeAddressAutodetection; default firstFound: true)',
  ],
  judgesEachObject: true,
  judgesObjectAlone: true,
  check({ model, files }) {
    const findings: Finding[] = [];
    for (const obj of model.objects) {
      const f = obj.category === 'workload' ? checkWorkload(obj, files)
        : obj.category === 'other' && obj.kind === 'Installation' && obj.group === 'operator.tigera.io' ? checkInstallation(obj, files) : undefined;
      if (f) findings.push(f);
    }
    return findings;
  },
};
