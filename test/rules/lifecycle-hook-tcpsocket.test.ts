import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';
import { fromApiObject } from '../../server/out/core/model/from-api-object';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';

const rules = ['lifecycle-hook-tcpsocket'];
// `lifecycle` lines start at line 14 (indented by 10 spaces); an apps/v1 workload's selector follows them.
const deployment = (lifecycle: string, kind = 'Deployment', apiVersion = 'apps/v1') => `
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
          ports: [{name: http, containerPort: 8080}]
${lifecycle}${apiVersion === 'apps/v1' ? '\n  selector: {matchLabels: {app: web}}' : ''}`;

const POST_START = 'postStart hook of container "web" in Deployment shop/web uses tcpSocket, which the kubelet never runs: the hook fails and the container is killed (FailedPostStartHook), so it restarts forever; use exec with a command, httpGet, or sleep (Kubernetes 1.30+)';
const PRE_STOP = 'preStop hook of container "web" in Deployment shop/web uses tcpSocket, which the kubelet never runs: the hook fails (FailedPreStopHook) and the container is stopped at once, without the delay or drain; use exec with a command, httpGet, or sleep (Kubernetes 1.30+)';

describe('lifecycle-hook-tcpsocket', () => {
  it('is an error at a postStart tcpSocket (the container is killed every start) and a warning at a preStop one', () => {
    const text = deployment([
      '          lifecycle:',
      '            postStart:',
      '              tcpSocket: {port: 8080}',
      '            preStop:',
      '              tcpSocket:',
      '                port: http',
    ].join('\n'));
    const { findings } = lint({ 'd.yaml': text }, { rules });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.file, f.line, f.column, f.text, f.severity, f.object]), [
      ['lifecycle-hook-tcpsocket', 'd.yaml', 16, 15, 'tcpSocket', 'error', 'Deployment shop/web'],
      ['lifecycle-hook-tcpsocket', 'd.yaml', 18, 15, 'tcpSocket', 'warning', 'Deployment shop/web'],
    ]);
    assert.deepEqual(findings.map((f) => f.message), [POST_START, PRE_STOP]);
    assert.ok(findings.every((f) => f.message.length <= 300), 'messages fit');
    assert.deepEqual(findings.map((f) => [f.related, f.fixes]), [[[], []], [[], []]]);
    // The hook's port is never connected to: no port finding for it (a name the container lacks included).
    const named = lint({ 'd.yaml': deployment('          lifecycle:\n            preStop:\n              tcpSocket: {port: admin}') });
    assert.deepEqual(named.findings.map((f) => [f.ruleId, f.line]), [['lifecycle-hook-tcpsocket', 16]]);
  });

  it('checks a CronJob\'s job template, a Pod, a sidecar init container and the other pod workload kinds', () => {
    const cronJob = `
      apiVersion: batch/v1
      kind: CronJob
      metadata: {name: backup, namespace: ops}
      spec:
        schedule: "0 * * * *"
        jobTemplate:
          spec:
            template:
              spec:
                restartPolicy: OnFailure
                containers:
                  - name: dump
                    image: dump:1
                    lifecycle:
                      preStop: {tcpSocket: {port: 5432}}`;
    const cron = lint({ 'c.yaml': cronJob }, { rules }).findings;
    assert.deepEqual(cron.map((f) => [f.line, f.column, f.text, f.severity, f.object]), [[15, 27, 'tcpSocket', 'warning', 'CronJob ops/backup']]);
    assert.equal(cron[0].message, 'preStop hook of container "dump" in CronJob ops/backup uses tcpSocket, which the kubelet never runs: the hook fails (FailedPreStopHook) and the container is stopped at once, without the delay or drain; use exec with a command, httpGet, or sleep (Kubernetes 1.30+)');
    const pod = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers:
          - name: proxy
            image: envoy:1
            restartPolicy: Always
            lifecycle: {postStart: {tcpSocket: {port: 9901}}}
        containers: [{name: web, image: web:1}]`;
    const sidecar = lint({ 'p.yaml': pod }, { rules }).findings;
    assert.deepEqual(sidecar.map((f) => [f.line, f.column, f.text, f.severity]), [[9, 31, 'tcpSocket', 'error']]);
    assert.match(sidecar[0].message, /^postStart hook of container "proxy" in Pod shop\/p uses tcpSocket/);
    const hook = '          lifecycle: {postStart: {tcpSocket: {port: 8080}}}';
    for (const [kind, apiVersion] of [['StatefulSet', 'apps/v1'], ['DaemonSet', 'apps/v1'], ['ReplicaSet', 'apps/v1'], ['Job', 'batch/v1'], ['ReplicationController', 'v1']]) {
      const found = lint({ 'd.yaml': deployment(hook, kind, apiVersion) }, { rules }).findings;
      assert.deepEqual(found.map((f) => [f.line, f.text, f.severity, f.object]), [[14, 'tcpSocket', 'error', `${kind} shop/web`]], kind);
    }
    const template = `
      apiVersion: v1
      kind: PodTemplate
      metadata: {name: t, namespace: shop}
      template:
        spec:
          containers:
            - name: web
              image: web:1
              lifecycle: {preStop: {tcpSocket: {port: 80}}}`;
    assert.deepEqual(lint({ 't.yaml': template }, { rules }).findings.map((f) => [f.line, f.text, f.object]), [[9, 'tcpSocket', 'PodTemplate shop/t']]);
  });

  it('stays silent for exec, httpGet and sleep hooks, probes\' tcpSocket, and tcpSocket under other keys', () => {
    const silent = [
      '          lifecycle:\n            postStart: {exec: {command: [sh, -c, "sleep 1"]}}\n            preStop: {httpGet: {path: /drain, port: http}}',
      '          lifecycle:\n            preStop:\n              sleep: {seconds: 5}',
      '          readinessProbe:\n            tcpSocket: {port: http}\n          livenessProbe: {tcpSocket: {port: 8080}}\n          startupProbe: {tcpSocket: {port: http}}',
      '          env: [{name: tcpSocket, value: "1"}]\n          args: [--lifecycle=tcpSocket]',
    ];
    for (const extra of silent) assert.deepEqual(lint({ 'd.yaml': deployment(extra) }, { rules }).findings, [], extra);
    const annotated = `
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: c, namespace: shop}
      data:
        lifecycle: "postStart: {tcpSocket: {port: 80}}"`;
    assert.deepEqual(lint({ 'c.yaml': annotated }).findings.filter((f) => f.ruleId === rules[0]), []);
  });

  it('leaves out hooks the API server rejects: another handler beside tcpSocket, a plain init container, an invalid port', () => {
    // validateHandler: "may not specify more than 1 handler type".
    const both = deployment('          lifecycle:\n            preStop:\n              exec: {command: [sleep, "5"]}\n              tcpSocket: {port: 8080}');
    assert.deepEqual(lint({ 'd.yaml': both }, { rules }).findings, []);
    // validateInitContainers: lifecycle "may not be set for init containers without restartPolicy=Always".
    const init = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers: [{name: setup, image: setup:1, lifecycle: {postStart: {tcpSocket: {port: 80}}}}]
        containers: [{name: web, image: web:1}]`;
    const initFindings = lint({ 'p.yaml': init }).findings;
    assert.deepEqual(initFindings.filter((f) => f.ruleId === rules[0]), []);
    assert.deepEqual(initFindings.map((f) => f.ruleId), ['pod-spec-invalid']);
    // validateTCPSocketAction checks a hook's tcpSocket.port as a probe's: a quoted number is an invalid port name.
    const quoted = lint({ 'd.yaml': deployment('          lifecycle:\n            postStart: {tcpSocket: {port: "8080"}}') }).findings;
    assert.deepEqual(quoted.map((f) => [f.ruleId, f.line, f.text]), [['pod-spec-invalid', 15, '"8080"']]);
    // The hook's long API path leaves no room for "which the API reads as a port name" within 300 characters.
    assert.equal(quoted[0].message, 'postStart hook port "8080" of container "web" is a quoted number: the API server rejects Deployment shop/web with "spec.template.spec.containers[0].lifecycle.postStart.tcpSocket.port: Invalid value: "8080": must contain at least one letter (a-z)"; remove the quotes');
  });

  it('checks objects of a live cluster too', () => {
    const pod = fromApiObject({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' },
      spec: { containers: [{ name: 'c', image: 'c:1', lifecycle: { preStop: { tcpSocket: { port: 80 } } } }] },
    }, 'kind-dev')!;
    const analysis = analyze([], DEFAULT_CONFIG, { extraObjects: [pod] });
    const found = analysis.findings.filter((f) => f.ruleId === 'lifecycle-hook-tcpsocket');
    assert.deepEqual(found.map((f) => [f.span.file, f.severity]), [['cluster:kind-dev/Pod/shop/p', 'warning']]);
  });
});
