import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['internaltrafficpolicy-local-coverage'];
const svc = (extra = '') => `
apiVersion: v1
kind: Service
metadata:
  name: cache
  namespace: data
spec:
  internalTrafficPolicy: Local${extra}
  selector: {app: cache}
  ports: [{port: 6379}]
`;
const workload = (kind: string) => `
---
apiVersion: apps/v1
kind: ${kind}
metadata: {name: cache, namespace: data}
spec:
  replicas: 2
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec: {containers: [{name: redis}]}
`;

describe('internaltrafficpolicy-local-coverage', () => {
  it('warns at the Local value, naming the backend and its replicas', () => {
    const { findings } = lint(svc() + workload('Deployment'), { rules });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity], [7, 26, 'Local', 'warning']);
    assert.match(f.message, /^internalTrafficPolicy Local on Service data\/cache, whose backends are Deployment data\/cache \(2 replicas\), not a DaemonSet: a client pod on a node that runs none of these pods gets no endpoint/);
  });

  it('is silent for a backend scaled to 0, and counts an autoscaled one with its HorizontalPodAutoscaler (named in the related location)', () => {
    assert.deepEqual(lint(svc() + workload('Deployment').replace('replicas: 2', 'replicas: 0'), { rules }).findings, []);
    const hpa = '\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: cache, namespace: data}\nspec:\n  scaleTargetRef: {kind: StatefulSet, name: cache}\n  maxReplicas: 5\n';
    const [f] = lint(svc() + workload('StatefulSet') + hpa, { rules }).findings;
    assert.match(f.message, /, whose backends are StatefulSet data\/cache \(1-5 replicas, autoscaled\), not a DaemonSet: /);
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[16, 'backend StatefulSet data/cache (1-5 replicas by HorizontalPodAutoscaler data/cache)']]);
  });

  it('is silent for a Job with parallelism: 0 (it runs no pods), and counts one with parallelism unset or 1', () => {
    const job = (parallelism: string) => `
---
apiVersion: batch/v1
kind: Job
metadata: {name: warm, namespace: data}
spec:${parallelism}
  template:
    metadata: {labels: {app: cache}}
    spec: {restartPolicy: Never, containers: [{name: redis}]}
`;
    assert.deepEqual(lint(svc() + job('\n  parallelism: 0'), { rules }).findings, []);
    for (const parallelism of ['', '\n  parallelism: 1']) {
      const findings = lint(svc() + job(parallelism), { rules }).findings;
      assert.deepEqual(findings.map((f) => [f.line, f.related.map((r) => [r.line, r.message])]), [[7, [[14, 'backend Job data/warm']]]]);
      assert.match(findings[0].message, /^internalTrafficPolicy Local on Service data\/cache, whose backends are Job data\/warm, not a DaemonSet: a client pod on a node that runs none of these pods gets no endpoint/);
    }
  });

  it('treats a DaemonSet restricted by nodeSelector or required affinity as partial coverage', () => {
    const ds = (podSpec: string) => workload('DaemonSet').replace('  replicas: 2\n', '').replace('    spec: {containers: [{name: redis}]}', `    spec: {${podSpec}containers: [{name: redis}]}`);
    const { findings } = lint(svc() + ds('nodeSelector: {pool: cache}, '), { rules });
    assert.equal(findings.length, 1);
    assert.deepEqual([findings[0].line, findings[0].severity], [7, 'warning']);
    assert.equal(findings[0].message, 'internalTrafficPolicy Local on Service data/cache, whose backends are DaemonSet data/cache, which runs only on nodes matching pool=cache: ' +
      'a client pod on a node that runs none of these pods gets no endpoint, and kube-proxy drops its traffic to the ClusterIP; set internalTrafficPolicy: Cluster');
    assert.deepEqual(findings[0].related.map((r) => r.message), ['backend DaemonSet data/cache (only on nodes matching pool=cache)']);
    const affinity = lint(svc() + ds('affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]}}}, '), { rules }).findings;
    assert.match(affinity[0].message, /DaemonSet data\/cache, which runs only on nodes matching gpu: /);
    assert.deepEqual(lint(svc() + ds('nodeSelector: {kubernetes.io/os: linux}, '), { rules }).findings, []);
  });

  it('fixes to Cluster', () => {
    const text = svc() + workload('StatefulSet');
    const fix = lint(text, { rules }).findings[0].fixes[0];
    assert.equal(fix.preferred, true);
    const fixed = applyEdits(dedent(text), fix.edits);
    assert.ok(fixed.includes('internalTrafficPolicy: Cluster\n'));
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('stays silent for DaemonSets, headless Services and Services selecting nothing', () => {
    assert.deepEqual(lint(svc() + workload('DaemonSet'), { rules }).findings, []);
    assert.deepEqual(lint(svc('\n  clusterIP: None') + workload('Deployment'), { rules }).findings, []);
    assert.deepEqual(lint(svc(), { rules }).findings, []);
  });
});
