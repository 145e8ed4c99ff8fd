import type { KubeProxyMode } from '../../config/config';
import type { Sourced } from '../../model/cluster-settings';
import type { K8sObject } from '../../model/objects';
import { kubeProxyReplacement } from '../node/components';

/**
 * How Service traffic is proxied on the nodes, for rules that care about ClusterIPs being local addresses:
 * kube-proxy's mode when the workspace (or the config) says it, else kube-router's service proxy when it runs
 * (`--run-service-proxy`, on by default), which programs IPVS and binds every ClusterIP to its dummy interface
 * `kube-dummy-if` as kube-proxy IPVS does with `kube-ipvs0`. Not for strictARP: kube-router sets the ARP
 * sysctls itself (MetalLB's install docs say so), so `kube-proxy-ipvs-strict-arp` reads kube-proxy's mode only.
 * Sources: https://www.kube-router.io/docs/user-guide/ (--run-service-proxy, IPVS/LVS service proxy),
 * https://metallb.universe.tf/installation/ ("Preparation": kube-router, v0.14).
 */
export function serviceProxyMode(kubeProxyMode: Sourced<KubeProxyMode> | undefined, objects: readonly K8sObject[]): Sourced<KubeProxyMode> | undefined {
  if (kubeProxyMode) return kubeProxyMode;
  const replacement = kubeProxyReplacement(objects);
  return replacement?.component === 'kube-router' ? { value: 'ipvs', source: `kube-router's IPVS service proxy, ${replacement.evidence}` } : undefined;
}
