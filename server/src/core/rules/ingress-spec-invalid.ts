import { fileTextOf } from '../render/source-map';
import type { Span } from '../source/span';
import { isIngress } from '../model/views/ingress';
import { ingressProblems } from '../kubernetes/api-server/rejection';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'ingress-spec-invalid';

/** Ingress (networking.k8s.io/v1) paths and backends the API server's decoder, validateHTTPIngressPath or validateIngressBackend rejects (see explanation). */
export const ingressSpecInvalid: Rule = {
  id,
  title: 'Ingress path or backend the API server rejects',
  severity: 'error',
  reportsRejection: true,
  decidesRejection: true,
  explanation: [
    'The API server validates every Ingress before storing it; `kubectl apply` fails with `The Ingress "x" is invalid: …`',
    'and none of its routes reach the controller. This rule reports, at the offending path or backend of a',
    'networking.k8s.io/v1 Ingress (`spec.defaultBackend` and every `spec.rules[].http.paths[]`) and quoting the API',
    'server:',
    '',
    '- a path without `pathType` (`Required value: pathType must be specified`): networking.k8s.io/v1 does not default',
    '  it (v1beta1 defaulted it to `ImplementationSpecific`), and the API server then checks nothing else of that path;',
    '- a `pathType` other than `Exact`, `Prefix` or `ImplementationSpecific` (`Unsupported value`; the values are',
    '  case-sensitive, and a quick fix corrects `prefix` to `Prefix`);',
    '- for `Exact` and `Prefix`, a `path` that does not start with `/` (`must be an absolute path`), contains `//`,',
    '  `/./`, `/../`, `%2f` or `%2F`, or ends in `/..` or `/.`; for `ImplementationSpecific`, a path given that does',
    '  not start with `/`;',
    '- both `service.port.name` and `service.port.number` (`cannot set both port name & port number`), or neither',
    '  (`Required value: port name or number is required`; `number: 0` counts as not set);',
    '- a `service.port.number` outside 1–65535, or a `service.port.name` that is not an IANA service name (at most 15',
    '  characters, a-z 0-9 and `-`, at least one letter);',
    '- a backend with both `service` and `resource`, or with neither (a path\'s backend is required), and a `service`',
    '  without `name` (`Required value`);',
    '- values of the wrong type, which the decoder refuses before validation: a `pathType` or `path` that is not a',
    '  string, `number: "80"` (`json: cannot unmarshal',
    '  string into Go struct field ServiceBackendPort.spec.rules.http.paths.backend.service.port.number of type',
    '  int32`; a quick fix removes the quotes), a `name` that is not a string, a `service.port` written as a number',
    '  (`port: 80`, `port: "80"`: write `port: {number: 80}`) instead of a mapping, a backend written as a string',
    '  (`backend: web`); and on the way to a path, a `rules` that is not a list (`rules: "x"`), a rule that is not a',
    '  mapping, a `host` that is not a string, an `http` that is not a mapping, a `paths` that is not a list or a path',
    '  entry that is not a mapping (`json: cannot unmarshal string into Go struct field IngressRule.spec.rules.http of',
    '  type v1.HTTPIngressRuleValue`), each once, at the field; an `ingressClassName` that is not a string, a `tls` that',
    '  is not a list, a tls entry that is not a mapping, its `hosts` not a list of strings (`hosts: shop.example.com`)',
    '  or its `secretName` not a string. A null decodes as "not set" and is accepted.',
    '- an Ingress that routes nothing: no `rules` and no `defaultBackend` ("either `defaultBackend` or `rules` must',
    '  be specified"), or a rule whose `http` has no `paths` (`http: {}`: `spec.rules[0].http.paths: Required value`).',
    '  A rule without `http` is valid.',
    '',
    'Ingresses in kustomize patch files are partial on purpose: there, a missing pathType, Service name, port or',
    'backend (the base may have it) is not reported.',
    '',
    'Whether the Service and its port exist is `ingress-backend-unresolved`\'s concern. The old v1beta1 versions (not',
    'served since v1.22), the Service name\'s format and `resource` backends are not checked. Live cluster objects are',
    'skipped (the API server already accepted them).',
    '',
    'A value that breaks several of the API\'s checks (`${PORT}` as a port name breaks two) gets one finding, quoting',
    'the first of the API server\'s messages; written values over 24 characters and names over 63 are cut (`…`).',
  ].join('\n'),
  sources: [
    'kubernetes pkg/apis/networking/validation/validation.go (ValidateIngressSpec, validateHTTPIngressRuleValue, validateHTTPIngressPath, validateIngressBackend, v1.33)',
    'kubernetes staging/src/k8s.io/api/networking/v1/types.go (IngressSpec.Rules, IngressSpec.IngressClassName, IngressSpec.TLS, IngressTLS.Hosts / SecretName, IngressRule.Host, IngressRuleValue.HTTP inlined, HTTPIngressRuleValue.Paths, IngressBackend, IngressServiceBackend, ServiceBackendPort, v1.33)',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsValidPortNum, IsValidPortName, v1.33)',
  ],
  judgesEachObject: true,
  judgesObjectAlone: true,
  check({ model, files, layout }) {
    const findings: Finding[] = [];
    const patches: ReadonlySet<string> = layout?.patchFiles ?? new Set();
    const written = (span: Span): string | undefined => files?.get(span.file)?.text.slice(span.start, span.end);
    const source = fileTextOf(files);
    for (const obj of model.objects) {
      if (!isIngress(obj) || obj.apiVersion !== 'networking.k8s.io/v1' || obj.origin.type !== 'file') continue;
      for (const p of ingressProblems(obj, patches.has(obj.file), written, source)) {
        findings.push({ ruleId: id, severity: 'error', message: p.message, span: p.span, object: refOf(obj), related: p.related ?? [], fixes: p.fixes ?? [] });
      }
    }
    return findings;
  },
};
