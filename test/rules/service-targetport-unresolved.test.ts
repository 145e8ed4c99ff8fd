import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

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
  it('leaves out what the pod template declares when long names leave no room (its related location says it)', () => {
    const long = (text: string) => text.replace(/namespace: app\b/g, 'namespace: experimentation-platform').replace('name: api\n', 'name: recommendations-processor-9\n');
    const svc = long(service('9000'));
    const deploy = long(deployment('recommendations-processor-9', '            - {name: http, containerPort: 8080}'));
    const { findings } = lint({ 'svc.yaml': svc, 'deploy.yaml': deploy }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.message]), [[10, 'targetPort 9000/TCP of port "web" in Service experimentation-platform/recommendations-processor-9 is not a containerPort of Deployment experimentation-platform/recommendations-processor-9: traffic goes to 9000 on the Pods and is refused unless something listens there; use a declared port']]);
    assert.deepEqual(findings[0].related.map((r) => r.message), ['Deployment experimentation-platform/recommendations-processor-9 declares 8080/TCP']);
  });

  it('is an error at the targetPort when no selected workload declares the name, naming the workload and what it declares', () => {
    const { findings } = lint({ 'svc.yaml': service('https'), 'deploy.yaml': deployment('api', '            - {name: metrics, containerPort: 8080}') }, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['svc.yaml', 10, 19, 'https', 'error', 'Service app/api']);
    assert.equal(f.message, 'targetPort "https" (TCP) of port "web" in Service app/api is not declared by any container of Deployment app/api (it declares metrics/TCP): no Pod gets an endpoint for it, so connections fail; rename one of them to match');
    assert.deepEqual(f.related.map((r) => [r.file, r.line, r.message]), [['deploy.yaml', 4, 'Deployment app/api declares metrics/TCP']]);
  });

  it('requires the protocol to match too: when only the protocol differs, it says to set it on the Service port and the fix does', () => {
    const text = service('dns', 'UDP');
    const { findings } = lint({ 'svc.yaml': text, 'deploy.yaml': deployment('api', '            - {name: dns, containerPort: 53}') }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.text, f.severity]), [[10, 'dns', 'error']]);
    assert.equal(findings[0].message, 'targetPort "dns" (UDP) of port "web" in Service app/api matches the name, not the protocol, of port dns/TCP in Deployment app/api: endpoints need both, so no Pod gets one and connections fail; set protocol: TCP on the Service port');
    assert.deepEqual(findings[0].fixes.map((f) => [f.title, f.preferred]), [['Set protocol: TCP on the Service port', true]]);
    const fixed = applyEdits(dedent(text), findings[0].fixes[0].edits);
    assert.match(fixed, /port: 443\n {6}protocol: TCP$/);
    assert.deepEqual(lint({ 'svc.yaml': fixed, 'deploy.yaml': deployment('api', '            - {name: dns, containerPort: 53}') }, { rules }).findings, []);
  });

  it('says the protocol is the default when it is not written, and adds the key before a block-style one', () => {
    const text = service('dns').replace('\n      protocol: TCP', '');
    const deploy = deployment('api', '            - {name: dns, containerPort: 53, protocol: UDP}');
    const { findings } = lint({ 'svc.yaml': text, 'deploy.yaml': deploy }, { rules });
    assert.equal(findings[0].message, 'targetPort "dns" (TCP, the default) of port "web" in Service app/api matches the name, not the protocol, of port dns/UDP in Deployment app/api: endpoints need both, so no Pod gets one and connections fail; set protocol: UDP on the Service port');
    const fixed = applyEdits(dedent(text), findings[0].fixes[0].edits);
    assert.match(fixed, /- name: web\n {6}protocol: UDP\n {6}targetPort: dns\n/);
    assert.deepEqual(lint({ 'svc.yaml': fixed, 'deploy.yaml': deploy }, { rules }).findings, []);
    // A flow-style port entry gets the same words, without a fix.
    const flow = `
      apiVersion: v1
      kind: Service
      metadata: {name: api, namespace: app}
      spec:
        selector: {app: api}
        ports: [{name: dns, port: 53, targetPort: dns}]`;
    const inFlow = lint({ 'svc.yaml': flow, 'deploy.yaml': deploy }, { rules }).findings;
    assert.deepEqual(inFlow.map((f) => [f.line, f.fixes.length]), [[6, 0]]);
    assert.match(inFlow[0].message, /set protocol: UDP on the Service port$/);
  });

  it('keeps "rename one of them" when the name is missing, or declared under two other protocols', () => {
    const twoContainers = `${deployment('api', '            - {name: dns, containerPort: 53, protocol: UDP}')}
        - name: side
          image: x
          ports: [{name: dns, containerPort: 53, protocol: SCTP}]`;
    for (const deploy of [deployment('api', '            - {name: domain, containerPort: 53, protocol: UDP}'), twoContainers]) {
      const { findings } = lint({ 'svc.yaml': service('dns'), 'deploy.yaml': deploy }, { rules });
      assert.deepEqual(findings.map((f) => [f.line, f.fixes.length]), [[10, 0]]);
      assert.match(findings[0].message, /is not declared by any container of Deployment app\/api \(it declares .*\): no Pod gets an endpoint for it, so connections fail; rename one of them to match$/);
    }
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
    // The workload lacking it declares the name under another protocol: it is told which protocol to declare.
    const udp = lint({
      'svc.yaml': service('https'),
      'good.yaml': deployment('good', '            - {name: https, containerPort: 8443}'),
      'bad.yaml': deployment('canary', '            - {name: https, containerPort: 8443, protocol: UDP}', 'StatefulSet'),
    }, { rules }).findings;
    assert.deepEqual(udp.map((f) => [f.severity, f.message, f.fixes.length]), [['warning', 'targetPort "https" (TCP) of port "web" in Service app/api is not declared by StatefulSet app/canary (only as https/UDP) (the Service also selects Deployment app/good, which declares it): those Pods get no endpoint for this port; declare it there too with protocol TCP', 0]]);
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
    assert.deepEqual(lint({ 'svc.yaml': service('8443'), 'd.yaml': deployment('api', '            - {name: https, containerPort: 8443}') }, { rules }).findings, []);
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

  it('leaves out Helm hooks (chart test Pods carry the app labels but are not lasting backends)', () => {
    const testPod = `
      apiVersion: v1
      kind: Pod
      metadata:
        name: api-test
        namespace: app
        labels: {app: api}
        annotations: {helm.sh/hook: test}
      spec:
        containers: [{name: curl, image: curl:8, ports: [{containerPort: 9999}]}]`;
    const files = { 'svc.yaml': service('https'), 'd.yaml': deployment('api', '            - {name: https, containerPort: 8443}'), 'test.yaml': testPod };
    assert.deepEqual(lint(files, { rules }).findings, []);
    assert.deepEqual(lint({ ...files, 'test.yaml': testPod.replace('annotations: {helm.sh/hook: test}', 'annotations: {}') }, { rules }).findings.map((f) => f.severity), ['warning']);
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

  describe('numeric targetPorts', () => {
    const svcNoTarget = (ports: string) => `
      apiVersion: v1
      kind: Service
      metadata: {name: api, namespace: app}
      spec:
        selector: {app: api}
        ports:
${ports}`;

    it('warns at a numeric targetPort no selected container declares, naming what they declare, with a fix to the only declared port', () => {
      const files = { 'svc.yaml': service('8443'), 'd.yaml': deployment('api', '            - {name: metrics, containerPort: 8080}') };
      const { findings } = lint(files, { rules });
      assert.equal(findings.length, 1);
      const f = findings[0];
      assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['svc.yaml', 10, 19, '8443', 'warning', 'Service app/api']);
      assert.equal(f.message, 'targetPort 8443/TCP of port "web" in Service app/api is not a containerPort of Deployment app/api (it declares 8080/TCP): traffic goes to 8443 on the Pods and is refused unless something listens there; use a declared port');
      assert.deepEqual(f.related.map((r) => [r.file, r.line, r.message]), [['d.yaml', 4, 'Deployment app/api declares 8080/TCP']]);
      assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Set targetPort to 8080 (containerPort "metrics" of Deployment app/api, container main)', false]]);
      const fixed = applyEdits(dedent(files['svc.yaml']), f.fixes[0].edits);
      assert.match(fixed, /targetPort: 8080\n {6}port: 443/);
      assert.deepEqual(lint({ ...files, 'svc.yaml': fixed }, { rules }).findings, []);
    });

    it('treats a missing targetPort as the port (the API default) and inserts targetPort, preferring the container port named like the Service port', () => {
      const text = svcNoTarget('          - name: http # public\n            port: 80\n            protocol: TCP');
      const files = { 'svc.yaml': text, 'd.yaml': deployment('api', '            - {name: metrics, containerPort: 9090}\n            - {name: http, containerPort: 8080}') };
      const { findings } = lint(files, { rules });
      assert.equal(findings.length, 1);
      const f = findings[0];
      assert.deepEqual([f.line, f.text, f.severity], [8, '80', 'warning']);
      assert.equal(f.message, 'port "http" of Service app/api has no targetPort, so it sends to Pod port 80/TCP, which Deployment app/api does not declare (it declares 9090/TCP, 8080/TCP): traffic is refused unless something listens there; set targetPort');
      assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Set targetPort to 8080 (containerPort "http" of Deployment app/api, container main)', true]]);
      const fixed = applyEdits(dedent(text), f.fixes[0].edits);
      assert.equal(fixed.split('\n').slice(6).join('\n'), '    - name: http # public\n      targetPort: 8080\n      port: 80\n      protocol: TCP');
      assert.deepEqual(lint({ ...files, 'svc.yaml': fixed }, { rules }).findings, []);
    });

    it('offers no fix when several ports could be meant, and compares the protocol', () => {
      const two = lint({ 'svc.yaml': service('8443'), 'd.yaml': deployment('api', '            - {containerPort: 8080}\n            - {containerPort: 9090}') }, { rules });
      assert.deepEqual(two.findings.map((f) => [f.severity, f.fixes.length]), [['warning', 0]]);
      const udp = lint({ 'svc.yaml': service('53', 'UDP'), 'd.yaml': deployment('api', '            - {name: dns, containerPort: 53}') }, { rules });
      assert.deepEqual(udp.findings.map((f) => f.message), ['targetPort 53/UDP of port "web" in Service app/api is not a containerPort of Deployment app/api (it declares 53/TCP): traffic goes to 53 on the Pods and is refused unless something listens there; use a declared port']);
    });

    it('stays silent when the containers declare no ports, when one selected workload declares it, and across namespaces', () => {
      assert.deepEqual(lint({ 'svc.yaml': service('8443'), 'd.yaml': deployment('api', '            []') }, { rules }).findings, []);
      assert.deepEqual(lint({ 'svc.yaml': svcNoTarget('          - port: 8080'), 'd.yaml': deployment('api', '            - {containerPort: 8080}') }, { rules }).findings, []);
      const mixed = { 'svc.yaml': service('8443'), 'a.yaml': deployment('api', '            - {containerPort: 8443}'), 'b.yaml': deployment('canary', '            - {containerPort: 9000}', 'StatefulSet') };
      assert.deepEqual(lint(mixed, { rules }).findings, []);
      assert.deepEqual(lint({ 'svc.yaml': service('8443', 'TCP', 'other'), 'd.yaml': deployment('api', '            - {containerPort: 8080}') }, { rules }).findings, []);
    });

    it('stays silent when any container of the pod declares no ports (the app may listen there), and never fixes to a sidecar port of another name', () => {
      // An app container without ports beside a cloud-sql-proxy sidecar that declares its metrics port.
      const sidecar = `
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: app, namespace: app}
        spec:
          selector: {matchLabels: {app: api}}
          template:
            metadata: {labels: {app: api}}
            spec:
              containers:
                - name: app
                  image: example/app:1
                - name: cloud-sql-proxy
                  image: gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.0
                  ports: [{name: metrics, containerPort: 9090}]`;
      const svc = svcNoTarget('          - {name: http, port: 80, targetPort: 8080}');
      assert.deepEqual(lint({ 'svc.yaml': svc, 'd.yaml': sidecar }, { rules }).findings, []);
      // No targetPort at all (sends to port 80): still silent.
      assert.deepEqual(lint({ 'svc.yaml': svcNoTarget('          - {name: http, port: 80}'), 'd.yaml': sidecar }, { rules }).findings, []);
      // Both containers declare ports, none 8080: a warning, but no fix to the sidecar's "metrics" 9090.
      const both = sidecar.replace('image: example/app:1', 'image: example/app:1\n                  ports: [{name: admin, containerPort: 8081}]');
      const { findings } = lint({ 'svc.yaml': svc, 'd.yaml': both }, { rules });
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text, f.severity]), [['svc.yaml', 7, '8080', 'warning']]);
      assert.equal(findings[0].message, 'targetPort 8080/TCP of port "http" in Service app/api is not a containerPort of Deployment app/app (it declares 8081/TCP, 9090/TCP): traffic goes to 8080 on the Pods and is refused unless something listens there; use a declared port');
      assert.deepEqual(findings[0].fixes, []);
      // A port named like the Service port is offered, whichever container declares it.
      const named = both.replace('{name: admin, containerPort: 8081}', '{name: http, containerPort: 8081}');
      const fixes = lint({ 'svc.yaml': svc, 'd.yaml': named }, { rules }).findings.map((f) => f.fixes.map((x) => [x.title, x.preferred, x.edits[0].newText]));
      assert.deepEqual(fixes, [[['Set targetPort to 8081 (containerPort "http" of Deployment app/app, container app)', true, '8081']]]);
    });

    it('stays silent when a selected pod template that is not fully declared declares the number (a metrics sidecar beside an app without ports)', () => {
      // The frr-style speaker: its main container declares nothing, its metrics sidecar declares 9121; a single-container variant declares 7472.
      const speaker = (name: string, containers: string) => `
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: ${name}, namespace: app}
        spec:
          template:
            metadata: {labels: {app: api}}
            spec:
              containers:
${containers}
          selector: {matchLabels: {app: api}}`;
      const frr = speaker('frr', '                - {name: frr, image: frr:9}\n                - {name: frr-metrics, image: frr:9, ports: [{name: frrmetrics, containerPort: 9121}]}');
      const native = speaker('native', '                - {name: speaker, image: speaker:1, ports: [{name: monitoring, containerPort: 7472}]}');
      assert.deepEqual(lint({ 'svc.yaml': service('9121'), 'frr.yaml': frr, 'native.yaml': native }, { rules }).findings, []);
      assert.deepEqual(lint({ 'svc.yaml': service('9122'), 'frr.yaml': frr, 'native.yaml': native }, { rules }).findings.map((f) => [f.text, f.related.map((r) => r.message)]), [['9122', ['DaemonSet app/native declares 7472/TCP']]]);
    });

    it('counts a sidecar (restartable init container) without ports as undeclared too, but not a plain init container', () => {
      const pod = (init: string) => `
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: app, labels: {app: api}}
        spec:
          initContainers:
            - {name: helper, image: busybox${init}}
          containers:
            - {name: main, image: example/api:1, ports: [{containerPort: 9000}]}`;
      assert.deepEqual(lint({ 'svc.yaml': service('8443'), 'p.yaml': pod(', restartPolicy: Always') }, { rules }).findings, []);
      const plain = lint({ 'svc.yaml': service('8443'), 'p.yaml': pod('') }, { rules }).findings;
      assert.deepEqual(plain.map((f) => [f.line, f.text, f.fixes.map((x) => x.title)]), [[10, '8443', ['Set targetPort to 9000 (containerPort of Pod app/p, container main)']]]);
    });

    it('judges each cluster on its own: a Service of prod is not checked against a Deployment of dev', () => {
      const files = { 'prod/svc.yaml': service('8443'), 'dev/d.yaml': deployment('api', '            - {containerPort: 8080}'), 'prod/d.yaml': deployment('api', '            - {containerPort: 8443}') };
      const config = { clusters: { dev: ['dev/**'], prod: ['prod/**'] } };
      assert.deepEqual(lint(files, { rules, config }).findings, []);
    });

    it('counts the containers a kustomize patch adds to the base workload', () => {
      const files = {
        'base/kustomization.yaml': 'resources: [svc.yaml, deploy.yaml]\n',
        'base/svc.yaml': service('9121'),
        'base/deploy.yaml': deployment('api', '            - {containerPort: 9120}'),
        'frr/kustomization.yaml': 'resources: [../base]\npatchesStrategicMerge: [metrics.yaml]\n',
        'frr/metrics.yaml': deployment('api', '            - {containerPort: 9121}').replace('- name: main', '- name: metrics'),
      };
      assert.deepEqual(lint(files, { rules }).findings, []);
      const other = { ...files, 'frr/metrics.yaml': files['frr/metrics.yaml'].replace('9121', '9999') };
      assert.deepEqual(lint(other, { rules }).findings.map((f) => [f.file, f.text]), [['base/svc.yaml', '9121']]);
    });

    it('reads pod templates of Argo Rollouts', () => {
      const rollout = deployment('api', '            - {name: http, containerPort: 8080}').replace('apiVersion: apps/v1\nkind: Deployment', 'apiVersion: argoproj.io/v1alpha1\nkind: Rollout');
      const { findings } = lint({ 'svc.yaml': service('8443'), 'r.yaml': rollout }, { rules });
      assert.deepEqual(findings.map((f) => f.related[0].message), ['Rollout app/api declares 8080/TCP']);
    });
  });
});
