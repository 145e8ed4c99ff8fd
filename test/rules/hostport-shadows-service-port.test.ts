import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';
import { podWorkload } from '../helpers/manifests';

const rules = ['hostport-shadows-service-port'];
const ipvs = { kubeProxyMode: 'ipvs' as const };

const service = (name: string, ns: string, spec = '') => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:${spec}
  selector: {app: ${name}}
  ports:
    - {name: mysql, port: 3306}
`;

const db = (name: string, ns: string, port = '            - containerPort: 3306\n              hostPort: 3306', extra = '') =>
  podWorkload({ name, ns, container: 'mysql', image: 'mysql', ports: port, spec: extra });

/** The ingress-nginx layout: an admission Service whose port equals the HTTPS hostPort of its own DaemonSet. */
const ingress = (target: string, webhookProtocol = 'TCP') => `
apiVersion: v1
kind: Service
metadata:
  name: ing-admission
  namespace: ingress-nginx
spec:
  selector: {app: ing}
  ports:
    - {name: https-webhook, port: 9443${target ? `, ${target}` : ''}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ing
  namespace: ingress-nginx
spec:
  selector: {matchLabels: {app: ing}}
  template:
    metadata: {labels: {app: ing}}
    spec:
      containers:
        - name: controller
          image: registry.k8s.io/ingress-nginx/controller:v1.11.2
          ports:
            - {name: http, containerPort: 80, hostPort: 80}
            - {name: https, containerPort: 9443, hostPort: 9443}
            - {name: webhook, containerPort: 8443, protocol: ${webhookProtocol}}
`;

const kubeRouter = (args: string) => `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kube-router, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: kube-router}}
  template:
    metadata: {labels: {k8s-app: kube-router}}
    spec:
      hostNetwork: true
      containers:
        - name: kube-router
          image: docker.io/cloudnativelabs/kube-router:v2.1.0
          args: [${args}]
`;

describe('hostport-shadows-service-port', () => {
  it('takes kube-router\'s service proxy (on by default) as IPVS when no kube-proxy mode is known', () => {
    const files = { 'router.yaml': kubeRouter('--run-router=true'), 'svc.yaml': service('accounts', 'db'), 'db.yaml': db('cache', 'db') };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.severity]), [['db.yaml', 'error']]);
    assert.equal(findings[0].message, "hostPort 3306/TCP is ClusterIP port 3306 of Service db/accounts: under IPVS (kube-router, DaemonSet kube-system/kube-router) portmap sends this node's traffic for them to its containerPort 3306, the wrong backend; remove the hostPort");
    const off = lint({ ...files, 'router.yaml': kubeRouter('--run-service-proxy=false') }, { rules });
    assert.deepEqual(off.findings.map((f) => f.severity), ['warning'], 'kube-proxy then proxies, in a mode the workspace does not say');
  });

  it('is an error under IPVS when the hostPort shadows another Service (the MySQL story), naming every Service', () => {
    const { findings } = lint(
      { 'a.yaml': service('db-a', 'team-a'), 'b.yaml': service('db-b', 'team-b') + '---' + db('db-b', 'team-b') },
      { rules, config: ipvs },
    );
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity], ['b.yaml', 26, 25, '3306', 'error']);
    assert.equal(f.message, "hostPort 3306/TCP is ClusterIP port 3306 of Service team-a/db-a and Service team-b/db-b (its own): under IPVS (config) portmap sends this node's traffic for them to its containerPort 3306, the wrong backend; remove the hostPort");
    assert.deepEqual(f.related.map((r) => [r.file, r.line]), [['a.yaml', 9], ['b.yaml', 9]]);
    assert.equal(f.fixes[0].title, 'Remove hostPort 3306 (stop shadowing the Service port)');
  });

  it('is a warning under IPVS, saying so, while the hostPort workload runs no pods (replicas: 0)', () => {
    const parked = db('db-b', 'team-b').replace('spec:\n  selector', 'spec:\n  replicas: 0\n  selector');
    const { findings } = lint({ 'a.yaml': service('db-a', 'team-a'), 'b.yaml': service('db-b', 'team-b') + '---' + parked }, { rules, config: ipvs });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.severity]), [['b.yaml', 27, 'warning']]);
    assert.equal(findings[0].message, "hostPort 3306/TCP is ClusterIP port 3306 of Service team-a/db-a and 1 more: Deployment team-b/db-b runs no pods now (replicas: 0); once it runs, under IPVS (config) portmap sends this node's traffic for them to its containerPort 3306, the wrong backend; remove the hostPort");
  });

  it('is a warning under IPVS when the only shadowed Service is the pod\'s own', () => {
    const { findings } = lint(service('db-b', 'team-b') + '---' + db('db-b', 'team-b'), { rules, config: ipvs });
    assert.deepEqual(findings.map((f) => f.severity), ['warning']);
    assert.equal(findings[0].message, "hostPort 3306/TCP is ClusterIP port 3306 of Service team-b/db-b (its own): under IPVS (config) portmap sends this node's traffic for them to its containerPort 3306, bypassing load balancing; remove the hostPort");
  });

  it('includes the implicit Service default/kubernetes (443) without a related location', () => {
    const { findings } = lint(db('edge', 'edge', '            - containerPort: 8443\n              hostPort: 443'), { rules, config: ipvs });
    assert.equal(findings.length, 1);
    assert.equal(findings[0].severity, 'error');
    assert.equal(findings[0].message, "hostPort 443/TCP is ClusterIP port 443 of Service default/kubernetes: under IPVS (config) portmap sends this node's traffic for them to its containerPort 8443, the wrong backend; remove the hostPort");
    assert.deepEqual(findings[0].related, []);
  });

  it('is info under iptables/nftables and warning/info when the mode is unknown', () => {
    const files = { 'a.yaml': service('db-a', 'team-a'), 'b.yaml': db('db-b', 'team-b') };
    assert.deepEqual(lint(files, { rules, config: { kubeProxyMode: 'iptables' } }).findings.map((f) => f.severity), ['info']);
    assert.equal(lint(files, { rules, config: { kubeProxyMode: 'nftables' } }).findings[0].message, "hostPort 3306/TCP is ClusterIP port 3306 of Service team-a/db-a: harmless under kube-proxy nftables (config); under IPVS portmap would send this node's traffic for them to its containerPort 3306, the wrong backend");
    const unknown = lint(files, { rules }).findings;
    assert.deepEqual(unknown.map((f) => f.severity), ['warning']);
    assert.equal(unknown[0].message, "hostPort 3306/TCP is ClusterIP port 3306 of Service team-a/db-a: if kube-proxy uses IPVS (set kubeProxyMode), portmap sends this node's traffic for them to its containerPort 3306, the wrong backend; remove the hostPort");
    const own = lint(service('db-b', 'team-b') + '---' + db('db-b', 'team-b'), { rules }).findings;
    assert.deepEqual(own.map((f) => f.severity), ['info']);
  });

  it('names variants of one Service once, other Services before its own, and at most two names', () => {
    const variants = lint({ 'base/a.yaml': service('db-a', 'team-a'), 'overlay/a.yaml': service('db-a', 'team-a'), 'b.yaml': service('db-b', 'team-b') + '---' + db('db-b', 'team-b') }, { rules, config: ipvs }).findings;
    assert.equal(variants.length, 1);
    assert.match(variants[0].message, /^hostPort 3306\/TCP is ClusterIP port 3306 of Service team-a\/db-a and Service team-b\/db-b \(its own\): /);
    const many = ['a', 'b', 'c', 'd', 'e', 'f'].map((n, i) => [`${i}.yaml`, service(`db-${n}`, 'x')]);
    const f = lint({ ...Object.fromEntries(many), 'p.yaml': db('db-b', 'team-b') }, { rules, config: ipvs }).findings;
    assert.match(f[0].message, /^hostPort 3306\/TCP is ClusterIP port 3306 of Service x\/db-a, Service x\/db-b and 4 more: /);
    assert.deepEqual(f[0].related.map((r) => r.message), ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `port 3306/TCP of Service x/db-${n}`));
  });

  it('is an error under IPVS when its own Service port targets another containerPort (ingress-nginx admission webhook)', () => {
    const { findings } = lint({ 'ing.yaml': ingress('targetPort: webhook') }, { rules, config: ipvs });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.deepEqual([f.line, f.column, f.text, f.severity, f.object], [26, 60, '9443', 'error', 'DaemonSet ingress-nginx/ing']);
    assert.equal(f.message, "hostPort 9443/TCP is ClusterIP port 9443 of Service ingress-nginx/ing-admission (its own): under IPVS (config) portmap sends this node's traffic for them to its " +
      'containerPort 9443, not to targetPort webhook (containerPort 8443); remove the hostPort');
    assert.deepEqual(f.related.map((r) => [r.line, r.message]), [[9, 'port 9443/TCP of Service ingress-nginx/ing-admission']]);
  });

  it('rates a misrouted own Service like another Service: warning when the mode is unknown, info under iptables', () => {
    assert.deepEqual(lint(ingress('targetPort: webhook'), { rules }).findings.map((f) => f.severity), ['warning']);
    assert.deepEqual(lint(ingress('targetPort: webhook'), { rules, config: { kubeProxyMode: 'iptables' } }).findings.map((f) => f.severity), ['info']);
  });

  it('resolves numeric targetPorts and names a targetPort the pod does not declare', () => {
    const numeric = lint(ingress('targetPort: 8443'), { rules, config: ipvs }).findings;
    assert.deepEqual(numeric.map((f) => f.severity), ['error']);
    assert.match(numeric[0].message, /\(its own\): .* to its containerPort 9443, not to targetPort 8443; remove the hostPort$/);
    const undeclared = lint(ingress('targetPort: admission'), { rules, config: ipvs }).findings;
    assert.match(undeclared[0].message, /to its containerPort 9443, not to targetPort admission \(not declared for TCP\); remove the hostPort$/);
    // A name of the right container port but another protocol does not resolve (FindPort matches name and protocol).
    const udp = lint(ingress('targetPort: webhook', 'UDP'), { rules, config: ipvs }).findings;
    assert.match(udp[0].message, /to its containerPort 9443, not to targetPort webhook \(not declared for TCP\); remove the hostPort$/);
  });

  it('stays a warning when its own Service targets the mapped containerPort, by name, by number or by default', () => {
    for (const target of ['targetPort: https', 'targetPort: 9443', '']) {
      const { findings } = lint(ingress(target), { rules, config: ipvs });
      assert.deepEqual(findings.map((f) => f.severity), ['warning'], target);
      assert.equal(findings[0].message, "hostPort 9443/TCP is ClusterIP port 9443 of Service ingress-nginx/ing-admission (its own): under IPVS (config) portmap sends this node's traffic for them to its containerPort 9443, bypassing load balancing; remove the hostPort", target);
    }
  });

  it('reads the mode from a KubeProxyConfiguration in the workspace', () => {
    const kpc = 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n';
    const { findings } = lint({ 'kp.yaml': kpc, 'a.yaml': service('db-a', 'team-a'), 'b.yaml': db('db-b', 'team-b') }, { rules });
    assert.deepEqual(findings.map((f) => f.severity), ['error']);
  });

  it('stays silent for hostNetwork pods, headless and ExternalName Services, other protocols and a specific hostIP', () => {
    const other = { 'a.yaml': service('db-a', 'team-a') };
    assert.deepEqual(lint({ ...other, 'b.yaml': db('db-b', 'team-b', '            - containerPort: 3306\n              hostPort: 3306', '\n      hostNetwork: true') }, { rules, config: ipvs }).findings, []);
    assert.deepEqual(lint({ 'a.yaml': service('db-a', 'team-a', '\n  clusterIP: None'), 'b.yaml': db('db-b', 'team-b') }, { rules, config: ipvs }).findings, []);
    assert.deepEqual(lint({ 'a.yaml': service('db-a', 'team-a', '\n  type: ExternalName\n  externalName: db.example.com'), 'b.yaml': db('db-b', 'team-b') }, { rules, config: ipvs }).findings, []);
    assert.deepEqual(lint({ ...other, 'b.yaml': db('db-b', 'team-b', '            - {containerPort: 3306, hostPort: 3306, protocol: UDP}') }, { rules, config: ipvs }).findings, []);
    assert.deepEqual(lint({ ...other, 'b.yaml': db('db-b', 'team-b', '            - {containerPort: 3306, hostPort: 3306, hostIP: 10.0.0.5}') }, { rules, config: ipvs }).findings, []);
    assert.deepEqual(lint({ ...other, 'b.yaml': db('db-b', 'team-b', '            - containerPort: 3306') }, { rules, config: ipvs }).findings, []);
  });
  it('keeps the message of an idle CronJob with long names within 300 characters, naming its kind', () => {
    const long = (word: string) => `${word}-`.padEnd(20, 'x');
    const cronJob = (idle: string) => `
apiVersion: batch/v1
kind: CronJob
metadata:
  name: ${long('nightly-report')}
  namespace: ${long('reporting')}
spec:
  schedule: "0 3 * * *"
${idle}  jobTemplate:
    spec:
      parallelism: 0
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: mysql
              image: mysql
              ports:
                - {containerPort: 3306, hostPort: 3306}
`;
    const files = { 'a.yaml': service(long('accounts-db'), long('accounts')) };
    for (const config of [{}, ipvs]) {
      const { findings } = lint({ ...files, 'b.yaml': cronJob('') }, { rules, config });
      assert.equal(findings.length, 1);
      assert.ok(findings[0].message.length <= 300, `${findings[0].message.length}: ${findings[0].message}`);
      assert.match(findings[0].message, /: the CronJob runs no pods now \(jobTemplate\.spec\.parallelism: 0\); once it runs, /);
    }
    const { findings } = lint({ ...files, 'b.yaml': cronJob('') }, { rules });
    assert.equal(findings[0].message, `hostPort 3306/TCP is ClusterIP port 3306 of Service ${long('accounts')}/${long('accounts-db')}: the CronJob runs no pods now (jobTemplate.spec.parallelism: 0); once it runs, under IPVS portmap sends its traffic to this pod, the wrong backend; remove the hostPort`);
    const suspended = lint({ ...files, 'b.yaml': cronJob('  suspend: true\n').replace('      parallelism: 0\n', '') }, { rules }).findings;
    assert.ok(suspended[0].message.length <= 300, suspended[0].message);
    assert.match(suspended[0].message, /: the CronJob runs no pods now \(suspend: true\); once it runs, /);
  });
});
