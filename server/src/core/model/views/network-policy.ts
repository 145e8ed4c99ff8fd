import type { Located } from '../../source/span';
import type { K8sObject } from '../objects';
import { LabelSelector, labelSelectorFrom } from './label-selector';
import { asArray, asRecord, asString, cachedView, isIntegerValue, isPortValue, locatedAt, rawAt } from './raw-fields';

/** One `ports[]` entry of a NetworkPolicy rule. */
export interface PolicyPort {
  /** Dotted path of the entry (`spec.ingress.0.ports.1`). */
  readonly path: string;
  /** `protocol`, default TCP. */
  readonly protocol: string;
  /** `port`: a number or a named port of the pods; absent = every port of the protocol. */
  readonly port?: Located<number | string>;
  /** `endPort`: the last port of the range `port`–`endPort` (inclusive, numeric `port` only). */
  readonly endPort?: Located<number>;
}

/** One `from` / `to` peer. */
export interface PolicyPeer {
  readonly podSelector?: LabelSelector;
  readonly namespaceSelector?: LabelSelector;
  readonly ipBlock: boolean;
}

/** One ingress or egress rule. */
export interface PolicyRule {
  readonly direction: 'ingress' | 'egress';
  readonly index: number;
  readonly ports: readonly PolicyPort[];
  /** `from` (ingress) or `to` (egress); undefined when absent or empty (every source / destination). */
  readonly peers?: readonly PolicyPeer[];
}

export interface NetworkPolicyView {
  /** `spec.podSelector`: the pods of the policy's namespace it applies to (`{}` = all of them). */
  readonly podSelector: LabelSelector;
  readonly rules: readonly PolicyRule[];
}

export function isNetworkPolicy(obj: K8sObject): boolean {
  return obj.kind === 'NetworkPolicy' && obj.group === 'networking.k8s.io';
}

/**
 * The view of a networking.k8s.io/v1 NetworkPolicy; undefined for other kinds. Source: kubernetes
 * staging/src/k8s.io/api/networking/v1/types.go (NetworkPolicySpec, NetworkPolicyPort: protocol defaults to
 * TCP, port is "a numerical or named port on a pod", endPort), v1.33.
 */
export const networkPolicyView = cachedView((obj: K8sObject): NetworkPolicyView | undefined => {
  if (!isNetworkPolicy(obj)) return undefined;
  const spec = asRecord(rawAt(obj.raw, 'spec'));
  const rules: PolicyRule[] = [];
  for (const direction of ['ingress', 'egress'] as const) {
    asArray(spec[direction]).forEach((rule, index) => {
      const path = `spec.${direction}.${index}`;
      const ports = asArray(asRecord(rule).ports).map((p, i): PolicyPort => {
        const pp = `${path}.ports.${i}`;
        const port = locatedAt(obj, `${pp}.port`, isPortValue);
        const endPort = locatedAt(obj, `${pp}.endPort`, isIntegerValue);
        return { path: pp, protocol: asString(asRecord(p).protocol) || 'TCP', ...(port ? { port } : {}), ...(endPort ? { endPort } : {}) };
      });
      const list = asArray(asRecord(rule)[direction === 'ingress' ? 'from' : 'to']);
      const peers = list.length
        ? list.map((peer): PolicyPeer => {
          const r = asRecord(peer);
          const podSelector = labelSelectorFrom(r.podSelector);
          const namespaceSelector = labelSelectorFrom(r.namespaceSelector);
          return { ...(podSelector ? { podSelector } : {}), ...(namespaceSelector ? { namespaceSelector } : {}), ipBlock: r.ipBlock !== undefined };
        })
        : undefined;
      rules.push({ direction, index, ports, ...(peers ? { peers } : {}) });
    });
  }
  return { podSelector: labelSelectorFrom(spec.podSelector) ?? { matchLabels: {}, matchExpressions: [] }, rules };
});
