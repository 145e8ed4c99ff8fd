import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['container-port-duplicate'];
const pod = (spec: string) => `
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
${spec}`;

describe('container-port-duplicate', () => {
  it('flags the same containerPort/protocol in two containers at the second one, naming both containers', () => {
    const { findings } = lint(pod(`  containers:
    - name: app
      ports:
        - containerPort: 8080
    - name: proxy
      ports:
        - containerPort: 8080
          protocol: TCP`), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [13, 26, '8080', 'warning', 'Pod shop/web']);
    assert.match(f.message, /^containerPort 8080\/TCP of container "proxy" is also declared by container "app" of Pod shop\/web: the containers share one network namespace/);
    assert.match(f.message, /second fails \("address already in use"\); change one of the ports$/);
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[10, 'containerPort 8080/TCP of container "app"']]);
  });

  it('counts restartable init containers (sidecars) as running with the app containers', () => {
    const { findings } = lint(pod(`  initContainers:
    - name: mesh
      restartPolicy: Always
      ports: [{containerPort: 15000}]
  containers:
    - name: app
      ports: [{containerPort: 15000}]`), { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].line, 13);
    assert.match(findings[0].message, /container "app" is also declared by sidecar \(restartable init container\) "mesh"/);
  });

  it('flags a plain init container that reuses the port of a sidecar started before it', () => {
    const { findings } = lint(pod(`  initContainers:
    - name: mesh
      restartPolicy: Always
      ports: [{containerPort: 15000}]
    - name: migrate
      ports: [{containerPort: 15000}]
  containers:
    - name: app`), { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /init container "migrate" is also declared by sidecar/);
  });

  it('stays silent for plain init containers against app containers and each other, and for other protocols', () => {
    const { findings } = lint(pod(`  initContainers:
    - name: wait
      ports: [{containerPort: 8080}]
    - name: seed
      ports: [{containerPort: 8080}]
  containers:
    - name: app
      ports: [{containerPort: 8080}]
    - name: dns
      ports: [{containerPort: 53, protocol: UDP}]
    - name: dns-tcp
      ports: [{containerPort: 53, protocol: TCP}]`), { rules });
    assert.deepEqual(findings, []);
  });

  it('flags the same port listed twice in one container as a listing mistake', () => {
    const { findings } = lint(pod(`  containers:
    - name: dns
      ports:
        - {name: dns, containerPort: 53, protocol: UDP}
        - {name: dns-tcp, containerPort: 53, protocol: UDP}`), { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].line, 11);
    assert.match(findings[0].message, /^containerPort 53\/UDP is listed twice in container "dns" of Pod shop\/web: the API server warns "duplicate port definition"/);
  });

  it('leaves one containerPort published on two different hostPorts alone', () => {
    const { findings } = lint(pod(`  containers:
    - name: web
      ports:
        - {containerPort: 80, hostPort: 80}
        - {containerPort: 80, hostPort: 8080}`), { rules });
    assert.deepEqual(findings, []);
  });

  it('leaves duplicate host-level keys (API "Duplicate value") to hostport-conflict', () => {
    const hostNet = pod(`  hostNetwork: true
  containers:
    - name: a
      ports: [{containerPort: 9100}]
    - name: b
      ports: [{containerPort: 9100}]`);
    const sameHostPort = pod(`  containers:
    - name: a
      ports: [{containerPort: 80, hostPort: 80}]
    - name: b
      ports: [{containerPort: 80, hostPort: 80}]`);
    assert.deepEqual(lint(hostNet, { rules }).findings, []);
    assert.deepEqual(lint(sameHostPort, { rules }).findings, []);
  });

  it('points at the second container\'s name when both share one port list through a YAML alias', () => {
    const { findings } = lint(pod(`  containers:
    - &app
      name: api
      ports: [{containerPort: 8080}]
    - <<: *app
      name: api-debug`), { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].line, findings[0].text], [12, 'api-debug']);
    assert.deepEqual(findings[0].related.map((r) => r.line), [10]);
    assert.match(findings[0].message, /\(both get it from one YAML alias\)$/);
  });

  it('works for every workload kind (a CronJob template)', () => {
    const { findings } = lint(`
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: ops}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - {name: a, ports: [{containerPort: 9000}]}
            - {name: b, ports: [{containerPort: 9000}]}`, { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].line, 13);
    assert.match(findings[0].message, /CronJob ops\/report/);
  });
});
