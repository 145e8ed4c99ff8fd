import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

// validateInitContainers forbids probes and lifecycle on an init container without restartPolicy: Always.
const FORBIDDEN = 'Forbidden: may not be set for init containers without restartPolicy=Always';
const view = (files: Record<string, string> | string) => lint(files).findings.map((f) => [f.ruleId, f.line, f.column, f.text]);

describe('pod-spec-invalid: probes and lifecycle hooks on plain init containers', () => {
  it('rejects a readinessProbe on an init container at its key, and probe-port-unresolved says nothing of its port', () => {
    const text = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        initContainers:
        - {name: init, image: x, readinessProbe: {httpGet: {port: nope}}}
        containers: [{name: app, image: x}]`;
    const { findings } = lint(text);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.line, f.column, f.text, f.object]), [['pod-spec-invalid', 'error', 6, 28, 'readinessProbe', 'Pod default/p']]);
    assert.equal(findings[0].message, `readinessProbe is not allowed on init container "init": the API server rejects Pod default/p with "spec.initContainers[0].readinessProbe: ${FORBIDDEN}"; remove it, or set restartPolicy: Always if the container keeps running (a sidecar)`);
  });

  it('rejects each of lifecycle, livenessProbe, readinessProbe and startupProbe, whatever their handler, with the template path', () => {
    const text = `
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            initContainers:
              - {name: first, image: x}
              - name: migrate
                image: x
                ports: [{name: http, containerPort: 8080}]
                livenessProbe: {exec: {command: ["true"]}}
                readinessProbe: {httpGet: {port: http}}
                startupProbe: {tcpSocket: {port: HTTP}}
                lifecycle:
                  preStop: {httpGet: {port: 8080}}
            containers: [{name: app, image: x}]`;
    const { findings } = lint(text);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.text]), [
      ['pod-spec-invalid', 14, 'livenessProbe'],
      ['pod-spec-invalid', 15, 'readinessProbe'],
      ['pod-spec-invalid', 16, 'startupProbe'],
      ['pod-spec-invalid', 17, 'lifecycle'],
    ]);
    // The invalid port name HTTP inside a forbidden probe is not validated (the API server does not look inside).
    assert.deepEqual(findings.map((f) => /"(spec\.[^:]+): Forbidden/.exec(f.message)?.[1]), [
      'spec.template.spec.initContainers[1].livenessProbe',
      'spec.template.spec.initContainers[1].readinessProbe',
      'spec.template.spec.initContainers[1].startupProbe',
      'spec.template.spec.initContainers[1].lifecycle',
    ]);
    assert.match(findings[3].message, /^lifecycle is not allowed on init container "migrate": the API server rejects Deployment shop\/web with /);
  });

  it('stays silent for sidecars (restartPolicy: Always), regular containers, and probes written as null', () => {
    const text = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers:
          - name: proxy
            image: envoy:1
            restartPolicy: Always
            ports: [{name: admin, containerPort: 9901}]
            readinessProbe: {tcpSocket: {port: admin}}
            lifecycle: {preStop: {httpGet: {port: admin}}}
          - name: init
            image: x
            readinessProbe: ~
            livenessProbe:
        containers:
          - name: web
            image: web:1
            ports: [{name: http, containerPort: 8080}]
            readinessProbe: {httpGet: {port: http}}
            lifecycle: {postStart: {httpGet: {port: http}}}`;
    assert.deepEqual(view(text), []);
    // A sidecar's unresolved probe port is still probe-port-unresolved's (the API server accepts the Pod).
    assert.deepEqual(view(text.replace('{tcpSocket: {port: admin}}', '{tcpSocket: {port: stats}}')), [['probe-port-unresolved', 10, 42, 'stats']]);
  });

  it('takes part in no other check: a Service selecting the rejected Pod is not told its targetPort is missing', () => {
    const pod = (init: string) => `
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop, labels: {app: web}}
      spec:
        initContainers: [{name: init, image: x${init}}]
        containers: [{name: web, image: x, ports: [{name: http, containerPort: 8080}]}]`;
    const svc = `
      apiVersion: v1
      kind: Service
      metadata: {name: web, namespace: shop}
      spec:
        selector: {app: web}
        ports: [{port: 80, targetPort: metrics}]`;
    assert.deepEqual(view({ 'p.yaml': pod(''), 's.yaml': svc }).map(([id]) => id), ['service-targetport-unresolved']);
    assert.deepEqual(view({ 'p.yaml': pod(', startupProbe: {tcpSocket: {port: 9}}'), 's.yaml': svc }), [['pod-spec-invalid', 5, 43, 'startupProbe']]);
  });

  it('reports a probe brought in by a merge key at the container that uses it, and none in a kustomize patch', () => {
    const text = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        containers:
          - name: app
            image: x
            <<: &probe {readinessProbe: {tcpSocket: {port: 80}}}
        initContainers:
          - name: init
            image: x
            <<: *probe`;
    assert.deepEqual(view(text), [['pod-spec-invalid', 12, 11, '*probe']]);
    const patch = `
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        template:
          spec:
            initContainers:
              - name: proxy
                readinessProbe: {tcpSocket: {port: 9901}}`;
    const files = {
      'base/kustomization.yaml': 'resources: [d.yaml]\n',
      'base/d.yaml': `
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              initContainers: [{name: proxy, image: envoy:1, restartPolicy: Always}]
              containers: [{name: web, image: x}]`,
      'prod/kustomization.yaml': 'resources: [../base]\npatches: [{path: p.yaml}]\n',
      'prod/p.yaml': patch,
    };
    assert.deepEqual(lint(files, { rules: ['pod-spec-invalid'] }).findings, []);
    // The same text outside a kustomization is a whole object: rejected (for its missing selector too).
    assert.deepEqual(lint({ 'p.yaml': patch }, { rules: ['pod-spec-invalid'] }).findings.map((f) => [f.line, f.text]), [[3, 'web'], [9, 'readinessProbe']]);
  });
});
