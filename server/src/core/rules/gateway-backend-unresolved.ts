import type { K8sObject, ServicePort } from '../model/objects';
import { describe } from '../model/objects';
import { isRoute, RouteBackendRef, routeBackendRefs } from '../model/views/gateway-routes';
import { servicePortNumbered, servicePortTargeting } from '../kubernetes/gateway-api/backend-port';
import type { Finding, Fix, Rule, RuleContext, TextEdit } from './rule';
import { refOf } from './rule';
import { replaceScalarEdit } from './fixes/replace-scalar';
import { verifiedEdit } from './fixes/yaml-insert';
import { insertKeyAfter } from './fixes/insert-key';
import { isJsonManifest } from './fixes/json-manifest';
import { servicePortList } from './report/service-ports';
import { servicesNamed } from '../model/views/services-named';
import { rawAt, spanAt } from '../model/views/raw-fields';
import { rejectedServiceNamed, rejectedServiceWhere } from './report/rejected-service';

const id = 'gateway-backend-unresolved';

/** A Gateway API route backendRef to a Service without a `port`, or with a port the Service does not expose. */
export const gatewayBackendUnresolved: Rule = {
  id,
  title: 'Gateway API route backendRef names a port its Service does not expose',
  severity: 'error',
  explanation: [
    'The `backendRefs` of Gateway API routes (`HTTPRoute`, `GRPCRoute`, `TCPRoute`, `TLSRoute`, `UDPRoute`, every',
    'version) and their `requestMirror` filters name a Service (kind `Service`, the default) and a `port`: the',
    '**Service port number**, not the target port. For a Service the port is required — the CRDs reject a reference',
    'without one (`Must have port for Service reference`). A port the Service does not expose makes the reference',
    'unresolvable: the route\'s `ResolvedRefs` condition turns False, and HTTP requests that would go to that backend',
    'get a **500** (the share of its `weight` fails, the rest keeps working); for `TCPRoute`, `TLSRoute` and `UDPRoute`',
    'the implementation must actively reject connection attempts to that backend. An unresolved `requestMirror`',
    'backend is dropped: requests are served, but none is mirrored.',
    '',
    'kube-netlint checks every Service reference against the Services of the workspace, in the reference\'s',
    'namespace (`namespace`, else the route\'s) and cluster:',
    '',
    '- **error**: no `port` (the finding points at the reference; the quick fix adds the Service\'s only port), or a',
    '  port the Service does not have — also when it is the Service\'s targetPort (the quick fix writes the Service',
    '  port that sends to it), or when the Service has a single port (the quick fix uses it); a `port` that is not an',
    '  integer (`port: "80"`): the CRD schema types it int32, so the API server rejects the route (the quick fix',
    '  removes the quotes);',
    '- **warning**: the Service is in the workspace, but the API server rejects it (its own finding says why): it is',
    '  never created, so the reference does not resolve until it is fixed;',
    '- **info**: no Service of that name is in the workspace (it may be deployed from elsewhere).',
    '',
    'References to other kinds (ServiceImport, implementation CRDs) are not checked, nor cross-namespace',
    'ReferenceGrants.',
  ].join('\n'),
  sources: [
    'kubernetes-sigs/gateway-api apis/v1/object_reference_types.go (BackendObjectReference: "Port is required when the referent is a Kubernetes Service", CEL "Must have port for Service reference", v1.3)',
    'kubernetes-sigs/gateway-api apis/v1/shared_types.go (RouteConditionResolvedRefs, RouteReasonBackendNotFound, v1.3)',
    'kubernetes-sigs/gateway-api apis/v1/httproute_types.go (HTTPBackendRef: an invalid backend gets 500 responses, v1.3)',
    'kubernetes-sigs/gateway-api apis/v1alpha2/tcproute_types.go (BackendRefs: "If unspecified or invalid … MUST actively reject connection attempts to this backend", v1.3; the same in tlsroute_types.go and udproute_types.go)',
    'kubernetes-sigs/gateway-api apis/v1/httproute_types.go (HTTPRequestMirrorFilter.BackendRef: "If the referent cannot be found, this BackendRef is invalid and must be dropped from the Gateway", v1.3)',
    'https://gateway-api.sigs.k8s.io/reference/spec/#backendobjectreference (v1.3)',
  ],
  judgesEachObject: true,
  check(ctx) {
    const findings: Finding[] = [];
    for (const obj of ctx.model.objects) {
      if (!isRoute(obj)) continue;
      for (const ref of routeBackendRefs(obj)) {
        const f = checkRef(ctx, obj, ref);
        if (f) findings.push(f);
      }
    }
    return findings;
  },
};

function checkRef({ model, files }: RuleContext, route: K8sObject, ref: RouteBackendRef): Finding | undefined {
  if (ref.portInvalid) return invalidPort(files, route, ref);
  const services = servicesNamed(model.servicesIn(ref.namespace), ref.name.value);
  const where = `${ref.label} of ${describe(route)}`;
  const base = { ruleId: id, object: refOf(route) } as const;
  const svc = services[0];
  if (!svc) {
    const rejected = rejectedServiceNamed(model, ref.namespace, ref.name.value);
    if (rejected) {
      return {
        ...base, severity: 'warning', span: ref.name.span, related: [], fixes: [],
        message: `${describe(rejected)} (${rejectedServiceWhere(rejected, files)}) of ${where} is rejected by the API server (its own error says why): it is never created, so the reference does not resolve (ResolvedRefs False, BackendNotFound) and ${failure(route, ref)}; fix the Service`,
      };
    }
    return {
      ...base, severity: 'info', span: ref.name.span, related: [], fixes: [],
      message: `Service "${ref.name.value}" of ${where} is not in namespace ${ref.namespace} here: fine if it is deployed from elsewhere, else the reference does not resolve (ResolvedRefs False, BackendNotFound) and ${failure(route, ref)}; check the name and namespace`,
    };
  }
  const related = [{ span: svc.span, message: `${describe(svc)} has ${servicePortList(svc)}` }];
  const port = ref.port;
  if (!port) {
    return {
      ...base, severity: 'error', span: ref.span, related,
      message: `${where} names ${describe(svc)} without a port: a Service reference needs the Service port number, so the API server rejects the route ("Must have port for Service reference"); add ${svc.ports.length === 1 && svc.ports[0].port ? `port: ${svc.ports[0].port.value}` : 'the Service port'}`,
      fixes: svc.ports.length === 1 ? insertPortFix(files, route, ref, svc.ports[0]) : [],
    };
  }
  if (services.some((s) => servicePortNumbered(s, port.value))) return undefined;
  const targeted = servicePortTargeting(svc, port.value);
  const chosen = targeted ?? (svc.ports.length === 1 ? svc.ports[0] : undefined);
  const edit = chosen?.port ? replaceScalarEdit(files, port.span, port.value, String(chosen.port.value)) : undefined;
  return {
    ...base, severity: 'error', span: port.span, related,
    message: targeted
      ? `${where} names port ${port.value}, the targetPort of port ${targeted.port?.value} of ${describe(svc)}: a backendRef takes the Service port, so the reference does not resolve (ResolvedRefs False) and ${failure(route, ref)}; use port ${targeted.port?.value}`
      : `${where} names port ${port.value} of ${describe(svc)}, which does not expose it (it has ${servicePortList(svc)}): the reference does not resolve (ResolvedRefs False) and ${failure(route, ref)}; use one of its ports`,
    fixes: edit && chosen?.port ? [{ title: `Use port ${chosen.port.value} of ${describe(svc)}`, edits: [edit], ...(targeted ? { preferred: true } : {}) }] : [],
  };
}

/**
 * What clients see of an unresolved backend, by route kind: HTTP gets a 500 (HTTPBackendRef), gRPC a failed call,
 * and for TCPRoute, TLSRoute and UDPRoute "the underlying implementation MUST actively reject connection attempts
 * to this backend" (gateway-api apis/v1alpha2 tcproute_types.go, tlsroute_types.go, udproute_types.go, v1.3). An
 * unresolved requestMirror backend "must be dropped from the Gateway" (HTTPRequestMirrorFilter): requests still
 * go to the other backends, only the copies are lost.
 */
function failure(route: K8sObject, ref: RouteBackendRef): string {
  if (ref.mirror) return 'no request is mirrored';
  if (route.kind === 'HTTPRoute') return 'its requests get 500';
  if (route.kind === 'GRPCRoute') return 'its calls fail';
  return 'connections to it are rejected';
}

/** Adds `port: N` to a backendRef: on the line after its `name` (block style), or after the name in `{name: web}`. */
function insertPortFix(files: RuleContext['files'], route: K8sObject, ref: RouteBackendRef, sp: ServicePort): Fix[] {
  const file = files?.get(route.file);
  const number = sp.port?.value;
  if (!file || number === undefined) return [];
  const added = (o: K8sObject): boolean => routeBackendRefs(o).some((r) => r.path === ref.path && r.port?.value === number);
  const nameKey = route.paths?.get(`${ref.path}.name#key`);
  const nameValue = route.paths?.get(`${ref.path}.name`);
  let edit: TextEdit | undefined = nameKey && nameValue ? verifiedEdit(file, route, insertKeyAfter(file, nameKey, nameValue, `port: ${number}`), added) : undefined;
  if (!edit) {
    // Flow style `{name: web}`: add the key after the name's value.
    const name = route.paths?.get(`${ref.path}.name`);
    const text = name ? file.text.slice(name.end, name.end + 1) : '';
    if (name && (text === '}' || text === ',')) {
      edit = verifiedEdit(file, route, { span: { file: name.file, start: name.end, end: name.end }, newText: `, ${isJsonManifest(name.file) ? '"port"' : 'port'}: ${number}` }, added);
    }
  }
  return edit ? [{ title: `Add port: ${number} (the only port of the Service)`, edits: [edit], preferred: true }] : [];
}


/**
 * A backendRef `port` that is not an integer (`port: "80"`): the route's CRD schema types it `int32`, so the API
 * server rejects the route ("spec.rules[0].backendRefs[0].port: Invalid value: "string": spec.rules[0].backendRefs[0].port
 * in body must be of type integer: "string"", apiextensions-apiserver structural schema validation, v1.31).
 */
function invalidPort(files: RuleContext['files'], route: K8sObject, ref: RouteBackendRef): Finding {
  const path = `${ref.path}.port`;
  const written = rawAt(route.raw, path);
  const span = spanAt(route, path);
  const asNumber = typeof written === 'string' && /^\d+$/.test(written) ? String(Number(written)) : undefined;
  const edit = asNumber !== undefined ? replaceScalarEdit(files, span, written as string, asNumber) : undefined;
  const found = typeof written === 'string' ? 'a string' : Array.isArray(written) ? 'a list' : typeof written === 'object' ? 'a mapping' : typeof written === 'number' ? 'not a whole number' : `a ${typeof written}`;
  const shown = typeof written === 'string' || typeof written === 'number' ? ` ${JSON.stringify(written)}` : '';
  return {
    ruleId: id, object: refOf(route), severity: 'error', span, related: [],
    message: `port${shown} of ${ref.label} of ${describe(route)} is ${found}, not an integer: the API server rejects the ${route.kind} ("port in body must be of type integer"); ${asNumber !== undefined ? `write port: ${asNumber}` : 'write the Service port number'}`,
    fixes: edit ? [{ title: `Change port ${JSON.stringify(written)} to ${asNumber}`, edits: [edit], preferred: true }] : [],
  };
}
