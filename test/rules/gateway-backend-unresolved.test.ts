import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['gateway-backend-unresolved'];
const service = (ports: string, ns = 'shop', name = 'web') => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:
  selector: {app: ${name}}
  ports: ${ports}`;
// The first backendRef starts on line 8.
const route = (refs: string, kind = 'HTTPRoute', apiVersion = 'gateway.networking.k8s.io/v1') => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: public}]
  rules:
    - backendRefs:
${refs}`;

describe('gateway-backend-unresolved', () => {
  it('is an error at a port that is not an integer, whatever the Service, with a fix that removes the quotes', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80, targetPort: 8080}]'), 'r.yaml': route('        - {name: web, port: "80"}\n        - {name: elsewhere, port: http}') };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.column, f.text, f.severity]), [['r.yaml', 8, 29, '"80"', 'error'], ['r.yaml', 9, 35, 'http', 'error']]);
    assert.equal(findings[0].message, 'port "80" of rule #0 backendRef #0 of HTTPRoute shop/shop is a string, not an integer: the API server rejects the HTTPRoute ("port in body must be of type integer"); write port: 80');
    assert.equal(applyEdits(dedent(files['r.yaml']), findings[0].fixes[0].edits), dedent(files['r.yaml']).replace('port: "80"', 'port: 80'));
    assert.equal(findings[1].message, 'port "http" of rule #0 backendRef #1 of HTTPRoute shop/shop is a string, not an integer: the API server rejects the HTTPRoute ("port in body must be of type integer"); write the Service port number');
    assert.deepEqual(findings[1].fixes, []);
  });

  it('is an error at a port the Service does not expose, with a fix to its only port', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80, targetPort: 8080}]'), 'r.yaml': route('        - {name: web, port: 81}') };
    const { findings } = lint(files, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['r.yaml', 8, 29, '81', 'error', 'HTTPRoute shop/shop']);
    assert.equal(f.message, 'rule #0 backendRef #0 of HTTPRoute shop/shop names port 81 of Service shop/web, which does not expose it (it has port 80 "http" (→ 8080)): the reference does not resolve (ResolvedRefs False) and its requests get 500; use one of its ports');
    assert.deepEqual(f.related.map((r) => [r.file, r.line]), [['svc.yaml', 3]]);
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Use port 80 of Service shop/web', undefined]]);
    const fixed = applyEdits(dedent(files['r.yaml']), f.fixes[0].edits);
    assert.deepEqual(lint({ ...files, 'r.yaml': fixed }, { rules }).findings, []);
  });

  it('says when the port is the Service\'s targetPort and prefers the Service port that sends to it', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80, targetPort: 8080}, {name: admin, port: 9000}]'), 'r.yaml': route('        - {name: web, port: 8080, weight: 90}') };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => f.message), ['rule #0 backendRef #0 of HTTPRoute shop/shop names port 8080, the targetPort of port 80 of Service shop/web: a backendRef takes the Service port, so the reference does not resolve (ResolvedRefs False) and its requests get 500; use port 80']);
    assert.deepEqual(findings[0].fixes.map((x) => [x.title, x.preferred]), [['Use port 80 of Service shop/web', true]]);
  });

  it('is an error at a Service reference without a port, adding the only port in block and flow style', () => {
    const block = route('        - name: web\n          weight: 1');
    const files = { 'svc.yaml': service('[{port: 8080}]'), 'r.yaml': block };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.column, f.endLine, f.text, f.severity]), [[8, 11, 9, 'name: web\n          weight: 1', 'error']]);
    assert.equal(findings[0].message, 'rule #0 backendRef #0 of HTTPRoute shop/shop names Service shop/web without a port: a Service reference needs the Service port number, so the API server rejects the route ("Must have port for Service reference"); add port: 8080');
    const fixed = applyEdits(dedent(block), findings[0].fixes[0].edits);
    assert.equal(fixed.split('\n').slice(7).join('\n'), '        - name: web\n          port: 8080\n          weight: 1');
    const flow = route('        - {name: web}');
    const flowFix = lint({ ...files, 'r.yaml': flow }, { rules }).findings[0].fixes[0];
    assert.match(applyEdits(dedent(flow), flowFix.edits), /- \{name: web, port: 8080\}/);
    const two = lint({ 'svc.yaml': service('[{name: http, port: 80}, {name: https, port: 443}]'), 'r.yaml': block }, { rules }).findings;
    assert.deepEqual(two.map((f) => [f.severity, f.fixes.length]), [['error', 0]]);
  });

  it('checks every route kind and version, cross-namespace references and requestMirror filters', () => {
    const files = {
      'svc.yaml': service('[{port: 5432}]', 'db', 'pg'),
      'tcp.yaml': route('        - {name: pg, namespace: db, port: 5433}', 'TCPRoute', 'gateway.networking.k8s.io/v1alpha2'),
      'grpc.yaml': route('        - {name: pg, namespace: db, port: 5432}\n      filters:\n        - type: RequestMirror\n          requestMirror: {backendRef: {name: pg, namespace: db, port: 6000}}', 'GRPCRoute'),
    };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.text, f.object]), [['grpc.yaml', '6000', 'GRPCRoute shop/shop'], ['tcp.yaml', '5433', 'TCPRoute shop/shop']]);
    assert.match(findings[0].message, /^rule #0 requestMirror of GRPCRoute.*: the reference does not resolve \(ResolvedRefs False\) and no request is mirrored; use one of its ports$/);
    // TCP has no HTTP status: the implementation rejects the connections (TCPRoute BackendRefs).
    assert.match(findings[1].message, /^rule #0 backendRef #0 of TCPRoute shop\/shop names port 5433 of Service db\/pg, .*and connections to it are rejected; use one of its ports$/);
    const grpc = lint({ ...files, 'grpc.yaml': route('        - {name: pg, namespace: db, port: 6000}', 'GRPCRoute') }, { rules }).findings;
    assert.match(grpc[0].message, /of GRPCRoute shop\/shop names port 6000 .*and its calls fail; use one of its ports$/);
  });

  it('says the Service is rejected, not missing, when the API server rejects the one of that name (a warning, no related location)', () => {
    // Two ports 80/TCP: "spec.ports[1]: Duplicate value"; the Service is never created.
    const files = { 'svc.yaml': service('[{name: a, port: 80}, {name: b, port: 80}]'), 'r.yaml': route('        - {name: web, port: 80}') };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.line, f.text, f.related.length, f.message]), [['warning', 8, 'web', 0,
      'Service shop/web (svc.yaml line 3) of rule #0 backendRef #0 of HTTPRoute shop/shop is rejected by the API server (its own error says why): it is never created, so the reference does not resolve (ResolvedRefs False, BackendNotFound) and its requests get 500; fix the Service']]);
    const fixed = { ...files, 'svc.yaml': service('[{name: a, port: 80}, {name: b, port: 81}]') };
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('is info when the Service is not in the workspace, and silent for other kinds of backends and matching ports', () => {
    const missing = lint({ 'r.yaml': route('        - {name: api, port: 80}') }, { rules }).findings;
    assert.deepEqual(missing.map((f) => [f.severity, f.text]), [['info', 'api']]);
    assert.match(missing[0].message, /^Service "api" of rule #0 backendRef #0 of HTTPRoute shop\/shop is not in namespace shop here: .* and its requests get 500; check the name and namespace$/);
    const silent: Record<string, string>[] = [
      { 'svc.yaml': service('[{port: 80}]'), 'r.yaml': route('        - {name: web, port: 80}') },
      { 'r.yaml': route('        - {group: multicluster.x-k8s.io, kind: ServiceImport, name: web, port: 81}') },
      { 'r.yaml': route('        - {group: gateway.envoyproxy.io, kind: Backend, name: web}') },
      // Another namespace holds a Service of that name: not this one.
      { 'svc.yaml': service('[{port: 80}]', 'blog'), 'r.yaml': route('        - {name: web, namespace: blog, port: 80}') },
    ];
    for (const files of silent) assert.deepEqual(lint(files, { rules }).findings, [], JSON.stringify(files));
  });

  it('judges each cluster on its own', () => {
    const files = { 'dev/svc.yaml': service('[{port: 8080}]'), 'prod/svc.yaml': service('[{port: 80}]'), 'prod/r.yaml': route('        - {name: web, port: 80}') };
    assert.deepEqual(lint(files, { rules, config: { clusters: { dev: ['dev/**'], prod: ['prod/**'] } } }).findings, []);
  });
});
