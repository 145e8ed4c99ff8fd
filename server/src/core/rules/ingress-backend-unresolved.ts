import type { K8sObject, ServicePort } from '../model/objects';
import { servicesNamed } from '../model/views/services-named';
import { describe } from '../model/objects';
import { IngressBackend, ingressBackends, isIngress } from '../model/views/ingress';
import { ignoresServicePorts, matchBackendPort } from '../kubernetes/ingress/backend-port';
import type { Finding, Fix, Rule, RuleContext } from './rule';
import { refOf } from './rule';
import { replaceScalarEdit } from './fixes/replace-scalar';
import { firstFitting } from '../output/fit-message';
import { servicePortList } from './report/service-ports';
import { rejectedServiceNamed, rejectedServiceWhere } from './report/rejected-service';

const id = 'ingress-backend-unresolved';

/** An Ingress backend whose Service exists in the workspace but has no port of that number or name. */
export const ingressBackendUnresolved: Rule = {
  id,
  title: 'Ingress backend names a port its Service does not have',
  severity: 'error',
  explanation: [
    'An Ingress backend names a Service of the Ingress\'s namespace and one of its ports: `service.port.number` (the',
    'Service\'s `port`, not its targetPort) or `service.port.name` (the Service port\'s `name`); the old',
    'networking.k8s.io/v1beta1 and extensions/v1beta1 `serviceName` / `servicePort` take either. The API server checks',
    'neither the Service nor the port, so a typo or a renamed port is accepted and the controller finds no upstream:',
    'ingress-nginx answers **503** (its `orphan_ingress` metric says `no-endpoint`), and other controllers drop the',
    'route or answer 404/503.',
    '',
    'kube-netlint checks every rule path backend and the default backend against the Services of the workspace, in',
    'the Ingress\'s namespace and cluster:',
    '',
    '- **error**: the Service exists but has no port with that number (or name); a name given for a Service port that',
    '  has no name never matches. The quick fix picks the Service\'s only port when it has one;',
    '- **warning**: the number (or name) is the Service\'s **targetPort**, not its port. ingress-nginx tolerates it (it',
    '  also matches a Service port by its targetPort), other controllers do not; the quick fix writes the Service port;',
    '- **warning**: the Service is in the workspace, but the API server rejects it (its own finding says why): it is',
    '  never created, so the backend has no upstream until it is fixed;',
    '- **info**: no Service of that name is in the workspace (it may be deployed from elsewhere).',
    '',
    'Not reported for `type: ExternalName` Services, whose ports ingress-nginx does not require. `resource` backends',
    'are not Services and are not checked.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/apis/networking/validation/validation.go (validateIngressBackend: port name or number, never resolved, v1.33)',
    'kubernetes staging/src/k8s.io/api/networking/v1/types.go (ServiceBackendPort: "number is the numerical port number (e.g. 80) on the Service", v1.33)',
    'kubernetes/ingress-nginx internal/ingress/controller/controller.go (serviceEndpoints: port, targetPort or name match; no match = no endpoints), controller-v1.15',
    'kubernetes/ingress-nginx rootfs/etc/nginx/lua/balancer.lua (503 without endpoints), controller-v1.15',
    'https://kubernetes.io/docs/concepts/services-networking/ingress/#the-ingress-resource (v1.33)',
  ],
  judgesEachObject: true,
  check(ctx) {
    const findings: Finding[] = [];
    for (const obj of ctx.model.objects) {
      if (!isIngress(obj)) continue;
      for (const b of ingressBackends(obj)) {
        const f = checkBackend(ctx, obj, b);
        if (f) findings.push(f);
      }
    }
    return findings;
  },
};

function checkBackend({ model, files }: RuleContext, ingress: K8sObject, b: IngressBackend): Finding | undefined {
  const port = b.port;
  if (!port) return undefined; // the API server rejects a backend without a port
  const services = servicesNamed(model.servicesIn(ingress.namespace), b.service.value);
  const portText = typeof port.value === 'number' ? `port ${port.value}` : `port "${port.value}"`;
  const base = { ruleId: id, object: refOf(ingress) } as const;
  if (services.length === 0) {
    const rejected = rejectedServiceNamed(model, ingress.namespace, b.service.value);
    if (rejected) {
      return {
        ...base, severity: 'warning', span: b.service.span, related: [], fixes: [],
        message: `${describe(rejected)} (${rejectedServiceWhere(rejected, files)}) of the ${b.label} in ${describe(ingress)} is rejected by the API server (its own error says why): it is never created, so requests get 503; fix the Service`,
      };
    }
    return {
      ...base, severity: 'info', span: b.service.span, related: [], fixes: [],
      // A long host and path leave no room for ingress-nginx's own words.
      message: firstFitting(
        `Service "${b.service.value}" of the ${b.label} in ${describe(ingress)} is not in namespace ${ingress.namespace} here: fine if it is deployed from elsewhere, else requests get 503 (ingress-nginx: "no-service"); check the name and namespace`,
        `Service "${b.service.value}" of the ${b.label} in ${describe(ingress)} is not in namespace ${ingress.namespace} here: fine if it is deployed from elsewhere, else requests get 503; check the name and namespace`,
      ),
    };
  }
  if (services.some(ignoresServicePorts)) return undefined;
  const matches = services.map((s) => ({ s, m: matchBackendPort(s, port.value) }));
  if (matches.some(({ m }) => m.kind === 'port')) return undefined;
  const viaTarget = matches.find(({ m }) => m.kind === 'targetPort');
  const svc = (viaTarget ?? matches[0]).s;
  const related = [{ span: svc.span, message: `${describe(svc)} has ${servicePortList(svc)}` }];
  if (viaTarget && viaTarget.m.kind === 'targetPort') {
    const sp = viaTarget.m.servicePort;
    return {
      ...base, severity: 'warning', span: port.span, related,
      message: `the ${b.label} in ${describe(ingress)} names ${portText}, the targetPort of ${spText(sp)} of ${describe(svc)}, not a Service port: ingress-nginx accepts it, other controllers find no upstream; write ${replacement(b, sp) ?? `port ${sp.port?.value}`}`,
      fixes: fix(files, b, sp, true),
    };
  }
  return {
    ...base, severity: 'error', span: port.span, related,
    message: `the ${b.label} in ${describe(ingress)} names ${portText} of ${describe(svc)}, which has no such port (it has ${servicePortList(svc)}): the controller finds no upstream and requests get 503; use one of its ports`,
    fixes: svc.ports.length === 1 ? fix(files, b, svc.ports[0], false) : [],
  };
}

/** The value to write for the Service port in the backend's own field: its number, or its name for `name`. */
function replacement(b: IngressBackend, sp: ServicePort): string | undefined {
  if (b.portField === 'name' || (b.portField === 'servicePort' && typeof b.port?.value === 'string')) return sp.name?.value;
  return sp.port ? String(sp.port.value) : undefined;
}

function fix(files: RuleContext['files'], b: IngressBackend, sp: ServicePort, preferred: boolean): Fix[] {
  const text = replacement(b, sp);
  const edit = text !== undefined && b.port ? replaceScalarEdit(files, b.port.span, b.port.value, text) : undefined;
  return edit ? [{ title: `Use ${spText(sp)} of the Service (${b.portField === 'name' ? `name ${text}` : text})`, edits: [edit], ...(preferred ? { preferred } : {}) }] : [];
}

function spText(sp: ServicePort): string {
  return `port ${sp.port?.value ?? '?'}${sp.name ? ` "${sp.name.value}"` : ''}`;
}

