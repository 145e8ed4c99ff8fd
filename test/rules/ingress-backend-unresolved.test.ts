import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['ingress-backend-unresolved'];
const service = (ports: string, ns = 'shop', name = 'web', extra = '') => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:${extra}
  selector: {app: ${name}}
  ports: ${ports}`;
// The backend's port value is on line 11.
const ingress = (port: string, service = 'web', ns = 'shop') => `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: ${ns}}
spec:
  rules:
    - host: shop.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend: {service: {name: ${service}, port: ${port}}}`;

describe('ingress-backend-unresolved', () => {
  it('is an error at a port number the Service does not have, listing its ports, with a fix to its only port', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80, targetPort: 8080}]'), 'ing.yaml': ingress('{number: 8081}') };
    const { findings } = lint(files, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['ing.yaml', 11, 59, '8081', 'error', 'Ingress shop/shop']);
    assert.equal(f.message, 'the backend of host shop.example.com path / in Ingress shop/shop names port 8081 of Service shop/web, which has no such port (it has port 80 "http" (→ 8080)): the controller finds no upstream and requests get 503; use one of its ports');
    assert.deepEqual(f.related.map((r) => [r.file, r.line, r.message]), [['svc.yaml', 3, 'Service shop/web has port 80 "http" (→ 8080)']]);
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Use port 80 "http" of the Service (80)', undefined]]);
    const fixed = applyEdits(dedent(files['ing.yaml']), f.fixes[0].edits);
    assert.match(fixed, /port: \{number: 80\}/);
    assert.deepEqual(lint({ ...files, 'ing.yaml': fixed }, { rules }).findings, []);
  });

  it('is a warning when the number is the Service\'s targetPort (only ingress-nginx accepts it), fixing it to the Service port', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80, targetPort: 8080}, {name: admin, port: 9000}]'), 'ing.yaml': ingress('{number: 8080}') };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.message]), [['warning', 'the backend of host shop.example.com path / in Ingress shop/shop names port 8080, the targetPort of port 80 "http" of Service shop/web, not a Service port: ingress-nginx accepts it, other controllers find no upstream; write 80']]);
    assert.deepEqual(findings[0].fixes.map((x) => [x.title, x.preferred]), [['Use port 80 "http" of the Service (80)', true]]);
  });

  it('checks port names, including a name given for an unnamed Service port, and offers no fix among several ports', () => {
    const named = lint({ 'svc.yaml': service('[{name: http, port: 80}, {name: grpc, port: 9090}]'), 'ing.yaml': ingress('{name: https}') }, { rules }).findings;
    assert.deepEqual(named.map((f) => [f.severity, f.text, f.fixes.length]), [['error', 'https', 0]]);
    assert.match(named[0].message, /names port "https" of Service shop\/web, which has no such port \(it has port 80 "http" and port 9090 "grpc"\)/);
    const unnamed = lint({ 'svc.yaml': service('[{port: 80}]'), 'ing.yaml': ingress('{name: http}') }, { rules }).findings;
    assert.deepEqual(unnamed.map((f) => [f.severity, f.fixes.length]), [['error', 0]]);
  });

  it('reads extensions/v1beta1 serviceName / servicePort and the default backend', () => {
    const beta = `
apiVersion: extensions/v1beta1
kind: Ingress
metadata: {name: old, namespace: shop}
spec:
  backend: {serviceName: web, servicePort: 81}
  rules: [{http: {paths: [{path: /, backend: {serviceName: web, servicePort: http}}]}}]`;
    const { findings } = lint({ 'svc.yaml': service('[{name: http, port: 80}]'), 'ing.yaml': beta }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.text, f.severity]), [[5, '81', 'error']]);
    assert.match(findings[0].message, /^the default backend in Ingress shop\/old names port 81 of Service shop\/web/);
  });

  it('leaves out ingress-nginx\'s words for a missing Service when a long host, path and names leave no room', () => {
    const long = ingress('{number: 80}', 'webhooks-controller-2', 'notifications')
      .replace('name: shop,', 'name: campaigns-controller,')
      .replace('shop.example.com', 'campaigns-controller.staging.example.com')
      .replace('path: /', 'path: /api/v1/callbacks');
    const { findings } = lint({ 'ing.yaml': long }, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.text, f.message]), [['info', 'webhooks-controller-2', 'Service "webhooks-controller-2" of the backend of host campaigns-controller.staging.example.com path /api/v1/callbacks in Ingress notifications/campaigns-controller is not in namespace notifications here: fine if it is deployed from elsewhere, else requests get 503; check the name and namespace']]);
  });

  it('says the Service is rejected, not missing, when the API server rejects the one of that name (a warning, no related location)', () => {
    // A nodePort on a ClusterIP Service: service-spec-invalid's error; the Service is never created.
    const rejected = service('[{name: http, port: 80, nodePort: 30080}]', 'shop', 'web', '\n  type: ClusterIP');
    const { findings } = lint({ 'svc.yaml': rejected, 'ing.yaml': ingress('{number: 80}') }, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.line, f.text, f.related.length, f.message]), [['warning', 11, 'web', 0,
      'Service shop/web (svc.yaml line 3) of the backend of host shop.example.com path / in Ingress shop/shop is rejected by the API server (its own error says why): it is never created, so requests get 503; fix the Service']]);
    // Another name, or the same name in another namespace, is still the "not here" note.
    const other = lint({ 'svc.yaml': rejected, 'ing.yaml': ingress('{number: 80}', 'api') }, { rules }).findings;
    assert.deepEqual(other.map((f) => [f.severity, f.text]), [['info', 'api']]);
    const elsewhere = lint({ 'svc.yaml': service('[{name: http, port: 80, nodePort: 30080}]', 'prod', 'web', '\n  type: ClusterIP'), 'ing.yaml': ingress('{number: 80}') }, { rules }).findings;
    assert.deepEqual(elsewhere.map((f) => [f.severity, f.text]), [['info', 'web']]);
    // Once accepted (no nodePort), the backend resolves and nothing is said.
    assert.deepEqual(lint({ 'svc.yaml': service('[{name: http, port: 80}]', 'shop', 'web', '\n  type: ClusterIP'), 'ing.yaml': ingress('{number: 80}') }, { rules }).findings, []);
  });

  it('is info when the Service is not in the workspace, at the Service name', () => {
    const { findings } = lint({ 'ing.yaml': ingress('{number: 80}', 'api') }, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.text, f.message]), [['info', 'api', 'Service "api" of the backend of host shop.example.com path / in Ingress shop/shop is not in namespace shop here: fine if it is deployed from elsewhere, else requests get 503 (ingress-nginx: "no-service"); check the name and namespace']]);
  });

  it('stays silent for matching ports and names, ExternalName Services, resource backends, and variants of one Service that have the port', () => {
    assert.deepEqual(lint({ 'svc.yaml': service('[{name: http, port: 80}]'), 'ing.yaml': ingress('{number: 80}') }, { rules }).findings, []);
    assert.deepEqual(lint({ 'svc.yaml': service('[{name: http, port: 80}]'), 'ing.yaml': ingress('{name: http}') }, { rules }).findings, []);
    assert.deepEqual(lint({ 'svc.yaml': service('[]', 'shop', 'web', '\n  type: ExternalName\n  externalName: web.example.com'), 'ing.yaml': ingress('{number: 443}') }, { rules }).findings, []);
    const resource = ingress('{number: 80}').replace('backend: {service: {name: web, port: {number: 80}}}', 'backend: {resource: {apiGroup: k8s.example.com, kind: Bucket, name: b}}');
    assert.deepEqual(lint({ 'ing.yaml': resource }, { rules }).findings, []);
    const variants = { 'base/svc.yaml': service('[{port: 8080}]'), 'cloud/svc.yaml': service('[{port: 80}]'), 'ing.yaml': ingress('{number: 80}') };
    assert.deepEqual(lint(variants, { rules }).findings, []);
  });

  it('looks only in the Ingress\'s namespace and cluster', () => {
    const otherNs = lint({ 'svc.yaml': service('[{port: 80}]', 'blog'), 'ing.yaml': ingress('{number: 80}') }, { rules }).findings;
    assert.deepEqual(otherNs.map((f) => f.severity), ['info']);
    const files = { 'dev/svc.yaml': service('[{port: 8080}]'), 'prod/svc.yaml': service('[{port: 80}]'), 'prod/ing.yaml': ingress('{number: 80}'), 'dev/ing.yaml': ingress('{number: 8080}') };
    assert.deepEqual(lint(files, { rules, config: { clusters: { dev: ['dev/**'], prod: ['prod/**'] } } }).findings, []);
    const crossed = { ...files, 'dev/ing.yaml': ingress('{number: 80}') };
    const found = lint(crossed, { rules, config: { clusters: { dev: ['dev/**'], prod: ['prod/**'] } } }).findings;
    assert.deepEqual(found.map((f) => [f.file, f.severity, f.finding.clusters]), [['dev/ing.yaml', 'error', ['dev']]]);
  });
});
