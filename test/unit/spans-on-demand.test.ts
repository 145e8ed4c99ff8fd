import { strict as assert } from 'node:assert';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import type { K8sObject, WorkloadObject } from '../../server/out/core/model/objects';
import { handlerPorts } from '../../server/out/core/model/views/container-handlers';
import { ingressBackends } from '../../server/out/core/model/views/ingress';
import { rejectionReason } from '../../server/out/core/kubernetes/api-server/rejection';
import type { Span } from '../../server/out/core/source/span';
import { dedent } from '../helpers/lint';

const load = (text: string): LoadedFile => loadFile('m.yaml', dedent(text));
const at = (f: LoadedFile, span: Span): string => `${f.lines.position(span.start).line}:${f.text.slice(span.start, span.end)}`;

/** A copy of `obj` whose path index counts its look-ups (an object's index is decoded on the first one). */
function counting(obj: K8sObject): { obj: K8sObject; lookups: () => number } {
  let lookups = 0;
  const paths = new Map(obj.paths);
  const get = paths.get.bind(paths);
  paths.get = (key: string) => (lookups++, get(key));
  return { obj: { ...obj, paths } as K8sObject, lookups: () => lookups };
}

const file = load(`
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
          - name: web
            image: web:1
            ports: [{name: http, containerPort: 8080}]
            readinessProbe: {httpGet: {path: /ready, port: http}}
            livenessProbe: {tcpSocket: {port: 8080}}
  ---
  apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {name: web, namespace: shop}
  spec:
    rules:
      - host: shop.example.com
        http:
          paths:
            - {path: /, pathType: Prefix, backend: {service: {name: web, port: {name: http}}}}
`);
const ctx = { files: new Map([[file.file, file]]), patchFiles: new Set<string>(), resourceFiles: new Set<string>(), nodePortRange: { min: 30000, max: 32767 } };

describe('spans looked up only when read', () => {
  it('judges a valid Deployment with probes accepted without reading its raw (a lazy raw is parsed on its first read)', () => {
    const deployment = file.objects[0];
    let reads = 0;
    const copy = Object.defineProperty({ ...deployment }, 'raw', { get: () => (reads++, deployment.raw), enumerable: true }) as K8sObject;
    assert.equal(rejectionReason(copy, ctx), undefined);
    assert.equal(reads, 0);
  });

  it('runs the checks that read raw in the loader, and again only where they found something', () => {
    const workload = (extra: string): LoadedFile => load(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        selector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: Exists}]}
        template:
          metadata: {labels: {app: web, tier: x}}
          spec:
            ${extra}
            initContainers: [{name: proxy, image: p, restartPolicy: Always}]
            containers:
              - name: web
                image: web:1
                readinessProbe: {httpGet: {port: 8080, scheme: HTTPS}}
    `);
    const valid = workload('affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 100, podAffinityTerm: {topologyKey: zone, labelSelector: {matchLabels: {app: web}}}}]}}');
    const invalid = workload('topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]');
    const [accepted, refused] = [valid.objects[0], invalid.objects[0]] as WorkloadObject[];
    assert.deepEqual([accepted.pod.rawChecks, refused.pod.rawChecks], [[], ['scheduling']]);
    let reads = 0;
    const counted = (o: WorkloadObject): K8sObject => Object.defineProperty({ ...o }, 'raw', { get: () => (reads++, o.raw), enumerable: true }) as K8sObject;
    const judge = (f: LoadedFile, o: K8sObject): string | undefined => rejectionReason(o, { ...ctx, files: new Map([[f.file, f]]) });
    assert.equal(judge(valid, counted(accepted)), undefined);
    assert.equal(reads, 0, 'nothing to judge: raw is not read');
    assert.match(judge(invalid, counted(refused)) ?? '', /^maxSkew 0 of topology spread constraint #0 is not above 0: the API server rejects Deployment default\/web/);
    assert.ok(reads > 0);
  });

  it('judges a valid Deployment and Ingress accepted without looking up a span', () => {
    for (const o of file.objects) {
      const c = counting(o);
      assert.equal(rejectionReason(c.obj, ctx), undefined);
      assert.equal(c.lookups(), 0, `${o.kind} ${o.name}`);
    }
  });

  it('gives the same span as before when one is read', () => {
    const deployment = counting(file.objects[0]);
    const ports = handlerPorts(deployment.obj);
    assert.deepEqual(ports.map((h) => h.port.value), [8080, 'http']);
    assert.equal(deployment.lookups(), 0);
    assert.deepEqual(ports.map((h) => at(file, h.port.span)), ['14:8080', '13:http']);
    assert.ok(deployment.lookups() > 0);
    // The same span object on every read (edits move spans in place).
    assert.equal(ports[1].port.span, ports[1].port.span);
    assert.equal(ports[1].port.span, deployment.obj.paths!.get('spec.template.spec.containers.0.readinessProbe.httpGet.port'));
    const ingress = counting(file.objects[1]);
    const [backend] = ingressBackends(ingress.obj);
    assert.equal(backend.service.value, 'web');
    assert.equal(ingress.lookups(), 0);
    assert.equal(at(file, backend.port!.span), '24:http');
  });

  it('still locates a rejected value', () => {
    const bad = load(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        containers:
          - name: c
            image: c:1
            readinessProbe: {httpGet: {port: "8080"}}
    `);
    const reason = rejectionReason(bad.objects[0], { ...ctx, files: new Map([[bad.file, bad]]) });
    assert.match(reason ?? '', /readinessProbe port "8080" of container "c" is a quoted number/);
  });
});
