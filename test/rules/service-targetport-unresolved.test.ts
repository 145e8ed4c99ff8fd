import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['service-targetport-unresolved'];
// Line 10 holds the Service's (first) targetPort.
const service = (targetPort: string, protocol = 'TCP', ns = 'app') => `
apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: ${ns}
spec:
  selector: {app: api}
  ports:
    - name: web
      targetPort: ${targetPort}
      port: 443
      protocol: ${protocol}`;
const deployment = (name: string, ports: string, kind = 'Deployment', extra = '') => `
apiVersion: apps/v1
kind: ${kind}
metadata:
  name: ${name}
  namespace: app
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata:
      labels: {app: api, tier: ${name}}
    spec:
${extra}      containers:
        - name: main
          image: example/api:1
          ports:
${ports}`;

describe('service-targetport-unresolved', () => {
  it('is an error at the targetPort when no selected workload declares the name, naming the workload and what it declares', () => {
    const { findings } = lint({ 'svc.yaml': service('https'), 'deploy.yaml': deployment('api', '            - {name: metrics, containerPort: 8080}') }, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['svc.yaml', 10, 19, 'https', 'error', 'Service app/api']);
    assert.match(f.message, /^targetPort "https" \(TCP\) of port "web" in Service app\/api is not declared by any container of Deployment app\/api \(it declares metrics\/TCP\): no Pod gets an endpoint/);
    assert.deepEqual(f.related.map((r) => [r.file, r.line, r.message]), [['deploy.yaml', 4, 'Deployment app/api declares metrics/TCP']]);
  });

  it('requires the protocol to match too', () => {
    const { findings } = lint({ 'svc.yaml': service('dns', 'UDP'), 'deploy.yaml': deployment('api', '            - {name: dns, containerPort: 53}') }, { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /targetPort "dns" \(UDP\) .* \(it declares dns\/TCP\)/);
  });

  it('is a warning naming only the workloads that lack the port when some declare it', () => {
    const { findings } = lint(
      {
        'svc.yaml': service('https'),
        'good.yaml': deployment('good', '            - {name: https, containerPort: 8443}'),
        'bad.yaml': deployment('canary', '            - {name: http, containerPort: 8080}', 'StatefulSet'),
      },
      { rules },
    );
    assert.equal(findings.length, 1);
    assert.equal(findings[0].severity, 'warning');
    assert.match(findings[0].message, /is not declared by StatefulSet app\/canary \(the Service also selects Deployment app\/good, which declares it\)/);
    assert.deepEqual(findings[0].related.map((r) => r.file), ['bad.yaml']);
  });

  it('counts restartable init containers (sidecars) but not plain init containers', () => {
    const sidecar = (policy: string) => `      initContainers:\n        - name: proxy\n          image: example/proxy:1\n${policy}          ports:\n            - {name: https, containerPort: 8443}\n`;
    const withSidecar = lint({ 'svc.yaml': service('https'), 'd.yaml': deployment('api', '            - {name: metrics, containerPort: 8080}', 'Deployment', sidecar('          restartPolicy: Always\n')) }, { rules });
    assert.deepEqual(withSidecar.findings, []);
    const withInit = lint({ 'svc.yaml': service('https'), 'd.yaml': deployment('api', '            - {name: metrics, containerPort: 8080}', 'Deployment', sidecar('')) }, { rules });
    assert.equal(withInit.findings.length, 1);
  });

  it('stays silent when the name is declared, for numeric targetPorts, and when the selector matches nothing here', () => {
    assert.deepEqual(lint({ 'svc.yaml': service('https'), 'd.yaml': deployment('api', '            - {name: https, containerPort: 8443}') }, { rules }).findings, []);
    assert.deepEqual(lint({ 'svc.yaml': service('8443'), 'd.yaml': deployment('api', '            - {name: metrics, containerPort: 8080}') }, { rules }).findings, []);
    assert.deepEqual(lint({ 'svc.yaml': service('https') }, { rules }).findings, []);
    // Same labels in another namespace are not selected.
    assert.deepEqual(lint({ 'svc.yaml': service('https', 'TCP', 'other'), 'd.yaml': deployment('api', '            - {name: metrics, containerPort: 8080}') }, { rules }).findings, []);
  });

  it('ignores kustomize patches of a workload (partial container lists)', () => {
    const files = {
      'base/kustomization.yaml': 'resources: [svc.yaml, deploy.yaml]\n',
      'base/svc.yaml': service('https'),
      'base/deploy.yaml': deployment('api', '            - {name: https, containerPort: 8443}'),
      'prod/kustomization.yaml': 'resources: [../base]\npatchesStrategicMerge: [image.yaml]\n',
      'prod/image.yaml': deployment('api', '            - {name: debug, containerPort: 2345}'),
    };
    assert.deepEqual(lint(files, { rules }).findings, []);
    // Without the kustomization the second file is a Deployment of its own that lacks the port.
    const { ['prod/kustomization.yaml']: _k, ...noKustomize } = files;
    assert.deepEqual(lint(noKustomize, { rules }).findings.map((f) => f.severity), ['warning']);
  });

  it('works for every workload kind: a CronJob template selected by a Service', () => {
    const cron = `
      apiVersion: batch/v1beta1
      kind: CronJob
      metadata: {name: report, namespace: app}
      spec:
        schedule: "0 * * * *"
        jobTemplate:
          spec:
            template:
              metadata: {labels: {app: api}}
              spec:
                containers:
                  - name: r
                    image: example/r:1
                    ports: [{name: http, containerPort: 80}]`;
    const { findings } = lint({ 'svc.yaml': service('https'), 'cron.yaml': cron }, { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /CronJob app\/report \(it declares http\/TCP\)/);
  });
});
