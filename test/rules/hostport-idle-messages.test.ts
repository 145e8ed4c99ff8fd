import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

// Every hostPort rule's message for a workload that runs no pods now names it twice at first (where the port is and
// why it is idle); where long names leave no room, the second mention is its kind only, within 300 characters.

/** A name padded to `length` characters: `reporting-xxxxxxxxxx`. */
const long = (word: string, length = 20) => `${word}-`.padEnd(length, 'x');
const NS = long('reporting');
const NAME = long('nightly-report');

/** A CronJob whose Jobs run no pods (`parallelism: 0`, or `suspend: true`), with one container port. */
const cronJob = (port: string, idle: 'parallelism' | 'suspend', hostNetwork = false) => `
apiVersion: batch/v1
kind: CronJob
metadata:
  name: ${NAME}
  namespace: ${NS}
spec:
  schedule: "0 3 * * *"
${idle === 'suspend' ? '  suspend: true\n' : ''}  jobTemplate:
    spec:
${idle === 'parallelism' ? '      parallelism: 0\n' : ''}      template:
        spec:
          restartPolicy: Never${hostNetwork ? '\n          hostNetwork: true' : ''}
          containers:
            - name: ${long('report-writer')}
              image: mysql
              ports:
                - ${port}
`;
const service = (spec: string) => `
apiVersion: v1
kind: Service
metadata:
  name: ${long('accounts-db', 16)}
  namespace: ${long('accounts', 16)}
spec:
  selector: {app: other}
${spec}`;
const daemonSet = `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ${long('node-agent')}
  namespace: ${long('monitoring')}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers:
        - name: ${long('agent')}
          image: agent
          ports:
            - {containerPort: 9100, hostPort: 9100}
`;
const nodePort = service('  type: NodePort\n  ports:\n    - {port: 80, nodePort: 30080}\n');
const healthCheck = service('  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 30100\n  ports:\n    - {port: 80}\n');
const hostPort = (port: number) => `{containerPort: ${port}, hostPort: ${port}}`;

/** Rule, the other file (if any), the CronJob's port and whether it is hostNetwork, and how many findings. */
const CASES: [string, string, string, boolean, number][] = [
  ['host-port-conflicts-nodeport', nodePort, hostPort(30080), false, 2],
  ['host-port-conflicts-nodeport', nodePort, '{containerPort: 30080}', true, 2],
  ['host-port-conflicts-healthcheck-nodeport', healthCheck, hostPort(30100), false, 2],
  ['host-port-conflicts-healthcheck-nodeport', healthCheck, '{containerPort: 30100}', true, 2],
  ['hostport-conflict', daemonSet, hostPort(9100), false, 2],
  ['host-port-reserved', '', hostPort(10250), false, 1],
  ['host-port-reserved', '', '{containerPort: 10250}', true, 1],
  ['hostport-shadows-service-port', service('  ports:\n    - {port: 3306}\n'), hostPort(3306), false, 1],
];

describe('hostPort rules on a workload that runs no pods now, with long names', () => {
  for (const [rule, other, port, hostNetwork, count] of CASES) {
    it(`${rule}${hostNetwork ? ' (hostNetwork)' : ''}: within 300 characters, saying why the CronJob is idle`, () => {
      for (const idle of ['parallelism', 'suspend'] as const) {
        const files = { ...(other ? { 'a.yaml': other } : {}), 'b.yaml': cronJob(port, idle, hostNetwork) };
        const field = idle === 'suspend' ? 'suspend: true' : 'jobTemplate.spec.parallelism: 0';
        for (const config of [{}, { kubeProxyMode: 'ipvs' as const }]) {
          const { findings } = lint(files, { rules: [rule], config });
          assert.equal(findings.length, count, findings.map((f) => f.message).join('\n'));
          for (const f of findings) {
            assert.equal(f.severity, 'warning', f.message);
            assert.ok(f.message.length <= 300, `${f.message.length}: ${f.message}`);
            assert.ok(f.message.includes(`CronJob ${NS}/${NAME} runs no pods now (${field})`) || f.message.includes(`the CronJob runs no pods now (${field})`), f.message);
          }
        }
      }
    });
  }

  it('names the idle workload in full when the names are short', () => {
    const { findings } = lint({ 'a.yaml': nodePort.replace(/accounts(-db)?-x*/g, 'db'), 'b.yaml': cronJob(hostPort(30080), 'suspend').replace(NS, 'jobs').replace(NAME, 'report') }, { rules: ['host-port-conflicts-nodeport'] });
    assert.deepEqual(findings.map((f) => f.message), [
      'nodePort 30080/TCP is also the hostPort of CronJob jobs/report: CronJob jobs/report runs no pods now (suspend: true), but once it runs CNI portmap and kube-proxy both match it on its nodes and one loses the traffic; move one port',
      'hostPort 30080/TCP is also nodePort 30080 of Service db/db: CronJob jobs/report runs no pods now (suspend: true), but once it runs CNI portmap and kube-proxy both match it on its nodes and one loses the traffic; move one port',
    ]);
  });
});
