import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';
import { podWorkload } from '../helpers/manifests';

const rules = ['hostport-conflict'];

const workload = (kind: string, name: string, ns: string, ports: string, spec = '') => podWorkload({ kind, name, ns, ports, spec });

const port9100 = '            - containerPort: 9100\n              hostPort: 9100';

describe('hostport-conflict', () => {
  it('is an error on both sides for two DaemonSets on every node, each naming the other', () => {
    const { findings } = lint(
      { 'a.yaml': workload('DaemonSet', 'edge-proxy', 'kube-system', port9100), 'b.yaml': workload('DaemonSet', 'node-metrics', 'monitoring', port9100) },
      { rules },
    );
    assert.equal(findings.length, 2);
    const [a, b] = findings;
    assert.deepEqual([a.file, a.line, a.column, a.text, a.severity], ['a.yaml', 16, 25, '9100', 'error']);
    assert.equal(a.message, 'hostPort 9100/TCP is also claimed by DaemonSet monitoring/node-metrics: they certainly share nodes, so on each shared node one pod stays Pending ("didn\'t have free ports"); give one side another port');
    assert.deepEqual([b.file, b.line], ['b.yaml', 16]);
    assert.match(b.message, /DaemonSet kube-system\/edge-proxy/);
    assert.deepEqual(b.related.map((r) => [r.file, r.line]), [['a.yaml', 16]]);
  });

  it('is a warning, saying so, when the side that would certainly meet runs no pods now (replicas: 0, a suspended CronJob), also under an HPA', () => {
    const parked = (replicas: number) => workload('Deployment', 'parked', 'x', port9100).replace('spec:\n  selector', `spec:\n  replicas: ${replicas}\n  selector`);
    const hpa = `
    apiVersion: autoscaling/v2
    kind: HorizontalPodAutoscaler
    metadata: {name: parked, namespace: x}
    spec:
      scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: parked}
      minReplicas: 2
      maxReplicas: 4`;
    const ds = workload('DaemonSet', 'agent', 'x', port9100);
    for (const extra of [{}, { 'c.yaml': hpa }] as Record<string, string>[]) {
      const { findings } = lint({ 'a.yaml': parked(0), 'b.yaml': ds, ...extra }, { rules });
      assert.deepEqual(findings.map((f) => [f.file, f.line, f.text, f.severity]), [['a.yaml', 17, '9100', 'warning'], ['b.yaml', 16, '9100', 'warning']]);
      assert.equal(findings[0].message, 'hostPort 9100/TCP is also claimed by DaemonSet x/agent: Deployment x/parked runs no pods now (replicas: 0), but once it runs they certainly share nodes and on each one pod stays Pending ("didn\'t have free ports"); give one side another port');
      assert.equal(findings[1].message, 'hostPort 9100/TCP is also claimed by Deployment x/parked: Deployment x/parked runs no pods now (replicas: 0), but once it runs they certainly share nodes and on each one pod stays Pending ("didn\'t have free ports"); give one side another port');
      assert.deepEqual(findings[1].related.map((r) => r.message), ['hostPort 9100/TCP of Deployment x/parked (container main) (on the same node once both run)']);
    }
    // Scaled up, the same pair is certain.
    assert.deepEqual(lint({ 'a.yaml': parked(1), 'b.yaml': ds }, { rules }).findings.map((f) => f.severity), ['error', 'error']);
    const cronJob = (suspend: boolean) => `
    apiVersion: batch/v1
    kind: CronJob
    metadata: {name: nightly, namespace: x}
    spec:
      suspend: ${suspend}
      schedule: "@daily"
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: Never
              containers: [{name: c, image: x, ports: [{containerPort: 9100, hostPort: 9100}]}]`;
    const suspended = lint({ 'a.yaml': cronJob(true), 'b.yaml': ds }, { rules }).findings;
    assert.deepEqual(suspended.map((f) => [f.file, f.severity]), [['a.yaml', 'warning'], ['b.yaml', 'warning']]);
    assert.match(suspended[0].message, /: CronJob x\/nightly runs no pods now \(suspend: true\), but once it runs they certainly share nodes/);
    assert.deepEqual(lint({ 'a.yaml': cronJob(false), 'b.yaml': ds }, { rules }).findings.map((f) => f.severity), ['error', 'error']);
    // A CronJob whose Jobs have parallelism 0 runs no pods either; 1 runs one.
    const paused = (parallelism: number) => cronJob(false).replace('        spec:\n          template:', `        spec:\n          parallelism: ${parallelism}\n          template:`);
    const zero = lint({ 'a.yaml': paused(0), 'b.yaml': ds }, { rules }).findings;
    assert.deepEqual(zero.map((f) => [f.file, f.severity]), [['a.yaml', 'warning'], ['b.yaml', 'warning']]);
    assert.match(zero[0].message, /: CronJob x\/nightly runs no pods now \(jobTemplate\.spec\.parallelism: 0\), but once it runs they certainly share nodes/);
    assert.deepEqual(lint({ 'a.yaml': paused(1), 'b.yaml': ds }, { rules }).findings.map((f) => f.severity), ['error', 'error']);
    // A Job with completions 0 (its own, or a CronJob's job template's) completes without creating a Pod; 1 runs one.
    const job = (completions: number) => `
    apiVersion: batch/v1
    kind: Job
    metadata: {name: once, namespace: x}
    spec:
      completions: ${completions}
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: x, ports: [{containerPort: 9100, hostPort: 9100}]}]`;
    const done = lint({ 'a.yaml': job(0), 'b.yaml': ds }, { rules }).findings;
    assert.deepEqual(done.map((f) => [f.file, f.line, f.text, f.severity]), [['a.yaml', 9, '9100', 'warning'], ['b.yaml', 16, '9100', 'warning']]);
    assert.equal(done[0].message, 'hostPort 9100/TCP is also claimed by DaemonSet x/agent: Job x/once runs no pods now (completions: 0), but once it runs they certainly share nodes and on each one pod stays Pending ("didn\'t have free ports"); give one side another port');
    assert.deepEqual(lint({ 'a.yaml': job(1), 'b.yaml': ds }, { rules }).findings.map((f) => f.severity), ['error', 'error']);
    const completed = cronJob(false).replace('        spec:\n          template:', '        spec:\n          completions: 0\n          template:');
    assert.match(lint({ 'a.yaml': completed, 'b.yaml': ds }, { rules }).findings[0].message, /: CronJob x\/nightly runs no pods now \(jobTemplate\.spec\.completions: 0\), but once it runs/);
  });

  it('treats hostNetwork containerPorts as host ports', () => {
    const hn = '\n      hostNetwork: true';
    const { findings } = lint(
      { 'a.yaml': workload('DaemonSet', 'a', 'x', '            - containerPort: 9100', hn), 'b.yaml': workload('DaemonSet', 'b', 'z', port9100) },
      { rules },
    );
    assert.deepEqual(findings.map((f) => [f.file, f.text, f.severity]), [['a.yaml', '9100', 'error'], ['b.yaml', '9100', 'error']]);
    assert.match(findings[0].message, /^hostNetwork port 9100\/TCP/);
  });

  it('is a warning when the two only may meet (two Deployments, partially overlapping DaemonSets)', () => {
    const deployments = lint({ 'a.yaml': workload('Deployment', 'a', 'x', port9100), 'b.yaml': workload('Deployment', 'b', 'x', port9100) }, { rules });
    assert.deepEqual(deployments.findings.map((f) => f.severity), ['warning', 'warning']);
    assert.match(deployments.findings[0].message, /they may land on the same node/);
    const ds = lint({
      'a.yaml': workload('DaemonSet', 'a', 'x', port9100, '\n      nodeSelector: {role: edge}'),
      'b.yaml': workload('DaemonSet', 'b', 'x', port9100, '\n      nodeSelector: {zone: a}'),
    }, { rules });
    assert.deepEqual(ds.findings.map((f) => f.severity), ['warning', 'warning']);
  });

  it('treats an OS / architecture selector as every node, as the coverage rules do (it fell to warning)', () => {
    const { findings } = lint({
      'a.yaml': workload('DaemonSet', 'a', 'x', port9100, '\n      nodeSelector: {kubernetes.io/os: linux}'),
      'b.yaml': workload('DaemonSet', 'b', 'x', port9100),
    }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.severity]), [['a.yaml', 'error'], ['b.yaml', 'error']]);
    assert.match(findings[0].message, /they certainly share nodes/);
    const windows = lint({
      'a.yaml': workload('DaemonSet', 'a', 'x', port9100, '\n      nodeSelector: {kubernetes.io/os: linux}'),
      'b.yaml': workload('DaemonSet', 'b', 'x', port9100, '\n      nodeSelector: {kubernetes.io/os: windows}'),
    }, { rules });
    assert.deepEqual(windows.findings, [], 'Linux and Windows nodes are distinct');
  });

  it('is an error for a DaemonSet and a pod pinned to a node it covers', () => {
    const { findings } = lint({
      'a.yaml': workload('DaemonSet', 'agent', 'x', port9100),
      'b.yaml': workload('Deployment', 'pinned', 'x', port9100, '\n      nodeSelector: {kubernetes.io/hostname: node-a}'),
    }, { rules });
    assert.deepEqual(findings.map((f) => f.severity), ['error', 'error']);
  });

  it('applies hostIP overlap: 0.0.0.0 overlaps every address, two specific addresses and :: do not', () => {
    const ip = (addr: string) => `            - {containerPort: 9100, hostPort: 9100, hostIP: "${addr}"}`;
    const pair = (x: string, y: string) => lint({ 'a.yaml': workload('DaemonSet', 'a', 'x', x), 'b.yaml': workload('DaemonSet', 'b', 'x', y) }, { rules }).findings.length;
    assert.equal(pair(port9100, ip('10.0.0.1')), 2);
    assert.equal(pair(ip('10.0.0.1'), ip('10.0.0.1')), 2);
    assert.equal(pair(ip('10.0.0.1'), ip('10.0.0.2')), 0);
    assert.equal(pair(ip('::'), ip('10.0.0.2')), 0);
  });

  it('stays silent for variants, disjoint nodeSelectors, other protocols and init containers', () => {
    const one = workload('DaemonSet', 'agent', 'x', port9100);
    assert.deepEqual(lint({ 'base/ds.yaml': one, 'overlay/ds.yaml': one }, { rules }).findings, []);
    assert.deepEqual(lint({
      'a.yaml': workload('DaemonSet', 'a', 'x', port9100, '\n      nodeSelector: {pool: blue}'),
      'b.yaml': workload('DaemonSet', 'b', 'x', port9100, '\n      nodeSelector: {pool: green}'),
    }, { rules }).findings, []);
    assert.deepEqual(lint({ 'a.yaml': one, 'b.yaml': workload('DaemonSet', 'b', 'x', '            - {containerPort: 9100, hostPort: 9100, protocol: UDP}') }, { rules }).findings, []);
    const init = `
    apiVersion: v1
    kind: Pod
    metadata: {name: p, namespace: x}
    spec:
      initContainers: [{name: i, image: x, ports: [{containerPort: 9100, hostPort: 9100}]}]
      containers: [{name: c, image: x}]`;
    assert.deepEqual(lint({ 'a.yaml': one, 'b.yaml': init }, { rules }).findings, []);
    const podTemplate = `
    apiVersion: v1
    kind: PodTemplate
    metadata: {name: t, namespace: x}
    template:
      spec:
        containers: [{name: c, image: x, ports: [{containerPort: 9100, hostPort: 9100}]}]`;
    assert.deepEqual(lint({ 'a.yaml': one, 'b.yaml': podTemplate }, { rules }).findings, []);
    // A Pod dumped with kubectl next to the DaemonSet that created it is an instance, not a second claimant.
    const dumpedPod = (node: string) => `
    apiVersion: v1
    kind: Pod
    metadata:
      name: agent-${node}
      namespace: x
      ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, controller: true, uid: u1}]
    spec:
      nodeName: ${node}
      containers: [{name: main, image: img, ports: [{containerPort: 9100, hostPort: 9100}]}]`;
    assert.deepEqual(lint({ 'a.yaml': one, 'b.yaml': dumpedPod('n1'), 'c.yaml': dumpedPod('n1').replace('agent-n1', 'agent-n1b') }, { rules }).findings, []);
  });

  it('never reports a Deployment, its ReplicaSet and their Pods, or a CronJob and its Job, against each other (a kubectl dump)', () => {
    const ports = '[{containerPort: 8125, hostPort: 8125, protocol: UDP}]';
    const owner = (kind: string, name: string, apiVersion = 'apps/v1') => `ownerReferences: [{apiVersion: ${apiVersion}, kind: ${kind}, name: ${name}, uid: u1, controller: true}]`;
    const dump = `
    apiVersion: v1
    kind: List
    items:
      - apiVersion: apps/v1
        kind: Deployment
        metadata: {name: agent, namespace: obs}
        spec:
          selector: {matchLabels: {app: agent}}
          template:
            metadata: {labels: {app: agent}}
            spec: {containers: [{name: agent, image: agent, ports: ${ports}}]}
      - apiVersion: apps/v1
        kind: ReplicaSet
        metadata: {name: agent-7d9f8b6c5d, namespace: obs, labels: {app: agent, pod-template-hash: 7d9f8b6c5d}, ${owner('Deployment', 'agent')}}
        spec:
          selector: {matchLabels: {app: agent, pod-template-hash: 7d9f8b6c5d}}
          template:
            metadata: {labels: {app: agent, pod-template-hash: 7d9f8b6c5d}}
            spec: {containers: [{name: agent, image: agent, ports: ${ports}}]}
      - apiVersion: v1
        kind: Pod
        metadata: {name: agent-7d9f8b6c5d-x2k9p, namespace: obs, labels: {app: agent, pod-template-hash: 7d9f8b6c5d}, ${owner('ReplicaSet', 'agent-7d9f8b6c5d')}}
        spec: {nodeName: node-1, containers: [{name: agent, image: agent, ports: ${ports}}]}
      - apiVersion: batch/v1
        kind: CronJob
        metadata: {name: probe, namespace: obs}
        spec:
          schedule: "*/5 * * * *"
          jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: p, image: p, ports: ${ports}}]}}}}
      - apiVersion: batch/v1
        kind: Job
        metadata: {name: probe-28871234, namespace: obs, ${owner('CronJob', 'probe', 'batch/v1')}}
        spec: {template: {spec: {restartPolicy: Never, containers: [{name: p, image: p, ports: ${ports}}]}}}
      - apiVersion: v1
        kind: Pod
        metadata: {name: probe-28871234-abcde, namespace: obs, ${owner('Job', 'probe-28871234', 'batch/v1')}}
        spec: {restartPolicy: Never, containers: [{name: p, image: p, ports: ${ports}}]}`;
    // The Deployment's family and the CronJob's family are two workloads: each member meets each of the other.
    const findings = lint(dump, { rules }).findings;
    const pairs = findings.map((f) => `${f.object} vs ${f.message.replace(/^.*also claimed by (.*?): .*$/, '$1')}`);
    assert.deepEqual(pairs, [
      'Deployment obs/agent vs CronJob obs/probe, Job obs/probe-28871234 and Pod obs/probe-28871234-abcde',
      'ReplicaSet obs/agent-7d9f8b6c5d vs CronJob obs/probe, Job obs/probe-28871234 and Pod obs/probe-28871234-abcde',
      'Pod obs/agent-7d9f8b6c5d-x2k9p vs CronJob obs/probe, Job obs/probe-28871234 and Pod obs/probe-28871234-abcde',
      'CronJob obs/probe vs Deployment obs/agent, ReplicaSet obs/agent-7d9f8b6c5d and Pod obs/agent-7d9f8b6c5d-x2k9p',
      'Job obs/probe-28871234 vs Deployment obs/agent, ReplicaSet obs/agent-7d9f8b6c5d and Pod obs/agent-7d9f8b6c5d-x2k9p',
      'Pod obs/probe-28871234-abcde vs Deployment obs/agent, ReplicaSet obs/agent-7d9f8b6c5d and Pod obs/agent-7d9f8b6c5d-x2k9p',
    ]);
    assert.deepEqual(findings.map((f) => [f.line, f.text, f.severity]), [[11, '8125', 'warning'], [19, '8125', 'warning'], [23, '8125', 'warning'], [29, '8125', 'warning'], [33, '8125', 'warning'], [37, '8125', 'warning']]);
    // Alone, each family is silent.
    const agentOnly = dump.split('      - apiVersion: batch/v1')[0];
    assert.deepEqual(lint(agentOnly, { rules }).findings, []);
    // A ReplicaSet of another Deployment is not of this family.
    assert.equal(lint(agentOnly.replace("name: Deployment, name: agent", "name: Deployment, name: other").replace(`${owner('Deployment', 'agent')}`, `${owner('Deployment', 'other')}`).replace(/agent-7d9f8b6c5d/g, 'other-5c4b3a2d1e').replace(/pod-template-hash: 7d9f8b6c5d/g, 'pod-template-hash: 5c4b3a2d1e'), { rules }).findings.length, 3);
  });

  it('catches duplicates inside one pod template: exact key is an error, wildcard next to an address a warning', () => {
    const twoContainers = (second: string) => `
    apiVersion: v1
    kind: Pod
    metadata: {name: p, namespace: x}
    spec:
      containers:
        - {name: a, image: x, ports: [{containerPort: 80, hostPort: 8080}]}
        - {name: b, image: x, ports: [${second}]}`;
    const exact = lint(twoContainers('{containerPort: 81, hostPort: 8080}'), { rules }).findings;
    assert.equal(exact.length, 1);
    assert.deepEqual([exact[0].line, exact[0].text, exact[0].severity], [7, '8080', 'error']);
    assert.match(exact[0].message, /^hostPort 8080\/TCP is claimed twice in the pod template of Pod x\/p \(also by container a\): the API server rejects the object \("Duplicate value: \\"TCP\/\/8080\\""\); give one a different port$/);
    const ambiguous = lint(twoContainers('{containerPort: 81, hostPort: 8080, hostIP: 10.0.0.1}'), { rules }).findings;
    assert.deepEqual(ambiguous.map((f) => f.severity), ['warning']);
    assert.match(ambiguous[0].message, /dangerously ambiguous port definition/);
    assert.deepEqual(lint(twoContainers('{containerPort: 81, hostPort: 8081}'), { rules }).findings, []);
  });
});
