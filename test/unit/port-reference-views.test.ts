import { strict as assert } from 'node:assert';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import { clusterObjectFile } from '../../server/out/core/model/from-api-object';
import type { K8sObject, WorkloadObject } from '../../server/out/core/model/objects';
import { buildModel } from '../../server/out/core/model/workspace-model';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { ingressBackends } from '../../server/out/core/model/views/ingress';
import { routeBackendRefs } from '../../server/out/core/model/views/gateway-routes';
import { networkPolicyView } from '../../server/out/core/model/views/network-policy';
import { podMonitorView, serviceMonitorView } from '../../server/out/core/model/views/monitors';
import { handlerPorts, handlerPortValues } from '../../server/out/core/model/views/container-handlers';
import { entrySpanAt } from '../../server/out/core/model/views/raw-fields';
import { labelSelectorMatches } from '../../server/out/core/kubernetes/api-server/label-selector';
import type { Span } from '../../server/out/core/source/span';
import { dedent } from '../helpers/lint';

const load = (text: string): LoadedFile => loadFile('m.yaml', dedent(text));
const at = (f: LoadedFile, span: Span): string => `${f.lines.position(span.start).line}:${f.text.slice(span.start, span.end)}`;
const only = (f: LoadedFile): K8sObject => (assert.equal(f.objects.length, 1), f.objects[0]);

describe('typed views of port-referencing objects (raw + paths)', () => {
  it('reads Argo Rollouts, OpenKruise CloneSet and Advanced StatefulSet / DaemonSet pod templates as workloads that Services select', () => {
    const f = load(`
      apiVersion: argoproj.io/v1alpha1
      kind: Rollout
      metadata: {name: web, namespace: shop}
      spec:
        replicas: 3
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: web, image: web:1, ports: [{name: http, containerPort: 8080}]}]
      ---
      apiVersion: apps.kruise.io/v1alpha1
      kind: CloneSet
      metadata: {name: api, namespace: shop}
      spec:
        template:
          metadata: {labels: {app: api}}
          spec: {containers: [{name: api, image: api:1}]}
      ---
      apiVersion: apps.kruise.io/v1beta1
      kind: StatefulSet
      metadata: {name: db, namespace: shop}
      spec:
        template:
          metadata: {labels: {app: db}}
          spec: {containers: [{name: db, image: db:1}]}
      ---
      apiVersion: apps.kruise.io/v1alpha1
      kind: DaemonSet
      metadata: {name: agent, namespace: shop}
      spec:
        template:
          metadata: {labels: {app: agent}}
          spec: {containers: [{name: agent, image: agent:1}]}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: web, namespace: shop}
      spec: {selector: {app: web}, ports: [{port: 80, targetPort: http}]}
    `);
    const workloads = f.objects.filter((o): o is WorkloadObject => o.category === 'workload');
    assert.deepEqual(workloads.map((w) => `${w.group}/${w.kind} ${w.name} ${JSON.stringify(w.pod.labels)}`), [
      'argoproj.io/Rollout web {"app":"web"}', 'apps.kruise.io/CloneSet api {"app":"api"}',
      'apps.kruise.io/StatefulSet db {"app":"db"}', 'apps.kruise.io/DaemonSet agent {"app":"agent"}',
    ]);
    assert.equal(workloads[0].replicas?.value, 3);
    const model = buildModel([f], DEFAULT_CONFIG);
    const svc = model.services.find((s) => s.name === 'web')!;
    assert.deepEqual(model.selectedWorkloads(svc).map((w) => w.kind), ['Rollout']);
    assert.deepEqual(model.servicesIn('shop').map((s) => s.name), ['web']);
    assert.deepEqual(model.workloadsIn('shop').map((w) => w.name), ['web', 'api', 'db', 'agent']);
    assert.deepEqual(model.namespaces(), ['default', 'shop']);
  });

  it('gives Services paths (selector entries) and workloads the paths of probe and lifecycle subtrees only', () => {
    const f = load(`
      apiVersion: v1
      kind: Service
      metadata: {name: web}
      spec:
        selector:
          app: web
        ports: [{port: 80}]
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
              - name: web
                image: web:1
                ports: [{name: http, containerPort: 8080}]
                readinessProbe:
                  httpGet: {path: /ready, port: http}
                livenessProbe:
                  tcpSocket:
                    port: 8080
                startupProbe:
                  grpc: {port: 9090}
                lifecycle:
                  preStop:
                    httpGet: {port: "admin"}
    `);
    const [svc, deploy] = f.objects;
    assert.equal(at(f, entrySpanAt(svc, 'spec.selector.app')), '6:app: web');
    assert.deepEqual([...deploy.paths!.keys()].filter((k) => !k.includes('#')).every((k) => /(Probe|lifecycle)/.test(k)), true);
    assert.deepEqual(handlerPorts(deploy).map((h) => `${h.handler}.${h.action}=${JSON.stringify(h.port.value)} ${at(f, h.port.span)}`), [
      'livenessProbe.tcpSocket=8080 24:8080',
      'readinessProbe.httpGet="http" 21:http',
      'startupProbe.grpc=9090 26:9090',
      'preStop.httpGet="admin" 29:"admin"',
    ]);
    // The loader read the values off raw; an object without them (from a live cluster) gets the same from raw.
    const w = deploy as WorkloadObject;
    assert.deepEqual(w.pod.handlerPorts, handlerPortValues(w.raw, w.pod));
    const { handlerPorts: _read, ...pod } = w.pod;
    const fromRaw = handlerPorts({ ...w, pod });
    assert.deepEqual(fromRaw.map((h) => [h.container, h.handler, h.action, h.path, h.port.value, h.port.span]), handlerPorts(w).map((h) => [h.container, h.handler, h.action, h.path, h.port.value, h.port.span]));
  });

  it('reads Ingress backends of networking.k8s.io/v1 and the v1beta1 serviceName/servicePort form, default backend first', () => {
    const v1 = only(load(`
      apiVersion: networking.k8s.io/v1
      kind: Ingress
      metadata: {name: shop, namespace: shop}
      spec:
        rules:
          - host: shop.example.com
            http:
              paths:
                - path: /api
                  backend: {service: {name: api, port: {number: 8080}}}
                - path: /
                  backend: {service: {name: web, port: {name: http}}}
                - path: /static
                  backend: {resource: {apiGroup: k8s.example.com, kind: Bucket, name: static}}
        defaultBackend: {service: {name: fallback, port: {number: 80}}}
    `));
    assert.deepEqual(ingressBackends(v1).map((b) => `${b.label}: ${b.service.value} ${b.portField}=${b.port?.value}`), [
      'default backend: fallback number=80',
      'backend of host shop.example.com path /api: api number=8080',
      'backend of host shop.example.com path /: web name=http',
    ]);
    const beta = only(load(`
      apiVersion: extensions/v1beta1
      kind: Ingress
      metadata: {name: old}
      spec:
        backend: {serviceName: web, servicePort: http}
        rules: [{http: {paths: [{path: /, backend: {serviceName: api, servicePort: 80}}]}}]
    `));
    assert.deepEqual(ingressBackends(beta).map((b) => `${b.service.value} ${b.portField}=${b.port?.value}`), ['web servicePort=http', 'api servicePort=80']);
  });

  it('reads Service backendRefs of every Gateway API route kind, with mirrors, cross-namespace refs and a missing port', () => {
    const f = load(`
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: r, namespace: shop}
      spec:
        rules:
          - backendRefs:
              - {name: web, port: 80}
              - name: api
              - {name: other, namespace: backend, port: 9000}
              - {group: multicluster.x-k8s.io, kind: ServiceImport, name: remote, port: 80}
            filters:
              - type: RequestMirror
                requestMirror: {backendRef: {name: shadow, port: 8080}}
      ---
      apiVersion: gateway.networking.k8s.io/v1alpha2
      kind: TCPRoute
      metadata: {name: t, namespace: shop}
      spec: {rules: [{backendRefs: [{name: db, port: "5432"}]}]}
    `);
    const [http, tcp] = f.objects;
    assert.deepEqual(routeBackendRefs(http).map((r) => `${r.label}: ${r.namespace}/${r.name.value}:${r.port?.value ?? '-'}${r.mirror ? ' mirror' : ''}`), [
      'rule #0 requestMirror: shop/shadow:8080 mirror',
      'rule #0 backendRef #0: shop/web:80',
      'rule #0 backendRef #1: shop/api:-',
      'rule #0 backendRef #2: backend/other:9000',
    ]);
    assert.equal(at(f, routeBackendRefs(http)[2].span), '8:name: api');
    assert.deepEqual(routeBackendRefs(tcp).map((r) => [r.name.value, r.port, r.portInvalid]), [['db', undefined, true]]);
  });

  it('reads NetworkPolicy rules, ports (default TCP, endPort) and peers; label selectors match as the API does', () => {
    const pol = only(load(`
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: p}
      spec:
        podSelector: {matchLabels: {app: db}}
        ingress:
          - from: [{podSelector: {matchExpressions: [{key: app, operator: In, values: [api, web]}]}}]
            ports: [{port: postgres}, {protocol: UDP, port: 5000, endPort: 5010}]
        egress:
          - ports: [{port: 53, protocol: UDP}]
    `));
    const view = networkPolicyView(pol)!;
    assert.deepEqual(view.rules.map((r) => `${r.direction}#${r.index} ${r.ports.map((p) => `${p.port?.value}/${p.protocol}${p.endPort ? `-${p.endPort.value}` : ''}`).join(',')} peers=${r.peers?.length ?? 'all'}`), [
      'ingress#0 postgres/TCP,5000/UDP-5010 peers=1',
      'egress#0 53/UDP peers=all',
    ]);
    const peer = view.rules[0].peers![0].podSelector!;
    assert.equal(labelSelectorMatches(peer, { app: 'web' }), true);
    assert.equal(labelSelectorMatches(peer, { app: 'db' }), false);
    assert.equal(labelSelectorMatches(view.podSelector, { app: 'db', tier: 'x' }), true);
    assert.equal(labelSelectorMatches({ matchLabels: {}, matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }, { key: 'b', operator: 'DoesNotExist', values: [] }] }, { a: 'y' }), true);
    assert.equal(labelSelectorMatches({ matchLabels: {}, matchExpressions: [{ key: 'a', operator: 'Exists', values: [] }] }, {}), false);
  });

  it('reads ServiceMonitor and PodMonitor endpoints and namespace selectors', () => {
    const f = load(`
      apiVersion: monitoring.coreos.com/v1
      kind: ServiceMonitor
      metadata: {name: sm, namespace: monitoring}
      spec:
        selector: {matchLabels: {app: web}}
        namespaceSelector: {matchNames: [shop, blog]}
        endpoints: [{port: metrics}, {targetPort: 9100}]
      ---
      apiVersion: monitoring.coreos.com/v1
      kind: PodMonitor
      metadata: {name: pm, namespace: shop}
      spec:
        selector: {matchLabels: {app: web}}
        namespaceSelector: {any: true}
        podMetricsEndpoints: [{port: metrics}, {portNumber: 9100}]
    `);
    const sm = serviceMonitorView(f.objects[0])!;
    assert.deepEqual([sm.namespaces, sm.endpoints.map((e) => e.port?.value ?? e.targetPort?.value)], [{ any: false, names: ['shop', 'blog'] }, ['metrics', 9100]]);
    const pm = podMonitorView(f.objects[1])!;
    assert.deepEqual([pm.namespaces, pm.endpoints.map((e) => e.port?.value ?? e.portNumber?.value)], [{ any: true }, ['metrics', 9100]]);
    assert.equal(serviceMonitorView(f.objects[1]), undefined);
  });

  it('builds the same views for objects read from a live cluster, spans on the fields of the read-only view', () => {
    const ingress = clusterObjectFile({
      apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'shop', namespace: 'shop' },
      spec: { rules: [{ http: { paths: [{ path: '/', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
    }, 'kind-dev')!;
    const at = (text: string, span: Span) => text.slice(span.start, span.end);
    const [b] = ingressBackends(ingress.objects[0]);
    assert.deepEqual([b.service.value, b.port?.value, at(ingress.text, b.service.span), at(ingress.text, b.port!.span)], ['web', 80, 'web', '80']);
    assert.equal(ingress.text.split('\n')[ingress.lines.position(b.port!.span.start).line - 1].trim(), 'number: 80');
    const pod = clusterObjectFile({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' },
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }], readinessProbe: { httpGet: { port: 'http' } } }] },
    }, 'kind-dev')!;
    assert.deepEqual(handlerPorts(pod.objects[0]).map((h) => [h.handler, h.port.value, at(pod.text, h.port.span)]), [['readinessProbe', 'http', 'http']]);
  });
});
