import { fileTextOf } from '../render/source-map';
import type { Span } from '../source/span';
import { describe, type ServiceObject } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import { isRecord } from '../model/views/raw-fields';
import { serviceSelectorMatches } from '../kubernetes/controller-manager/pod-labels';
import { SERVICE } from '../kubernetes/api-server/service-spec';
import { serviceSpecProblems } from '../kubernetes/api-server/rejection';
import { DNS1123_LABEL_ERROR, DNS1123_LABEL_REGEX } from '../kubernetes/api-server/validation';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'service-spec-invalid';

/** Everything in a Service that the API server's decoder or ValidateService rejects (see explanation). */
export const serviceSpecInvalid: Rule = {
  id,
  title: 'Service the API server rejects',
  severity: 'error',
  reportsRejection: true,
  decidesRejection: true,
  explanation: [
    'The API server validates every Service before storing it; `kubectl apply` fails with `The Service "x" is invalid: …`.',
    'This rule reports, at the offending value and quoting the API server\'s own message:',
    '',
    '- the same (protocol, port) twice (`Duplicate value`); the same number for TCP and UDP is fine;',
    '- a missing port name when the Service has more than one port (`Required value`), or a name used twice;',
    '- port names that are not DNS-1123 labels (lowercase letters, digits and `-`, at most 63) — Service port names',
    '  follow DNS-1123, not the IANA_SVC_NAME rule of container port names. The message names the rule in words and',
    // The regex goes in a code span: as plain text its brackets and parentheses read as a Markdown link.
    '  suggests a close valid label; the API server itself answers "Invalid value: "grpc_web": ' +
      DNS1123_LABEL_ERROR.replace(` '${DNS1123_LABEL_REGEX}'`, ' …') + '" (the regex: `' + DNS1123_LABEL_REGEX + '`);',
    '- named targetPorts that are not IANA_SVC_NAMEs (at most 15 characters, a-z 0-9 and `-`, at least one letter,',
    '  no `--`, no `-` at either end) — a quoted number such as `targetPort: "8080"` is a *name*, and an invalid one;',
    '- port and targetPort numbers outside 1–65535 (nodePorts out of range: `nodeport-out-of-range`);',
    '- values that are not integers where the API needs one (`nodePort: "30080"`, `port: http`): the decoder refuses',
    '  the whole object (`json: cannot unmarshal string into Go struct field … of type int32`); likewise values of the',
    '  wrong type elsewhere: numbers or booleans where strings are needed (`selector: {version: 1}`, `name: 8080`),',
    '  a mapping or a string where a list is needed (`ports`, `externalIPs`, `loadBalancerSourceRanges`), a',
    '  `type`, traffic policy, `ipFamilyPolicy`, `sessionAffinity` or `protocol` that is not a string (`type: yes`: the',
  '  message names the values to write, as quoting would still be refused), or a `timeoutSeconds` that is not an',
  '  integer. Each `selector` value YAML 1.1 reads as a',
    '  number or a boolean (`version: 1`, `canary: yes`) is reported at the value (up to 20 per selector) with a quick',
    '  fix that quotes it as written (a tagged value, `!!int 3`, loses its tag, which decides the type whatever the',
    '  quotes; a key YAML 1.1 reads otherwise, `on` read as `true`, is quoted too, except when the workloads the',
    '  selector would select carry the key as read and none as written: then only the value is quoted, `on: "yes"`, and',
    '  the message names them); a null value decodes to "" and is',
    '  accepted; a string field given a tagged value (`name: !!int 8080`) is told to remove the tag;',
    '  numbers YAML reads as floats beyond int32 or as `.inf` / `.nan` are shown as written, with the decoder\'s (or',
    '  kubectl\'s YAML-to-JSON) error;',
    "- `nodePort` on a ClusterIP Service (also when `type` is not written: it defaults to ClusterIP);",
    '- (warning) `nodePort` on an ExternalName Service: ValidateService accepts it, but the API server allocates',
    '  nodePorts for NodePort and LoadBalancer Services only, so the port is not held and no node opens it; other',
    '  rules do not count it as taking the port (as for a ClusterIP Service\'s nodePort);',
    "- `clusterIP: None` (headless) on a NodePort or LoadBalancer Service (`may not be set to 'None' for NodePort services`);",
    '- `healthCheckNodePort` unless `type: LoadBalancer` with `externalTrafficPolicy: Local`;',
    "- `loadBalancerSourceRanges` (or, when it is empty, the `service.beta.kubernetes.io/load-balancer-source-ranges`",
    "  annotation), `allocateLoadBalancerNodePorts` (`false` too) or `loadBalancerClass` on a Service whose type is not",
    "  LoadBalancer (\"Forbidden: may only be used when `type` is 'LoadBalancer'\"; the API server prints the first as",
    "  `spec.LoadBalancerSourceRanges`). `loadBalancerIP` is not checked against the type and is not reported;",
    '- an unsupported `sessionAffinity` (`ClientIP` and `None` are case-sensitive; a quick fix corrects the case), and',
    '  with ClientIP a `sessionAffinityConfig.clientIP.timeoutSeconds` outside 1–86400;',
    '- (warning) a `sessionAffinityConfig` without `sessionAffinity: ClientIP`: the API server stores the Service but',
    '  drops the config (SetDefaults_Service), so kube-proxy keeps no client on one endpoint;',
    '- on a LoadBalancer, a source range (field or annotation) that is not a CIDR, such as an address without its prefix',
    '  length (`203.0.113.7` for `203.0.113.7/32`): the API server refuses the whole list ("must be a list of IP',
    '  ranges"); the finding points at the first such entry;',
    '- `externalTrafficPolicy` on a Service that is not externally accessible (NodePort, LoadBalancer, or — since',
    '  v1.29 — ClusterIP with externalIPs; older API servers reject the last case too);',
    '- unknown `type`, `protocol`, `externalTrafficPolicy` or `internalTrafficPolicy` values (they are case-sensitive:',
    '  `tcp`, `Nodeport`, `local` are rejected; a quick fix corrects the case);',
    '- externalIPs that are not IP addresses, or are unspecified, loopback, link-local or link-local multicast;',
    '- (warning) an IPv4 externalIP with leading zeros (`010.0.0.1`): up to v1.35 read as decimal 10.0.0.1 with an API',
    '  warning ("spec.externalIPs[0]: non-standard IP address "010.0.0.1" will be considered invalid in a future',
    '  Kubernetes release: use "10.0.0.1""), rejected from v1.36 (StrictIPCIDRValidation) with "must not have leading',
    '  0s"; other rules compare it as',
    '  10.0.0.1, as the API server does;',
    '- a Service without ports (unless headless or ExternalName).',
    '',
    'Services in kustomize patch files (listed under `patches` / `patchesStrategicMerge` of a kustomization in the',
    'workspace) are partial on purpose: there, missing fields (ports, port numbers, names, `type`) are not reported.',
    '',
    'A value that breaks several of the API\'s checks (`${PORT}` as a port name breaks two) gets one finding, quoting',
    'the first of the API server\'s messages; written values over 24 characters and names over 63 are cut (`…`).',
  ].join('\n'),
  sources: [
    'kubernetes pkg/apis/core/validation/validation.go (ValidateService, validateServicePort, validateServiceExternalTrafficPolicy, validateLoadBalancerClassField, ValidateNonSpecialIP, v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsValidPortNum, IsValidPortName, IsDNS1123Label, v1.33)',
    'kubernetes pkg/api/service/util.go (ExternallyAccessible, NeedsHealthCheck, v1.33)',
    'kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_Service: sessionAffinityConfig dropped when sessionAffinity is None, 10800 s by default for ClientIP) and pkg/apis/core/validation/validation.go (validateClientIPAffinityConfig, validateAffinityTimeout), v1.33',
    'kubernetes pkg/api/service/util.go (GetLoadBalancerSourceRanges) and staging/src/k8s.io/utils/net (ParseIPNets: trimmed, ParseCIDRSloppy), v1.33',
    'kubernetes pkg/registry/core/service/storage/alloc.go (txnAllocNodePorts: nodePorts allocated for NodePort and LoadBalancer only, v1.33)',
    'kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_Service: targetPort 0 or "" defaults to port, v1.33)',
    'https://github.com/kubernetes/kubernetes/pull/119150 (externalTrafficPolicy allowed on ClusterIP with externalIPs, v1.29)',
    'https://kubernetes.io/docs/reference/kubernetes-api/service-resources/service-v1/ (v1.33)',
  ],
  check({ model, layout, files }) {
    const findings: Finding[] = [];
    const patches: ReadonlySet<string> = layout?.patchFiles ?? new Set();
    const written = (span: Span): string | undefined => files?.get(span.file)?.text.slice(span.start, span.end);
    const source = fileTextOf(files);
    for (const svc of model.services) {
      // Built-in and live (cluster) Services have passed the API server's validation already.
      if (svc.origin.type !== 'file') continue;
      const partial = patches.has(svc.file);
      const problems = serviceSpecProblems(svc, partial, written, source, (key, value) => selectedWith(model, svc, key, value));
      for (const p of problems) {
        findings.push({
          ruleId: id,
          severity: p.warning ? 'warning' : 'error',
          message: p.message.split(SERVICE).join(describe(svc)),
          span: p.span,
          object: refOf(svc),
          related: p.related ?? [],
          fixes: p.fixes ?? [],
        });
      }
    }
    return findings;
  },
};

/**
 * The workloads of the Service's namespace that its selector would select with the entry `key` = `value` in place of
 * the one the decoder refuses (its other string entries as written), as `Deployment shop/web`.
 */
function selectedWith(model: WorkspaceModel, svc: ServiceObject, key: string, value: string): string[] {
  const raw = isRecord(svc.raw.spec) && isRecord(svc.raw.spec.selector) ? svc.raw.spec.selector : {};
  const selector: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') selector[k] = v;
  selector[key] = value;
  return model.workloadsIn(svc.namespace).filter((w) => serviceSelectorMatches(selector, w)).map(describe);
}
