import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import type { Finding } from '../../server/out/core/rules/rule';
import { IncrementalWorkspace } from '../../server/out/core/workspace/incremental';
import { dedent } from '../helpers/lint';

// Ingresses, routes, NetworkPolicies and monitors are judged against Services and pods of other files: an edit of
// a Service or a workload must re-check them (and unmatched selectors of the namespace), so the incremental
// analysis gives exactly the full analysis's findings after every edit. The workloads' own selectors select by
// `tier`, which the edits leave alone: an edited `app` changes what the Services and policies select, not whether
// the API server accepts the workload.
const key = (f: Finding): string => JSON.stringify([f.ruleId, f.severity, f.message, f.span, f.object, f.related, f.fixes]);

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

const FILES: Record<string, string> = {
  'svc.yaml': dedent(`
    apiVersion: v1
    kind: Service
    metadata: {name: web, namespace: shop, labels: {app: web}}
    spec:
      selector: {app: web}
      ports:
        - {name: http, port: 80, targetPort: 8080}
        - {name: metrics, port: 9090}
    ---
    apiVersion: v1
    kind: Service
    metadata: {name: db, namespace: shop}
    spec:
      selector: {app: db}
      ports: [{port: 5432, targetPort: 6432}]
  `),
  'web.yaml': dedent(`
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, namespace: shop}
    spec:
      template:
        metadata: {labels: {app: web, tier: web}}
        spec:
          containers:
            - name: web
              image: web:1
              ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]
              readinessProbe: {httpGet: {port: http}}
      selector: {matchLabels: {tier: web}}
  `),
  'db.yaml': dedent(`
    apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db, namespace: shop}
    spec:
      template:
        metadata: {labels: {app: db, tier: db}}
        spec: {containers: [{name: pg, image: pg:16, ports: [{name: pg, containerPort: 6432}]}]}
      selector: {matchLabels: {tier: db}}
  `),
  'edge.yaml': dedent(`
    apiVersion: networking.k8s.io/v1
    kind: Ingress
    metadata: {name: shop, namespace: shop}
    spec:
      defaultBackend: {service: {name: web, port: {number: 80}}}
    ---
    apiVersion: gateway.networking.k8s.io/v1
    kind: HTTPRoute
    metadata: {name: shop, namespace: shop}
    spec: {rules: [{backendRefs: [{name: web, port: 80}]}]}
    ---
    apiVersion: networking.k8s.io/v1
    kind: NetworkPolicy
    metadata: {name: db, namespace: shop}
    spec:
      podSelector: {matchLabels: {app: db}}
      ingress: [{ports: [{port: 6432}, {port: pg}]}]
    ---
    apiVersion: monitoring.coreos.com/v1
    kind: ServiceMonitor
    metadata: {name: web, namespace: shop}
    spec:
      selector: {matchLabels: {app: web}}
      endpoints: [{port: metrics}]
  `),
};

describe('IncrementalWorkspace and the port-reference rules', () => {
  it('re-checks the objects that name a changed Service or pod, giving the full analysis after every edit', () => {
    const texts = new Map(Object.entries(FILES));
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    for (const [p, t] of texts) ws.setText(p, t);
    assert.deepEqual(ws.analyze().findings.filter((f) => f.ruleId.endsWith('-unresolved') || f.ruleId.endsWith('-unmatched')).map((f) => f.ruleId), []);
    const rnd = random(11);
    const edited = ['svc.yaml', 'web.yaml', 'db.yaml'];
    const modes = new Set<string>();
    const rules = new Set<string>();
    for (let i = 0; i < 150; i++) {
      const p = edited[Math.floor(rnd() * edited.length)];
      let t = texts.get(p)!;
      const values = [...t.matchAll(/(port|targetPort|containerPort): (\d+)|(name|app): ([a-z]+)/g)];
      const m = values[Math.floor(rnd() * values.length)];
      const at = m.index! + m[0].length - 1;
      t = m[2] ? t.slice(0, at) + String(Math.floor(rnd() * 10)) + t.slice(at + 1) : t.slice(0, at) + 'abcx'[Math.floor(rnd() * 4)] + t.slice(at + 1);
      texts.set(p, t);
      ws.setText(p, t);
      const result = ws.analyze();
      modes.add(ws.lastRun.mode);
      for (const f of result.findings) rules.add(f.ruleId);
      const want = analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key);
      assert.deepEqual(result.findings.map(key), want, `edit ${i} in ${p} (${ws.lastRun.mode})`);
    }
    assert.ok(modes.has('incremental'), `modes: ${[...modes]}`);
    for (const id of ['ingress-backend-unresolved', 'gateway-backend-unresolved', 'networkpolicy-port-unresolved', 'servicemonitor-port-unresolved', 'service-selector-unmatched', 'probe-port-unresolved']) {
      assert.ok(rules.has(id), `the edits never produced ${id}: ${[...rules].join(', ')}`);
    }
  });

  it('re-checks an Ingress and a route when the Service they name is rejected by an edit and accepted again', () => {
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    // A nodePort on a ClusterIP Service makes the API server reject it (service-spec-invalid).
    const svc = (nodePort: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {type: ClusterIP, selector: {app: web}, ports: [{port: 80${nodePort}}]}\n`;
    ws.setText('svc.yaml', svc(''));
    ws.setText('edge.yaml', FILES['edge.yaml']);
    const rejectedNotes = (): string[] => ws.analyze().findings.filter((f) => f.ruleId.endsWith('backend-unresolved')).map((f) => `${f.ruleId} ${f.severity} ${/is rejected by the API server/.test(f.message)}`);
    assert.deepEqual(rejectedNotes(), []);
    for (const nodePort of [', nodePort: 30080', '', ', nodePort: 30081']) {
      ws.setText('svc.yaml', svc(nodePort));
      const got = rejectedNotes();
      assert.equal(ws.lastRun.mode, 'incremental');
      const want = analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key);
      assert.deepEqual(ws.analyze().findings.map(key), want, nodePort);
      assert.deepEqual(got, nodePort ? ['ingress-backend-unresolved warning true', 'gateway-backend-unresolved warning true'] : [], nodePort);
    }
  });

  it('re-checks a Service of another namespace whose selector a changed workload matches (the wrong-namespace hint)', () => {
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    const svc = 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: default}\nspec: {selector: {app: web}, ports: [{port: 80}]}\n';
    const other = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other, namespace: default}\nspec: {selector: {matchLabels: {app: other}}, template: {metadata: {labels: {app: other}}, spec: {containers: [{name: c, image: c}]}}}\n';
    const shop = (app: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {selector: {matchLabels: {app: ${app}}}, template: {metadata: {labels: {app: ${app}}}, spec: {containers: [{name: c, image: c}]}}}\n`;
    ws.setText('svc.yaml', svc);
    ws.setText('other.yaml', other);
    ws.setText('shop.yaml', shop('wex'));
    const messages = (): string[] => ws.analyze().findings.filter((f) => f.ruleId === 'service-selector-unmatched').map((f) => f.message);
    assert.match(messages()[0], /closest: Deployment default\/other/);
    for (const app of ['web', 'wex', 'web']) {
      ws.setText('shop.yaml', shop(app));
      const got = messages();
      assert.equal(ws.lastRun.mode, 'incremental');
      const want = analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.filter((f) => f.ruleId === 'service-selector-unmatched').map((f) => f.message);
      assert.deepEqual(got, want, app);
      assert.equal(/Deployment shop\/web in namespace shop matches it/.test(got[0]), app === 'web', got[0]);
    }
  });
});
