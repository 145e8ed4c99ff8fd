import type { Span } from '../../source/span';
import { Container, describe, InvalidField, mayFind, ProbeSetting, WorkloadObject } from '../../model/objects';
import type { Fix, TextEdit } from '../../rules/rule';
import { quoteScalarFix } from '../../rules/fixes/quote-scalar';
import { containerPath, handlerLabel, handlerPorts, HOOKS, isHook, PROBES, type HandlerKind } from '../../model/views/container-handlers';
import { HOOK_ACTIONS, handlerShapeOf, handlerShapes, PROBE_ACTIONS } from '../../model/views/handler-shapes';
import { entryOrDashSpanAt, isRecord, keySpanAt, rawAt, spanAt } from '../../model/views/raw-fields';
import { apiRejects, firstCause, parseIpSloppy, PORT_PROTOCOLS, portNameErrors, portNumErrors, shown, shownJson, supportedValues } from './validation';
import { caseFix, lowerCaseFix, SpecProblem, WrittenText } from './service-spec';
import { int32Failure, writtenNumber } from './json-numbers';
import { firstFitting, MESSAGE_MAX } from '../../output/fit-message';
import { elidedApiPath, elidedGoField, type MapValue, mapValueProblem } from './string-maps';
import { templateQuoteAdviceAt } from './string-advice';
import { firstAndMore, misreadKeyAt, misreadKeysOf, misreadNote, misreadRequirementKeyAdvice, selectorLabelsPath, templateLabelsPath } from './misread-keys';
import { acceptedValues, enumAdvice } from './enum-advice';
import { FileText, stringNumberAt, stringNumberWords, unstringHint, unstringSpan } from '../../source/string-number';
import { isPlaceholder } from './object-names';
import { labelSelectorMatches, nodeRequirementRefusal, requirementRefusal } from './label-selector';
import { selectorText } from '../../model/views/label-selector';

/**
 * Characters left for the release that follows the message of a value a chart template writes: ` (Helm release web)`,
 * a short release name's (a longer one may still overflow, as any suffix may).
 */
const RELEASE_ROOM = ' (Helm release web)'.length;

/** A {@link SpecProblem} that is only an API warning (the object is stored) rather than a rejection. */
export interface PodSpecProblem extends SpecProblem {
  readonly warning?: boolean;
}

const EXPECTED: Readonly<Record<string, string>> = {
  int32: 'an integer', bool: 'a boolean', string: 'a string', 'v1.Protocol': 'a string',
  '[]v1.ContainerPort': 'a list of port entries', 'v1.ContainerPort': 'a mapping (containerPort, hostPort, …)',
  '[]v1.Container': 'a list of containers (`- name: web`)', 'v1.PodTemplateSpec': 'a mapping (metadata, spec)',
  'v1.PodSpec': 'a mapping (containers, …)', 'v1.JobTemplateSpec': 'a mapping (metadata, spec)', 'v1.JobSpec': 'a mapping (template, …)',
  'v1.ObjectMeta': 'a mapping (labels, annotations, …)', 'v1.LabelSelector': 'a mapping (matchLabels, matchExpressions)',
  'map[string]string': 'a mapping of strings', '[]string': 'a list of strings',
  'v1.LabelSelectorOperator': 'a string', 'v1.NodeSelectorOperator': 'a string',
  'v1.LabelSelectorRequirement': 'a mapping (key, operator, values)', '[]v1.LabelSelectorRequirement': 'a list of requirements (`- key: app`)',
  'v1.NodeSelectorRequirement': 'a mapping (key, operator, values)', '[]v1.NodeSelectorRequirement': 'a list of requirements (`- key: zone`)',
  'v1.Affinity': 'a mapping (nodeAffinity, podAffinity, podAntiAffinity)', 'v1.PodAffinity': 'a mapping', 'v1.PodAntiAffinity': 'a mapping', 'v1.NodeAffinity': 'a mapping',
  'v1.PodAffinityTerm': 'a mapping (labelSelector, topologyKey, …)', '[]v1.PodAffinityTerm': 'a list of terms', 'v1.WeightedPodAffinityTerm': 'a mapping (weight, podAffinityTerm)',
  '[]v1.WeightedPodAffinityTerm': 'a list of terms', 'v1.NodeSelector': 'a mapping (nodeSelectorTerms)', 'v1.NodeSelectorTerm': 'a mapping (matchExpressions, matchFields)',
  '[]v1.NodeSelectorTerm': 'a list of terms', 'v1.PreferredSchedulingTerm': 'a mapping (weight, preference)', '[]v1.PreferredSchedulingTerm': 'a list of terms',
  'v1.TopologySpreadConstraint': 'a mapping (maxSkew, topologyKey, …)', '[]v1.TopologySpreadConstraint': 'a list of constraints',
  'v1.Probe': 'a mapping (httpGet, tcpSocket, …)', 'v1.Lifecycle': 'a mapping (postStart, preStop)', 'v1.LifecycleHandler': 'a mapping (exec, httpGet, sleep)',
  'v1.HTTPGetAction': 'a mapping (path, port, …)', 'v1.TCPSocketAction': 'a mapping (port)', 'v1.GRPCAction': 'a mapping (port, service)',
  'v1.ExecAction': 'a mapping (command)', 'v1.SleepAction': 'a mapping (seconds)',
  'v1.URIScheme': 'a string', 'v1.ContainerRestartPolicy': 'a string', 'v1.UnsatisfiableConstraintAction': 'a string',
};
const FOUND: Readonly<Record<InvalidField['found'], string>> = { string: 'a string', number: 'a number', bool: 'a boolean', array: 'a list', object: 'a mapping' };

/** The field's name for a message: `hostPort`, or `port entry #1` for `ports[1]`. */
function label(path: string): string {
  const last = path.slice(path.lastIndexOf('.') + 1);
  const item = /^ports\[(\d+)\]$/.exec(last);
  return item ? `port entry #${item[1]}` : last;
}

/** The decoder's own text for the value: Go's json.UnmarshalTypeError ("number 80.5" only for numeric targets). */
function goValue(f: InvalidField): string {
  if (f.found === 'number') return f.goType === 'int32' ? `number ${f.value}` : 'number';
  return f.found;
}

/** `"9100"` → 9100 and `"true"` → true when only the quotes are wrong; the replacement text, else undefined. */
function unquoted(f: InvalidField): string | undefined {
  if (f.found !== 'string' || typeof f.value !== 'string') return undefined;
  if (f.goType === 'int32' && /^\d+$/.test(f.value)) return String(Number(f.value));
  if (f.goType === 'bool' && /^(true|false)$/i.test(f.value)) return f.value.toLowerCase();
  return undefined;
}

/**
 * How to write a number or boolean given where a string belongs: quote it (in the chart template, when one writes it),
 * unless the field takes a fixed set of values that the quoted text is not one of (`restartPolicy: yes`): then the
 * values to write, and for a regular container's restartPolicy, which may not be set at all, to remove it; for a
 * matchExpressions key YAML 1.1 reads as another word, what it reads as ({@link misreadRequirementKeyAdvice}).
 */
function notStringAdvice(w: WorkloadObject, f: InvalidField, source: FileText | undefined): string {
  if (f.goType === 'v1.ContainerRestartPolicy' && /\.containers\[\d+\]\.restartPolicy$/.test(f.path)) return '; remove it (the pod\'s spec.restartPolicy applies to containers)';
  const template = templateQuoteAdviceAt(source, f.span);
  if (template) return enumAdvice(f.goType, undefined, undefined) ?? template;
  const key = /\.matchExpressions\[\d+\]\.key$/.test(f.path) ? misreadRequirementKeyAdvice(w, f.value, f.span, source, f.path.startsWith('spec.selector.') ? templateLabelsPath(w) : undefined) : undefined;
  return enumAdvice(f.goType, source, f.span) ?? key ?? '; quote it';
}

/** A number or boolean where a string belongs (`key: 5`, `protocol: 6`): quoting it is the fix, as for other kinds' strings. */
const quotable = (f: InvalidField): boolean => (f.found === 'number' || f.found === 'bool') && EXPECTED[f.goType] === 'a string';

/**
 * The objects other than a workload that select its Pods with the label key `key` as read (`true` for a written `on`):
 * `Service shop/web`, `NetworkPolicy shop/allow-web`, for a message. Made by the rule, which holds the model.
 */
export type SelectingByKey = (w: WorkloadObject, key: string) => readonly string[];

/**
 * A decode problem of a workload's template labels or selector whose quick fix quotes a key YAML 1.1 reads otherwise
 * (`on: 1` → `"on": "1"`, the label `on` instead of `true`), made safe for the selections that read it as `true`:
 * - the workload's selector and template labels must keep matching (the API server refuses a selector that does
 *   not match its template's labels, ValidatePodTemplateSpecForReplicaSet in kubernetes
 *   pkg/apis/apps/validation/validation.go v1.31): when the other map holds the same key, the fix quotes it there in
 *   the same fix (and its value, when that value is not a string either), one fix of edits in the same object; when
 *   the other map cannot be edited the same way (the key quoted already, written through an alias or a merge key),
 *   or spells the key otherwise (`ON` there, `on` here: quoted, two label keys, as label keys are case-sensitive),
 *   no fix, and the message says to quote it in both, spelled alike;
 * - a Service, NetworkPolicy or PodDisruptionBudget that selects these Pods with the key as read would stop matching
 *   them (a Service would lose its endpoints): no fix, and the message names them, so that they change together.
 *   Editing them in the same fix would reach into other objects (often other files) the author may not mean to touch.
 * Other maps (annotations, nodeSelector) and a key read as written are left as {@link mapValueProblem} made them.
 */
function keyQuotedTogether(w: WorkloadObject, f: InvalidField, v: MapValue, problem: PodSpecProblem, written: WrittenText | undefined, source: FileText | undefined, selecting: SelectingByKey | undefined): PodSpecProblem {
  const fix = problem.fixes?.[0];
  const key = f.key!;
  const labels = templateLabelsPath(w);
  const selector = w.selector ? selectorLabelsPath(w) : undefined;
  if (!fix || !fix.edits.some((e) => e.span.start === f.keySpan!.start) || (f.path !== labels && f.path !== selector)) return problem;
  const others = selecting?.(w, key) ?? [];
  if (others.length) {
    return mapValueProblem({ ...v, noFix: true, also: `, and the key in ${firstAndMore(others)}, which select${others.length > 1 ? '' : 's'} by ${key} too` }, written, source);
  }
  const other = f.path === labels ? selector : labels;
  const otherMap = other === undefined ? undefined : rawAt(w.raw, other);
  if (other === undefined || !isRecord(otherMap) || !Object.hasOwn(otherMap, key)) return problem;
  const paired = w.invalidFields?.find((x) => x.path === other && x.key === key);
  const text = source?.(f.span);
  let edits: readonly TextEdit[] | undefined;
  if (paired) {
    // Its own quick fix, when it quotes the key too (else the two would read different keys).
    const own = text !== undefined && paired.editable && paired.keySpan ? quoteScalarFix(text, paired.span, paired.keySpan, key)[0] : undefined;
    edits = own?.edits.some((e) => e.span.start === paired.keySpan!.start) ? own.edits : undefined;
  } else {
    const misread = misreadKeyAt(w, other, key, source);
    edits = misread ? [{ span: misread.span, newText: `"${misread.written}"` }] : undefined;
  }
  const where = other === labels ? 'the template labels' : other;
  if (!edits) return mapValueProblem({ ...v, noFix: true, also: `, and the key in ${where} with it (it reads ${key} too)` }, written, source);
  // Each side quotes the key as it writes it: `ON` here and `on` there would become two keys (labels are case-sensitive),
  // so the fix is withheld and the message asks for one spelling.
  const ownKey = fix.edits.find((e) => e.span.start === f.keySpan!.start)!.newText;
  const otherKeyStart = paired ? paired.keySpan!.start : edits[0].span.start;
  const otherKey = edits.find((e) => e.span.start === otherKeyStart)!.newText;
  if (otherKey !== ownKey) {
    return mapValueProblem({ ...v, noFix: true, also: `, and in ${where} the same key (${otherKey.slice(1, -1)} there)` }, written, source);
  }
  const title = paired ? `${fix.title} here and in ${where}` : `${fix.title}, and ${edits[0].newText} in ${where}`;
  const together = mapValueProblem({ ...v, also: `, and the key in ${where} with it` }, written, source);
  return { ...together, fixes: [{ title, edits: [...fix.edits, ...edits].sort((a, b) => a.span.start - b.span.start), preferred: true }] };
}

/**
 * Values of the wrong JSON type (recorded by the loader): the API server's decoder refuses the whole object
 * before validation runs, e.g. `json: cannot unmarshal string into Go struct field
 * ContainerPort.spec.template.spec.containers.ports.hostPort of type int32` (the field path without indices). A
 * value of a string map (pod template labels, nodeSelector, matchLabels) is said as in {@link mapValueProblem}.
 */
export function decodeProblems(w: WorkloadObject, written?: WrittenText, source?: FileText, selecting?: SelectingByKey): PodSpecProblem[] {
  return (w.invalidFields ?? []).map((f) => {
    const key = f.key ?? f.index;
    if (key !== undefined) {
      const { span, path, found, value, goStruct, editable, keySpan, tag } = f;
      const v: MapValue = { span, path, key, found, value, goField: `${goStruct}.${path.replace(/\[\d+\]/g, '')}`, who: describe(w), editable, ...(keySpan ? { keySpan } : {}), ...(tag ? { tag } : {}) };
      const problem = mapValueProblem(v, written, source);
      return f.key !== undefined && keySpan ? keyQuotedTogether(w, f, v, problem, written, source, selecting) : problem;
    }
    if (f.found === 'number' && typeof f.value === 'number' && f.goType === 'int32') {
      const failure = int32Failure(f.value, `${f.goStruct}.${f.path.replace(/\[\d+\]/g, '')}`);
      if (failure) {
        const who = failure.by === 'kubectl' ? 'kubectl cannot convert the manifest' : `the API server cannot decode ${describe(w)}`;
        return { span: f.span, message: `${label(f.path)} ${writtenNumber(f.value, written?.(f.span))} ${failure.what}: ${who} ("${failure.error}")` };
      }
    }
    const shown = f.value === undefined ? '' : ` ${typeof f.value === 'string' ? shownJson(f.value) : String(f.value)}`;
    if (f.goType === 'intstr.IntOrString') {
      // IntOrString decodes anything unquoted as an int32, with the plain decoder's error (no field path).
      const found = f.found === 'number' ? `number ${f.value}` : f.found;
      return { span: f.span, message: `${label(f.path)}${shown} is neither a port number nor a port name: the API server cannot decode ${describe(w)} ("json: cannot unmarshal ${found} into Go value of type int32")` };
    }
    const fixText = unquoted(f);
    const goField = `${f.goStruct}.${f.path.replace(/\[\d+\]/g, '')}`;
    const asString = fixText !== undefined ? stringNumberAt(source, f.span) : undefined;
    const fixes: Fix[] = fixText !== undefined && f.editable
      ? [{ title: `Change ${label(f.path)} ${shownJson(f.value)} to ${fixText}`, edits: [{ span: unstringSpan(asString, f.span), newText: fixText }], preferred: true }]
      : [];
    const message = (field: string): string => `${label(f.path)}${shown} is ${FOUND[f.found]}, not ${EXPECTED[f.goType] ?? f.goType}: the API server cannot decode ${describe(w)} ("json: cannot unmarshal ${goValue(f)} into Go struct field ${field} of type ${f.goType}")${fixText !== undefined ? `; ${unstringHint(asString ?? { quoted: true, start: f.span.start })}` : quotable(f) ? notStringAdvice(w, f, source) : ''}`;
    // A deep field (a CronJob's affinity term) leaves no room for the decoder's whole path: its middle goes, and then
    // all but the struct and the field (advice naming the accepted values or a template is longer than `quote it`).
    // A value a chart template writes has the release after its message: room is left for it.
    const parts = goField.split('.');
    const candidates = [message(goField), message(elidedGoField(goField)), message(parts.length > 2 ? `${parts[0]}.….${parts[parts.length - 1]}` : goField)];
    const room = source?.templateWriting?.(f.span) ? RELEASE_ROOM : 0;
    return { span: f.span, message: candidates.find((m) => m.length <= MESSAGE_MAX - room) ?? candidates[candidates.length - 1], fixes };
  });
}

/** A container's path as the API server prints it in an error (`spec.template.spec.initContainers[1]`). */
function containerApiPath(w: WorkloadObject, c: Container): string {
  return `${w.pod.path}.${c.role === 'container' ? 'containers' : 'initContainers'}[${c.index}]`;
}

function who(c: Container): string {
  return c.role === 'container' ? `container ${shown(c.name)}` : c.role === 'sidecar' ? `sidecar ${shown(c.name)}` : `init container ${shown(c.name)}`;
}

/**
 * validateContainerPorts (per container: port names, containerPort required and 1–65535, hostPort 1–65535
 * unless 0/unset, protocol TCP/UDP/SCTP with "" defaulted to TCP), the API warning "hostIP set without
 * hostPort", and hostIPs that are not IP addresses. Ports whose entry could not be decoded are skipped.
 * `partial` (a kustomize patch, merged into its base by containerPort) skips the checks of fields that may
 * come from the base: a missing containerPort and hostIP without hostPort.
 */
export function containerPortProblems(w: WorkloadObject, partial = false): PodSpecProblem[] {
  const out: PodSpecProblem[] = [];
  const invalid = new Set((w.invalidFields ?? []).map((f) => f.path));
  // The fact, the API server's words, and the fix; deep paths (a CronJob's init container) and long names leave no
  // room for everything, and then the fix goes (the rule's page has it).
  const rejects = (what: string, path: string, detail: string, fix: string): string => {
    const base = apiRejects(what, describe(w), path, detail);
    return firstFitting(`${base}; ${fix}`, base);
  };
  // SetDefaults_Pod copies containerPort into an unset hostPort on hostNetwork Pods (not on templates).
  const defaultsHostPort = w.kind === 'Pod' && w.pod.hostNetwork?.value === true;
  for (const c of w.pod.containers) {
    const names = new Map<string, Span>();
    for (const p of c.ports) {
      const path = `${containerApiPath(w, c)}.ports[${p.index}]`;
      if (invalid.has(path)) continue;
      const name = p.name?.value;
      if (p.name && name) {
        const errors = portNameErrors(name);
        for (const detail of firstCause(errors)) out.push({ span: p.name.span, message: rejects(`port name ${shown(name)} of ${who(c)} is not a valid port name (IANA_SVC_NAME)`, `${path}.name`, `Invalid value: ${shown(name)}: ${detail}`, 'rename it'), fixes: lowerCaseFix(p.name, portNameErrors) });
        const first = names.get(name);
        if (!errors.length && first) out.push({ span: p.name.span, message: rejects(`port name ${shown(name)} is used twice in ${who(c)}`, `${path}.name`, `Duplicate value: ${shown(name)}`, 'rename one of them'), related: [{ span: first, message: `first port named ${shown(name)}` }] });
        else if (!errors.length) names.set(name, p.name.span);
      }
      const cp = p.containerPort;
      if (cp && cp.value !== 0) {
        for (const detail of portNumErrors(cp.value)) out.push({ span: cp.span, message: rejects(`containerPort ${cp.value} of ${who(c)} is not a port number`, `${path}.containerPort`, `Invalid value: ${cp.value}: ${detail}`, 'use a port from 1 to 65535') });
      } else if (!invalid.has(`${path}.containerPort`) && !partial) {
        const what = cp ? `containerPort 0 of ${who(c)} means "not set"` : `port entry #${p.index} of ${who(c)} has no containerPort`;
        out.push({ span: cp?.span ?? p.hostPort?.span ?? p.name?.span ?? p.span, message: rejects(what, `${path}.containerPort`, 'Required value', 'set the port the container listens on') });
      }
      if (p.hostPort) {
        for (const detail of portNumErrors(p.hostPort.value)) out.push({ span: p.hostPort.span, message: rejects(`hostPort ${p.hostPort.value} of ${who(c)} is not a port number`, `${path}.hostPort`, `Invalid value: ${p.hostPort.value}: ${detail}`, 'use a port from 1 to 65535') });
      }
      const proto = p.protocol;
      if (proto.value !== '' && !PORT_PROTOCOLS.includes(proto.value)) {
        out.push({ span: proto.span, message: rejects(`protocol ${shown(proto.value)} of ${who(c)} is not one of ${PORT_PROTOCOLS.join(', ')}`, `${path}.protocol`, `Unsupported value: ${shown(proto.value)}: supported values: ${supportedValues(PORT_PROTOCOLS)}`, PORT_PROTOCOLS.includes(proto.value.toUpperCase()) ? `write ${proto.value.toUpperCase()}` : 'use TCP, UDP or SCTP'), fixes: caseFix(proto, PORT_PROTOCOLS, 'protocol') });
      }
      out.push(...hostIpProblems(w, c, p, path, partial || defaultsHostPort || invalid.has(`${path}.hostPort`)));
    }
  }
  return out;
}

/** hostIP without hostPort (API warning, pkg/api/pod/warnings.go) and hostIPs that the CNI portmap plugin cannot parse. */
function hostIpProblems(w: WorkloadObject, c: Container, p: Container['ports'][number], path: string, hostPortUnknown: boolean): PodSpecProblem[] {
  const ip = p.hostIP;
  if (!ip || ip.value === '' || hostPortUnknown) return [];
  if (!p.hostPort) {
    // Go's %+v of the internal core.ContainerPort, after defaulting (protocol "" → TCP).
    const go = `{Name:${p.name?.value ?? ''} HostPort:0 ContainerPort:${p.containerPort?.value ?? 0} Protocol:${p.protocol.value || 'TCP'} HostIP:${ip.value}}`;
    return [{
      span: ip.span,
      warning: true,
      message: `hostIP ${shown(ip.value)} of ${who(c)} is set without a hostPort, so it does nothing (only a hostPort is bound to a node address): the API server warns "${path}: hostIP set without hostPort: ${go}"`,
    }];
  }
  if (w.pod.hostNetwork?.value === true || parseIpSloppy(ip.value)) return [];
  return [{
    span: ip.span,
    message: `hostIP ${shown(ip.value)} of ${who(c)} is not an IP address: the API server stores it (hostIP is not validated), but the CNI portmap plugin cannot parse it and skips the mapping on IPv4 pods, so hostPort ${p.hostPort.value} is never opened on the node`,
  }];
}

/**
 * Probe and lifecycle-hook ports the API server rejects: `httpGet.port` and `tcpSocket.port` are IntOrString
 * checked by ValidatePortNumOrName — a string must be a valid port name (IANA_SVC_NAME), so a quoted number
 * (`port: "8080"`) fails with `must contain at least one letter (a-z)` — and `grpc.port` is an int32 that no
 * string decodes into. Numbers outside 1–65535 fail IsValidPortNum. Sources: kubernetes
 * pkg/apis/core/validation/validation.go (validateHTTPGetAction, validateTCPSocketAction, validateGRPCAction,
 * ValidatePortNumOrName, v1.33).
 * @param unquote builds the fix that writes a quoted number at `span` as the number (empty when the text
 *   there cannot be edited safely)
 */
export function handlerPortProblems(w: WorkloadObject, unquote: (span: Span, value: string, title: string) => Fix[] = () => [], source?: FileText): PodSpecProblem[] {
  const out: PodSpecProblem[] = [];
  for (const h of handlerPorts(w)) {
    const c = h.container;
    // validateHandler validates the first handler set only; a second one is "more than 1 handler type" (handlerTypeProblems).
    const shape = handlerShapeOf(w, w.pod.containers.indexOf(c), h.handler);
    if (shape && shape.actions[0] !== h.action) continue;
    const field = isHook(h.handler) ? `lifecycle.${h.handler}` : h.handler;
    const path = `${containerApiPath(w, c)}.${field}.${h.action}.port`;
    const value = h.port.value;
    const what = `${handlerLabel(h)} port ${shownJson(value)} of ${who(c)}`;
    if (typeof value === 'number') {
      if (c.role === 'init') continue;
      for (const detail of portNumErrors(value)) {
        const base = apiRejects(`${what} is not a port number`, describe(w), path, `Invalid value: ${value}: ${detail}`);
        out.push({ span: h.port.span, message: firstFitting(`${base}; use a port from 1 to 65535 or a port name`, base) });
      }
      continue;
    }
    // validateInitContainers forbids the whole handler on a plain init container and validates nothing in it
    // (initContainerHandlerProblems); only a decode error (a string grpc.port, above) comes first.
    if (c.role === 'init' && h.action !== 'grpc') continue;
    const quotedNumber = /^\d+$/.test(value);
    const asString = quotedNumber ? stringNumberAt(source, h.port.span) ?? { quoted: true, start: h.port.span.start } : undefined;
    const unstring = asString ? `; ${unstringHint(asString)}` : '';
    if (h.action === 'grpc') {
      out.push({
        span: h.port.span,
        message: `${what} is a string, not an integer (grpc.port takes no names): the API server cannot decode ${describe(w)} ("json: cannot unmarshal string into Go struct field GRPCAction.${path.replace(/\[\d+\]/g, '')} of type int32")${unstring}`,
        fixes: quotedNumber ? unquote(h.port.span, value, `Change the ${handlerLabel(h)} port ${shownJson(value)} to ${Number(value)}`) : [],
      });
      continue;
    }
    const errors = portNameErrors(value);
    if (!errors.length) continue;
    const lead = asString ? `${what} is ${stringNumberWords(asString)}, which the API reads as a port name` : `${what} is not a valid port name (IANA_SVC_NAME)`;
    const rejected = (l: string): string => `${apiRejects(l, describe(w), path, `Invalid value: ${shown(value)}: ${errors[0]}`)}${unstring}`;
    out.push({
      span: h.port.span,
      // A hook's long API path (…lifecycle.postStart.tcpSocket.port) leaves no room for why a quoted number is a name.
      message: firstFitting(rejected(lead), rejected(asString ? `${what} is ${stringNumberWords(asString)}` : lead)),
      fixes: quotedNumber ? unquote(h.port.span, value, `Change the ${handlerLabel(h)} port ${shownJson(value)} to ${Number(value)}`) : [],
    });
  }
  return out;
}

/**
 * Probes and `lifecycle` on a plain init container (no `restartPolicy: Always`): validateInitContainers refuses
 * each with `Forbidden: may not be set for init containers without restartPolicy=Always` — an init container runs
 * to completion before the Pod starts, so nothing would probe it or run its hooks. A restartable init container
 * (a sidecar) may have them. Source: kubernetes pkg/apis/core/validation/validation.go (validateInitContainers, v1.33).
 * `partial` (a kustomize patch) reports none: the container it merges into may set the restartPolicy.
 */
export function initContainerHandlerProblems(w: WorkloadObject, partial = false): PodSpecProblem[] {
  const out: PodSpecProblem[] = [];
  if (partial) return out;
  for (const c of w.pod.containers) {
    for (const f of c.forbiddenHandlers ?? []) {
      const what = `${f.value} is not allowed on ${who(c)}`;
      const base = apiRejects(what, describe(w), `${w.pod.path}.initContainers[${c.index}].${f.value}`, 'Forbidden: may not be set for init containers without restartPolicy=Always');
      out.push({ span: f.span, message: firstFitting(`${base}; remove it, or set restartPolicy: Always if the container keeps running (a sidecar)`, base) });
    }
  }
  return out;
}

/** The API's detail and a short fix for each ProbeSetting refusal. */
const PROBE_SETTING_REFUSALS: Readonly<Record<ProbeSetting['refusal'], { what: string; detail: string; fix: string }>> = {
  negative: { what: 'is negative', detail: 'must be greater than or equal to 0', fix: 'use 0 or more' },
  notOne: { what: 'is not 1', detail: 'must be 1', fix: 'remove it (a liveness or startup probe succeeds once)' },
  readinessGrace: { what: 'is set', detail: 'must not be set for readinessProbes', fix: 'remove it (only liveness and startup probes take it)' },
  notPositive: { what: 'is not above 0', detail: 'must be greater than 0', fix: 'use 1 or more, or remove it' },
};

/**
 * Probe settings that decode but that validation refuses (see ProbeSetting): a negative timing, a liveness or startup
 * successThreshold other than 1, a readinessProbe terminationGracePeriodSeconds, a terminationGracePeriodSeconds
 * below 1; at the value, for containers and sidecars. Source: kubernetes pkg/apis/core/validation/validation.go
 * (validateProbe, validateContainers, validateInitContainers), v1.33.
 */
export function probeSettingProblems(w: WorkloadObject): PodSpecProblem[] {
  const out: PodSpecProblem[] = [];
  for (const c of w.pod.containers) {
    for (const s of c.probeSettings ?? []) {
      const r = PROBE_SETTING_REFUSALS[s.refusal];
      const path = `${containerApiPath(w, c)}.${s.probe}.${s.field}`;
      const base = apiRejects(`${s.probe} ${s.field} ${s.value} of ${who(c)} ${r.what}`, describe(w), path, `Invalid value: ${s.value}: ${r.detail}`);
      out.push({ span: s.span, message: firstFitting(`${base}; ${r.fix}`, base) });
    }
  }
  return out;
}

/** Go's `%v` of a map[string]string as the API server prints it in the error (keys sorted): `map[string]string{"app":"e"}`. */
function goStringMap(labels: Readonly<Record<string, string>>): string {
  return `map[string]string{${Object.keys(labels).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(labels[k])}`).join(', ')}}`;
}

/**
 * How a workload's file reaches the API server, which decides what may be missing from it: `applied` as written
 * (`kubectl apply -f`, or a Helm / kustomize render's output), a kustomize `patch` (partial on purpose: merged into
 * the object of its base) or a kustomize `resource` (built by kustomize, whose `labels` / `commonLabels` transformer
 * may add the workload's `spec.selector`). See RepoLayout.patchFiles and resourceFiles.
 */
export type ManifestRole = 'applied' | 'patch' | 'resource';

/**
 * A Deployment, ReplicaSet, StatefulSet, DaemonSet or ReplicationController whose `spec.selector` selects none of
 * its own Pods: the API server rejects it (`spec.template.metadata.labels: Invalid value: map[string]string{…}:
 * `selector` does not match template `labels``, ValidatePodTemplateSpecForReplicaSet /
 * ValidatePodTemplateSpecForStatefulSet and ValidateDaemonSetSpec in kubernetes pkg/apis/apps/validation/validation.go,
 * ValidatePodTemplateSpecForRC in pkg/apis/core/validation/validation.go, v1.33). An apps/v1 selector that is
 * missing or empty is refused too, except in a kustomize resource ({@link missingSelectorProblems}); a
 * matchExpressions entry validation refuses (`operator: in`, In without values) is reported instead of the match
 * ({@link requirementRefusal}), also beside decode errors; placeholders of other tools (`${VAR}`, `{{ … }}`) are not
 * judged, nor a kustomize patch (the object it merges into has the other half), nor the match of an object the
 * decoder refuses (its {@link decodeProblems} come first). A key either side writes as a plain YAML 1.1 word read as
 * another key (`on` read `true`) is said (`source`: the file's text).
 */
export function selectorProblems(w: WorkloadObject, role: ManifestRole = 'applied', source?: FileText): PodSpecProblem[] {
  if (role === 'patch') return [];
  // In a kustomize resource, the labels transformer may write the selector into the build.
  const missing = role === 'applied' ? missingSelectorProblems(w) : [];
  if (missing.length) return missing;
  const selector = w.selector;
  if (!selector) return [];
  const { matchLabels, matchExpressions } = selector.value;
  // An invalid requirement fails LabelSelectorAsSelector: the API server then reports it, not the template's labels.
  // Reported beside decode errors, as the other validation errors are (so that one round of fixes clears them all).
  // Read from raw (an entry written as null is not in the selector's value), when the loader's run of this check
  // found something (PodTemplate.rawChecks): reading `raw` parses the whole object.
  const refused = mayFind(w, 'selectorRequirements') ? requirementProblems(w, 'spec.selector.matchExpressions', 'spec.selector.matchExpressions', false, source) : [];
  if (refused.length) return refused;
  // The match needs the decoded labels: with a value the decoder refuses, the API server validates nothing else.
  if (w.invalidFields?.length || (Object.keys(matchLabels).length === 0 && matchExpressions.length === 0)) return [];
  const written = [...Object.values(matchLabels), ...matchExpressions.flatMap((e) => e.values), ...Object.values(w.pod.labels)];
  if (written.some(isPlaceholder) || labelSelectorMatches(selector.value, w.pod.labels)) return [];
  const selectorKeys = misreadKeysOf(w, selectorLabelsPath(w), Object.keys(matchLabels), source);
  const labelsKeys = misreadKeysOf(w, templateLabelsPath(w), Object.keys(w.pod.labels), source);
  const said = (short: boolean, withLabels = true): string => templateLabelsRejection(w, `selector ${selectorText(selector.value)}${misreadNote(selectorKeys, short)} does not match the pod template's labels${misreadNote(labelsKeys, short)}`)(withLabels);
  // Labels the template lacks are the usual cause; a NotIn or DoesNotExist requirement fails on a label it has.
  const onlyAsks = matchExpressions.every((e) => e.operator === 'In' || e.operator === 'Exists');
  // A misread key is the cause: written alike (quoted) on both sides, the key is the same.
  const misread = selectorKeys.length > 0 || labelsKeys.length > 0;
  const advice = misread ? 'quote it on both sides' : onlyAsks ? 'give the template every label the selector asks for' : 'make the template\'s labels satisfy the selector';
  // The fullest message that fits; long label maps give way to `map[string]string{…}` last.
  const full = said(false);
  const candidates = misread
    ? [`${said(true)}; ${advice}`, full, said(true), `${said(true, false)}; ${advice}`, said(true, false)]
    : [full, `${said(false, false)}; ${advice}`, said(false, false)];
  return [{ span: selector.span, message: firstFitting(`${full}; ${advice}`, ...candidates) }];
}

/**
 * The API server's refusal of `w` for a selector that selects none of its pod template (`fact` first), quoting its
 * `Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`` (Go's `%#v`: a
 * template without labels is `map[string]string(nil)`), the map cut to `map[string]string{…}` when `withLabels` is
 * false (long label maps leave no room for the rest of the message).
 */
function templateLabelsRejection(w: WorkloadObject, fact: string): (withLabels: boolean) => string {
  const at = `${w.pod.path.replace(/\.spec$/, '')}.metadata.labels`;
  const written = rawAt(w.raw, at);
  const labels = written === undefined || written === null ? 'map[string]string(nil)' : goStringMap(w.pod.labels);
  return (withLabels) => apiRejects(fact, describe(w), at, `Invalid value: ${withLabels ? labels : 'map[string]string{…}'}: \`selector\` does not match template \`labels\``);
}

/** What a missing or empty apps/v1 selector is called in the API server's error (ReplicaSet shares Deployment's words). */
const EMPTY_SELECTOR_NOUN: Readonly<Record<string, string>> = { Deployment: 'deployment', ReplicaSet: 'deployment', StatefulSet: 'statefulset', DaemonSet: 'daemonset' };

/**
 * True for a written `spec.selector` that selects by nothing: `{}`, `matchLabels: {}`, `matchExpressions: []` or
 * nulls (Go's `len(MatchLabels)+len(MatchExpressions) == 0`). A field of the wrong type is a decode error instead,
 * and a requirement without a key is still a requirement (validation refuses its key).
 */
function selectsByNothing(selector: unknown): boolean {
  if (!isRecord(selector)) return false;
  const { matchLabels, matchExpressions } = selector;
  const unset = (v: unknown): boolean => v === undefined || v === null;
  return (unset(matchLabels) || (isRecord(matchLabels) && Object.keys(matchLabels).length === 0)) && (unset(matchExpressions) || (Array.isArray(matchExpressions) && matchExpressions.length === 0));
}

/**
 * An apps/v1 Deployment, ReplicaSet, StatefulSet or DaemonSet written without `spec.selector` (or with `null`), or
 * with an empty one (`{}`, `matchLabels: {}`): apps/v1 takes no selector from the template's labels (the beta API
 * versions did). Deployment, ReplicaSet and StatefulSet: `spec.selector: Required value`, and for an empty one
 * `spec.selector: Invalid value: …: empty selector is invalid for deployment` (ReplicaSet too) / `statefulset`; a
 * DaemonSet without one selects nothing (`selector` does not match template `labels`), with an empty one `empty
 * selector is invalid for daemonset`. Sources: kubernetes pkg/apis/apps/validation/validation.go
 * (ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec), v1.31. Read
 * from `raw`, so decode errors elsewhere do not hide it (as with requirement refusals). A ReplicationController's
 * selector is defaulted from its template (pkg/apis/core/v1/defaults.go), so it is not judged; neither is a `spec`
 * or `selector` that is not a mapping (a decode error), nor, by the caller, a kustomize resource (kustomize's labels
 * transformer may write the selector there) or patch.
 */
function missingSelectorProblems(w: WorkloadObject): PodSpecProblem[] {
  const noun = EMPTY_SELECTOR_NOUN[w.kind];
  if (!noun || w.apiVersion !== 'apps/v1') return [];
  // A selector the loader read with a label or a requirement selects by something: `raw` (the whole object, parsed
  // when first read) is only looked at otherwise.
  const read = w.selector?.value;
  if (read && (Object.keys(read.matchLabels).length > 0 || read.matchExpressions.length > 0)) return [];
  const spec = rawAt(w.raw, 'spec');
  if (spec !== undefined && spec !== null && !isRecord(spec)) return [];
  const written = isRecord(spec) ? spec.selector : undefined;
  const missing = written === undefined || written === null;
  if (!missing && !selectsByNothing(written)) return [];
  const labels = Object.entries(w.pod.labels).filter(([, v]) => !isPlaceholder(v));
  const withLabels = `add selector.matchLabels with the template's ${labels.length === 1 ? 'label' : 'labels'}`;
  const fixes = labels.length ? [`${withLabels} (${labels.map(([k, v]) => `${k}: ${v}`).join(', ')})`, withLabels] : ['add selector.matchLabels and the same labels to the template'];
  // The fullest message that fits: each form of the refusal (fullest first) with each fix, then each alone.
  const fitted = (...bases: string[]): string => {
    const [fullest, ...rest] = [...bases.flatMap((b) => fixes.map((f) => `${b}; ${f}`)), ...bases];
    return firstFitting(fullest, ...rest);
  };
  if (!missing) return [{ span: w.selector?.span ?? w.span, message: fitted(apiRejects('spec.selector is empty', describe(w), 'spec.selector', `Invalid value: …: empty selector is invalid for ${noun}`)) }];
  const fact = `${w.kind} has no spec.selector (apps/v1 does not take it from the template's labels)`;
  const rejects = w.kind === 'DaemonSet' ? templateLabelsRejection(w, fact) : () => apiRejects(fact, describe(w), 'spec.selector', 'Required value');
  // At the object's name: nothing of the selector is written (workloads' paths hold no `spec` key).
  return [{ span: w.span, message: fitted(rejects(true), rejects(false)) }];
}

/**
 * The matchExpressions entries at the raw path `at` of a workload (`api`: the list's path as the API prints it) that
 * validation refuses ({@link requirementRefusal}, or {@link nodeRequirementRefusal} for a node selector term: an
 * operator that is not one, In / NotIn without values, Exists / DoesNotExist with values, Gt / Lt without exactly one
 * value), at the field. An entry written as null (`- ` alone) decodes to an empty requirement, refused for its empty
 * operator, and is reported at the entry (a bare `-`: at its dash, read from `source`, see {@link entryOrDashSpanAt}).
 * Entries the decoder refuses (not a mapping, an operator that is not a string, values that are not a list) are
 * decodeProblems' and left out.
 */
export function requirementProblems(w: WorkloadObject, at: string, api: string, node = false, source?: FileText): PodSpecProblem[] {
  const exprs = rawAt(w.raw, at);
  if (!Array.isArray(exprs)) return [];
  const out: PodSpecProblem[] = [];
  exprs.forEach((e, i) => {
    const entry = e === null ? {} : isRecord(e) ? e : undefined;
    if (!entry) return;
    const { key, operator, values } = entry;
    const unset = (v: unknown): boolean => v === undefined || v === null;
    if ((!unset(operator) && typeof operator !== 'string') || (!unset(values) && !Array.isArray(values))) return;
    const op = typeof operator === 'string' ? operator : '';
    const count = Array.isArray(values) ? values.length : 0;
    const refusal = node ? nodeRequirementRefusal(op, count) : requirementRefusal(op, count);
    if (!refusal) return;
    const path = `${api}[${i}].${refusal.field}`;
    // A deep selector (an affinity term's) leaves no room for the whole path: its middle goes, then the fix.
    const message = (what: string, fix: string): string => {
      const full = apiRejects(what, describe(w), path, refusal.detail);
      const cut = apiRejects(what, describe(w), elidedApiPath(path), refusal.detail);
      return firstFitting(`${full}; ${fix}`, full, `${cut}; ${fix}`, cut);
    };
    if (e === null) {
      out.push({ span: entryOrDashSpanAt(w, `${at}.${i}`, source), message: message(`matchExpressions entry #${i} is null, an empty requirement (no key, no operator)`, 'remove the entry') });
      return;
    }
    const on = typeof key === 'string' && key ? ` on ${shown(key)}` : '';
    const what = refusal.field === 'operator' ? `selector operator ${shown(op)}${on} is not a valid operator`
      : count ? `selector requirement${on} (${op}) has ${refusal.many ? 'more than one value' : 'values'}` : `selector requirement${on} (${op}) has no values`;
    out.push({ span: spanAt(w, `${at}.${i}${refusal.field === 'operator' || Array.isArray(values) ? `.${refusal.field}` : ''}`), message: message(what, refusal.fix) });
  });
  return out;
}

/** Dotted raw path of a container's probe or hook (`spec.containers.0.lifecycle.preStop`). */
function handlerRawPath(w: WorkloadObject, c: Container, handler: HandlerKind): string {
  return `${containerPath(w, c)}.${isHook(handler) ? `lifecycle.${handler}` : handler}`;
}

/**
 * Probes and lifecycle hooks whose handler validateHandler refuses: more than one action set (`httpGet` and
 * `tcpSocket` both: `Forbidden: may not specify more than 1 handler type`, at each action after the first, in the
 * order exec, httpGet, tcpSocket, grpc / sleep), none (`{}`, or only `tcpSocket: null`, which is "not set":
 * `Required value: must specify a handler type`, at the probe or hook), and for the one action: an `httpGet`,
 * `tcpSocket` or `grpc` without a port (an unset port is 0 to the API: `Invalid value: 0: must be between 1 and
 * 65535, inclusive`), an `exec` without a command (`Required value`). A probe or hook that is not a mapping (a decode
 * error) and a plain init container's (forbidden as a whole) are not judged here; neither is a kustomize patch
 * (`partial`), whose probe may take its handler or port from the base. Sources: kubernetes
 * pkg/apis/core/validation/validation.go (validateProbe, validateLifecycle, validateHandler, validateExecAction,
 * validateHTTPGetAction, validateTCPSocketAction, validateGRPCAction, ValidatePortNumOrName), v1.33;
 * staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go (an absent IntOrString is the int 0).
 */
export function handlerTypeProblems(w: WorkloadObject, partial = false): PodSpecProblem[] {
  const out: PodSpecProblem[] = [];
  if (partial) return out;
  // The loader recorded the handlers that are not one action as it should be (most workloads have none).
  for (const shape of handlerShapes(w)) {
    const c = w.pod.containers[shape.container];
    // An action that is not a mapping is a decode error (decodeProblems): the API server validates nothing then.
    if (c.role === 'init' || shape.undecodable) continue;
    const { handler, actions } = shape;
    const hook = isHook(handler);
    const raw = handlerRawPath(w, c, handler);
    const api = `${containerApiPath(w, c)}.${hook ? `lifecycle.${handler}` : handler}`;
    const label = hook ? `${handler} hook` : handler;
    const rejects = (what: string, path: string, detail: string, fix: string): string => {
      const base = apiRejects(`${label} ${what}`, describe(w), path, detail);
      return firstFitting(`${base}; ${fix}`, base);
    };
    if (actions.length === 0) {
      const nulls = shape.nulls ?? [];
      const none = nulls.length ? ` (${nulls[0]}: null sets none)` : '';
      const kinds = hook ? 'exec, httpGet or sleep' : 'exec, httpGet, tcpSocket or grpc';
      // A probe's own key has no span (only its subtree is located): a null action's key, else the probe's value.
      out.push({ span: keySpanAt(w, nulls.length ? `${raw}.${nulls[0]}` : raw), message: rejects(`of ${who(c)} has no handler${none}`, api, 'Required value: must specify a handler type', `add one of ${kinds}`) });
      continue;
    }
    for (const extra of actions.slice(1)) {
      out.push({ span: keySpanAt(w, `${raw}.${extra}`), message: rejects(`of ${who(c)} sets both ${actions[0]} and ${extra}`, `${api}.${extra}`, 'Forbidden: may not specify more than 1 handler type', 'keep one handler') });
    }
    const first = actions[0];
    if (shape.missing === 'port') {
      const detail = `Invalid value: 0: ${portNumErrors(0)[0]}`;
      out.push({ span: keySpanAt(w, `${raw}.${first}`), message: rejects(`${first} of ${who(c)} has no port (an unset port is 0)`, `${api}.${first}.port`, detail, `set port to the container's port${first === 'grpc' ? ' number' : ' number or name'}`) });
    } else if (shape.missing === 'command') {
      out.push({ span: keySpanAt(w, `${raw}.exec`), message: rejects(`exec of ${who(c)} has no command`, `${api}.exec.command`, 'Required value', 'add the command to run') });
    }
  }
  return out;
}

/** The schemes validateHTTPGetAction accepts (supportedHTTPSchemes, sorted as the API lists them). */
const HTTP_SCHEMES = acceptedValues('v1.URIScheme');

/**
 * An `httpGet.scheme` of a probe or lifecycle hook other than `HTTP` or `HTTPS` (schemes are case-sensitive, so
 * `http` is refused): `Unsupported value: "http": supported values: "HTTP", "HTTPS"`, at the value, with the quick
 * fix that corrects the case. An empty scheme is defaulted to HTTP. Only the handler validateHandler validates is
 * judged (the first set, in the order exec, httpGet, tcpSocket, grpc / sleep), and not on a plain init container,
 * whose probes and hooks are forbidden as a whole (initContainerHandlerProblems); a scheme that is not a string is
 * a decode error (decodeProblems). Sources: kubernetes pkg/apis/core/validation/validation.go (validateHandler,
 * validateHTTPGetAction: supportedHTTPSchemes), pkg/apis/core/v1/defaults.go (SetDefaults_HTTPGetAction), v1.31.
 */
export function httpSchemeProblems(w: WorkloadObject): PodSpecProblem[] {
  const out: PodSpecProblem[] = [];
  if (!mayFind(w, 'httpScheme')) return out;
  // Only handlers with an httpGet port (the loader records them) are read from `raw`. An httpGet without a port is
  // refused for that already (handlerTypeProblems).
  const withHttpGet = new Map<Container, Set<HandlerKind>>();
  for (const h of handlerPorts(w)) if (h.action === 'httpGet') withHttpGet.set(h.container, (withHttpGet.get(h.container) ?? new Set()).add(h.handler));
  if (withHttpGet.size === 0) return out;
  for (const c of w.pod.containers) {
    if (c.role === 'init') continue;
    for (const handler of [...PROBES, ...HOOKS]) {
      if (!withHttpGet.get(c)?.has(handler)) continue;
      const raw = handlerRawPath(w, c, handler);
      const h = rawAt(w.raw, raw);
      if (!isRecord(h)) continue;
      const first = (isHook(handler) ? HOOK_ACTIONS : PROBE_ACTIONS).find((a) => h[a] !== undefined && h[a] !== null);
      const http = first === 'httpGet' ? h.httpGet : undefined;
      const scheme = isRecord(http) ? http.scheme : undefined;
      if (typeof scheme !== 'string' || scheme === '' || HTTP_SCHEMES.includes(scheme)) continue;
      const loc = { value: scheme, span: spanAt(w, `${raw}.httpGet.scheme`) };
      const upper = scheme.toUpperCase();
      const path = `${containerApiPath(w, c)}.${isHook(handler) ? `lifecycle.${handler}` : handler}.httpGet.scheme`;
      const base = apiRejects(`${isHook(handler) ? `${handler} hook` : handler} scheme ${shown(scheme)} of ${who(c)} is not HTTP or HTTPS`, describe(w), path, `Unsupported value: ${shown(scheme)}: supported values: ${supportedValues(HTTP_SCHEMES)}`);
      out.push({ span: loc.span, message: firstFitting(`${base}; ${HTTP_SCHEMES.includes(upper) ? `write ${upper}` : 'use HTTP or HTTPS'}`, base), fixes: caseFix(loc, HTTP_SCHEMES, 'scheme') });
    }
  }
  return out;
}

/** The only container restartPolicy validateInitContainerRestartPolicy accepts. */
const INIT_RESTART_POLICIES = acceptedValues('v1.ContainerRestartPolicy');

/**
 * A container's own `restartPolicy` that validation refuses: on an init container anything but `Always` (the
 * value that makes it a sidecar; case-sensitive, so `always` is refused: `Unsupported value: "always": supported
 * values: "Always"`, with the quick fix that corrects the case), at the value; on a regular container any value
 * (`Forbidden: may not be set for non-init containers`: the pod's `spec.restartPolicy` governs them), at the key.
 * Null is "not set"; a value that is not a string is a decode error (decodeProblems). Source: kubernetes
 * pkg/apis/core/validation/validation.go (validateInitContainers, validateInitContainerRestartPolicy,
 * validateContainers), v1.31.
 */
export function containerRestartPolicyProblems(w: WorkloadObject): PodSpecProblem[] {
  const out: PodSpecProblem[] = [];
  if (!mayFind(w, 'restartPolicy')) return out;
  for (const c of w.pod.containers) {
    const at = `${containerPath(w, c)}.restartPolicy`;
    const value = rawAt(w.raw, at);
    if (typeof value !== 'string' || c.role === 'sidecar') continue;
    const path = `${containerApiPath(w, c)}.restartPolicy`;
    if (c.role === 'container') {
      const base = apiRejects(`restartPolicy is set on ${who(c)}`, describe(w), path, 'Forbidden: may not be set for non-init containers');
      out.push({ span: keySpanAt(w, at), message: firstFitting(`${base}; remove it (the pod's spec.restartPolicy applies to containers)`, base) });
      continue;
    }
    const loc = { value, span: spanAt(w, at) };
    const fix = value.toLowerCase() === 'always' ? 'write Always' : 'remove it, or write Always for a sidecar';
    const base = apiRejects(`restartPolicy ${shown(value)} of ${who(c)} is not Always`, describe(w), path, `Unsupported value: ${shown(value)}: supported values: ${supportedValues(INIT_RESTART_POLICIES)}`);
    out.push({ span: loc.span, message: firstFitting(`${base}; ${fix}`, base), fixes: caseFix(loc, INIT_RESTART_POLICIES, 'restartPolicy') });
  }
  return out;
}
