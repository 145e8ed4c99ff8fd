import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['servicemonitor-port-unresolved'];
const service = (ports: string, ns = 'shop', name = 'web') => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}, labels: {app: ${name}}}
spec:
  selector: {app: ${name}}
  ports: ${ports}`;
const workload = (ports: string, ns = 'shop', name = 'web') => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${ns}}
spec:
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: x:1, ports: ${ports}}]}
  selector: {matchLabels: {app: ${name}}}`;
// The first endpoint is on line 8.
const serviceMonitor = (endpoints: string, namespaceSelector = '{matchNames: [shop]}') => `
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: web, namespace: monitoring}
spec:
  selector: {matchLabels: {app: web}}
  namespaceSelector: ${namespaceSelector}
  endpoints:
${endpoints}`;
const podMonitor = (endpoints: string) => `
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  podMetricsEndpoints:
${endpoints}`;

describe('servicemonitor-port-unresolved', () => {
  it('warns at a ServiceMonitor port name no selected Service has, with a fix to the only named port', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80}]'), 'sm.yaml': serviceMonitor('    - port: metrics\n      interval: 30s') };
    const { findings } = lint(files, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['sm.yaml', 8, 13, 'metrics', 'warning', 'ServiceMonitor monitoring/web']);
    assert.equal(f.message, 'endpoint #0 of ServiceMonitor monitoring/web scrapes the Service port named "metrics", which Service shop/web does not have (it has port 80 "http"): the operator keeps only that port name, so there are no targets and no error; use one of its port names');
    assert.deepEqual(f.related.map((r) => [r.file, r.line]), [['svc.yaml', 3]]);
    assert.deepEqual(f.fixes.map((x) => x.title), ['Scrape the Service port "http"']);
    assert.match(applyEdits(dedent(files['sm.yaml']), f.fixes[0].edits), /- port: http\n/);
  });

  it('checks targetPort against the containers behind the selected Services, and says when a port name is a number', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80, targetPort: 8080}]'), 'd.yaml': workload('[{name: http, containerPort: 8080}]') };
    const target = lint({ ...files, 'sm.yaml': serviceMonitor('    - targetPort: 9100') }, { rules }).findings;
    assert.deepEqual(target.map((f) => f.message), ['endpoint #0 of ServiceMonitor monitoring/web scrapes targetPort 9100, which none of the Pods behind Service shop/web declares (Deployment shop/web): Prometheus keeps only declared container ports, so there are no targets and no error; declare that port or scrape a declared one']);
    assert.deepEqual(target[0].related.map((r) => r.message), ['Deployment shop/web declares http (8080)']);
    assert.deepEqual(lint({ ...files, 'sm.yaml': serviceMonitor('    - targetPort: http') }, { rules }).findings, []);
    assert.deepEqual(lint({ ...files, 'sm.yaml': serviceMonitor('    - targetPort: 8080') }, { rules }).findings, []);
    // port wins over targetPort: a matching port name makes the targetPort irrelevant.
    assert.deepEqual(lint({ ...files, 'sm.yaml': serviceMonitor('    - {port: http, targetPort: 9999}') }, { rules }).findings, []);
    const digits = lint({ ...files, 'sm.yaml': serviceMonitor('    - port: "80"') }, { rules }).findings;
    assert.match(digits[0].message, /scrapes the Service port named "80" \(port takes a Service port name, not a number\)/);
  });

  it('follows namespaceSelector: own namespace by default, matchNames, any', () => {
    const files = { 'svc.yaml': service('[{name: http, port: 80}]', 'blog') };
    // shop holds no Service: the monitor selects nothing there (info: it may be deployed from elsewhere).
    assert.deepEqual(lint({ ...files, 'sm.yaml': serviceMonitor('    - port: metrics') }, { rules }).findings.map((f) => [f.severity, f.text]), [['info', 'app: web']]);
    assert.deepEqual(lint({ ...files, 'sm.yaml': serviceMonitor('    - port: metrics', '{any: true}') }, { rules }).findings.map((f) => f.text), ['metrics']);
    assert.deepEqual(lint({ ...files, 'sm.yaml': serviceMonitor('    - port: metrics', '{matchNames: [blog]}') }, { rules }).findings.map((f) => f.text), ['metrics']);
    const own = serviceMonitor('    - port: metrics', '{}').replace('namespace: monitoring', 'namespace: blog');
    assert.deepEqual(lint({ ...files, 'sm.yaml': own }, { rules }).findings.map((f) => f.text), ['metrics']);
  });

  it('checks PodMonitor port, portNumber and targetPort in precedence order against the selected pods', () => {
    const files = { 'd.yaml': workload('[{name: http, containerPort: 8080}, {containerPort: 9100}]') };
    const found = lint({ ...files, 'pm.yaml': podMonitor('    - port: metrics\n    - portNumber: 9101\n    - targetPort: 9102\n    - {port: http, portNumber: 1}\n    - port: "9100"') }, { rules }).findings;
    assert.deepEqual(found.map((f) => [f.line, f.text]), [[7, 'metrics'], [8, '9101'], [9, '9102'], [11, '"9100"']]);
    assert.equal(found[0].message, 'podMetricsEndpoint #0 of PodMonitor shop/web scrapes port "metrics", which none of the Pods it selects declares (Deployment shop/web): Prometheus keeps only declared container ports, so there are no targets and no error; declare that port or scrape a declared one');
    assert.match(found[3].message, /scrapes port "9100" \(port takes a container port name; a number goes in portNumber\)/);
    assert.deepEqual(lint({ ...files, 'pm.yaml': podMonitor('    - port: http\n    - portNumber: 9100\n    - targetPort: 8080') }, { rules }).findings, []);
  });

  it('stays silent when the workspace holds no Service or pod template, when the CRD kinds are of another group, and across clusters', () => {
    assert.deepEqual(lint({ 'sm.yaml': serviceMonitor('    - port: metrics') }, { rules }).findings, []);
    assert.deepEqual(lint({ 'pm.yaml': podMonitor('    - port: metrics') }, { rules }).findings, []);
    const foreign = serviceMonitor('    - port: metrics').replace('monitoring.coreos.com/v1', 'example.com/v1');
    assert.deepEqual(lint({ 'svc.yaml': service('[{name: http, port: 80}]'), 'sm.yaml': foreign }, { rules }).findings, []);
    const files = { 'dev/svc.yaml': service('[{name: http, port: 80}]'), 'prod/svc.yaml': service('[{name: metrics, port: 80}]'), 'prod/sm.yaml': serviceMonitor('    - port: metrics') };
    assert.deepEqual(lint(files, { rules, config: { clusters: { dev: ['dev/**'], prod: ['prod/**'] } } }).findings, []);
  });

  describe('a selector that matches nothing', () => {
    // The Service carries app=web only in spec.selector: a ServiceMonitor matches the Service's own labels.
    const unlabelled = 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: app}\nspec:\n  selector: {app: web}\n  ports: [{name: metrics, port: 9090}]\n';
    const monitor = 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web, namespace: app}\nspec:\n  selector: {matchLabels: {app: web}}\n  endpoints: [{port: metrics}]\n';

    it('warns at the selector\'s first entry when the namespace holds Services but none has the labels, naming one that has them only in spec.selector', () => {
      const { findings } = lint({ 'sm.yaml': monitor, 'svc.yaml': unlabelled }, { rules });
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.column, f.text, f.severity, f.object]), [['sm.yaml', 5, 28, 'app: web', 'warning', 'ServiceMonitor app/web']]);
      assert.equal(findings[0].message, "selector app=web of ServiceMonitor app/web matches no Service of namespace app (it matches Services' own metadata.labels): Prometheus gets no targets from it and reports no error; Service app/web has app=web only in spec.selector: add it to its metadata.labels");
      assert.deepEqual(findings[0].related.map((r) => [r.file, r.line, r.message]), [['svc.yaml', 3, 'Service app/web: app=web in spec.selector, not in metadata.labels']]);
      assert.deepEqual(findings[0].fixes, []);
      // Labelled, it selects the Service and the endpoint port is checked instead (and found).
      const labelled = unlabelled.replace('namespace: app}', 'namespace: app, labels: {app: web}}');
      assert.deepEqual(lint({ 'sm.yaml': monitor, 'svc.yaml': labelled }, { rules }).findings, []);
    });

    it('names the Service whose labels come closest, reads matchExpressions and namespaceSelector', () => {
      const other = 'apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: app, labels: {app: api}}\nspec: {selector: {app: api}, ports: [{name: metrics, port: 9090}]}\n';
      const closest = lint({ 'sm.yaml': monitor, 'svc.yaml': other }, { rules }).findings;
      assert.deepEqual(closest.map((f) => [f.severity, f.message.split('; ').pop(), f.related.map((r) => r.message)]), [['warning', 'closest: Service app/api (app=api)', ['closest Service: Service app/api (app=api)']]]);
      const expr = monitor.replace('{matchLabels: {app: web}}', '{matchExpressions: [{key: tier, operator: In, values: [db]}]}');
      const byExpr = lint({ 'sm.yaml': expr, 'svc.yaml': other }, { rules }).findings;
      assert.deepEqual(byExpr.map((f) => [f.line, f.text, f.message.split(':')[0]]), [[5, '{key: tier, operator: In, values: [db]}', 'selector tier in (db) of ServiceMonitor app/web matches no Service of namespace app (it matches Services\' own metadata.labels)']]);
      // namespaceSelector matchNames: judged in those namespaces (blog holds a matching Service: silent).
      const blog = other.replace(/name: api, namespace: app, labels: \{app: api\}/, 'name: web, namespace: blog, labels: {app: web}');
      const elsewhere = monitor.replace('  endpoints:', '  namespaceSelector: {matchNames: [blog]}\n  endpoints:');
      assert.deepEqual(lint({ 'sm.yaml': elsewhere, 'svc.yaml': other, 'blog.yaml': blog }, { rules }).findings, []);
      assert.deepEqual(lint({ 'sm.yaml': monitor, 'svc.yaml': other, 'blog.yaml': blog }, { rules }).findings.map((f) => f.severity), ['warning']);
      const any = monitor.replace('  endpoints:', '  namespaceSelector: {any: true}\n  endpoints:');
      assert.deepEqual(lint({ 'sm.yaml': any, 'svc.yaml': other, 'blog.yaml': blog }, { rules }).findings, []);
    });

    it('is info when the namespaces hold no Service here, hold operator custom resources, or are kube-system; silent with no Service anywhere', () => {
      const blogOnly = unlabelled.replace('namespace: app', 'namespace: blog');
      const none = lint({ 'sm.yaml': monitor, 'svc.yaml': blogOnly }, { rules }).findings;
      assert.deepEqual(none.map((f) => [f.severity, f.message]), [['info', 'selector app=web of ServiceMonitor app/web matches no Service here (namespace app holds none): fine if it is deployed from elsewhere, else Prometheus gets no targets from it']]);
      const kafka = 'apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata: {name: events, namespace: app}\nspec: {}\n';
      const cr = lint({ 'sm.yaml': monitor, 'svc.yaml': unlabelled, 'k.yaml': kafka }, { rules }).findings;
      assert.deepEqual(cr.map((f) => f.severity), ['info']);
      assert.match(cr[0].message, /matches no known Service of namespace app, which holds custom resources an operator may turn into Services \(Kafka app\/events\)/);
      const sys = lint({ 'sm.yaml': monitor.replace(/namespace: app/g, 'namespace: kube-system'), 'svc.yaml': unlabelled.replace('namespace: app', 'namespace: kube-system') }, { rules }).findings;
      assert.deepEqual(sys.map((f) => f.severity), ['info']);
      assert.deepEqual(lint({ 'sm.yaml': monitor }, { rules }).findings, []);
    });

    it('does the same for a PodMonitor against pod templates', () => {
      const pm = podMonitor('    - port: metrics');
      const { findings } = lint({ 'pm.yaml': pm, 'd.yaml': workload('[{name: metrics, containerPort: 9090}]', 'shop', 'api') }, { rules });
      assert.deepEqual(findings.map((f) => [f.line, f.text, f.severity, f.message]), [[5, 'app: web', 'warning', 'selector app=web of PodMonitor shop/web matches no pod template of namespace shop: Prometheus gets no targets from it and reports no error; closest: Deployment shop/api (app=api)']]);
      assert.deepEqual(lint({ 'pm.yaml': pm, 'd.yaml': workload('[{name: metrics, containerPort: 9090}]') }, { rules }).findings, []);
      assert.deepEqual(lint({ 'pm.yaml': pm, 'svc.yaml': unlabelled }, { rules }).findings, [], 'no pod template anywhere');
    });
  });

  it('is satisfied by any variant of the selected Service (a base and its overlay copy)', () => {
    const files = { 'base/svc.yaml': service('[{name: http, port: 80}]'), 'prod/svc.yaml': service('[{name: http, port: 80}, {name: metrics, port: 9090}]'), 'sm.yaml': serviceMonitor('    - port: metrics') };
    assert.deepEqual(lint(files, { rules }).findings, []);
  });
});
