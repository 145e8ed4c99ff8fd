import type { Located, Span } from '../../source/span';
import type { ServiceObject, ServicePort } from '../../model/objects';
import type { Fix, RelatedLocation } from '../../rules/rule';
import {
  apiRejects, DNS1123_LABEL_ERROR, DNS1123_LABEL_WORDS, dns1123LabelErrors, dns1123LabelLike, externalIpErrors, externallyAccessible, firstCause, isCidrSloppy, leadingZerosIp, needsHealthCheck, parseIpSloppy, PORT_PROTOCOLS, portNameErrors, portNumErrors, SERVICE_TYPES, shown, shownJson, supportedValues, TRAFFIC_POLICIES,
} from './validation';
import { int32Failure, isInt32, writtenNumber } from './json-numbers';
import { firstFitting } from '../../output/fit-message';
import { enumAdvice } from './enum-advice';
import { FileText, stringNumberAt, stringNumberWords, unstringHint, unstringSpan } from '../../source/string-number';
import { quoteAdvice } from './string-advice';

/** One thing the API server would reject in a Service, located at the value it concerns. */
export interface SpecProblem {
  readonly span: Span;
  /** What is wrong, then the API server's error quoted. */
  readonly message: string;
  readonly related?: readonly RelatedLocation[];
  readonly fixes?: readonly Fix[];
  /** Only an API warning today (the object is stored), rather than a rejection. */
  readonly warning?: boolean;
}

/** Placeholder in messages for `Service <namespace>/<name>`, filled in by the rule. */
export const SERVICE = '{service}';

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Go's name for a JSON value in decode errors: `string`, `number` (`number 80.5` when decoding into an integer), `bool`, `array`, `object`. */
export const jsonType = (v: unknown, intTarget = false): string =>
  typeof v === 'number' ? (intTarget ? `number ${v}` : 'number') : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : v === null ? 'null' : 'object';

/** The JSON kind of a value in plain English for messages: `a string`, `a number`, `a boolean`, `a list`, `a mapping`, `null`. */
export const jsonKindWords = (v: unknown): string =>
  typeof v === 'number' ? 'a number' : typeof v === 'boolean' ? 'a boolean' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? 'a string' : v === null ? 'null' : 'a mapping';

/** The API's wording: `<what>: the API server rejects Service ns/name with "<path>: <detail>"`. */
const rejects = (what: string, path: string, detail: string): string => apiRejects(what, SERVICE, path, detail);

/** A fix that replaces a wrongly-cased enum value (`tcp` → `TCP`) by the supported one. */
export function caseFix(loc: Located<string>, allowed: readonly string[], field: string): Fix[] {
  const match = allowed.find((a) => a.toLowerCase() === loc.value.toLowerCase());
  return match ? [{ title: `Change ${field} ${shown(loc.value)} to "${match}"`, edits: [{ span: loc.span, newText: match }], preferred: true }] : [];
}

/** An enum value outside the supported set: `Unsupported value: "x": supported values: ...`. */
function unsupported(loc: Located<string>, allowed: readonly string[], field: string, path: string): SpecProblem {
  return {
    span: loc.span,
    message: rejects(`${field} ${shown(loc.value)} is not one of ${allowed.join(', ')}`, path, `Unsupported value: ${shown(loc.value)}: supported values: ${supportedValues(allowed)}`),
    fixes: caseFix(loc, allowed, field),
  };
}

/**
 * Values that are not JSON integers where the API needs an int32 (`nodePort: "30080"`, `port: abc`):
 * the loader leaves them out of the typed fields, so they are found in `raw` and located with `fieldSpans`.
 * The API server's decoder refuses the whole object before validation runs.
 */
function notAnInteger(value: unknown, span: Span | undefined, goField: string, field: string, written?: WrittenText, source?: FileText): SpecProblem[] {
  if (value === undefined || value === null || isInt32(value) || !span) return [];
  if (typeof value === 'number') {
    const failure = int32Failure(value, goField)!;
    const who = failure.by === 'kubectl' ? 'kubectl cannot convert the manifest' : `the API server cannot decode ${SERVICE}`;
    return [{ span, message: `${field} ${writtenNumber(value, written?.(span))} ${failure.what}: ${who} ("${failure.error}")` }];
  }
  return [{
    span,
    message: `${field} ${shownJson(value)} is not an integer: the API server cannot decode ${SERVICE} ("json: cannot unmarshal ${jsonType(value, true)} into Go struct field ${goField} of type int32")${typeof value === 'string' && /^\d+$/.test(value) ? `; ${unstringHint(stringNumberAt(source, span))}` : ''}`,
  }];
}

/** The text of the manifest at a span (to show values as written), when the caller has the file text. */
export type WrittenText = (span: Span) => string | undefined;

/**
 * A value the decoder refuses where the API needs a string (`name: 5`, `protocol: 6`); quote it (a tagged one,
 * `name: !!int 8080`: remove the tag, which decides the type whatever the quotes; see {@link quoteAdvice}); for a field
 * with a fixed set of values (`protocol: on`), the values to write ({@link enumAdvice}).
 */
export function notAString(value: unknown, span: Span | undefined, goField: string, goType: string, field: string, source?: FileText): SpecProblem[] {
  if (value === undefined || value === null || typeof value === 'string' || !span) return [];
  const advice = enumAdvice(goType, source, span) ?? (typeof value === 'number' || typeof value === 'boolean' ? quoteAdvice(source, span) : '; quote it');
  return [{ span, message: `${field} ${shownJson(value)} is not a string: the API server cannot decode ${SERVICE} ("json: cannot unmarshal ${jsonType(value)} into Go struct field ${goField} of type ${goType}")${advice}` }];
}

/**
 * Checks of one `spec.ports[i]` entry; `names` collects the port names seen so far. `partial` (a kustomize
 * patch) skips the checks of fields that must be present, since a patch writes only what it changes.
 */
export function checkServicePort(svc: ServiceObject, sp: ServicePort, names: Map<string, Span>, partial = false, written?: WrittenText, source?: FileText): SpecProblem[] {
  const rawItem = (svc.raw.spec as Raw | undefined)?.ports as unknown[] | undefined;
  const raw = rawItem?.[sp.index];
  const path = `spec.ports[${sp.index}]`;
  if (raw === null || raw === undefined) {
    // JSON null decodes to an empty ServicePort, which validation then refuses for its port 0.
    return [{ span: sp.span, message: rejects(`port entry #${sp.index} is empty`, `${path}.port`, 'Invalid value: 0: must be between 1 and 65535, inclusive') }];
  }
  if (!isObject(raw)) {
    return [{ span: sp.span, message: `port entry #${sp.index} is ${jsonKindWords(raw)}, not a mapping with port, targetPort, …: the API server cannot decode ${SERVICE} ("json: cannot unmarshal ${jsonType(raw)} into Go struct field ServiceSpec.spec.ports of type v1.ServicePort")` }];
  }
  const span = (key: string): Span | undefined => svc.fieldSpans.get(`ports.${sp.index}.${key}`);
  const out: SpecProblem[] = [];
  const portName = sp.name?.value;
  const badName = notAString(raw.name, span('name') ?? sp.span, 'ServicePort.spec.ports.name', 'string', 'port name', source);
  if (badName.length) {
    out.push(...badName);
  } else if (!portName && svc.ports.length > 1 && !partial) {
    out.push({ span: sp.port?.span ?? sp.span, message: rejects(`port #${sp.index} has no name, but a Service with more than one port must name each`, `${path}.name`, 'Required value') });
  } else if (portName && sp.name) {
    for (const detail of firstCause(dns1123LabelErrors(portName))) {
      // The regex message is named in words (the rule page quotes it whole): it alone is over 200 characters.
      const message = detail === DNS1123_LABEL_ERROR
        ? rejects(`port name ${shown(portName)} is not a DNS-1123 label (${DNS1123_LABEL_WORDS})`, `${path}.name`, `Invalid value: ${shown(portName)}`) + renameHint(portName)
        : rejects(`port name ${shown(portName)} is not a DNS-1123 label`, `${path}.name`, `Invalid value: ${shown(portName)}: ${detail}`);
      out.push({ span: sp.name.span, message, fixes: lowerCaseFix(sp.name, dns1123LabelErrors) });
    }
    const first = names.get(portName);
    if (first) out.push({ span: sp.name.span, message: rejects(`port name ${shown(portName)} is used twice in this Service`, `${path}.name`, `Duplicate value: ${shown(portName)}`), related: [{ span: first, message: `first port named ${shown(portName)}` }] });
    else names.set(portName, sp.name.span);
  }
  if (sp.port) {
    for (const detail of portNumErrors(sp.port.value)) out.push({ span: sp.port.span, message: rejects(`port ${sp.port.value} is not a port number`, `${path}.port`, `Invalid value: ${sp.port.value}: ${detail}`) });
  } else if ((raw.port === undefined || raw.port === null) && !partial) {
    out.push({ span: sp.span, message: rejects(`port #${sp.index} has no port number`, `${path}.port`, 'Invalid value: 0: must be between 1 and 65535, inclusive') });
  }
  out.push(...notAnInteger(raw.port, span('port'), 'ServicePort.spec.ports.port', 'port', written, source));
  if (typeof raw.protocol === 'string' && !PORT_PROTOCOLS.includes(sp.protocol.value)) out.push(unsupported(sp.protocol, PORT_PROTOCOLS, 'protocol', `${path}.protocol`));
  out.push(...notAString(raw.protocol, span('protocol'), 'ServicePort.spec.ports.protocol', 'v1.Protocol', 'protocol', source));
  out.push(...checkTargetPort(raw.targetPort, sp, span('targetPort'), path, source));
  out.push(...notAnInteger(raw.nodePort, span('nodePort'), 'ServicePort.spec.ports.nodePort', 'nodePort', written, source));
  if (sp.nodePort && svc.type.value === 'ClusterIP' && (svc.typeWritten || !partial)) {
    const why = svc.typeWritten ? '' : ' (type is not written and defaults to ClusterIP; add type: NodePort)';
    out.push({ span: sp.nodePort.span, message: rejects(`nodePort ${sp.nodePort.value} is set on a ClusterIP Service${why}`, `${path}.nodePort`, "Forbidden: may not be used when `type` is 'ClusterIP'") });
  } else if (sp.nodePort && svc.type.value === 'ExternalName') {
    // ValidateService forbids a nodePort on ClusterIP only; on ExternalName it is stored, but txnAllocNodePorts allocates
    // nodePorts for NodePort and LoadBalancer only, so the number is never held and no node opens it.
    out.push({
      span: sp.nodePort.span,
      warning: true,
      message: `nodePort ${sp.nodePort.value} is set on an ExternalName Service: the API server stores ${SERVICE} but allocates no nodePort for this type, so no node opens ${sp.nodePort.value} and another Service may take it; remove it`,
    });
  }
  return out;
}

/** The Service's `metadata.annotations` as written (empty when absent or not a mapping). */
const annotationsOf = (svc: ServiceObject): Raw => (isObject(svc.raw.metadata) && isObject(svc.raw.metadata.annotations) ? svc.raw.metadata.annotations : {});

/** `spec.sessionAffinityConfig.clientIP.timeoutSeconds` as written, and where (undefined when not written). */
function affinityTimeout(svc: ServiceObject, spec: Raw): { readonly value: unknown; readonly span: Span | undefined } | undefined {
  const config = spec.sessionAffinityConfig;
  const value = isObject(config) && isObject(config.clientIP) ? config.clientIP.timeoutSeconds : undefined;
  if (value === undefined) return undefined;
  return { value, span: svc.paths?.get('spec.sessionAffinityConfig.clientIP.timeoutSeconds') ?? svc.fieldSpans.get('sessionAffinityConfig') };
}

/** The annotation older Services used instead of `spec.loadBalancerSourceRanges` (comma-separated CIDRs). */
export const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

/**
 * Fields ValidateService forbids unless `type` is LoadBalancer: `loadBalancerSourceRanges` (non-empty; the API
 * prints the path as `spec.LoadBalancerSourceRanges`) or, when the field is empty, its annotation;
 * `allocateLoadBalancerNodePorts` (any value, `false` too); `loadBalancerClass` (validateLoadBalancerClassField).
 * `loadBalancerIP` is not checked against the type by the API server and is not reported. Sources: kubernetes
 * pkg/apis/core/validation/validation.go (ValidateService, validateLoadBalancerClassField, v1.33).
 */
function loadBalancerOnlyFields(svc: ServiceObject, spec: Raw): SpecProblem[] {
  const out: SpecProblem[] = [];
  const type = svc.typeWritten ? `a ${svc.type.value} Service` : 'a Service without type (ClusterIP)';
  const forbid = (field: string, span: Span | undefined, path: string): void => {
    if (!span) return;
    out.push({ span, message: rejects(`${field} on ${type}`, path, "Forbidden: may only be used when `type` is 'LoadBalancer'") + '; remove it or set type: LoadBalancer' });
  };
  const ranges = spec.loadBalancerSourceRanges;
  const annotations = annotationsOf(svc);
  if (Array.isArray(ranges) && ranges.length > 0) forbid('loadBalancerSourceRanges', svc.fieldSpans.get('loadBalancerSourceRanges'), 'spec.LoadBalancerSourceRanges');
  else if (SOURCE_RANGES_ANNOTATION in annotations) {
    const key = `metadata.annotations.${SOURCE_RANGES_ANNOTATION}`;
    forbid('load-balancer-source-ranges annotation', svc.paths?.get(`${key}#key`) ?? svc.paths?.get(key), `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`);
  }
  for (const field of ['allocateLoadBalancerNodePorts', 'loadBalancerClass']) {
    if (spec[field] !== undefined && spec[field] !== null) forbid(field, svc.fieldSpans.get(field), `spec.${field}`);
  }
  return out;
}

/**
 * A LoadBalancer Service's source ranges that are not CIDRs: `spec.loadBalancerSourceRanges` or, when it is empty,
 * the `service.beta.kubernetes.io/load-balancer-source-ranges` annotation (comma-separated). ValidateService refuses
 * the whole list ("must be a list of IP ranges", quoting it as Go prints a slice); the finding points at the first
 * entry that is not a CIDR, typically an address without its prefix length (`203.0.113.7` for `203.0.113.7/32`).
 * A list that is not of strings is the decoder's (not checked here). Sources: kubernetes
 * pkg/apis/core/validation/validation.go (ValidateService) and pkg/api/service/util.go (GetLoadBalancerSourceRanges), v1.33.
 */
function sourceRangeProblems(svc: ServiceObject, spec: Raw): SpecProblem[] {
  const ranges = spec.loadBalancerSourceRanges;
  const annotations = annotationsOf(svc);
  let entries: string[];
  let path: string;
  let shownList: string;
  let at: (i: number) => Span | undefined;
  if (Array.isArray(ranges) && ranges.length > 0) {
    // A null entry (`- ` left empty by a template) decodes as "", which is no CIDR; other types are the decoder's.
    if (!ranges.every((r) => typeof r === 'string' || r === null)) return [];
    entries = ranges.map((r) => (r === null ? '' : (r as string)));
    path = 'spec.LoadBalancerSourceRanges';
    shownList = `[${entries.join(' ')}]`;
    at = (i) => svc.paths?.get(`spec.loadBalancerSourceRanges.${i}`) ?? svc.fieldSpans.get('loadBalancerSourceRanges');
  } else if (typeof annotations[SOURCE_RANGES_ANNOTATION] === 'string') {
    const value = annotations[SOURCE_RANGES_ANNOTATION] as string;
    if (value.trim() === '') return [];
    entries = value.trim().split(',');
    path = `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
    shownList = value;
    at = () => svc.paths?.get(`metadata.annotations.${SOURCE_RANGES_ANNOTATION}`);
  } else return [];
  const bad = entries.findIndex((e) => !isCidrSloppy(e));
  const span = bad >= 0 ? at(bad) : undefined;
  if (!span) return [];
  const entry = entries[bad].trim();
  const bare = parseIpSloppy(entry);
  const fix = bare ? `write ${entry}/${bare.kind() === 'ipv4' ? 32 : 128} for the one address` : 'write each range as address/prefix length';
  const message = (detail: string): string => `${rejects(`source range ${shown(entry)} is not a CIDR`, path, `Invalid value: ${shown(shownList)}: ${detail}`)}; ${fix}`;
  // The annotation's long path leaves no room for the API server's example.
  return [{ span, message: firstFitting(message('must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 '), message('must be a list of IP ranges…')) }];
}

const SESSION_AFFINITIES = ['ClientIP', 'None'];
/** core.MaxClientIPServiceAffinitySeconds: a day. */
const MAX_AFFINITY_SECONDS = 86400;

/**
 * `sessionAffinity` and `sessionAffinityConfig`, which kube-proxy turns into ClientIP stickiness: an unsupported
 * (or wrongly-cased) `sessionAffinity`; with ClientIP, a `clientIP.timeoutSeconds` outside 1–86400 ("must be
 * greater than 0 and less than 86400"); and — a warning, the object is stored — a `sessionAffinityConfig` written
 * while `sessionAffinity` is None or unset: SetDefaults_Service drops it, so clients are not sticky and the timeout
 * is not kept (not in a kustomize patch, `partial`, that does not write sessionAffinity). Sources: kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_Service) and
 * pkg/apis/core/validation/validation.go (ValidateService, validateClientIPAffinityConfig, validateAffinityTimeout), v1.33.
 */
function sessionAffinityProblems(svc: ServiceObject, spec: Raw, partial: boolean): SpecProblem[] {
  const affinity = spec.sessionAffinity;
  const affinitySpan = svc.fieldSpans.get('sessionAffinity');
  if (typeof affinity === 'string' && affinity !== '' && !SESSION_AFFINITIES.includes(affinity)) {
    return affinitySpan ? [unsupported({ value: affinity, span: affinitySpan }, SESSION_AFFINITIES, 'sessionAffinity', 'spec.sessionAffinity')] : [];
  }
  const config = spec.sessionAffinityConfig;
  const configSpan = svc.fieldSpans.get('sessionAffinityConfig');
  if (config === undefined || config === null || !configSpan) return [];
  // A kustomize patch that does not write sessionAffinity may patch a ClientIP Service: the rendered one is judged.
  if (affinity === undefined && partial) return [];
  if (affinity !== 'ClientIP') {
    return [{
      span: configSpan,
      warning: true,
      message: `sessionAffinityConfig is set ${affinity === 'None' ? 'with sessionAffinity: None' : 'without sessionAffinity: ClientIP (it defaults to None)'}: the API server drops the config when it stores ${SERVICE}, so kube-proxy keeps no client on one endpoint; set sessionAffinity: ClientIP or remove it`,
    }];
  }
  const found = affinityTimeout(svc, spec);
  const timeout = found?.value;
  // A value that is not an int32 is the decoder's (checkServiceFields, as for every integer field).
  if (!isInt32(timeout) || (timeout > 0 && timeout <= MAX_AFFINITY_SECONDS)) return [];
  const span = found?.span ?? configSpan;
  return [{ span, message: `${rejects(`sessionAffinityConfig timeoutSeconds ${timeout} is outside 1-${MAX_AFFINITY_SECONDS}`, 'spec.sessionAffinityConfig.clientIP.timeoutSeconds', `Invalid value: ${timeout}: must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`)}; use at most a day (10800, three hours, is the default)` }];
}

/** `; rename it, e.g. "grpc-web"` for a port name that is not a DNS-1123 label, when a close valid label exists. */
const renameHint = (name: string): string => {
  const like = dns1123LabelLike(name);
  return like ? `; rename it, e.g. ${shown(like)}` : '; rename it';
};

/** A fix lower-casing a name when that alone makes it valid (`HTTP` → `http`). */
export function lowerCaseFix(loc: Located<string>, errors: (s: string) => string[]): Fix[] {
  const lower = loc.value.toLowerCase();
  return lower !== loc.value && errors(lower).length === 0 ? [{ title: `Change ${shown(loc.value)} to ${shown(lower)}`, edits: [{ span: loc.span, newText: lower }], preferred: true }] : [];
}

/** targetPort: an integer 1–65535 or an IANA_SVC_NAME; 0 and "" mean "same as port" (SetDefaults_Service). */
function checkTargetPort(value: unknown, sp: ServicePort, span: Span | undefined, path: string, source?: FileText): SpecProblem[] {
  if (value === undefined || value === null || value === 0 || value === '' || !span) return [];
  if (typeof value === 'number' && Number.isInteger(value)) {
    return portNumErrors(value).map((detail) => ({ span, message: rejects(`targetPort ${value} is not a port number`, `${path}.targetPort`, `Invalid value: ${value}: ${detail}`) }));
  }
  if (typeof value === 'string') {
    const asString = /^\d+$/.test(value) ? stringNumberAt(source, span) ?? { quoted: true, start: span.start } : undefined;
    const hint = asString ? ` (${stringNumberWords(asString)} is a port name; ${unstringHint(asString)})` : '';
    return firstCause(portNameErrors(value)).map((detail) => ({
      span,
      message: rejects(`targetPort ${shown(value)} is not a valid port name (IANA_SVC_NAME)${hint}`, `${path}.targetPort`, `Invalid value: ${shown(value)}: ${detail}`),
      fixes: asString && sp.targetPort ? [{ title: `Change targetPort ${shown(value)} to the number ${value}`, edits: [{ span: unstringSpan(asString, span), newText: String(Number(value)) }], preferred: true }] : lowerCaseFix({ value, span }, portNameErrors),
    }));
  }
  return [{ span, message: `targetPort ${shownJson(value)} is neither a port number nor a port name: the API server cannot decode ${SERVICE} ("json: cannot unmarshal ${jsonType(value, true)} into Go value of type int32")` }];
}

/** Checks of the Service-level fields: type, traffic policies, healthCheckNodePort, externalIPs, ports (`partial`: see {@link checkServicePort}). */
export function checkServiceFields(svc: ServiceObject, partial = false, written?: WrittenText, source?: FileText): SpecProblem[] {
  const out: SpecProblem[] = [];
  const spec = (svc.raw.spec ?? {}) as Raw;
  if (svc.typeWritten && !SERVICE_TYPES.includes(svc.type.value)) out.push(unsupported(svc.type, SERVICE_TYPES, 'type', 'spec.type'));
  const typeKnown = SERVICE_TYPES.includes(svc.type.value);
  const etp = svc.externalTrafficPolicy;
  if (etp && typeKnown) {
    if (!externallyAccessible(svc)) {
      out.push({
        span: etp.span,
        message: rejects(`externalTrafficPolicy is set on ${svc.type.value} Service without externalIPs, which is not externally accessible`, 'spec.externalTrafficPolicy', `Invalid value: ${shown(etp.value)}: may only be set for externally-accessible services`),
      });
    } else if (!TRAFFIC_POLICIES.includes(etp.value)) {
      out.push(unsupported(etp, TRAFFIC_POLICIES, 'externalTrafficPolicy', 'spec.externalTrafficPolicy'));
    }
  }
  const itp = svc.internalTrafficPolicy;
  if (itp && !TRAFFIC_POLICIES.includes(itp.value)) out.push(unsupported(itp, TRAFFIC_POLICIES, 'internalTrafficPolicy', 'spec.internalTrafficPolicy'));
  out.push(...notAnInteger(spec.healthCheckNodePort, svc.fieldSpans.get('healthCheckNodePort'), 'ServiceSpec.spec.healthCheckNodePort', 'healthCheckNodePort', written, source));
  const timeout = affinityTimeout(svc, spec);
  if (timeout) out.push(...notAnInteger(timeout.value, timeout.span, 'ClientIPConfig.spec.sessionAffinityConfig.clientIP.timeoutSeconds', 'sessionAffinityConfig timeoutSeconds', written, source));
  const hc = svc.healthCheckNodePort;
  if (hc && typeKnown) {
    if (!needsHealthCheck(svc)) {
      out.push({
        span: hc.span,
        message: rejects(`healthCheckNodePort ${hc.value} is set on a ${svc.type.value} Service with externalTrafficPolicy ${etp?.value ?? 'unset (Cluster)'}`, 'spec.healthCheckNodePort', `Invalid value: ${hc.value}: may only be set when \`type\` is 'LoadBalancer' and \`externalTrafficPolicy\` is 'Local'`),
      });
    } else {
      for (const detail of portNumErrors(hc.value)) out.push({ span: hc.span, message: rejects(`healthCheckNodePort ${hc.value} is not a port number`, 'spec.healthCheckNodePort', `Invalid value: ${hc.value}: ${detail}`) });
    }
  }
  svc.externalIPs.forEach((ip, i) => {
    for (const detail of firstCause(externalIpErrors(ip.value))) out.push({ span: ip.span, message: rejects(`externalIP ${shown(ip.value)} is not usable`, `spec.externalIPs[${i}]`, `Invalid value: ${shown(ip.value)}: ${detail}`) });
    const standard = leadingZerosIp(ip.value);
    if (standard) {
      out.push({
        span: ip.span,
        warning: true,
        message: `externalIP ${shown(ip.value)} has leading zeros: up to v1.35 the API server reads it as ${standard} and warns ("spec.externalIPs[${i}]: non-standard IP address"); from v1.36 it rejects new Services ("must not have leading 0s"); write ${standard}`,
        fixes: [{ title: `Change externalIP ${shown(ip.value)} to ${standard}`, edits: [{ span: ip.span, newText: standard }], preferred: true }],
      });
    }
  });
  if (typeKnown && svc.type.value !== 'LoadBalancer' && (svc.typeWritten || !partial)) out.push(...loadBalancerOnlyFields(svc, spec));
  else if (svc.type.value === 'LoadBalancer') out.push(...sourceRangeProblems(svc, spec));
  out.push(...sessionAffinityProblems(svc, spec, partial));
  const headless = svc.clusterIP?.value === 'None';
  if (headless && svc.clusterIP && (svc.type.value === 'NodePort' || svc.type.value === 'LoadBalancer')) {
    // A NodePort / LoadBalancer Service needs a ClusterIP for kube-proxy to forward its node ports to.
    out.push({
      span: svc.clusterIP.span,
      message: rejects(`clusterIP: None (headless) is set on a ${svc.type.value} Service, which needs a cluster IP`, 'spec.clusterIPs[0]', `Invalid value: "None": may not be set to 'None' for ${svc.type.value} services`),
    });
  }
  if (svc.ports.length === 0 && !headless && !partial && !Array.isArray(svc.raw.spec) && svc.type.value !== 'ExternalName' && (spec.ports === undefined || spec.ports === null || Array.isArray(spec.ports))) {
    out.push({ span: svc.span, message: rejects(`${svc.type.value} Service has no ports`, 'spec.ports', 'Required value') });
  }
  return out;
}
