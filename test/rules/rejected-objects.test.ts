import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { IncrementalWorkspace } from '../../server/out/core/workspace/incremental';
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
    // The hostPort is then judged as if the Service were not there: inside the NodePort range, taken by no nodePort.
    assert.deepEqual(view({ 'd.yaml': pod, 's.yaml': service('[{port: 80, targetPort: 70000, nodePort: 31443}]') }), [
      ['host-port-in-nodeport-range', 'd.yaml', 13, 47, 'Deployment shop/web'],
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

  it('a collision between accepted objects stays when a rejected object shares the port', () => {
    const svc = (name: string, extra = '') => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30080${extra}}]}\n`;
    const text = [svc('a'), svc('b'), svc('c', ', targetPort: 70000')].join('---\n');
    const findings = lint({ 's.yaml': text }).findings;
    // The rejected Service c is named neither in the message nor in the related locations.
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.object, f.related.map((r) => r.line)]), [
      ['nodeport-duplicate', 4, 53, 'Service default/a', [9]],
      ['nodeport-duplicate', 9, 53, 'Service default/b', [4]],
      ['service-spec-invalid', 14, 72, 'Service default/c', []],
    ]);
    assert.match(findings[0].message, /^nodePort 30080 is also claimed by Service default\/b: nodePorts are cluster-wide/);
    assert.match(findings[1].message, /^nodePort 30080 is also claimed by Service default\/a: /);
    // Two accepted Services alone: the same pair, each naming only the other.
    assert.deepEqual(lint({ 's.yaml': [svc('a'), svc('c', ', targetPort: 70000')].join('---\n') }).findings.map((f) => f.ruleId), ['service-spec-invalid']);
  });

  it('the language server\'s re-checks name no rejected object either, as a Service is rejected and accepted again', () => {
    const svc = (name: string, targetPort: number) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30080, targetPort: ${targetPort}}]}\n`;
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    ws.setText('a.yaml', svc('a', 80));
    ws.setText('b.yaml', svc('b', 80));
    ws.setText('c.yaml', svc('c', 80));
    const named = () => ws.analyze().findings.filter((f) => f.ruleId === 'nodeport-duplicate').map((f) => [f.span.file, f.related.map((r) => r.span.file), /claimed by (.*?):/.exec(f.message)![1]]);
    assert.equal(named().length, 3);
    for (const [target, want] of [[70000, [['a.yaml', ['b.yaml'], 'Service default/b'], ['b.yaml', ['a.yaml'], 'Service default/a']]], [80, named()]] as const) {
      ws.setText('c.yaml', svc('c', target));
      const got = named();
      assert.deepEqual(got, want, `targetPort ${target}`);
      const whole = analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      assert.deepEqual(got, whole.map((f) => [f.span.file, f.related.map((r) => r.span.file), /claimed by (.*?):/.exec(f.message)![1]]));
    }
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
