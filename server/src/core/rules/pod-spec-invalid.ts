import { fileTextOf } from '../render/source-map';
import { describe } from '../model/objects';
import { manifestRole, podTemplateProblems } from '../kubernetes/api-server/rejection';
import { selectingByKey } from './report/selecting-by-key';
import type { Finding, Fix, Rule } from './rule';
import type { Span } from '../source/span';
import { replaceScalarEdit } from './fixes/replace-scalar';
import { refOf } from './rule';

const id = 'pod-spec-invalid';

/**
 * What the API server refuses (or warns about) in the networking fields of a pod template: wrongly typed
 * values (decoder errors), validateContainerPorts, probe and hook handlers (validateHandler, httpGet schemes), probes
 * and hooks on plain init containers, containers' restartPolicy, affinity weights, topology spread constraints,
 * workload selectors (missing, empty, refused or not selecting the template), the "hostIP set without hostPort"
 * warning, and hostIPs that are not IP addresses. See the explanation for the sources.
 */
export const podSpecInvalid: Rule = {
  id,
  title: 'Pod template the API server rejects (ports, hostNetwork, replicas, labels)',
  severity: 'error',
  reportsRejection: true,
  decidesRejection: true,
  explanation: [
    'The API server decodes and validates every Pod and every workload\'s pod template before storing it; `kubectl apply`',
    'fails with `… is invalid: …` or `… cannot be handled as a Deployment: json: cannot unmarshal …`, and nothing is rolled',
    'out. This rule reports, at the offending value and quoting the API server\'s own message, for Pods, Deployments,',
    'ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs and ReplicationControllers (containers and init containers),',
    'of their built-in API groups (core `v1`, `apps`, `batch`; PodTemplates too). Custom workloads (an Argo Rollouts',
    '`Rollout`, an OpenKruise `CloneSet` and the `StatefulSet` / `DaemonSet` of `apps.kruise.io`) are not judged: the',
    'API server checks a custom resource against its CRD\'s schema only (and its `metadata`, which `object-invalid`',
    'reports), and stores it; the ReplicaSets or Pods its controller then creates from the template are what gets',
    'refused, with other messages. Such a workload is not taken as rejected: the other rules count it as written.',
    '',
    '- values of the wrong type where the API needs an integer or a boolean: `hostPort: "9100"`, `containerPort: abc`,',
    '  `hostNetwork: "true"`, `replicas: "3"`, a Job\'s (or a CronJob\'s `jobTemplate.spec`)',
    '  `parallelism: "0"` or `completions: "2"`, `ports: 80`, a port entry written as `"80:80"`. The decoder refuses the',
    '  whole object (`json: cannot unmarshal string into Go struct field ContainerPort.….hostPort of type int32`); other',
    '  rules cannot see these ports at all until they are fixed. A quick fix removes the quotes from a quoted number or',
    '  boolean. Unquoted YAML 1.1 booleans (`hostNetwork: yes`) are accepted, as kubectl reads them as booleans;',
    '- a value YAML reads as a number, a boolean or a collection in a string map the decoder reads strictly, as',
    '  `object-invalid` reports it in the object\'s own `metadata.labels`: the pod template\'s `metadata.labels` and',
    '  `metadata.annotations`, the pod spec\'s `nodeSelector`, the `spec.selector.matchLabels` of a Deployment,',
    '  ReplicaSet, StatefulSet, DaemonSet or Job, a ReplicationController\'s `spec.selector`, a CronJob\'s',
    '  `spec.jobTemplate.metadata` and a PodTemplate\'s `template`. kubectl converts YAML as YAML 1.1 reads it, so an',
    '  unquoted `1`, `1.10` (1.1), `0123` (octal 83), `yes`, `on` or `true` is no string, and the API server refuses the',
    '  object (`json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type',
    '  string`). One finding per value (up to 20 per map), with a quick fix that quotes it as written (a tagged value,',
    '  `!!int 3`, loses its tag, which decides the type whatever the quotes; a key YAML 1.1 reads otherwise, `on` read',
    '  as `true`, is quoted too). Quoting such a key changes the label (`"on"` is not `true`), so in the template labels',
    '  or the selector the fix quotes it in both together when both write it, keeping the selector matching its template;',
    '  when one of them cannot be quoted the same way or spells the key otherwise (`ON` and `on` both read `true`, but',
    '  quoted they are two keys), or a Service, NetworkPolicy or PodDisruptionBudget selects these',
    '  Pods by the key as read, there is no quick fix and the message says what to change with it. A null value',
    '  decodes to "" and is accepted. A map, a template `metadata` or a `selector` written as a string or a list is',
    '  refused too;',
    '- selector requirements of the wrong type, in the same kinds: the `matchExpressions` of `spec.selector`, of pod',
    '  (anti-)affinity terms (`labelSelector`, `namespaceSelector`, required and preferred) and of',
    '  `topologySpreadConstraints`, and node affinity\'s `matchExpressions` and `matchFields`. `values` is a list of',
    '  strings, so `values: a` and `values: [1, true]` are refused (`json: cannot unmarshal number into Go struct field',
    '  LabelSelectorRequirement.spec.selector.matchExpressions.values of type string`; one finding per value, with the',
    '  quick fix that quotes it), as are a `key` or `operator` that is not a string and a list, entry or struct on the',
    '  way (`affinity`, `nodeSelectorTerms`, …) of the wrong kind. A null value decodes to "" and passes; a null entry',
    '  decodes to an empty requirement, which validation refuses (below);',
    '- a port entry without `containerPort` (or with 0): `Required value`;',
    '- `containerPort` or `hostPort` outside 1–65535 (`hostPort: 0` means "not set" and is fine):',
    '  `must be between 1 and 65535, inclusive`;',
    '- a `protocol` other than `TCP`, `UDP` or `SCTP` — the values are case-sensitive, so `tcp` is rejected',
    '  (`Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"`; a quick fix corrects the case);',
    '  an empty protocol is defaulted to TCP;',
    '- port names that are not IANA service names (at most 15 characters, a-z 0-9 and `-`, at least one letter) or that',
    '  repeat inside one container (`Duplicate value`);',
    '- a negative `replicas` (`must be greater than or equal to 0`);',
  '- probe and lifecycle-hook ports (`httpGet.port`, `tcpSocket.port`) that are neither a port number nor a valid',
  '  port name — a quoted number (`port: "8080"`) is a name to the API and fails with `must contain at least one',
  '  letter (a-z)` (a quick fix removes the quotes) — and a string `grpc.port` (an integer field: names are not',
  '  allowed there);',
    '- a probe or lifecycle hook (`postStart`, `preStop`) with more than one handler (`httpGet` and `tcpSocket`):',
    '  `Forbidden: may not specify more than 1 handler type`, at each handler after the first in the API server\'s order',
    '  (exec, httpGet, tcpSocket, grpc / sleep); with none (`{}`, or only `tcpSocket: null`, which sets nothing):',
    '  `Required value: must specify a handler type`; an `httpGet`, `tcpSocket` or `grpc` without a port (an unset port',
    '  is 0: `Invalid value: 0: must be between 1 and 65535, inclusive`) and an `exec` without a command',
    '  (`Required value`). Only the first handler is validated, so the ports of the others are not reported; nor are',
    '  probes in a kustomize patch, which may take their handler from the base. A probe, `lifecycle`, hook or action',
    '  that is not a mapping (`readinessProbe: tcp`, `httpGet: "x"`) is a decode error (`json: cannot unmarshal string',
    '  into Go struct field Container.spec.containers.readinessProbe of type v1.Probe`), and so is a probe\'s',
    '  `initialDelaySeconds`, `timeoutSeconds`, `periodSeconds`, `successThreshold` or `failureThreshold` that is not an',
    '  integer (`periodSeconds: "10"`: `of type int32`), an `exec` `command` that is not a list of strings',
    '  (`command: [cat, yes]`: YAML 1.1 reads `yes` as a boolean), an `httpGet` or `tcpSocket` port that is neither a',
    '  number nor a name (`port: 80.5`: `cannot unmarshal number 80.5 into Go value of type int32`) and a `grpc` port',
    '  that is not an integer; and probe settings validation refuses: a negative timing (`timeoutSeconds: -1`), a',
    '  livenessProbe or startupProbe `successThreshold` other than 1 (`must be 1`), a readinessProbe',
    '  `terminationGracePeriodSeconds` (`must not be set for readinessProbes`) and one below 1 elsewhere;',
    '- a probe\'s or hook\'s `httpGet.scheme` other than `HTTP` or `HTTPS` — schemes are case-sensitive, so `http` is',
  '  refused (`Unsupported value: "http": supported values: "HTTP", "HTTPS"`; a quick fix corrects the case); an empty',
  '  scheme is defaulted to HTTP. A scheme that is not a string is a decode error (`of type v1.URIScheme`). For such a',
  '  field with a fixed set of values (`scheme`, `restartPolicy`, `whenUnsatisfiable`, `protocol`, an `operator`) a',
  '  YAML 1.1 boolean or number (`scheme: on`) is not fixed by quoting it (`"on"` is refused too): the message names',
  '  the values to write, and no quick fix is offered;',
  '- a container\'s own `restartPolicy`: on an init container only `Always` (which makes it a sidecar) is accepted',
  '  (`restartPolicy: always`: `Unsupported value: "always": supported values: "Always"`, with the quick fix to',
  '  `Always`; `OnFailure` and `Never` are refused too), and on a regular container none at all (`Forbidden: may not be',
  '  set for non-init containers`: the pod\'s `spec.restartPolicy` governs them);',
  '- scheduling settings: the `weight` of a preferred node affinity, pod affinity or pod anti-affinity term outside',
  '  1–100 (`Invalid value: 0: must be in the range 1-100`; an unset weight is 0), and a `topologySpreadConstraints`',
  '  entry whose `maxSkew` is below 1 (`must be greater than zero`; unset is 0), whose `topologyKey` is empty',
  '  (`Required value: can not be empty`) or whose `whenUnsatisfiable` is not `DoNotSchedule` or `ScheduleAnyway`',
  '  (case-sensitive; a quick fix corrects the case). A quoted `weight` or `maxSkew` (`weight: "1"`) is a decode error',
  '  (`of type int32`; a quick fix removes the quotes). A kustomize patch is asked only about the values it writes;',
    '- a probe (`livenessProbe`, `readinessProbe`, `startupProbe`) or `lifecycle` on an init container without',
    '  `restartPolicy: Always`: `Forbidden: may not be set for init containers without restartPolicy=Always` (an init',
    '  container runs to completion before the app starts; only a sidecar, a restartable init container, is probed',
    '  and runs hooks). Not reported in a kustomize patch, whose container may take its restartPolicy from the base.',
    '- a Deployment, ReplicaSet, StatefulSet, DaemonSet or ReplicationController whose `spec.selector` does not select',
    '  its own pod template (the API server answers that the selector does not match the template labels), reported on',
    '  the selector. With',
    "  labels merged in (`<<: *common`) as kubectl reads them. Placeholders of other tools (`${VAR}`, `{{ … }}`) are not judged, nor a",
    '  kustomize patch. apps/v1 takes no selector from the template\'s labels: a Deployment, ReplicaSet, StatefulSet or',
    '  DaemonSet without `spec.selector` (or with `selector: null`) is refused (`spec.selector: Required value`; a',
    '  DaemonSet\'s missing selector matches no template labels), reported at the object\'s name, and so is an empty',
    '  one (`{}`, `matchLabels: {}`: `empty selector is invalid for deployment`), at the selector. Neither is reported',
    '  in a file a kustomization lists under `resources` (or `bases`, `components`), whose `labels` / `commonLabels`',
    '  transformer may add the selector in the build, nor in a patch; a ReplicationController\'s selector is defaulted',
    '  from its template\'s labels.',
    '  A `matchExpressions` entry that validation refuses is reported instead, at its field: an operator that is not',
    '  one (`in`: `Invalid value: "in": not a valid selector operator`; operators are case-sensitive), `In` or `NotIn`',
    '  without values (`Required value`), `Exists` or `DoesNotExist` with values (`Forbidden`), and an entry written as',
    '  null (`- ` alone, `matchExpressions: [null]`), which the decoder makes an empty requirement and validation refuses',
    '  for its empty operator. The same requirements are checked in the label selectors of pod (anti-)affinity terms and',
    '  topology spread constraints, and in node affinity terms (where `Gt` and `Lt` take exactly one value).',
    '',
    'Reported at another severity:',
    '',
    '- **warning**: `hostIP` set without a `hostPort` — the API server stores the object but prints the warning',
    '  `hostIP set without hostPort` (v1.28+): a hostIP only selects the node address a hostPort is bound to, so it does',
    '  nothing here. Not reported for a `hostNetwork: true` Pod, whose hostPort is defaulted to the containerPort.',
    '- **error**: a `hostIP` that is not an IP address (with a hostPort, without hostNetwork). The API server does not',
    '  validate hostIP, but the CNI portmap plugin parses it with `net.ParseIP`; for an IPv4 pod the unparsable address',
    '  counts as "other family" and the mapping is silently skipped, so the hostPort never opens.',
    '',
    'Workloads in kustomize patch files (listed under `patches` / `patchesStrategicMerge` of a kustomization in the',
    'workspace) are partial on purpose: there, a missing `containerPort` and a hostIP without hostPort (both may come',
    'from the base) are not reported. Live cluster objects are skipped (the API server already accepted them).',
    '',
    'A value that breaks several of the API\'s checks (`${PORT}` as a port name breaks two) gets one finding, quoting',
    'the first of the API server\'s messages; written values over 24 characters and names over 63 are cut (`…`).',
  ].join('\n'),
  sources: [
    'kubernetes pkg/apis/core/validation/validation.go (validateProbe: ValidateNonnegativeField for the timings, terminationGracePeriodSeconds "must be greater than 0"; validateContainers / validateInitContainers: liveness and startup successThreshold "must be 1", readiness terminationGracePeriodSeconds "must not be set for readinessProbes", v1.33)',
    'kubernetes pkg/apis/core/validation/validation.go (validateProbe, validateLifecycle, validateHandler: "may not specify more than 1 handler type", "must specify a handler type"; validateExecAction, v1.33)',
    'kubernetes staging/src/k8s.io/api/core/v1/types.go (Container.LivenessProbe / ReadinessProbe / StartupProbe *Probe, Probe.ProbeHandler inlined, Probe.InitialDelaySeconds / TimeoutSeconds / PeriodSeconds / SuccessThreshold / FailureThreshold int32, ExecAction.Command []string, Container.Lifecycle, Lifecycle.PostStart / PreStop *LifecycleHandler, v1.33)',
    'kubernetes pkg/apis/core/validation/validation.go (validateContainerPorts; validateHTTPGetAction, validateTCPSocketAction, validateGRPCAction, ValidatePortNumOrName for probe and hook ports; validateInitContainers: probes and lifecycle forbidden without restartPolicy=Always, v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsValidPortNum, IsValidPortName, v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/api/validation/generic.go (ValidateNonnegativeField: "must be greater than or equal to 0", v1.33)',
    'kubernetes pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec, ValidateStatefulSetSpec, ValidateReplicaSetSpec: replicas; ValidatePodTemplateSpecForReplicaSet, ValidatePodTemplateSpecForStatefulSet, ValidateDaemonSetSpec: "`selector` does not match template `labels`"; pkg/apis/core/validation/validation.go ValidatePodTemplateSpecForRC, v1.33)',
    'kubernetes pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec: spec.selector "Required value", "empty selector is invalid for deployment" / "statefulset"; ValidateDaemonSetSpec: "empty selector is invalid for daemonset", v1.31); pkg/apis/core/v1/defaults.go (SetDefaults_ReplicationController: selector from the template\'s labels)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go (ValidateLabelSelectorRequirement: "not a valid selector operator", "must be specified when `operator` is \'In\' or \'NotIn\'", "may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'", v1.33)',
    'kubernetes pkg/apis/core/validation/validation.go (validateHTTPGetAction: supportedHTTPSchemes; validateInitContainerRestartPolicy, validateContainers: restartPolicy "may not be set for non-init containers"; ValidatePreferredSchedulingTerms, validateWeightedPodAffinityTerms: "must be in the range 1-100"; validateTopologySpreadConstraints, ValidateMaxSkew, ValidateTopologyKey, ValidateWhenUnsatisfiable; ValidateNodeSelectorRequirement, v1.31)',
    'kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_HTTPGetAction: scheme "" → HTTP, v1.31)',
    'kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresource/strategy.go (Validate: a custom resource is checked against its CRD\'s schema and ObjectMeta only, v1.31)',
    'kubernetes staging/src/k8s.io/api/batch/v1/types.go (JobSpec.Parallelism, JobSpec.Completions *int32, v1.31)',
    'kubernetes pkg/api/pod/warnings.go (warningsForPodSpecAndMeta: "hostIP set without hostPort", v1.28+, PR #113245)',
    'kubernetes staging/src/k8s.io/api/core/v1/types.go (PodSpec.NodeSelector, ReplicationControllerSpec.Selector map[string]string, PodTemplateSpec.ObjectMeta), apps/v1/types.go and batch/v1/types.go (Selector *metav1.LabelSelector, JobTemplateSpec), apimachinery pkg/apis/meta/v1/types.go (ObjectMeta.Labels / Annotations, LabelSelector.MatchLabels, LabelSelectorRequirement.Values []string), v1.33',
    'kubernetes staging/src/k8s.io/api/core/v1/types.go (Affinity, PodAffinityTerm.LabelSelector / NamespaceSelector, WeightedPodAffinityTerm, NodeSelector, NodeSelectorTerm, NodeSelectorRequirement.Values []string, PreferredSchedulingTerm, TopologySpreadConstraint.LabelSelector), v1.33',
    'kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_ContainerPort: protocol "" → TCP; SetDefaults_Pod: hostNetwork hostPort defaulting, v1.33)',
    'sigs.k8s.io/json (the API server\'s JSON decoder: "json: cannot unmarshal <type> into Go struct field <Struct>.<path> of type <type>")',
    'sigs.k8s.io/yaml v1.4 (kubectl\'s YAML → JSON, go-yaml v2 YAML 1.1: unquoted yes/no/on/off are booleans)',
    'containernetworking/plugins plugins/meta/portmap/portmap_iptables.go (fillDnatRules: hostIP parsed with net.ParseIP, entries of the other address family skipped, v1.6)',
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#ports (v1.33)',
  ],
  check({ model, layout, files }) {
    const findings: Finding[] = [];
    const roles = { patchFiles: layout?.patchFiles ?? new Set<string>(), resourceFiles: layout?.resourceFiles ?? new Set<string>() };
    const written = (span: Span): string | undefined => files?.get(span.file)?.text.slice(span.start, span.end);
    const source = fileTextOf(files);
    const unquote = (span: Span, value: string, title: string): Fix[] => {
      const edit = replaceScalarEdit(files, span, value, String(Number(value)));
      return edit ? [{ title, edits: [edit], preferred: true }] : [];
    };
    const selecting = selectingByKey(model);
    for (const w of model.workloads) {
      // Live cluster objects were already accepted by the API server (as service-spec-invalid does).
      if (w.origin.type !== 'file') continue;
      const problems = podTemplateProblems(w, manifestRole(w.file, roles), written, source, unquote, selecting);
      for (const p of problems) {
        findings.push({
          ruleId: id,
          severity: p.warning ? 'warning' : 'error',
          message: p.message,
          span: p.span,
          object: refOf(w),
          related: p.related ?? [],
          fixes: p.fixes ?? [],
        });
      }
    }
    return findings;
  },
};
