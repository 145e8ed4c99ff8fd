import type { Span } from '../../source/span';
import type { K8sObject } from '../../model/objects';
import { describe } from '../../model/objects';
import { backendLabel } from '../../model/views/ingress';
import { rawAt, spanAt } from '../../model/views/raw-fields';
import { jsonKindWords, jsonType, lowerCaseFix, SpecProblem, WrittenText } from './service-spec';
import { apiRejects, firstCause, portNameErrors, portNumErrors, shown, shownJson } from './validation';
import { int32Failure, isInt32, writtenNumber } from './json-numbers';
import { enumAdvice } from './enum-advice';
import { FileText, stringNumberAt, unstringHint, unstringSpan } from '../../source/string-number';
import { quoteAdvice, templateQuoteAdviceAt } from './string-advice';
import { firstFitting } from '../../output/fit-message';

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** One backend to check: where it is in `raw` (dotted), in the API's error paths (indexed), in the Go decoder's paths. */
interface BackendSite {
  readonly value: unknown;
  readonly path: string;
  readonly api: string;
  readonly go: string;
  /** The decoder's struct and field for the backend itself, e.g. `HTTPIngressPath.spec.rules.http.paths.backend`. */
  readonly holder: string;
  readonly label: string;
  /** Only decoded, not validated: its path entry has no pathType (validateHTTPIngressPath stops there). */
  readonly decodeOnly?: boolean;
}

/**
 * The backends of a networking.k8s.io/v1 Ingress (`spec.defaultBackend`, every `spec.rules[].http.paths[].backend`)
 * that the API server refuses, at the value concerned, quoting its error:
 *
 * - decoding (the whole object is refused): a backend, `service` or `service.port` that is not a mapping,
 *   `service.port.number` that is not an int32 (`number: "80"`), `service.name` or `service.port.name` that is not
 *   a string;
 * - validateIngressBackend: both `resource` and `service`, or neither (a path's backend is required); a service
 *   without `name`; both `service.port.name` and `service.port.number`, or neither (`number: 0` is "not set"); a
 *   port number outside 1–65535; a port name that is not an IANA_SVC_NAME.
 *
 * In a kustomize patch (`partial`) a missing name, port or backend is not reported: the base may have it.
 * The Service name's format (DNS-1035 label) and `resource` references are not checked. Sources: kubernetes
 * pkg/apis/networking/validation/validation.go (ValidateIngressSpec, validateHTTPIngressPath, validateIngressBackend,
 * v1.33); staging/src/k8s.io/api/networking/v1/types.go (IngressBackend, IngressServiceBackend,
 * ServiceBackendPort: name string, number int32), v1.33.
 */
export function ingressBackendProblems(ingress: K8sObject, written?: WrittenText, partial = false, source?: FileText): SpecProblem[] {
  const spec = rawAt(ingress.raw, 'spec');
  if (!isObject(spec)) return [];
  const sites: BackendSite[] = [];
  if (isSet(spec.defaultBackend)) {
    sites.push({ value: spec.defaultBackend, path: 'spec.defaultBackend', api: 'spec.defaultBackend', go: 'spec.defaultBackend', holder: 'IngressSpec.spec.defaultBackend', label: 'default backend' });
  }
  const shapes = [...ruleShapeProblems(ingress, spec, source), ...classAndTlsShapeProblems(ingress, spec, source)];
  // A value the decoder refuses stops the API server before validation: only those are reported then.
  const pathProblems: SpecProblem[] = shapes.length || partial ? shapes : emptyRuleProblems(ingress, spec);
  (Array.isArray(spec.rules) ? spec.rules : []).forEach((rule, r) => {
    const http = isObject(rule) ? rule.http : undefined;
    const paths = isObject(http) && Array.isArray(http.paths) ? http.paths : [];
    paths.forEach((p, i) => {
      if (!isObject(p)) return;
      const host = isObject(rule) && typeof rule.host === 'string' ? rule.host : undefined;
      const label = backendLabel(host, typeof p.path === 'string' ? p.path : undefined, r);
      const entry = `${typeof p.path === 'string' ? `path ${shown(p.path)}` : `paths[${i}]`} of ${host ? `host ${host}` : `rule #${r}`}`;
      const found = httpPathProblems(ingress, p, `spec.rules.${r}.http.paths.${i}`, `spec.rules[${r}].http.paths[${i}]`, entry, partial, written, source);
      pathProblems.push(...found.problems);
      sites.push({
        value: p.backend,
        path: `spec.rules.${r}.http.paths.${i}.backend`,
        api: `spec.rules[${r}].http.paths[${i}].backend`,
        go: 'spec.rules.http.paths.backend',
        holder: 'HTTPIngressPath.spec.rules.http.paths.backend',
        label,
        // validateHTTPIngressPath returns at a missing pathType: that path's backend is not validated (decoded, it is).
        ...(found.stop ? { decodeOnly: true } : {}),
      });
    });
  });
  return [...pathProblems, ...sites.flatMap((site) => backendProblems(ingress, site, written, partial, source))];
}

/**
 * What ValidateIngressSpec refuses in an Ingress that routes nothing: no `rules` (absent or `[]`) and no
 * `defaultBackend` ("either `defaultBackend` or `rules` must be specified", at `spec`), and a rule whose `http` has no
 * `paths` (`http: {}`, `paths: []`: "spec.rules[0].http.paths: Required value", validateHTTPIngressRuleValue). A rule
 * without `http` is valid (it routes nothing by itself). Not for a kustomize patch, which may take them from its base.
 * Source: kubernetes pkg/apis/networking/validation/validation.go (ValidateIngressSpec, validateIngressRules,
 * validateHTTPIngressRuleValue), v1.33.
 */
function emptyRuleProblems(ingress: K8sObject, spec: Raw): SpecProblem[] {
  const who = describe(ingress);
  const rules = spec.rules;
  if (!isSet(spec.defaultBackend) && (!isSet(rules) || (Array.isArray(rules) && rules.length === 0))) {
    return [{ span: spanAt(ingress, isSet(rules) ? 'spec.rules' : 'spec'), message: `${who} has neither rules nor a defaultBackend: the API server rejects it ("either \`defaultBackend\` or \`rules\` must be specified"); add a rule with http paths, or a defaultBackend` }];
  }
  if (!Array.isArray(rules)) return [];
  const out: SpecProblem[] = [];
  rules.forEach((rule, r) => {
    const http = isObject(rule) ? rule.http : undefined;
    if (!isObject(http) || (isSet(http.paths) && !(Array.isArray(http.paths) && http.paths.length === 0))) return;
    const at = `spec.rules.${r}.http${isSet(http.paths) ? '.paths' : ''}`;
    const what = `http of ${isObject(rule) && typeof rule.host === 'string' ? `host ${rule.host}` : `rule #${r}`} has no paths`;
    const base = apiRejects(what, who, `spec.rules[${r}].http.paths`, 'Required value');
    out.push({ span: spanAt(ingress, at), message: firstFitting(`${base}; add a path with its backend, or remove http`, base) });
  });
  return out;
}

/**
 * The structs on the way from `spec` to a path entry that the API server's decoder refuses (the whole object is
 * refused, once, at the field): a `rules` that is not a list, a rule that is not a mapping, a `host` that is not a
 * string, an `http` that is not a mapping, a `paths` that is not a list, a path entry that is not a mapping. A null
 * decodes as "not set" (a null rule or path entry as an empty one, which validation judges). The decoder names the
 * struct holding the field: `http` lives in the IngressRuleValue inlined in IngressRule, so IngressRule holds it.
 * Sources: staging/src/k8s.io/api/networking/v1/types.go (IngressSpec.Rules []IngressRule, IngressRule.Host,
 * IngressRuleValue.HTTP *HTTPIngressRuleValue inlined, HTTPIngressRuleValue.Paths []HTTPIngressPath), v1.33.
 */
function ruleShapeProblems(ingress: K8sObject, spec: Raw, source?: FileText): SpecProblem[] {
  const who = describe(ingress);
  const decode = (at: string, what: string, goField: string, goType: string, value: unknown, fix = ''): SpecProblem => ({
    span: spanAt(ingress, at),
    message: `${what}: the API server cannot decode ${who} ("json: cannot unmarshal ${jsonType(value)} into Go struct field ${goField} of type ${goType}")${fix}`,
  });
  const rules = spec.rules;
  if (!isSet(rules)) return [];
  if (!Array.isArray(rules)) return [decode('spec.rules', `rules is ${jsonKindWords(rules)}, not a list of rules (host, http)`, 'IngressSpec.spec.rules', '[]v1.IngressRule', rules)];
  const out: SpecProblem[] = [];
  rules.forEach((rule, r) => {
    const at = `spec.rules.${r}`;
    if (rule === null) return;
    if (!isObject(rule)) {
      out.push(decode(at, `rule #${r} is ${jsonKindWords(rule)}, not a mapping (host, http)`, 'IngressSpec.spec.rules', 'v1.IngressRule', rule));
      return;
    }
    if (isSet(rule.host) && typeof rule.host !== 'string') {
      out.push(decode(`${at}.host`, `host ${shownJson(rule.host)} of rule #${r} is not a string`, 'IngressRule.spec.rules.host', 'string', rule.host, templateQuoteAdviceAt(source, spanAt(ingress, `${at}.host`)) ?? '; quote it'));
    }
    const http = rule.http;
    const label = typeof rule.host === 'string' && rule.host !== '' ? `host ${rule.host}` : `rule #${r}`;
    if (!isSet(http)) return;
    if (!isObject(http)) {
      out.push(decode(`${at}.http`, `http of ${label} is ${jsonKindWords(http)}, not a mapping with paths`, 'IngressRule.spec.rules.http', 'v1.HTTPIngressRuleValue', http));
      return;
    }
    const paths = http.paths;
    if (!isSet(paths)) return;
    if (!Array.isArray(paths)) {
      out.push(decode(`${at}.http.paths`, `http.paths of ${label} is ${jsonKindWords(paths)}, not a list of paths (path, pathType, backend)`, 'HTTPIngressRuleValue.spec.rules.http.paths', '[]v1.HTTPIngressPath', paths));
      return;
    }
    paths.forEach((p, i) => {
      if (p !== null && !isObject(p)) {
        out.push(decode(`${at}.http.paths.${i}`, `paths[${i}] of ${label} is ${jsonKindWords(p)}, not a mapping (path, pathType, backend)`, 'HTTPIngressRuleValue.spec.rules.http.paths', 'v1.HTTPIngressPath', p));
      }
    });
  });
  return out;
}

/**
 * The `ingressClassName` and `tls` values the API server's decoder refuses: a class name that is not a string, a
 * `tls` that is not a list, an entry that is not a mapping, `hosts` that is not a list or holds a value that is not
 * a string (`hosts: [1]`), a `secretName` that is not a string. Null is "not set". Sources:
 * staging/src/k8s.io/api/networking/v1/types.go (IngressSpec.IngressClassName *string, IngressSpec.TLS []IngressTLS,
 * IngressTLS.Hosts []string, IngressTLS.SecretName string), v1.33.
 */
function classAndTlsShapeProblems(ingress: K8sObject, spec: Raw, source?: FileText): SpecProblem[] {
  const who = describe(ingress);
  const decode = (at: string, what: string, goField: string, goType: string, value: unknown, fix = ''): SpecProblem => ({
    span: spanAt(ingress, at),
    message: `${what}: the API server cannot decode ${who} ("json: cannot unmarshal ${jsonType(value)} into Go struct field ${goField} of type ${goType}")${fix}`,
  });
  const quote = (v: unknown, at: string): string => (typeof v === 'number' || typeof v === 'boolean' ? templateQuoteAdviceAt(source, spanAt(ingress, at)) ?? '; quote it' : '');
  const out: SpecProblem[] = [];
  const className = spec.ingressClassName;
  if (isSet(className) && typeof className !== 'string') {
    out.push(decode('spec.ingressClassName', `ingressClassName ${shownJson(className)} is not a string`, 'IngressSpec.spec.ingressClassName', 'string', className, quote(className, 'spec.ingressClassName')));
  }
  const tls = spec.tls;
  if (!isSet(tls)) return out;
  if (!Array.isArray(tls)) return [...out, decode('spec.tls', `tls is ${jsonKindWords(tls)}, not a list of entries (hosts, secretName)`, 'IngressSpec.spec.tls', '[]v1.IngressTLS', tls)];
  tls.forEach((entry, i) => {
    const at = `spec.tls.${i}`;
    if (entry === null) return;
    if (!isObject(entry)) {
      out.push(decode(at, `tls entry #${i} is ${jsonKindWords(entry)}, not a mapping (hosts, secretName)`, 'IngressSpec.spec.tls', 'v1.IngressTLS', entry));
      return;
    }
    if (isSet(entry.secretName) && typeof entry.secretName !== 'string') {
      out.push(decode(`${at}.secretName`, `secretName ${shownJson(entry.secretName)} of tls entry #${i} is not a string`, 'IngressTLS.spec.tls.secretName', 'string', entry.secretName, quote(entry.secretName, `${at}.secretName`)));
    }
    const hosts = entry.hosts;
    if (!isSet(hosts)) return;
    if (!Array.isArray(hosts)) {
      out.push(decode(`${at}.hosts`, `hosts of tls entry #${i} is ${jsonKindWords(hosts)}, not a list of host names`, 'IngressTLS.spec.tls.hosts', '[]string', hosts, typeof hosts === 'string' ? `; write hosts: [${hosts}]` : ''));
      return;
    }
    hosts.forEach((h, k) => {
      if (isSet(h) && typeof h !== 'string') out.push(decode(`${at}.hosts.${k}`, `host ${shownJson(h)} of tls entry #${i} is not a string`, 'IngressTLS.spec.tls.hosts', 'string', h, quote(h, `${at}.hosts.${k}`)));
    });
  });
  return out;
}

/** The path types of networking.k8s.io/v1, as the API server lists them (sorted). */
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

/**
 * What the API server refuses in one `spec.rules[].http.paths[]` entry besides its backend (validateHTTPIngressPath,
 * v1.33): no `pathType` (networking.k8s.io/v1 does not default it; v1beta1 did, to ImplementationSpecific), a path
 * type other than Exact, Prefix, ImplementationSpecific (case-sensitive; a quick fix for the case), and for Exact and
 * Prefix a `path` that is not absolute or holds `//`, `/./`, `/../`, `%2f` or ends in `/..` or `/.`
 * (ImplementationSpecific: only an absolute path, when one is given); a `pathType` or `path` that is not a string is
 * a decode error. `stop`: the pathType is missing, and the API server validates nothing else of the entry. In a
 * kustomize patch (`partial`) a missing pathType is not reported (the base may have it).
 */
function httpPathProblems(ingress: K8sObject, entry: Raw, at: string, api: string, label: string, partial: boolean, written?: WrittenText, source?: FileText): { problems: SpecProblem[]; stop: boolean } {
  const who = describe(ingress);
  const span = (field: string): Span => spanAt(ingress, `${at}.${field}`);
  const decode = (field: string, value: unknown, goType: string): SpecProblem => ({
    span: span(field),
    message: `${field} ${shownJson(value)} of ${label} is not a string: the API server cannot decode ${who} ("json: cannot unmarshal ${jsonType(value)} into Go struct field HTTPIngressPath.spec.rules.http.paths.${field} of type ${goType}")${enumAdvice(goType, source, span(field)) ?? quoteAdvice(source, span(field))}`,
  });
  const decoding: SpecProblem[] = [];
  if (isSet(entry.pathType) && typeof entry.pathType !== 'string') decoding.push(decode('pathType', entry.pathType, 'v1.PathType'));
  if (isSet(entry.path) && typeof entry.path !== 'string') decoding.push(decode('path', entry.path, 'string'));
  if (decoding.length) return { problems: decoding, stop: false };
  const pathType = typeof entry.pathType === 'string' && entry.pathType !== '' ? entry.pathType : undefined;
  if (pathType === undefined) {
    if (partial) return { problems: [], stop: true };
    return {
      problems: [{ span: span(isSet(entry.path) ? 'path' : 'backend'), message: `${apiRejects(`${label} has no pathType`, who, `${api}.pathType`, 'Required value: pathType must be specified')}; add pathType: Prefix (or Exact, ImplementationSpecific)` }],
      stop: true,
    };
  }
  const path = typeof entry.path === 'string' ? entry.path : '';
  if (!PATH_TYPES.includes(pathType)) {
    const loc = span('pathType');
    // Only a value written in place is edited: an alias (`pathType: *pt`) or a tagged value is left as it is.
    const text = written?.(loc);
    const caseOnly = PATH_TYPES.find((t) => t.toLowerCase() === pathType.toLowerCase());
    const fixed = text === pathType || text === `"${pathType}"` || text === `'${pathType}'` ? caseOnly : undefined;
    const unsupported = (what: string): string =>
      `${apiRejects(what, who, `${api}.pathType`, `Unsupported value: ${shown(pathType)}: supported values: ${PATH_TYPES.map((t) => `"${t}"`).join(', ')}`)}; ${caseOnly ? `write ${caseOnly} (case-sensitive)` : 'use Prefix, Exact or ImplementationSpecific'}`;
    return {
      problems: [{
        span: loc,
        // The API server's list of supported values is long: a long host and path leave out the path's place first.
        message: firstFitting(unsupported(`pathType ${shown(pathType)} of ${label}`), unsupported(`pathType ${shown(pathType)}`)),
        fixes: fixed ? [{ title: `Change ${shown(pathType)} to ${shown(fixed)}`, edits: [{ span: loc, newText: text!.startsWith('"') || text!.startsWith("'") ? `${text![0]}${fixed}${text![0]}` : fixed }], preferred: true }] : [],
      }],
      stop: false,
    };
  }
  const invalid = (detail: string): SpecProblem => ({ span: span('path'), message: `${apiRejects(`${label} is not a valid path`, who, `${api}.path`, `Invalid value: ${shown(path)}: ${detail}`)}; ${detail === 'must be an absolute path' ? 'start it with /' : 'write the path without it'}` });
  if (pathType === 'ImplementationSpecific') return { problems: path !== '' && !path.startsWith('/') ? [invalid('must be an absolute path')] : [], stop: false };
  const problems: SpecProblem[] = [];
  if (!path.startsWith('/')) problems.push(invalid('must be an absolute path'));
  if (path !== '') {
    for (const seq of INVALID_PATH_SEQUENCES) if (path.includes(seq)) problems.push(invalid(`must not contain '${seq}'`));
    for (const suffix of INVALID_PATH_SUFFIXES) if (path.endsWith(suffix)) problems.push(invalid(`cannot end with '${suffix}'`));
  }
  return { problems, stop: false };
}

/** `partial`: a kustomize patch, merged into its base, so a missing name, port or backend may come from there. */
function backendProblems(ingress: K8sObject, site: BackendSite, written: WrittenText | undefined, partial: boolean, source?: FileText): SpecProblem[] {
  const who = describe(ingress);
  const span = (sub = ''): Span => spanAt(ingress, sub ? `${site.path}.${sub}` : site.path);
  // The quoted path is the field's own part (`service.port.name`, not `spec.rules[0].http.paths[1].backend.…`): the
  // label names the host and path already.
  const rejects = (what: string, path: string, detail: string, fix: string): string => `${apiRejects(`${site.label} ${what}`, who, path.slice(path.indexOf('.service.') + 1 || 0), detail)}; ${fix}`;
  const decode = (at: Span, what: string, error: string, fix = ''): SpecProblem => ({ span: at, message: `${what}: the API server cannot decode ${who} ("${error}")${fix}` });
  const backend = site.value;
  if (isSet(backend) && !isObject(backend)) {
    return [decode(span(), `${site.label} is ${jsonKindWords(backend)}, not a mapping with service`, `json: cannot unmarshal ${jsonType(backend)} into Go struct field ${site.holder} of type v1.IngressBackend`)];
  }
  const b = isObject(backend) ? backend : {};
  const hasService = isSet(b.service);
  const hasResource = isSet(b.resource);
  if (hasService && hasResource && !site.decodeOnly) {
    return [{ span: span(), message: rejects('sets both service and resource', site.api, 'Invalid value: "": cannot set both resource and service backends', 'keep one') }];
  }
  if (!hasService) {
    return hasResource || partial || site.decodeOnly ? [] : [{ span: span(), message: rejects('has neither service nor resource', site.api, 'Invalid value: "": resource or service backend is required', 'add service (name and port)') }];
  }
  if (!isObject(b.service)) {
    return [decode(span('service'), `service of the ${site.label} is ${jsonKindWords(b.service)}, not a mapping with name and port`, `json: cannot unmarshal ${jsonType(b.service)} into Go struct field IngressBackend.${site.go}.service of type v1.IngressServiceBackend`)];
  }
  const service = b.service;
  const portValue = service.port;
  if (isSet(portValue) && !isObject(portValue)) {
    // The fix shows the mapping's form, and the decoder's field path (spec.rules.http.paths.backend…) is elided:
    // the message names the host and path already, and stays within the ~300 characters of the guide.
    // A quoted number is the port's number too (`port: "80"` → `{number: 80}`), not a name.
    const form = typeof portValue === 'number' ? `; write port: {number: ${portValue}}` : typeof portValue === 'string' ? (/^\d+$/.test(portValue) ? `; write port: {number: ${Number(portValue)}}` : `; write port: {name: ${portValue}}`) : '';
    return [decode(span('service.port'), `service.port of the ${site.label} is ${jsonKindWords(portValue)}, not a mapping${form ? '' : ' with number or name'}`, `json: cannot unmarshal ${jsonType(portValue)} into Go struct field IngressServiceBackend.….service.port of type v1.ServiceBackendPort`, form)];
  }
  const port = isObject(portValue) ? portValue : {};
  const goPort = `ServiceBackendPort.${site.go}.service.port`;
  const decoding: SpecProblem[] = [];
  if (isSet(service.name) && typeof service.name !== 'string') {
    decoding.push(decode(span('service.name'), `service.name ${shownJson(service.name)} is not a string`, `json: cannot unmarshal ${jsonType(service.name)} into Go struct field IngressServiceBackend.${site.go}.service.name of type string`, quoteAdvice(source, span('service.name'))));
  }
  if (isSet(port.name) && typeof port.name !== 'string') {
    decoding.push(decode(span('service.port.name'), `service.port.name ${shownJson(port.name)} is not a string`, `json: cannot unmarshal ${jsonType(port.name)} into Go struct field ${goPort}.name of type string`, typeof port.name === 'number' ? '; write it as service.port.number' : quoteAdvice(source, span('service.port.name'))));
  }
  const number = port.number;
  if (isSet(number) && !isInt32(number)) {
    const at = span('service.port.number');
    if (typeof number === 'number') {
      const failure = int32Failure(number, `${goPort}.number`)!;
      const by = failure.by === 'kubectl' ? 'kubectl cannot convert the manifest' : `the API server cannot decode ${who}`;
      decoding.push({ span: at, message: `service.port.number ${writtenNumber(number, written?.(at))} ${failure.what}: ${by} ("${failure.error}")` });
    } else {
      const quoted = typeof number === 'string' && /^\d+$/.test(number);
      const asString = quoted ? stringNumberAt(source, at) ?? { quoted: true, start: at.start } : undefined;
      const problem = decode(at, `service.port.number ${shownJson(number)} is not an integer`, `json: cannot unmarshal ${jsonType(number, true)} into Go struct field ${goPort}.number of type int32`, asString ? `; ${unstringHint(asString)}` : typeof number === 'string' ? '; a port name goes in service.port.name' : '');
      decoding.push(asString ? { ...problem, fixes: [{ title: `Change service.port.number "${number}" to ${Number(number)}`, edits: [{ span: unstringSpan(asString, at), newText: String(Number(number)) }], preferred: true }] } : problem);
    }
  }
  if (decoding.length || site.decodeOnly) return decoding;

  const out: SpecProblem[] = [];
  if ((typeof service.name !== 'string' || service.name === '') && !partial) {
    out.push({ span: span('service'), message: rejects('names no Service', `${site.api}.service.name`, 'Required value', 'add service.name') });
  }
  const name = typeof port.name === 'string' && port.name !== '' ? port.name : undefined;
  const num = typeof number === 'number' && number !== 0 ? number : undefined;
  if (name !== undefined && num !== undefined) {
    out.push({ span: span('service.port'), message: rejects(`sets both service.port.name ${shown(name)} and service.port.number ${num}`, site.api, 'Invalid value: "": cannot set both port name & port number', 'keep one') });
  } else if (name !== undefined) {
    const errors = portNameErrors(name);
    // A valid name (the usual case) is not located: finding a span decodes the object's path index.
    const loc = { value: name, get span() { return span('service.port.name'); } };
    const fixes = errors.length ? lowerCaseFix(loc, portNameErrors) : [];
    for (const detail of firstCause(errors)) {
      out.push({
        span: loc.span,
        message: rejects(`names port ${shown(name)}, not a valid port name (IANA_SVC_NAME)`, `${site.api}.service.port.name`, `Invalid value: ${shown(name)}: ${detail}`, fixes.length ? `write ${shown(name.toLowerCase())}` : /^\d+$/.test(name) ? 'write it as service.port.number' : "use the Service port's name"),
        fixes,
      });
    }
  } else if (num !== undefined) {
    for (const detail of portNumErrors(num)) out.push({ span: span('service.port.number'), message: rejects(`names port ${num}, not a port number`, `${site.api}.service.port.number`, `Invalid value: ${num}: ${detail}`, 'use 1-65535') });
  } else if (!partial) {
    out.push({ span: span(isSet(portValue) ? 'service.port' : 'service'), message: rejects('has no service.port', site.api, 'Required value: port name or number is required', 'add service.port.number or service.port.name') });
  }
  return out;
}
