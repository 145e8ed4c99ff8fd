import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import { buildModel } from '../../server/out/core/model/workspace-model';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { portChainAt } from '../../server/out/core/references/port-chain';

const DIR = join(__dirname, '..', '..', 'test', 'fixtures', 'port-chain');
const files = ['app.yaml', 'edge.yaml'].map((f) => loadFile(f, readFileSync(join(DIR, f), 'utf8')));
const model = buildModel(files, DEFAULT_CONFIG);
const byName = new Map<string, LoadedFile>(files.map((f) => [f.file, f]));

/** The chain at the last character of `needle` in `file`, as `depth|text|file:line` lines (`*` marks the cursor's step). */
function chainAt(file: string, needle: string): string[] {
  const f = byName.get(file)!;
  const offset = f.text.indexOf(needle) + needle.length - 1;
  assert.ok(offset >= needle.length - 1, needle);
  const obj = model.objects.find((o) => o.file === file && o.extent.start <= offset && offset <= o.extent.end)!;
  const chain = portChainAt(model, obj, offset);
  return (chain?.steps ?? []).map((s) => `${s.depth}|${s.here ? '*' : ''}${s.text}|${s.span.file}:${byName.get(s.span.file)!.lines.position(s.span.start).line}`);
}

describe('port chain (hover)', () => {
  const fromService = [
    '0|backend of host shop.example.com path / of Ingress shop/shop|edge.yaml:11',
    '0|rule #0 backendRef #0 of HTTPRoute shop/shop|edge.yaml:17',
    '0|endpoint #0 of ServiceMonitor shop/web|edge.yaml:31',
    '1|*port 80 "http"/TCP of Service shop/web → targetPort "http"|app.yaml:8',
    '2|containerPort 8080 "http"/TCP of Deployment shop/web (container web)|app.yaml:23',
    '3|readinessProbe of container "web"|app.yaml:25',
    '3|allowed by ingress rule #0 of NetworkPolicy shop/web|edge.yaml:24',
  ];

  it('on a Service port: what names it, then targetPort → containerPort → probes and policies', () => {
    assert.deepEqual(chainAt('app.yaml', 'port: 80'), fromService);
    assert.deepEqual(chainAt('app.yaml', 'targetPort: http'), fromService);
  });

  it('on a containerPort: the same chain with the containerPort marked', () => {
    assert.deepEqual(chainAt('app.yaml', 'containerPort: 8080'), fromService.map((s) => s.replace('*', '')).map((s) => (s.startsWith('2|') ? s.replace('2|', '2|*') : s)));
  });

  it('on an Ingress backend, a route backendRef or a ServiceMonitor endpoint: down to the containers', () => {
    const down = fromService.slice(3).map((s) => s.replace('*', ''));
    assert.deepEqual(chainAt('edge.yaml', 'number: 80'), ['0|*backend of host shop.example.com path / of Ingress shop/shop: Service web, port 80|edge.yaml:11', ...down]);
    assert.deepEqual(chainAt('edge.yaml', '{name: web, port: 80'), ['0|*rule #0 backendRef #0 of HTTPRoute shop/shop: Service shop/web, port 80|edge.yaml:17', ...down]);
    assert.deepEqual(chainAt('edge.yaml', 'endpoints: [{port: http'), ['0|*endpoint #0 of ServiceMonitor shop/web: Service port "http"|edge.yaml:31', ...down]);
  });

  it('on a probe port and a NetworkPolicy port: the container port they resolve to', () => {
    assert.deepEqual(chainAt('app.yaml', 'port: http'), [...fromService.slice(0, 5).map((s) => s.replace('*', '')), fromService[6], '3|*readinessProbe of container "web": port "http"|app.yaml:25']);
    assert.deepEqual(chainAt('edge.yaml', 'ports: [{port: http'), ['0|*ingress rule #0 of NetworkPolicy shop/web: port "http"/TCP|edge.yaml:24', '2|containerPort 8080 "http"/TCP of Deployment shop/web (container web)|app.yaml:23']);
  });

  it('on a selector entry: what it needs and what it matches', () => {
    assert.deepEqual(chainAt('app.yaml', 'selector: {app: web'), ['1|*selector of Service shop/web needs pod labels app=web in namespace shop|app.yaml:5', '2|matches Deployment shop/web|app.yaml:13']);
  });

  it('says where a chain breaks, and nothing off the port fields', () => {
    const broken = [loadFile('x.yaml', 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i, namespace: shop}\nspec:\n  defaultBackend: {service: {name: gone, port: {number: 80}}}\n')];
    const m = buildModel([...files, ...broken], DEFAULT_CONFIG);
    const obj = m.objects.find((o) => o.file === 'x.yaml')!;
    const offset = broken[0].text.indexOf('80}');
    assert.deepEqual(portChainAt(m, obj, offset)?.steps.map((s) => s.text), ['default backend of Ingress shop/i: Service gone, port 80', 'no Service shop/gone here']);
    const svc = model.objects.find((o) => o.kind === 'Service')!;
    assert.equal(portChainAt(model, svc, byName.get('app.yaml')!.text.indexOf('name: web')), undefined);
  });

  it('leaves out a lifecycle hook\'s tcpSocket port (the kubelet never runs it) and keeps its httpGet port', () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec:\n  containers:\n    - name: web\n      image: web:1\n      ports: [{name: http, containerPort: 8080}]\n      lifecycle:\n        postStart: {httpGet: {path: /warm, port: http}}\n        preStop: {tcpSocket: {port: http}}\n';
    const pod = loadFile('pod.yaml', text);
    const m = buildModel([pod], DEFAULT_CONFIG);
    const obj = m.objects[0];
    assert.deepEqual(portChainAt(m, obj, text.indexOf('containerPort: 8080') + 15)?.steps.map((s) => `${s.depth}|${s.text}`), [
      '2|containerPort 8080 "http"/TCP of Pod shop/p (container web)',
      '3|postStart hook of container "web"',
    ]);
    assert.equal(portChainAt(m, obj, text.lastIndexOf('port: http}') + 7), undefined);
  });

  it('lists the PodMonitor endpoints and NetworkPolicies that use the container port, in file order, for every selected template', () => {
    const monitor = loadFile('monitor.yaml', 'apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web}}\n  podMetricsEndpoints: [{port: metrics}, {port: http}]\n');
    const second = loadFile('web2.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web2, namespace: shop}\nspec:\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: web:1, ports: [{name: http, containerPort: 8080}]}]\n');
    const m = buildModel([...files, monitor, second], DEFAULT_CONFIG);
    const svc = m.objects.find((o) => o.kind === 'Service')!;
    const steps = portChainAt(m, svc, byName.get('app.yaml')!.text.indexOf('port: 80') + 6)!.steps.filter((s) => s.depth >= 2).map((s) => `${s.depth}|${s.text}`);
    assert.deepEqual(steps, [
      '2|containerPort 8080 "http"/TCP of Deployment shop/web (container web)',
      '3|readinessProbe of container "web"',
      '3|allowed by ingress rule #0 of NetworkPolicy shop/web',
      '3|scraped by podMetricsEndpoint #1 of PodMonitor shop/web',
      '2|containerPort 8080 "http"/TCP of Deployment shop/web2 (container web)',
      '3|allowed by ingress rule #0 of NetworkPolicy shop/web',
      '3|scraped by podMetricsEndpoint #1 of PodMonitor shop/web',
    ]);
  });
});
