import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

// An object the API server rejects on its own fields is never created, so it takes part in no other check
// (kubernetes/api-server/rejection.ts): each case lints the same objects with the field valid (the cross-object
// finding is there) and rejected (only the rejection finding is left).
const deployment = (port: string, labels = '{app: web}') => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: ${labels}}
  template:
    metadata: {labels: ${labels}}
    spec:
      containers:
        - name: c
          image: x
          ports:
            - ${port}`;
const service = (ports: string, type = 'NodePort') => `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  type: ${type}
  selector: {app: web}
  ports: ${ports}`;
const policy = (protocol: string) => `
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: shop}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
    - ports:
        - protocol: ${protocol}
          port: 80`;
const ingress = (port: string) => `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: in, namespace: shop}
spec:
  rules:
    - http:
        paths:
          - path: /
            pathType: Prefix
            backend: {service: {name: web, port: ${port}}}`;
const view = (files: Record<string, string>) => lint(files).findings.map((f) => [f.ruleId, f.file, f.line, f.column, f.object ?? '']);

describe('objects the API server rejects take part in no other check', () => {
  it('Deployment: a containerPort outside 1-65535 beside a hostPort equal to a nodePort gets pod-spec-invalid alone, once', () => {
    const svc = service('[{port: 80, targetPort: 8080, nodePort: 31443}]');
    assert.deepEqual(view({ 'd.yaml': deployment('{containerPort: 8080, hostPort: 31443}'), 's.yaml': svc }).filter(([id]) => id === 'host-port-conflicts-nodeport'), [
      ['host-port-conflicts-nodeport', 'd.yaml', 13, 47, 'Deployment shop/web'],
      ['host-port-conflicts-nodeport', 's.yaml', 7, 50, 'Service shop/web'],
    ]);
    assert.deepEqual(view({ 'd.yaml': deployment('{containerPort: 70000, hostPort: 31443}'), 's.yaml': svc }), [
      ['pod-spec-invalid', 'd.yaml', 13, 31, 'Deployment shop/web'],
    ]);
  });

  it('Service: a rejected Service (targetPort 70000) collides with no hostPort, and its selector and ports are judged no further', () => {
    const pod = deployment('{containerPort: 8080, hostPort: 31443}');
    assert.deepEqual(view({ 'd.yaml': pod, 's.yaml': service('[{port: 80, targetPort: 9090, nodePort: 31443}]') }).map(([id]) => id), ['host-port-conflicts-nodeport', 'hostport-usage', 'service-targetport-unresolved', 'host-port-conflicts-nodeport']);
    assert.deepEqual(view({ 'd.yaml': pod, 's.yaml': service('[{port: 80, targetPort: 70000, nodePort: 31443}]') }), [
      ['hostport-usage', 'd.yaml', 13, 47, 'Deployment shop/web'],
      ['service-spec-invalid', 's.yaml', 7, 34, 'Service shop/web'],
    ]);
    // A quoted nodePort (a decode error) rejects the Service too: nothing else about it.
    assert.deepEqual(view({ 'd.yaml': pod, 's.yaml': service('[{port: 80, targetPort: 8080, nodePort: "31443"}]') }).map(([id, file]) => [id, file]), [['host-port-in-nodeport-range', 'd.yaml'], ['hostport-usage', 'd.yaml'], ['service-spec-invalid', 's.yaml']]);
    // A nodePort outside the NodePort range: nodeport-out-of-range alone (the pod's hostPort 80 is not taken by it).
    const low = view({ 'd.yaml': deployment('{containerPort: 8080, hostPort: 80}'), 's.yaml': service('[{port: 80, targetPort: 8080, nodePort: 80}]') });
    assert.deepEqual(low.map(([id, file]) => [id, file]), [['hostport-usage', 'd.yaml'], ['nodeport-out-of-range', 's.yaml']]);
  });

  it('a Service selecting a rejected Deployment is not told its targetPort or selector matches nothing there', () => {
    const svc = service('[{port: 80, targetPort: 9090}]', 'ClusterIP');
    assert.deepEqual(view({ 'd.yaml': deployment('{containerPort: 8080}'), 's.yaml': svc }), [['service-targetport-unresolved', 's.yaml', 7, 34, 'Service shop/web']]);
    assert.deepEqual(view({ 'd.yaml': deployment('{containerPort: 8080, protocol: tcp}'), 's.yaml': svc }), [['pod-spec-invalid', 'd.yaml', 13, 47, 'Deployment shop/web']]);
  });

  it("NetworkPolicy: protocol 'tcp' gets networkpolicy-spec-invalid alone, not also networkpolicy-port-unresolved as TCP", () => {
    const files = { 'd.yaml': deployment('{containerPort: 8080}'), 's.yaml': service('[{port: 80, targetPort: 8080}]', 'ClusterIP') };
    assert.deepEqual(view({ ...files, 'np.yaml': policy('TCP') }), [['networkpolicy-port-unresolved', 'np.yaml', 9, 17, 'NetworkPolicy shop/np']]);
    assert.deepEqual(view({ ...files, 'np.yaml': policy("'tcp'") }), [['networkpolicy-spec-invalid', 'np.yaml', 8, 21, 'NetworkPolicy shop/np']]);
  });

  it('Ingress: a backend the API server rejects (name and number both) is not also checked against the Service', () => {
    const files = { 'd.yaml': deployment('{containerPort: 8080}'), 's.yaml': service('[{name: http, port: 80, targetPort: 8080}]', 'ClusterIP') };
    assert.deepEqual(view({ ...files, 'i.yaml': ingress('{number: 81}') }).map(([id, file]) => [id, file]), [['ingress-backend-unresolved', 'i.yaml']]);
    assert.deepEqual(view({ ...files, 'i.yaml': ingress('{number: 81, name: http}') }).map(([id, file]) => [id, file]), [['ingress-spec-invalid', 'i.yaml']]);
  });
});
