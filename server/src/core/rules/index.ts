import type { Rule } from './rule';
import { calicoNodeAddressMismatch } from './calico-node-address-mismatch';
import { fileSkipped } from './file-skipped';
import { gatewayBackendUnresolved } from './gateway-backend-unresolved';
import { helmChartNotRendered } from './helm-chart-not-rendered';
import { calicoIpAutodetection } from './calico-ip-autodetection';
import { externalipIsNodeIp } from './externalip-is-node-ip';
import { externalipPortConflict } from './externalip-port-conflict';
import { externalipUsage } from './externalip-usage';
import { hostPortReserved } from './host-port-reserved';
import { ingressBackendUnresolved } from './ingress-backend-unresolved';
import { ingressSpecInvalid } from './ingress-spec-invalid';
import { hostPortConflictsHealthcheckNodeport } from './host-port-conflicts-healthcheck-nodeport';
import { hostPortConflictsNodeport } from './host-port-conflicts-nodeport';
import { hostPortInNodeportRange } from './host-port-in-nodeport-range';
import { hostportConflict } from './hostport-conflict';
import { hostportReplicas } from './hostport-replicas';
import { hostportShadowsServicePort } from './hostport-shadows-service-port';
import { containerPortDuplicate } from './container-port-duplicate';
import { externaltrafficpolicyLocalCoverage } from './externaltrafficpolicy-local-coverage';
import { externaltrafficpolicyLocalHealthcheck } from './externaltrafficpolicy-local-healthcheck';
import { hostnetworkHostportMismatch } from './hostnetwork-hostport-mismatch';
import { hostnetworkUndeclaredPorts } from './hostnetwork-undeclared-ports';
import { hostnetworkUsage } from './hostnetwork-usage';
import { lifecycleHookTcpsocket } from './lifecycle-hook-tcpsocket';
import { hostportUsage } from './hostport-usage';
import { internaltrafficpolicyLocalCoverage } from './internaltrafficpolicy-local-coverage';
import { kubeProxyIpvsNodeportInterfaces } from './kube-proxy-ipvs-nodeport-interfaces';
import { kubeProxyIpvsStrictArp } from './kube-proxy-ipvs-strict-arp';
import { networkpolicyPortUnresolved } from './networkpolicy-port-unresolved';
import { networkpolicySpecInvalid } from './networkpolicy-spec-invalid';
import { nodeportDuplicate } from './nodeport-duplicate';
import { objectInvalid } from './object-invalid';
import { nodeportRangeInvalid } from './nodeport-range-invalid';
import { nodeportRangeOverlapsEphemeral } from './nodeport-range-overlaps-ephemeral';
import { healthcheckNodeportDuplicate } from './healthcheck-nodeport-duplicate';
import { nodeportOutOfRange } from './nodeport-out-of-range';
import { podSpecInvalid } from './pod-spec-invalid';
import { probePortUnresolved } from './probe-port-unresolved';
import { serviceSelectorUnmatched } from './service-selector-unmatched';
import { servicemonitorPortUnresolved } from './servicemonitor-port-unresolved';
import { serviceSpecInvalid } from './service-spec-invalid';
import { serviceTargetportUnresolved } from './service-targetport-unresolved';
import { yamlSyntax } from './yaml-syntax';
import { kustomizeCycle } from './kustomize-cycle';
import { kustomizePatchNoEffect } from './kustomize-patch-no-effect';
import { renderFailed } from './render-failed';
import { renderIncomplete } from './render-incomplete';
import { disableCommentUnknownRule } from './disable-comment-unknown-rule';

/** Every rule, sorted by id. This list is the only registry: docs, SARIF rules and config validation read it. */
export const allRules: readonly Rule[] = [
  calicoNodeAddressMismatch,
  fileSkipped,
  gatewayBackendUnresolved,
  helmChartNotRendered,
  calicoIpAutodetection,
  externalipIsNodeIp,
  externalipPortConflict,
  externalipUsage,
  hostPortReserved,
  ingressBackendUnresolved,
  ingressSpecInvalid,
  hostPortConflictsHealthcheckNodeport,
  hostPortConflictsNodeport,
  hostPortInNodeportRange,
  hostportConflict,
  hostportReplicas,
  hostportShadowsServicePort,
  containerPortDuplicate,
  externaltrafficpolicyLocalCoverage,
  externaltrafficpolicyLocalHealthcheck,
  hostnetworkHostportMismatch,
  hostnetworkUndeclaredPorts,
  hostnetworkUsage,
  hostportUsage,
  internaltrafficpolicyLocalCoverage,
  kubeProxyIpvsNodeportInterfaces,
  kubeProxyIpvsStrictArp,
  lifecycleHookTcpsocket,
  networkpolicyPortUnresolved,
  networkpolicySpecInvalid,
  nodeportDuplicate,
  objectInvalid,
  nodeportRangeInvalid,
  nodeportRangeOverlapsEphemeral,
  healthcheckNodeportDuplicate,
  nodeportOutOfRange,
  podSpecInvalid,
  probePortUnresolved,
  serviceSelectorUnmatched,
  servicemonitorPortUnresolved,
  serviceSpecInvalid,
  serviceTargetportUnresolved,
  yamlSyntax,
  kustomizeCycle,
  kustomizePatchNoEffect,
  renderFailed,
  renderIncomplete,
  disableCommentUnknownRule(() => ruleIds),
].sort((a, b) => (a.id < b.id ? -1 : 1));

export const ruleIds: ReadonlySet<string> = new Set(allRules.map((r) => r.id));

export function ruleById(id: string): Rule | undefined {
  return allRules.find((r) => r.id === id);
}
