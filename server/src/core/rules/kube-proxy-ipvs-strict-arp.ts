import { metalLb, strictArpSetting } from '../kubernetes/kube-proxy/strict-arp';
import { verifiedEdit } from './fixes/yaml-insert';
import { narrowSpan } from './report/narrow-span';
import type { Finding, Rule } from './rule';

const id = 'kube-proxy-ipvs-strict-arp';

/** kube-proxy in IPVS mode without strictARP while MetalLB runs. */
export const kubeProxyIpvsStrictArp: Rule = {
  id,
  title: 'IPVS without strictARP next to MetalLB',
  severity: 'warning',
  explanation: [
    'In IPVS mode kube-proxy binds every ClusterIP, externalIP and LoadBalancer IP to the `kube-ipvs0` dummy interface',
    'on every node. Without `strictARP` (which sets `arp_ignore=1` / `arp_announce=2`) every node then answers ARP',
    'requests for a LoadBalancer IP, not only the node MetalLB elected: clients and switches flip between nodes and',
    'connections drop. MetalLB\'s installation guide says: "If you\'re using kube-proxy in IPVS mode, since Kubernetes',
    'v1.14.2 you have to enable strict ARP mode" (it matters for layer 2 mode).',
    '',
    'Reported when the kube-proxy mode is IPVS (config or workspace) and MetalLB is in the workspace (speaker DaemonSet,',
    '`L2Advertisement`, or the legacy `config` ConfigMap with `protocol: layer2`) while strictARP is not true',
    '(KubeProxyConfiguration `ipvs.strictARP`, the kube-proxy ConfigMap\'s `config.conf`, or `--ipvs-strict-arp`).',
    'The finding points at `strictARP: false` when written, else at the value that sets IPVS mode, else at the MetalLB',
    'object.',
    '',
    'Fix: set `ipvs.strictARP: true` in the kube-proxy configuration (kubeadm: the `kube-proxy` ConfigMap) and restart',
    'kube-proxy.',
  ].join('\n'),
  sources: [
    'https://metallb.universe.tf/installation/#preparation',
    'https://kubernetes.io/docs/reference/config-api/kube-proxy-config.v1alpha1/#kubeproxy-config-k8s-io-v1alpha1-KubeProxyIPVSConfiguration (strictARP, v1.33)',
    'kubernetes pkg/proxy/ipvs/proxier.go (kube-ipvs0; strictARP sets arp_ignore/arp_announce)',
  ],
  check({ model, files }) {
    const mode = model.settings.kubeProxyMode;
    if (mode?.value !== 'ipvs') return [];
    const mlb = metalLb(model.objects);
    if (!mlb) return [];
    const strict = strictArpSetting(model.objects);
    if (strict?.value === true) return [];
    // Inside a flag word or the ConfigMap's embedded config, point at the value itself.
    const span = strict?.span
      ? narrowSpan(files, strict.span, /strictARP["']?\s*:\s*(false)\b|--ipvs-strict-arp=(false)/)
      : mode.span ? narrowSpan(files, mode.span, /(?:^|\s|["'{,])mode["']?\s*:\s*["']?(ipvs)\b|--proxy-mode[=\s]+["']?(ipvs)\b/) : mlb.span;
    // One source for both (the same KubeProxyConfiguration or ConfigMap) is named once.
    const sameSource = strict && (strict.source === mode.source || strict.source.startsWith(`${mode.source} (`));
    const setting = !strict ? `(${mode.source}) and strictARP is unset (false)` : sameSource ? `and strictARP is false (${strict.source})` : `(${mode.source}) and strictARP is false (${strict.source})`;
    const finding: Finding = {
      ruleId: id,
      severity: 'warning',
      message: `kube-proxy runs in IPVS mode ${setting}, with MetalLB${mlb.layer2 ? ' in layer 2 mode' : ''} (${mlb.evidence.replace(/^MetalLB /, '')}): every node answers ARP for LoadBalancer IPs on kube-ipvs0, so traffic flips between nodes; set ipvs.strictARP: true`,
      span,
      related: [{ span: mlb.span, message: mlb.evidence }],
      fixes: [],
    };
    // Replace exactly the `false` (a field, or inside the ConfigMap's config text), verified by re-loading.
    const file = strict && files?.get(span.file);
    if (strict && file && file.text.slice(span.start, span.end) === 'false') {
      const edit = verifiedEdit(file, strict.object, { span, newText: 'true' }, (edited) => strictArpSetting([edited])?.value === true);
      if (edit) return [{ ...finding, fixes: [{ title: 'Set strictARP: true', edits: [edit], preferred: true }] }];
    }
    return [finding];
  },
};
