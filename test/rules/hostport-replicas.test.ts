import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['hostport-replicas'];

const workload = (kind: string, replicas: string, ports: string, spec = '') => `
apiVersion: apps/v1
kind: ${kind}
metadata:
  name: web
  namespace: shop
spec:${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:${spec}
      containers:
        - name: web
          image: nginx
          ports:
${ports}`;

const hostPort80 = '            - containerPort: 80\n              hostPort: 80';

describe('hostport-replicas', () => {
  it('counts the replicas a HorizontalPodAutoscaler sets: warns up to maxReplicas, names the HPA, silent for maxReplicas 1', () => {
    const hpa = (target: string, bounds: string) => `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: ${target}, name: web}
${bounds}`;
    const scaled = lint({ 'w.yaml': workload('Deployment', '', hostPort80), 'hpa.yaml': hpa('Deployment', '  minReplicas: 3\n  maxReplicas: 10') }, { rules }).findings;
    assert.deepEqual(scaled.map((f) => [f.file, f.line, f.column, f.text, f.severity, f.object]), [['w.yaml', 16, 25, '80', 'warning', 'Deployment shop/web']]);
    assert.equal(scaled[0].message, 'Deployment shop/web is scaled to 3-10 replicas by HorizontalPodAutoscaler shop/web and has hostPort 80/TCP: one pod per node, so it needs up to 10 nodes with the port free, plus 3 for a rolling update; use a DaemonSet or a Service');
    assert.deepEqual(scaled[0].related.map((r) => [r.file, r.line, r.message]), [['hpa.yaml', 7, 'maxReplicas: 10 of HorizontalPodAutoscaler shop/web']]);
    // minReplicas defaults to 1; the HPA wins over spec.replicas: 1.
    assert.match(lint({ 'w.yaml': workload('Deployment', '\n  replicas: 1', hostPort80), 'hpa.yaml': hpa('Deployment', '  maxReplicas: 4') }, { rules }).findings[0].message, /is scaled to 1-4 replicas by HorizontalPodAutoscaler shop\/web/);
    assert.deepEqual(lint({ 'w.yaml': workload('Deployment', '', hostPort80), 'hpa.yaml': hpa('Deployment', '  maxReplicas: 1') }, { rules }).findings, []);
    // An HPA of another kind or name does not scale this workload.
    assert.deepEqual(lint({ 'w.yaml': workload('Deployment', '', hostPort80), 'hpa.yaml': hpa('StatefulSet', '  maxReplicas: 4') }, { rules }).findings, []);
  });

  it('warns on a Deployment with replicas > 1 and a hostPort, giving the count, the port and the rolling-update cost', () => {
    const { findings } = lint(workload('Deployment', '\n  replicas: 3', hostPort80), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [17, 25, '80', 'warning', 'Deployment shop/web']);
    assert.match(f.message, /^Deployment shop\/web has replicas: 3 and hostPort 80\/TCP: at most one pod per node, so it needs 3 nodes with the port free, and a rolling update \(maxSurge\) needs one more spare node/);
    assert.deepEqual(f.related.map((r) => r.line), [7]);
  });

  it('counts the spare nodes a rollout needs from the strategy: none for Recreate or maxSurge 0, maxSurge (a percentage rounded up) otherwise', () => {
    const deployment = (strategy: string, replicas = 2) => workload('Deployment', `\n  replicas: ${replicas}\n  strategy: ${strategy}`, hostPort80);
    const message = (text: string) => lint(text, { rules }).findings.map((f) => f.message);
    const noSurge = 'Deployment shop/web has replicas: 2 and hostPort 80/TCP: at most one pod per node, so it needs 2 nodes with the port free; replicas beyond that stay Pending ("node(s) didn\'t have free ports for the requested pod ports"); use a DaemonSet, or a Service instead of the host port';
    assert.deepEqual(message(deployment('{type: Recreate}')), [noSurge]);
    assert.deepEqual(message(deployment('{type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}')), [noSurge]);
    assert.deepEqual(message(deployment('{rollingUpdate: {maxSurge: "0%", maxUnavailable: 1}}')), [noSurge]);
    assert.match(message(deployment('{rollingUpdate: {maxSurge: 2}}'))[0], /needs 2 nodes with the port free, and a rolling update \(maxSurge\) needs 2 more spare nodes/);
    // The written maxSurge is a related location beside replicas (line 8: `  strategy: {rollingUpdate: {maxSurge: 2}}`);
    // the 25% default is written nowhere, and maxSurge 0 (no spare node named) is not pointed at.
    const related = (text: string) => lint(text, { rules }).findings.flatMap((f) => f.related.map((r) => [r.line, r.column, r.text, r.message]));
    assert.deepEqual(related(deployment('{rollingUpdate: {maxSurge: 2}}')), [[7, 13, '2', 'replicas: 2'], [8, 40, '2', 'maxSurge: 2']]);
    assert.deepEqual(related(deployment('{type: RollingUpdate}')), [[7, 13, '2', 'replicas: 2']]);
    assert.deepEqual(related(deployment('{rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}')), [[7, 13, '2', 'replicas: 2']]);
    // 50% of 3 replicas rounds up to 2; the default 25% of 3 to 1.
    assert.match(message(deployment('{rollingUpdate: {maxSurge: "50%"}}', 3))[0], /needs 3 nodes with the port free, and a rolling update \(maxSurge\) needs 2 more spare nodes/);
    assert.match(message(deployment('{type: RollingUpdate}', 3))[0], /needs 3 nodes with the port free, and a rolling update \(maxSurge\) needs one more spare node/);
    const hpa = `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4`;
    assert.deepEqual(lint({ 'w.yaml': workload('Deployment', '\n  strategy: {type: Recreate}', hostPort80), 'hpa.yaml': hpa }, { rules }).findings.map((f) => f.message),
      ['Deployment shop/web is scaled to 1-4 replicas by HorizontalPodAutoscaler shop/web and has hostPort 80/TCP: one pod per node, so it needs up to 4 nodes with the port free; use a DaemonSet or a Service']);
  });

  it('warns on a DaemonSet whose rolling update surges (maxSurge above 0) with a host port; silent for maxSurge 0, the default and OnDelete', () => {
    const daemonSet = (strategy: string) => workload('DaemonSet', `\n  updateStrategy: ${strategy}`, hostPort80);
    const surging = lint(daemonSet('{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}'), { rules }).findings;
    assert.deepEqual(surging.map((f) => [f.line, f.column, f.text, f.severity, f.object]), [[17, 25, '80', 'warning', 'DaemonSet shop/web']]);
    assert.equal(surging[0].message, 'DaemonSet shop/web has maxSurge 1 and hostPort 80/TCP: an update starts the new pod on a node whose old pod still holds the port, so it stays Pending and the update stalls; set maxSurge: 0 and maxUnavailable: 1');
    // The related location is the maxSurge value itself (line 7: `  updateStrategy: {…, rollingUpdate: {maxSurge: 1, …}}`).
    assert.deepEqual(surging[0].related.map((r) => [r.line, r.column, r.text, r.message]), [[7, 67, '1', 'maxSurge: 1']]);
    assert.match(lint(daemonSet('{rollingUpdate: {maxSurge: "10%", maxUnavailable: 0}}'), { rules }).findings[0].message, /^DaemonSet shop\/web has maxSurge 10% and hostPort 80\/TCP: /);
    for (const quiet of ['{rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}', '{rollingUpdate: {maxSurge: "0%", maxUnavailable: 1}}', '{type: RollingUpdate}', '{type: OnDelete}']) {
      assert.deepEqual(lint(daemonSet(quiet), { rules }).findings, [], quiet);
    }
    // Without a host port a surge is harmless.
    assert.deepEqual(lint(workload('DaemonSet', '\n  updateStrategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}', '            - containerPort: 80'), { rules }).findings, []);
  });

  it('covers StatefulSets with hostNetwork ports (listing every port)', () => {
    const { findings } = lint(workload('StatefulSet', '\n  replicas: 2', '            - containerPort: 9092\n            - containerPort: 9093', '\n      hostNetwork: true'), { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /^StatefulSet shop\/web has replicas: 2 and hostNetwork ports 9092\/TCP, 9093\/TCP: .*replicas beyond that stay Pending/);
    // A ReplicationController's selector is a plain map (the API server cannot decode matchLabels there).
    const rc = lint(workload('ReplicationController', '\n  replicas: 2', hostPort80).replace('apps/v1', 'v1').replace('selector: {matchLabels: {app: web}}', 'selector: {app: web}'), { rules }).findings;
    assert.deepEqual(rc.map((f) => [f.severity, f.text]), [['warning', '80']]);
  });

  it('quotes the containerPort a hostNetwork pod binds, not a differing (invalid) hostPort', () => {
    const { findings } = lint(workload('Deployment', '\n  replicas: 2', '            - containerPort: 8080\n              hostPort: 80', '\n      hostNetwork: true'), { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].line, findings[0].text], [18, '80']);
    assert.match(findings[0].message, /^Deployment shop\/web has replicas: 2 and hostNetwork port 8080\/TCP: /);
    assert.doesNotMatch(findings[0].message, /port 80\//);
    // Without hostNetwork the hostPort is what the node holds.
    const portmap = lint(workload('Deployment', '\n  replicas: 2', '            - containerPort: 8080\n              hostPort: 80'), { rules }).findings;
    assert.match(portmap[0].message, /^Deployment shop\/web has replicas: 2 and hostPort 80\/TCP: /);
  });

  it('is an error when pinned to one node: the other replicas never run', () => {
    const { findings } = lint(workload('ReplicaSet', '\n  replicas: 4', hostPort80, '\n      nodeName: node-a'), { rules });
    assert.deepEqual(findings.map((f) => f.severity), ['error']);
    assert.match(findings[0].message, /pinned to node node-a, where only one pod can hold the port: 3 replicas will never run \("node\(s\) didn't have free ports for the requested pod ports"\); set replicas: 1 or remove the host port$/);
    const bySelector = lint(workload('Deployment', '\n  replicas: 2', hostPort80, '\n      nodeSelector: {kubernetes.io/hostname: node-b}'), { rules }).findings;
    assert.match(bySelector[0].message, /pinned to node node-b.*1 replica will never run/);
  });

  it('counts the workspace\'s Nodes the workload may run on, and says how many replicas will stay Pending', () => {
    const node = (name: string, labels = '') => `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${name}\n  labels: {kubernetes.io/hostname: ${name}${labels}}\n`;
    const nodes = { 'n1.yaml': node('node-1', ', zone: a'), 'n2.yaml': node('node-2', ', zone: a'), 'n3.yaml': node('node-3', ', zone: b') };
    const three = lint({ 'w.yaml': workload('StatefulSet', '\n  replicas: 3', hostPort80, '\n      nodeSelector: {zone: a}'), ...nodes }, { rules }).findings;
    assert.deepEqual(three.map((f) => [f.file, f.line, f.text, f.severity]), [['w.yaml', 18, '80', 'warning']]);
    assert.equal(three[0].message, 'StatefulSet shop/web has replicas: 3 and hostPort 80/TCP: at most one pod per node, and the workspace\'s Nodes it may run on are 2 (node-1, node-2): 1 replica will stay Pending ("node(s) didn\'t have free ports for the requested pod ports"); use a DaemonSet, or a Service instead of the host port');
    const none = lint({ 'w.yaml': workload('Deployment', '\n  replicas: 2', hostPort80, '\n      nodeSelector: {zone: c}'), ...nodes }, { rules }).findings;
    assert.match(none[0].message, /at most one pod per node, and none of the workspace's Nodes matches its node selection: 2 replicas will stay Pending/);
    // Enough Nodes: the general message (the rolling-update cost), as without Node objects.
    const enough = lint({ 'w.yaml': workload('Deployment', '\n  replicas: 3', hostPort80), ...nodes }, { rules }).findings;
    assert.match(enough[0].message, /so it needs 3 nodes with the port free, and a rolling update \(maxSurge\) needs one more spare node/);
  });

  it('stays silent for one replica, unset replicas, DaemonSets and pods without host ports', () => {
    assert.deepEqual(lint(workload('Deployment', '\n  replicas: 1', hostPort80), { rules }).findings, []);
    assert.deepEqual(lint(workload('Deployment', '', hostPort80), { rules }).findings, []);
    assert.deepEqual(lint(workload('DaemonSet', '', hostPort80), { rules }).findings, []);
    assert.deepEqual(lint(workload('Deployment', '\n  replicas: 5', '            - containerPort: 80'), { rules }).findings, []);
  });
});
