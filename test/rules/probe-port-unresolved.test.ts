import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';
import { fromApiObject } from '../../server/out/core/model/from-api-object';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';

const rules = ['probe-port-unresolved'];
// The container's ports are on line 13; `probe` lines start at line 15 (indented by 10 spaces); an apps/v1
// workload's selector comes last.
const deployment = (probe: string, ports = '[{name: http, containerPort: 8080}]', extra = '', kind = 'Deployment', apiVersion = 'apps/v1') => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: web
  namespace: shop
spec:
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: ${ports}
          # probes
${probe}${extra}${apiVersion === 'apps/v1' ? '\n  selector: {matchLabels: {app: web}}' : ''}`;

describe('probe-port-unresolved', () => {
  it('is an error at a readiness probe naming a port the container does not declare, saying what it declares and what the kubelet does', () => {
    const { findings } = lint({ 'd.yaml': deployment('          readinessProbe:\n            httpGet: {path: /ready, port: https}') }, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['d.yaml', 16, 43, 'https', 'error', 'Deployment shop/web']);
    assert.equal(f.message, 'readinessProbe port "https" of container "web" in Deployment shop/web is not one of its ports (it declares http (8080)): the kubelet logs "probe errored" every period and discards the result: the Pod never becomes Ready; use one of its ports');
    assert.deepEqual(f.related, []);
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Use the container\'s only port "http"', undefined]]);
    assert.match(applyEdits(dedent(deployment('          readinessProbe:\n            httpGet: {path: /ready, port: https}')), f.fixes[0].edits), /httpGet: \{path: \/ready, port: http\}/);
  });

  it('reports liveness (tcpSocket), startup and postStart / preStop hooks with their own consequence', () => {
    const probes = [
      '          livenessProbe:\n            tcpSocket:\n              port: admin',
      '          startupProbe:\n            httpGet: {port: admin}',
      '          lifecycle:\n            postStart:\n              httpGet: {port: admin}\n            preStop:\n              httpGet: {port: admin}',
    ].join('\n');
    const { findings } = lint({ 'd.yaml': deployment(probes, '[{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]') }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.message.replace(/^.* is not one of its ports \(it declares http \(8080\), metrics \(9090\)\): /, '')]), [
      [17, 'the kubelet logs "probe errored" every period and discards the result: liveness never restarts the container; use one of its ports'],
      [19, 'the kubelet logs "probe errored" every period and discards the result: the container never starts up, so it is never Ready; use one of its ports'],
      [22, 'the hook fails and the kubelet kills the container (FailedPostStartHook), so it restarts forever; use one of its ports'],
      [24, 'the hook fails (FailedPreStopHook) and the container is stopped without it; use one of its ports'],
    ]);
    assert.deepEqual(findings.map((f) => f.message.slice(0, 22)), ['livenessProbe port "ad', 'startupProbe port "adm', 'postStart hook port "a', 'preStop hook port "adm']);
    // Two ports: no guess.
    assert.deepEqual(findings.map((f) => f.fixes.length), [0, 0, 0, 0]);
  });

  it('names the other container that declares the port and fixes the probe to its number (probes reach the Pod IP)', () => {
    const sidecar = '\n        - name: proxy\n          image: envoy:1\n          ports: [{name: admin, containerPort: 9901}]\n';
    const text = deployment('          livenessProbe:\n            httpGet: {port: admin}', '[]', sidecar);
    const { findings } = lint({ 'd.yaml': text }, { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].message, 'livenessProbe port "admin" of container "web" in Deployment shop/web is not one of its ports (it declares none): the kubelet logs "probe errored" every period and discards the result: liveness never restarts the container; use container "proxy"\'s number 9901 (names resolve per container)');
    assert.deepEqual(findings[0].related.map((r) => [r.line, r.message]), [[19, 'port "admin" of container "proxy"']]);
    assert.deepEqual(findings[0].fixes.map((x) => [x.title, x.preferred]), [['Probe port 9901 (the number of "admin" in its container)', true]]);
    assert.match(applyEdits(dedent(text), findings[0].fixes[0].edits), /httpGet: \{port: 9901\}/);
  });

  it('stays silent for declared names, numeric ports, grpc, exec probes and quoted numbers (pod-spec-invalid reports those)', () => {
    const silent = [
      '          readinessProbe:\n            httpGet: {port: http}',
      '          livenessProbe:\n            tcpSocket: {port: 9999}',
      '          startupProbe:\n            grpc: {port: 9090}',
      '          readinessProbe:\n            exec: {command: [true]}',
      '          livenessProbe:\n            httpGet: {port: "8080"}',
    ];
    for (const probe of silent) assert.deepEqual(lint({ 'd.yaml': deployment(probe) }, { rules }).findings, [], probe);
  });

  it('checks every workload kind, sidecars included, and CRD workloads (Argo Rollouts)', () => {
    const pod = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers:
          - name: proxy
            image: envoy:1
            restartPolicy: Always
            readinessProbe: {tcpSocket: {port: admin}}
        containers: [{name: web, image: web:1, ports: [{name: admin, containerPort: 9901}]}]`;
    const found = lint({ 'p.yaml': pod }, { rules }).findings;
    assert.deepEqual(found.map((f) => [f.line, f.fixes[0]?.title]), [[9, 'Probe port 9901 (the number of "admin" in its container)']]);
    const rollout = lint({ 'r.yaml': deployment('          readinessProbe: {httpGet: {port: web}}', undefined, '', 'Rollout', 'argoproj.io/v1alpha1') }, { rules }).findings;
    assert.deepEqual(rollout.map((f) => f.object), ['Rollout shop/web']);
  });

  it('counts ports a kustomize patch adds to the container, and does not judge the patch on its own', () => {
    const files = {
      'base/kustomization.yaml': 'resources: [d.yaml]\n',
      'base/d.yaml': deployment('          readinessProbe: {httpGet: {port: metrics}}'),
      'prod/kustomization.yaml': 'resources: [../base]\npatchesStrategicMerge: [p.yaml]\n',
      'prod/p.yaml': deployment('          livenessProbe: {httpGet: {port: http}}', '[{name: metrics, containerPort: 9090}]'),
    };
    assert.deepEqual(lint(files, { rules }).findings, []);
    const { ['prod/p.yaml']: _p, ...unpatched } = files;
    assert.deepEqual(lint({ ...unpatched, 'prod/kustomization.yaml': 'resources: [../base]\n' }, { rules }).findings.map((f) => f.text), ['metrics']);
  });

  it('checks objects of a live cluster too (no fix: there is no text to edit)', () => {
    const pod = fromApiObject({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' },
      spec: { containers: [{ name: 'c', image: 'c:1', ports: [{ name: 'web', containerPort: 80 }], readinessProbe: { httpGet: { port: 'http' } } }] },
    }, 'kind-dev')!;
    const analysis = analyze([], DEFAULT_CONFIG, { extraObjects: [pod] });
    const found = analysis.findings.filter((f) => f.ruleId === 'probe-port-unresolved');
    assert.deepEqual(found.map((f) => [f.span.file, f.fixes.length]), [['cluster:kind-dev/Pod/shop/p', 0]]);
  });
});
