import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { runRules } from '../../server/out/core/engine/run-rules';
import { componentEvidenceOf, rememberComponentEvidence } from '../../server/out/core/kubernetes/node/components';
import { loadFile } from '../../server/out/core/load/load-file';
import { buildModelFromObjects, indexesOf } from '../../server/out/core/model/workspace-model';
import { nodeClaimsOf, shareNodeClaims } from '../../server/out/core/port-map/node-claims';
import { allRules } from '../../server/out/core/rules/index';
import type { Finding } from '../../server/out/core/rules/rule';
import { partialModel } from '../../server/out/core/workspace/incremental';
import { dedent } from '../helpers/lint';

// What the incremental re-check relies on besides its random-edit test (incremental.test.ts): rules marked
// `judgesEachObject` give, over a partial model of some objects, exactly their whole-model findings on those objects;
// the component evidence and node-level claims a partial model shares with the whole one are the same values.

const APPS = dedent(`
  apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: team}
  spec:
    selector: {app: web}
    ports: [{name: http, port: 80, targetPort: http}]
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: team}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: web, image: nginx, ports: [{name: http, containerPort: 8080}]}]
  ---
  apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {name: front, namespace: team}
  spec:
    rules:
      - http:
          paths:
            - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 81}}}}
            - {path: /x, pathType: Prefix, backend: {service: {name: nope, port: {number: 80}}}}
  ---
  apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {name: broken, namespace: team}
  spec:
    defaultBackend: {service: {name: web}}
  ---
  apiVersion: networking.k8s.io/v1
  kind: NetworkPolicy
  metadata: {name: allow, namespace: team}
  spec:
    podSelector: {}
    ingress: [{ports: [{port: 70000}]}]
  ---
  apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: route, namespace: team}
  spec:
    rules: [{backendRefs: [{name: web, port: 9090}]}]
`);

const SYSTEM = dedent(`
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: calico-node, namespace: kube-system}
  spec:
    selector: {matchLabels: {k8s-app: calico-node}}
    template:
      metadata: {labels: {k8s-app: calico-node}}
      spec:
        hostNetwork: true
        containers:
          - name: calico-node
            image: calico/node:v3.27.0
            env: [{name: IP_AUTODETECTION_METHOD, value: first-found}]
  ---
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: kube-proxy, namespace: kube-system}
  data: {mode: ipvs}
`);

function workspace() {
  const files = [loadFile('apps.yaml', APPS), loadFile('system.yaml', SYSTEM)];
  const analysis = analyze(files, DEFAULT_CONFIG);
  return { analysis, model: analysis.model, indexes: indexesOf(analysis.model)! };
}

const key = (f: Finding): string => JSON.stringify([f.ruleId, f.severity, f.message, f.span, f.object, f.related, f.fixes]);

describe('incremental re-check: partial models', () => {
  it('rules that judge each object on its own give their whole-model findings on the objects of any partial model', () => {
    const { analysis, model, indexes } = workspace();
    const each = allRules.filter((r) => r.judgesEachObject);
    assert.deepEqual(each.map((r) => r.id).sort(), ['calico-ip-autodetection', 'gateway-backend-unresolved', 'ingress-backend-unresolved', 'ingress-spec-invalid', 'networkpolicy-spec-invalid']);
    const ids = new Set(each.map((r) => r.id));
    const whole = analysis.findings.filter((f) => ids.has(f.ruleId));
    // Every marked rule reports here, so each one is tested (rule, object, 1-based line).
    const line = (f: Finding): number => analysis.files.get(f.span.file)!.lines.position(f.span.start).line;
    assert.deepEqual(whole.map((f) => [f.ruleId, f.object?.name, line(f)]), [
      ['ingress-backend-unresolved', 'front', 25],
      ['ingress-backend-unresolved', 'front', 26],
      ['ingress-spec-invalid', 'broken', 32],
      ['networkpolicy-spec-invalid', 'allow', 39],
      ['gateway-backend-unresolved', 'route', 45],
      ['calico-ip-autodetection', 'calico-node', 13],
    ]);
    for (const obj of model.objects) {
      const partial = partialModel(model, indexes, [obj], []);
      const run = runRules(each, partial, DEFAULT_CONFIG, analysis.files, analysis.layout);
      assert.deepEqual(run.failures, []);
      assert.deepEqual(run.findings.map(key), whole.filter((f) => f.object?.uid === obj.uid).map(key), `${obj.kind} ${obj.name}`);
    }
  });

  it('rules that judge an object alone give the same findings on it in a workspace of that object only', () => {
    const { analysis, model } = workspace();
    const alone = allRules.filter((r) => r.judgesObjectAlone);
    assert.deepEqual(alone.map((r) => r.id).sort(), ['calico-ip-autodetection', 'ingress-spec-invalid', 'networkpolicy-spec-invalid']);
    assert.ok(alone.every((r) => r.judgesEachObject));
    const ids = new Set(alone.map((r) => r.id));
    let compared = 0;
    for (const obj of model.objects) {
      const expected = analysis.findings.filter((f) => ids.has(f.ruleId) && f.object?.uid === obj.uid).map(key);
      const run = runRules(alone, buildModelFromObjects([obj], [], DEFAULT_CONFIG), DEFAULT_CONFIG, analysis.files, analysis.layout);
      assert.deepEqual(run.findings.map(key), expected, `${obj.kind} ${obj.name}`);
      compared += expected.length;
    }
    assert.equal(compared, 3); // broken (ingress-spec-invalid), allow (networkpolicy-spec-invalid), calico-node
  });

  it('a partial model holding every environment object shares the component evidence and node-level claims of the whole model', () => {
    const { model, indexes } = workspace();
    // Component evidence: every object but Services and the workloads that run no component (the calico-node
    // DaemonSet runs Calico), in order.
    assert.deepEqual(componentEvidenceOf(model.objects).map((o) => `${o.kind}/${o.name}`), ['Ingress/front', 'Ingress/broken', 'NetworkPolicy/allow', 'HTTPRoute/route', 'DaemonSet/calico-node', 'ConfigMap/kube-proxy']);
    const subset = model.objects.filter((o) => o.name !== 'web'); // no Service web, no Deployment web
    const partial = partialModel(model, indexes, subset, []);
    rememberComponentEvidence(subset, componentEvidenceOf(model.objects));
    assert.equal(componentEvidenceOf(subset), componentEvidenceOf(model.objects));
    // Computed on its own, the partial model's claims are the whole model's: the port indexes are the same.
    const own = nodeClaimsOf(partialModel(model, indexes, subset, []), DEFAULT_CONFIG);
    shareNodeClaims(partial, model);
    const shared = nodeClaimsOf(partial, DEFAULT_CONFIG);
    assert.equal(shared, nodeClaimsOf(model, DEFAULT_CONFIG));
    assert.deepEqual(shared, own);
    assert.ok(shared.some((c) => c.kind === 'component' && c.port === 10250), 'the kubelet port is claimed');
  });
});
