import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['externaltrafficpolicy-local-coverage'];
const svc = (type: string, extra = '') => `
apiVersion: v1
kind: Service
metadata:
  name: ingress
  namespace: edge
spec:
  type: ${type}
  externalTrafficPolicy: Local  # keep client IPs
  selector: {app: ingress}
  ports:
    - {name: http, port: 80, targetPort: 8080, nodePort: 30480}${extra}
`;
const workload = (kind: string, replicas = '') => `
---
apiVersion: apps/v1
kind: ${kind}
metadata:
  name: ingress
  namespace: edge
spec:${replicas}
  selector: {matchLabels: {app: ingress}}
  template:
    metadata: {labels: {app: ingress}}
    spec:
      containers: [{name: controller, ports: [{containerPort: 8080}]}]
`;

/** A DaemonSet backend with extra pod spec lines (nodeSelector, affinity). */
const daemonSet = (name: string, podSpec: string) => `
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ${name}
  namespace: edge
spec:
  selector: {matchLabels: {app: ingress}}
  template:
    metadata: {labels: {app: ingress}}
    spec:${podSpec}
      containers: [{name: controller, ports: [{containerPort: 8080}]}]
`;
const roleAffinity = `
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{key: node-role, operator: In, values: [ingress, edge]}]
              - matchExpressions: [{key: dedicated, operator: Exists}]`;

describe('externaltrafficpolicy-local-coverage', () => {
  it('warns on a NodePort Service backed by a Deployment, at the Local value, naming it with its replicas', () => {
    const { findings } = lint(svc('NodePort') + workload('Deployment', '\n  replicas: 2'), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [8, 26, 'Local', 'warning', 'Service edge/ingress']);
    assert.equal(f.message, 'externalTrafficPolicy Local on Service edge/ingress, backends Deployment edge/ingress (2 replicas), not a DaemonSet: kube-proxy drops traffic to nodePort 30480 on nodes without such a pod (at most 2 nodes answer); run them on every node or use Cluster');
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[20, 'backend Deployment edge/ingress (2 replicas)']]);
  });

  it('keeps the message within ~300 characters for long names: the node count, then the nodePort numbers give way', () => {
    const long = (text: string) => text.replace(/name: ingress\n  namespace: edge/g, 'name: recommendations-processor-9\n  namespace: experimentation');
    const ports = '\n    - {name: https, port: 443, targetPort: 8443, nodePort: 30481}\n    - {name: grpc, port: 9000, targetPort: 9000, nodePort: 30482}';
    const { findings } = lint({ 'a.yaml': long(svc('NodePort', ports) + workload('Deployment', '\n  replicas: 3')) }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.message]), [[8, 'externalTrafficPolicy Local on Service experimentation/recommendations-processor-9, backends Deployment experimentation/recommendations-processor-9 (3 replicas), not a DaemonSet: kube-proxy drops traffic to its nodePorts on nodes without such a pod; run them on every node or use Cluster']]);
  });

  it('says when the replica count is the default', () => {
    const { findings } = lint(svc('NodePort') + workload('StatefulSet'), { rules });
    assert.match(findings[0].message, /StatefulSet edge\/ingress \(1 replica, the default\)/);
  });

  it('is info on a LoadBalancer Service (the health check steers the load balancer)', () => {
    const { findings } = lint(svc('LoadBalancer') + workload('Deployment', '\n  replicas: 3'), { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].severity, 'info');
    assert.equal(findings[0].message, 'externalTrafficPolicy Local on Service edge/ingress, backends Deployment edge/ingress (3 replicas), not a DaemonSet: the load balancer sends all traffic to at most 3 nodes (fewer when pods share a node); run them on every node or use Cluster');
  });

  it('adds up replicas of several backends, and says "the one node" for a single pod', () => {
    const two = svc('LoadBalancer') + workload('Deployment', '\n  replicas: 2') + workload('StatefulSet', '\n  replicas: 1').replace('name: ingress\n', 'name: ingress-canary\n');
    const many = lint(two, { rules }).findings[0].message;
    assert.match(many, /, backends Deployment edge\/ingress \(2 replicas\) and StatefulSet edge\/ingress-canary \(1 replica\), not a DaemonSet: /);
    assert.match(many, /all traffic to at most 3 nodes \(/);
    const one = lint(svc('LoadBalancer') + workload('Deployment'), { rules }).findings[0].message;
    assert.match(one, /all traffic to the one node that runs it; /);
  });

  it('leaves out backends that run no pods now (replicas: 0, a suspended Job), and is silent when only those remain', () => {
    const idle = svc('NodePort') + workload('Deployment', '\n  replicas: 0');
    assert.deepEqual(lint(idle, { rules }).findings, []);
    const suspended = svc('NodePort') + workload('Job', '\n  suspend: true').replace('  selector: {matchLabels: {app: ingress}}\n', '');
    assert.deepEqual(lint(suspended, { rules }).findings, []);
    const mixed = idle + workload('StatefulSet', '\n  replicas: 2').replace('name: ingress\n', 'name: ingress-canary\n');
    const findings = lint(mixed, { rules }).findings;
    assert.deepEqual(findings.map((f) => [f.line, f.related.map((r) => [r.line, r.message])]), [[8, [[34, 'backend StatefulSet edge/ingress-canary (2 replicas)']]]]);
    assert.match(findings[0].message, /, backends StatefulSet edge\/ingress-canary \(2 replicas\), not a DaemonSet: kube-proxy drops traffic to nodePort 30480 on nodes without such a pod \(at most 2 nodes answer\); /);
  });

  it('leaves out a Job or CronJob with parallelism: 0 (it runs no pods), and counts one with parallelism unset or 1', () => {
    const job = (name: string, parallelism: string) => `
---
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  namespace: edge
spec:${parallelism}
  template:
    metadata: {labels: {app: ingress}}
    spec:
      restartPolicy: Never
      containers: [{name: controller, ports: [{containerPort: 8080}]}]
`;
    const cronJob = (name: string, parallelism: string) => `
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: ${name}
  namespace: edge
spec:
  schedule: "@hourly"
  jobTemplate:
    spec:${parallelism}
      template:
        metadata: {labels: {app: ingress}}
        spec:
          restartPolicy: Never
          containers: [{name: controller, ports: [{containerPort: 8080}]}]
`;
    assert.deepEqual(lint(svc('NodePort') + job('paused', '\n  parallelism: 0'), { rules }).findings, []);
    assert.deepEqual(lint(svc('NodePort') + cronJob('paused', '\n      parallelism: 0'), { rules }).findings, []);
    const mixed = svc('NodePort') + job('paused', '\n  parallelism: 0') + job('default', '') + job('one', '\n  parallelism: 1') + cronJob('paused-nightly', '\n      parallelism: 0') + cronJob('nightly', '');
    const findings = lint(mixed, { rules }).findings;
    assert.deepEqual(findings.map((f) => [f.line, f.message]), [[8, 'externalTrafficPolicy Local on Service edge/ingress, backends Job edge/default, Job edge/one and CronJob edge/nightly, not a DaemonSet: kube-proxy drops traffic to nodePort 30480 on nodes without such a pod; run them on every node or use Cluster']]);
    assert.deepEqual(findings[0].related.map((r) => [r.line, r.message]), [[31, 'backend Job edge/default'], [44, 'backend Job edge/one'], [75, 'backend CronJob edge/nightly']]);
  });

  it('counts an autoscaled backend with its HorizontalPodAutoscaler\'s maxReplicas, and names it', () => {
    const hpa = (target: string) => `
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: ingress-hpa, namespace: edge}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${target}}
  minReplicas: 3
  maxReplicas: 12
`;
    const text = svc('LoadBalancer') + workload('Deployment', '\n  replicas: 3') + hpa('ingress');
    const [f] = lint(text, { rules }).findings;
    assert.equal(f.message, 'externalTrafficPolicy Local on Service edge/ingress, backends Deployment edge/ingress (3-12 replicas by HorizontalPodAutoscaler edge/ingress-hpa), not a DaemonSet: the load balancer sends all traffic to at most 12 nodes (fewer when pods share a node); run them on every node or use Cluster');
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[20, 'backend Deployment edge/ingress (3-12 replicas by HorizontalPodAutoscaler edge/ingress-hpa)']]);
    // An autoscaler of another Deployment changes nothing here.
    assert.match(lint(svc('LoadBalancer') + workload('Deployment', '\n  replicas: 3') + hpa('other'), { rules }).findings[0].message, /\(3 replicas\), not a DaemonSet: the load balancer sends all traffic to at most 3 nodes/);
  });

  it('does not mention nodePorts for a LoadBalancer (its page says direct nodePort clients are dropped elsewhere)', () => {
    const text = svc('LoadBalancer', '\n  allocateLoadBalancerNodePorts: false').replace(', nodePort: 30480', '') + workload('Deployment', '\n  replicas: 2');
    const { findings } = lint(text, { rules });
    assert.match(findings[0].message, /all traffic to at most 2 nodes \(fewer when pods share a node\); run them on every node or use Cluster$/);
    assert.doesNotMatch(findings[0].message, /nodePort/);
  });

  it('warns for a ClusterIP Service with externalIPs', () => {
    const { findings } = lint(svc('ClusterIP', '\n  externalIPs: [203.0.113.10]').replace(', nodePort: 30480', '') + workload('Deployment'), { rules });
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /drops traffic to its externalIPs \(203\.0\.113\.10\) on nodes without/);
  });

  it('fixes to Cluster, editing only the value and keeping the comment, and says the client IP is lost', () => {
    const text = svc('NodePort') + workload('Deployment');
    const fix = lint(text, { rules }).findings[0].fixes[0];
    assert.match(fix.title, /^Set externalTrafficPolicy to Cluster .*client source IP/);
    assert.equal(fix.preferred, true);
    const fixed = applyEdits(dedent(text), fix.edits);
    assert.ok(fixed.includes('  externalTrafficPolicy: Cluster  # keep client IPs\n'));
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('removes a written healthCheckNodePort in the same fix (block style), keeping every other line and comment', () => {
    // The API server accepts a healthCheckNodePort only with type LoadBalancer and externalTrafficPolicy Local.
    const text = svc('LoadBalancer', '\n  # health checks\n  healthCheckNodePort: 31990\n  loadBalancerClass: example.com/lb # ours') + workload('Deployment');
    const [f] = lint(text, { rules }).findings;
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Set externalTrafficPolicy to Cluster and remove healthCheckNodePort 31990 (every node forwards; backends lose the client source IP to SNAT)', false]]);
    const fixed = applyEdits(dedent(text), f.fixes[0].edits);
    assert.equal(fixed, dedent(text).replace('Local  # keep', 'Cluster  # keep').replace('  healthCheckNodePort: 31990\n', ''));
    assert.ok(fixed.includes('    - {name: http, port: 80, targetPort: 8080, nodePort: 30480}\n  # health checks\n  loadBalancerClass: example.com/lb # ours\n'));
    assert.deepEqual(lint(fixed).findings.filter((x) => x.ruleId.endsWith('-invalid')), []);
  });

  it('removes a healthCheckNodePort written in a flow-style spec, and offers no fix when it cannot remove it exactly', () => {
    const flow = 'apiVersion: v1\nkind: Service\nmetadata: {name: ingress, namespace: edge}\nspec: {type: LoadBalancer, externalTrafficPolicy: Local, healthCheckNodePort: 31990, selector: {app: ingress}, ports: [{port: 80, targetPort: 8080}]}\n' + workload('Deployment');
    const [f] = lint(flow, { rules }).findings;
    const fixed = applyEdits(dedent(flow), f.fixes[0].edits);
    assert.ok(fixed.includes('spec: {type: LoadBalancer, externalTrafficPolicy: Cluster, selector: {app: ingress}, ports: [{port: 80, targetPort: 8080}]}\n'), fixed);
    // The entry carries an anchor another Service could use, or a comment of its own: no fix rather than a wrong one.
    const anchored = svc('LoadBalancer', '\n  healthCheckNodePort: &hc 31990\n  loadBalancerClass: x') + workload('Deployment');
    assert.deepEqual(lint(anchored, { rules }).findings.map((x) => x.fixes.length), [0]);
    const commented = svc('LoadBalancer', '\n  healthCheckNodePort: 31990 # fixed port\n  loadBalancerClass: x') + workload('Deployment');
    assert.deepEqual(lint(commented, { rules }).findings.map((x) => x.fixes.length), [0]);
  });

  it('treats a DaemonSet restricted by nodeSelector as partial coverage and names its selection', () => {
    const { findings } = lint(svc('NodePort') + daemonSet('ing', '\n      nodeSelector: {node-role: ingress, kubernetes.io/os: linux}'), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.text, f.severity], [8, 'Local', 'warning']);
    assert.equal(f.message, 'externalTrafficPolicy Local on Service edge/ingress, backends DaemonSet edge/ing, which runs only on nodes matching node-role=ingress: ' +
      'kube-proxy drops traffic to nodePort 30480 on nodes without such a pod; run them on every node or use Cluster');
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[17, 'backend DaemonSet edge/ing (only on nodes matching node-role=ingress)']]);
    const lb = lint(svc('LoadBalancer') + daemonSet('ing', '\n      nodeSelector: {node-role: ingress}'), { rules }).findings;
    assert.deepEqual(lb.map((x) => x.severity), ['info']);
  });

  it('reads required node affinity terms (ORed) and mixes restricted DaemonSets with Deployments', () => {
    const affinity = lint(svc('NodePort') + daemonSet('ing', roleAffinity), { rules }).findings;
    assert.match(affinity[0].message, /DaemonSet edge\/ing, which runs only on nodes matching node-role in \(ingress, edge\) or dedicated: /);
    const mixed = lint(svc('NodePort') + workload('Deployment', '\n  replicas: 2') + daemonSet('ing', '\n      nodeSelector: {node-role: ingress}'), { rules }).findings;
    assert.match(mixed[0].message, /, backends Deployment edge\/ingress \(2 replicas\) and DaemonSet edge\/ing \(only on nodes matching node-role=ingress\), not on every node: /);
  });

  it('stays silent for a DaemonSet selecting only OS/architecture, excluding nodes only, or beside another on every node', () => {
    assert.deepEqual(lint(svc('NodePort') + daemonSet('ing', '\n      nodeSelector: {kubernetes.io/os: linux, kubernetes.io/arch: amd64}'), { rules }).findings, []);
    const notIn = '\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: eks.amazonaws.com/compute-type, operator: NotIn, values: [fargate]}]}]}}}';
    assert.deepEqual(lint(svc('NodePort') + daemonSet('ing', notIn), { rules }).findings, []);
    assert.deepEqual(lint(svc('NodePort') + workload('Deployment') + daemonSet('ing', ''), { rules }).findings, []);
  });

  it('stays silent for DaemonSet backends, no selected workload, Cluster policy, and variants counted once', () => {
    assert.deepEqual(lint(svc('NodePort') + workload('DaemonSet'), { rules }).findings, []);
    assert.deepEqual(lint(svc('NodePort'), { rules }).findings, []);
    assert.deepEqual(lint(svc('NodePort').replace('Local', 'Cluster') + workload('Deployment'), { rules }).findings, []);
    const { findings } = lint({ 'a.yaml': svc('NodePort') + workload('Deployment'), 'b.yaml': workload('Deployment').replace(/^\n---/, '') }, { rules });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].related.length, 1);
  });
});
