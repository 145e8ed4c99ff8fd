import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';
import { loadFile } from '../../server/out/core/load/load-file';
import type { WorkloadObject } from '../../server/out/core/model/objects';
import { handlerShapes } from '../../server/out/core/model/views/handler-shapes';

// Probes and lifecycle hooks whose handler validateHandler refuses: two handler types, none, an httpGet / tcpSocket /
// grpc without a port, an exec without a command. Lines are 1-based after dedent.
const rules = ['pod-spec-invalid', 'lifecycle-hook-tcpsocket'];
const where = (text: string | Record<string, string>) => lint(text, { rules }).findings.map((f) => [f.file, f.line, f.column, f.text, f.message]);

describe('pod-spec-invalid: probe and lifecycle handler types', () => {
  it('reports each handler type after the first (exec, httpGet, tcpSocket, grpc / sleep order), at its key, and not the ports of the handlers the API server does not validate', () => {
    assert.deepEqual(where(`
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
                image: nginx
                ports: [{containerPort: 8080, name: http}]
                lifecycle:
                  preStop:
                    httpGet: {path: /drain, port: http}
                    tcpSocket: {port: 8080}
                livenessProbe:
                  tcpSocket: {port: http}
                  exec: {command: [cat, /ok]}
                  httpGet: {path: /, port: "8080"}
    `), [
      ['test.yaml', 16, 15, 'tcpSocket', 'preStop hook of container "web" sets both httpGet and tcpSocket: the API server rejects Deployment shop/web with "spec.template.spec.containers[0].lifecycle.preStop.tcpSocket: Forbidden: may not specify more than 1 handler type"; keep one handler'],
      ['test.yaml', 18, 13, 'tcpSocket', 'livenessProbe of container "web" sets both exec and tcpSocket: the API server rejects Deployment shop/web with "spec.template.spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"; keep one handler'],
      ['test.yaml', 20, 13, 'httpGet', 'livenessProbe of container "web" sets both exec and httpGet: the API server rejects Deployment shop/web with "spec.template.spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type"; keep one handler'],
    ]);
  });

  it('reports a probe or hook without a handler (a null one sets none), and a handler without its port or command, for containers and sidecars', () => {
    assert.deepEqual(where(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers:
          - name: proxy
            image: envoy
            restartPolicy: Always
            startupProbe: {tcpSocket: {}}
        containers:
          - name: web
            image: nginx
            readinessProbe:
              tcpSocket: null
            startupProbe: {httpGet: {path: /}}
            livenessProbe: {grpc: {service: health}}
            lifecycle:
              postStart: {}
              preStop: {exec: {command: []}}
    `), [
      ['test.yaml', 9, 22, 'tcpSocket', 'startupProbe tcpSocket of sidecar "proxy" has no port (an unset port is 0): the API server rejects Pod shop/p with "spec.initContainers[0].startupProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive"; set port to the container\'s port number or name'],
      ['test.yaml', 14, 9, 'tcpSocket', 'readinessProbe of container "web" has no handler (tcpSocket: null sets none): the API server rejects Pod shop/p with "spec.containers[0].readinessProbe: Required value: must specify a handler type"; add one of exec, httpGet, tcpSocket or grpc'],
      ['test.yaml', 15, 22, 'httpGet', 'startupProbe httpGet of container "web" has no port (an unset port is 0): the API server rejects Pod shop/p with "spec.containers[0].startupProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive"; set port to the container\'s port number or name'],
      ['test.yaml', 16, 23, 'grpc', 'livenessProbe grpc of container "web" has no port (an unset port is 0): the API server rejects Pod shop/p with "spec.containers[0].livenessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive"; set port to the container\'s port number'],
      ['test.yaml', 18, 9, 'postStart', 'postStart hook of container "web" has no handler: the API server rejects Pod shop/p with "spec.containers[0].lifecycle.postStart: Required value: must specify a handler type"; add one of exec, httpGet or sleep'],
      ['test.yaml', 19, 19, 'exec', 'preStop hook exec of container "web" has no command: the API server rejects Pod shop/p with "spec.containers[0].lifecycle.preStop.exec.command: Required value"; add the command to run'],
    ]);
  });

  it('reports a probe, lifecycle, hook or action that is not a mapping as the decoder refuses it, in any container, and no handler check of it', () => {
    assert.deepEqual(where(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers: [{name: setup, image: busybox, readinessProbe: tcp}]
        containers:
          - name: web
            image: nginx
            livenessProbe: {httpGet: "x", tcpSocket: {port: 80}}
            lifecycle: {preStop: "sleep 5"}
          - name: b
            image: nginx
            lifecycle: [preStop]
    `).map((f) => f.slice(1)), [
      [5, 66, 'tcp', 'readinessProbe "tcp" is a string, not a mapping (httpGet, tcpSocket, …): the API server cannot decode Pod shop/p ("json: cannot unmarshal string into Go struct field Container.spec.initContainers.readinessProbe of type v1.Probe")'],
      [9, 32, '"x"', 'httpGet "x" is a string, not a mapping (path, port, …): the API server cannot decode Pod shop/p ("json: cannot unmarshal string into Go struct field Probe.spec.containers.livenessProbe.httpGet of type v1.HTTPGetAction")'],
      [10, 28, '"sleep 5"', 'preStop "sleep 5" is a string, not a mapping (exec, httpGet, sleep): the API server cannot decode Pod shop/p ("json: cannot unmarshal string into Go struct field Lifecycle.spec.containers.lifecycle.preStop of type v1.LifecycleHandler")'],
      [13, 18, '[preStop]', 'lifecycle is a list, not a mapping (postStart, preStop): the API server cannot decode Pod shop/p ("json: cannot unmarshal array into Go struct field Container.spec.containers.lifecycle of type v1.Lifecycle")'],
    ]);
  });

  it('reports probe integer fields and exec commands of the wrong JSON type as the decoder refuses them, and stays silent on integers, nulls and strings', () => {
    assert.deepEqual(where(`
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
                image: nginx
                ports: [{containerPort: 8080}]
                readinessProbe:
                  httpGet: {port: 8080}
                  periodSeconds: "10"
                  failureThreshold: 3.5
                  timeoutSeconds: null
                livenessProbe:
                  exec: {command: [cat, yes]}
                  initialDelaySeconds: 5
                startupProbe:
                  exec: {command: "cat /ok"}
                lifecycle:
                  preStop: {exec: {command: [sh, -c, "sleep 5"]}}
    `).map((f) => f.slice(1)), [
      [15, 28, '"10"', 'periodSeconds "10" is a string, not an integer: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field Probe.spec.template.spec.containers.readinessProbe.periodSeconds of type int32"); remove the quotes'],
      [16, 31, '3.5', 'failureThreshold 3.5 is not an integer: the API server cannot decode Deployment shop/web ("json: cannot unmarshal number 3.5 into Go struct field Probe.spec.template.spec.containers.readinessProbe.failureThreshold of type int32")'],
      [19, 35, 'yes', 'command[1] is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode Deployment shop/web ("json: cannot unmarshal bool into Go struct field ExecAction.spec.template.spec.containers.livenessProbe.exec.command of type string"); quote it'],
      [22, 29, '"cat /ok"', 'command "cat /ok" is a string, not a list of strings: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field ExecAction.spec.template.spec.containers.startupProbe.exec.command of type []string")'],
    ]);
  });

  it('reports probe and hook ports that are neither an integer nor a string with the IntOrString decoder\'s error, and a grpc port that is not an integer', () => {
    assert.deepEqual(where(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        containers:
          - name: web
            image: nginx
            ports: [{containerPort: 80, name: http}]
            readinessProbe: {tcpSocket: {port: 80.5}}
            livenessProbe: {httpGet: {port: true}}
            startupProbe: {grpc: {port: 9.5}}
            lifecycle:
              preStop: {httpGet: {port: [80]}}
              postStart: {httpGet: {port: http}}
    `).map((f) => f.slice(1)), [
      [9, 42, '80.5', 'port 80.5 is neither a port number nor a port name: the API server cannot decode Pod shop/p ("json: cannot unmarshal number 80.5 into Go value of type int32")'],
      [10, 39, 'true', 'port true is neither a port number nor a port name: the API server cannot decode Pod shop/p ("json: cannot unmarshal bool into Go value of type int32")'],
      [11, 35, '9.5', 'port 9.5 is not an integer: the API server cannot decode Pod shop/p ("json: cannot unmarshal number 9.5 into Go struct field GRPCAction.spec.containers.startupProbe.grpc.port of type int32")'],
      [13, 35, '[80]', 'port is neither a port number nor a port name: the API server cannot decode Pod shop/p ("json: cannot unmarshal array into Go value of type int32")'],
    ]);
  });

  it('reports probe settings validation refuses: negative timings, a liveness or startup successThreshold other than 1, a readiness terminationGracePeriodSeconds, one below 1', () => {
    assert.deepEqual(where(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers:
          - {name: setup, image: busybox}
          - name: proxy
            image: envoy
            restartPolicy: Always
            startupProbe: {tcpSocket: {port: 9901}, successThreshold: 2}
        containers:
          - name: web
            image: nginx
            ports: [{containerPort: 80}]
            livenessProbe: {httpGet: {port: 80}, successThreshold: 3, terminationGracePeriodSeconds: 0}
            readinessProbe: {httpGet: {port: 80}, timeoutSeconds: -1, successThreshold: 2, terminationGracePeriodSeconds: 5}
          - name: ok
            image: nginx
            livenessProbe: {exec: {command: [x]}, successThreshold: 0, terminationGracePeriodSeconds: 30, initialDelaySeconds: 0}
            startupProbe: {exec: {command: [x]}, successThreshold: 1}
    `).map((f) => f.slice(1)), [
      [10, 65, '2', 'startupProbe successThreshold 2 of sidecar "proxy" is not 1: the API server rejects Pod shop/p with "spec.initContainers[1].startupProbe.successThreshold: Invalid value: 2: must be 1"; remove it (a liveness or startup probe succeeds once)'],
      [15, 62, '3', 'livenessProbe successThreshold 3 of container "web" is not 1: the API server rejects Pod shop/p with "spec.containers[0].livenessProbe.successThreshold: Invalid value: 3: must be 1"; remove it (a liveness or startup probe succeeds once)'],
      [15, 96, '0', 'livenessProbe terminationGracePeriodSeconds 0 of container "web" is not above 0: the API server rejects Pod shop/p with "spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0"; use 1 or more, or remove it'],
      [16, 61, '-1', 'readinessProbe timeoutSeconds -1 of container "web" is negative: the API server rejects Pod shop/p with "spec.containers[0].readinessProbe.timeoutSeconds: Invalid value: -1: must be greater than or equal to 0"; use 0 or more'],
      [16, 117, '5', 'readinessProbe terminationGracePeriodSeconds 5 of container "web" is set: the API server rejects Pod shop/p with "spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes"; remove it (only liveness and startup probes take it)'],
    ]);
  });

  it('stays silent on one handler each, null probes and hooks, a plain init container (its probes are forbidden as a whole) and a kustomize patch', () => {
    assert.deepEqual(where(`
      apiVersion: v1
      kind: Pod
      metadata: {name: ok, namespace: shop}
      spec:
        containers:
          - name: web
            image: nginx
            ports: [{containerPort: 8080, name: http}]
            readinessProbe: {httpGet: {port: http}, exec: null, tcpSocket: null}
            livenessProbe: null
            startupProbe: {grpc: {port: 9090}}
            lifecycle: {postStart: null, preStop: {exec: {command: [sleep, "5"]}, httpGet: null}}
    `), []);
    assert.deepEqual(where('apiVersion: v1\nkind: Pod\nmetadata: {name: n}\nspec:\n  containers: [{name: web, image: nginx, lifecycle: null, readinessProbe: null}, {name: b, image: nginx, lifecycle: {preStop: null}}]\n'), []);
    const init = where(`
      apiVersion: v1
      kind: Pod
      metadata: {name: init, namespace: shop}
      spec:
        initContainers: [{name: setup, image: busybox, readinessProbe: {httpGet: {port: 80}, tcpSocket: {port: 80}}}]
        containers: [{name: web, image: nginx}]
    `);
    assert.deepEqual(init.map((f) => f[4]).map((m) => String(m).replace(/:.*/, '')), ['readinessProbe is not allowed on init container "setup"']);
    const deployment = (container: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [${container}]\n`;
    assert.deepEqual(where({
      'base/deploy.yaml': deployment('{name: web, image: nginx, readinessProbe: {httpGet: {path: /, port: 80}}}'),
      'base/kustomization.yaml': 'resources: [deploy.yaml]\n',
      'prod/kustomization.yaml': 'resources: [../base]\npatches: [{path: patch.yaml}]\n',
      'prod/patch.yaml': deployment('{name: web, readinessProbe: {initialDelaySeconds: 5, httpGet: {path: /ready}}, livenessProbe: {}}'),
    }).filter((f) => f[0] === 'prod/patch.yaml'), []);
  });

  it('reports an httpGet scheme other than HTTP or HTTPS (case-sensitive) of the handler the API server validates, and a container restartPolicy it refuses: not Always on an init container, any on a container', () => {
    const text = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        initContainers:
          - name: proxy
            image: envoy
            restartPolicy: always
          - name: setup
            image: busybox
            restartPolicy: OnFailure
          - name: mesh
            image: envoy
            restartPolicy: Always
            readinessProbe: {httpGet: {port: 15021, scheme: https}}
        containers:
          - name: web
            image: nginx
            restartPolicy: Always
            readinessProbe:
              httpGet: {path: /ready, port: 80, scheme: http}
            livenessProbe:
              exec: {command: [cat, /ok]}
              httpGet: {port: 80, scheme: http}
            startupProbe: {httpGet: {port: 80, scheme: "ftp"}}
            lifecycle:
              preStop: {httpGet: {path: /drain, port: 80, scheme: Https}}
              postStart: {httpGet: {port: 80, scheme: 1}}
    `;
    assert.deepEqual(where(text), [
      ['test.yaml', 8, 22, 'always', 'restartPolicy "always" of init container "proxy" is not Always: the API server rejects Pod shop/p with "spec.initContainers[0].restartPolicy: Unsupported value: "always": supported values: "Always""; write Always'],
      ['test.yaml', 11, 22, 'OnFailure', 'restartPolicy "OnFailure" of init container "setup" is not Always: the API server rejects Pod shop/p with "spec.initContainers[1].restartPolicy: Unsupported value: "OnFailure": supported values: "Always""; remove it, or write Always for a sidecar'],
      ['test.yaml', 15, 55, 'https', 'readinessProbe scheme "https" of sidecar "mesh" is not HTTP or HTTPS: the API server rejects Pod shop/p with "spec.initContainers[2].readinessProbe.httpGet.scheme: Unsupported value: "https": supported values: "HTTP", "HTTPS""; write HTTPS'],
      ['test.yaml', 19, 22, 'Always', 'restartPolicy is set on container "web": the API server rejects Pod shop/p with "spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"; remove it (the pod\'s spec.restartPolicy applies to containers)'],
      ['test.yaml', 21, 51, 'http', 'readinessProbe scheme "http" of container "web" is not HTTP or HTTPS: the API server rejects Pod shop/p with "spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "http": supported values: "HTTP", "HTTPS""; write HTTP'],
      ['test.yaml', 24, 9, 'httpGet', 'livenessProbe of container "web" sets both exec and httpGet: the API server rejects Pod shop/p with "spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type"; keep one handler'],
      ['test.yaml', 25, 50, '"ftp"', 'startupProbe scheme "ftp" of container "web" is not HTTP or HTTPS: the API server rejects Pod shop/p with "spec.containers[0].startupProbe.httpGet.scheme: Unsupported value: "ftp": supported values: "HTTP", "HTTPS""; use HTTP or HTTPS'],
      ['test.yaml', 27, 61, 'Https', 'preStop hook scheme "Https" of container "web" is not HTTP or HTTPS: the API server rejects Pod shop/p with "spec.containers[0].lifecycle.preStop.httpGet.scheme: Unsupported value: "Https": supported values: "HTTP", "HTTPS""; write HTTPS'],
      ['test.yaml', 28, 49, '1', 'scheme 1 is a number, not a string: the API server cannot decode Pod shop/p ("json: cannot unmarshal number into Go struct field HTTPGetAction.spec.containers.lifecycle.postStart.httpGet.scheme of type v1.URIScheme"); use HTTP or HTTPS'],
    ]);
    // The case fixes write the API's word; fixed, only the values without one are left.
    const fixes = lint(text, { rules }).findings.flatMap((f) => f.fixes);
    assert.deepEqual(fixes.map((f) => [f.title, f.edits[0].newText]), [
      ['Change restartPolicy "always" to "Always"', 'Always'],
      ['Change scheme "https" to "HTTPS"', 'HTTPS'],
      ['Change scheme "http" to "HTTP"', 'HTTP'],
      ['Change scheme "Https" to "HTTPS"', 'HTTPS'],
    ]);
    const fixed = applyEdits(dedent(text), fixes.map((f) => f.edits[0]));
    assert.deepEqual(where(fixed).map((f) => f[1]), [11, 19, 24, 25, 28]);
  });

  it('tells a YAML 1.1 boolean or number in a field with a fixed set of values to write one of them (quoting it would still be refused), and offers no quick fix', () => {
    const text = `
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            topologySpreadConstraints:
              - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: 2, labelSelector: {matchLabels: {app: web}}}
            initContainers:
              - name: proxy
                image: envoy
                restartPolicy: yes
            containers:
              - name: web
                image: nginx
                restartPolicy: true
                ports:
                  - {containerPort: 80, protocol: 1}
                readinessProbe: {httpGet: {port: 80, scheme: on}}
    `;
    const cannot = (type: string, goField: string, goType: string) => `is ${type}, not a string: the API server cannot decode Deployment shop/web ("json: cannot unmarshal ${type === 'a boolean' ? 'bool' : 'number'} into Go struct field ${goField} of type ${goType}")`;
    const fs = lint(text, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.message]), [
      [10, 62, '2', `whenUnsatisfiable 2 ${cannot('a number', 'TopologySpreadConstraint.….topologySpreadConstraints.whenUnsatisfiable', 'v1.UnsatisfiableConstraintAction')}; use DoNotSchedule or ScheduleAnyway`],
      [14, 26, 'yes', `restartPolicy true ${cannot('a boolean', 'Container.spec.template.spec.initContainers.restartPolicy', 'v1.ContainerRestartPolicy')}; write Always`],
      [18, 26, 'true', `restartPolicy true ${cannot('a boolean', 'Container.spec.template.spec.containers.restartPolicy', 'v1.ContainerRestartPolicy')}; remove it (the pod's spec.restartPolicy applies to containers)`],
      [20, 45, '1', `protocol 1 ${cannot('a number', 'ContainerPort.spec.template.spec.containers.ports.protocol', 'v1.Protocol')}; use TCP, UDP or SCTP`],
      [21, 56, 'on', `scheme true ${cannot('a boolean', 'HTTPGetAction.spec.template.spec.containers.readinessProbe.httpGet.scheme', 'v1.URIScheme')}; use HTTP or HTTPS`],
    ]);
    assert.ok(fs.every((f) => f.message.length <= 300 && f.fixes.length === 0));
  });

  it('stays silent on enum fields written with an accepted value, quoted or not', () => {
    const text = `
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: shop}
      spec:
        topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}
        initContainers:
          - {name: proxy, image: envoy, restartPolicy: Always}
        containers:
          - name: web
            image: nginx
            ports: [{containerPort: 80, protocol: "TCP"}]
            readinessProbe: {httpGet: {port: 80, scheme: HTTPS}}
            livenessProbe: {httpGet: {port: 80, scheme: "HTTP"}}
    `;
    assert.deepEqual(where(text), []);
  });

  it('stays silent on the schemes and restartPolicies the API server accepts: HTTP, HTTPS, "" and unset; Always on an init container; null', () => {
    assert.deepEqual(where(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            affinity:
              nodeAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                  - weight: 100
                    preference: {matchExpressions: [{key: cpu, operator: Gt, values: ["4"]}]}
                  - weight: 1
                    preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}
              podAntiAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                  - weight: 50
                    podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}
            topologySpreadConstraints:
              - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
              - {maxSkew: 3, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}
            initContainers:
              - name: proxy
                image: envoy
                restartPolicy: Always
                startupProbe: {httpGet: {port: 15021, scheme: HTTP}}
              - name: setup
                image: busybox
                restartPolicy: null
            containers:
              - name: web
                image: nginx
                readinessProbe: {httpGet: {path: /, port: 80, scheme: HTTPS}}
                livenessProbe: {httpGet: {path: /, port: 80, scheme: ""}}
                lifecycle: {preStop: {httpGet: {path: /, port: 80}}}
    `), []);
  });

  it('records the handlers to judge at load time as a workload without them (a live object) reads them from raw', () => {
    const text = [
      'apiVersion: v1', 'kind: Pod', 'metadata: {name: p}', 'spec:',
      '  initContainers:', '    - {name: setup, image: busybox, readinessProbe: {exec: {command: [x]}, httpGet: {port: 1}}}',
      '  containers:',
      '    - name: web', '      image: nginx',
      '      readinessProbe: {httpGet: {port: 80}}',
      '      livenessProbe: {tcpSocket: null}',
      '      startupProbe: {httpGet: {path: /}, grpc: {port: 9}}',
      '      lifecycle: {postStart: {exec: {command: []}}, preStop: {httpGet: 80}}',
    ].join('\n');
    const w = loadFile('pod.yaml', text).objects[0] as WorkloadObject;
    const expected = [
      { container: 0, handler: 'readinessProbe', actions: ['exec', 'httpGet'] },
      { container: 1, handler: 'livenessProbe', actions: [], nulls: ['tcpSocket'] },
      { container: 1, handler: 'startupProbe', actions: ['httpGet', 'grpc'], missing: 'port' },
      { container: 1, handler: 'postStart', actions: ['exec'], missing: 'command' },
      { container: 1, handler: 'preStop', actions: ['httpGet'], undecodable: true },
    ];
    assert.deepEqual(w.pod.handlerShapes, expected);
    const live = { ...w, pod: { ...w.pod, handlerShapes: undefined } } as WorkloadObject;
    assert.deepEqual(handlerShapes(live), expected);
  });
});
