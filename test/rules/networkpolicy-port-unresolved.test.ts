import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['networkpolicy-port-unresolved'];
const workload = (name: string, ports: string, ns = 'shop', labels = `{app: ${name}}`) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${ns}}
spec:
  template:
    metadata: {labels: ${labels}}
    spec: {containers: [{name: main, image: x:1, ports: ${ports}}]}
  selector: {matchLabels: ${labels}}`;
const service = (name: string, ports: string, ns = 'shop') => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:
  selector: {app: ${name}}
  ports: ${ports}`;
// The first port entry's value is on line 9.
const policy = (rules: string, podSelector = '{matchLabels: {app: db}}', ns = 'shop') => `
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: db, namespace: ${ns}}
spec:
  podSelector: ${podSelector}
  policyTypes: [Ingress, Egress]
${rules}`;
const ingressPorts = (ports: string) => `  ingress:\n    - from: [{podSelector: {matchLabels: {app: api}}}]\n      ports: ${ports}`;

describe('networkpolicy-port-unresolved', () => {
  it('warns at a Service port written where the Pod port is matched, naming the Service, with a fix to the targetPort', () => {
    const files = {
      'db.yaml': workload('db', '[{name: pg, containerPort: 6432}]'),
      'svc.yaml': service('db', '[{port: 5432, targetPort: pg}]'),
      'np.yaml': policy(ingressPorts('[{protocol: TCP, port: 5432}]')),
    };
    const { findings } = lint(files, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.text, f.severity, f.object], ['np.yaml', 9, 37, '5432', 'warning', 'NetworkPolicy shop/db']);
    assert.equal(f.message, 'ingress rule #0 of NetworkPolicy shop/db allows port 5432/TCP, the port of Service shop/db, which sends it to Pod port "pg" (6432): policies match the Pod\'s port after DNAT, so this entry never matches Service traffic; allow "pg" (6432)');
    assert.deepEqual(f.related.map((r) => [r.file, r.line, r.message]), [['svc.yaml', 6, 'port 5432 of Service shop/db → targetPort pg']]);
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Allow the Pod port "pg" (targetPort of Service shop/db)', true]]);
    const fixed = applyEdits(dedent(files['np.yaml']), f.fixes[0].edits);
    assert.match(fixed, /ports: \[\{protocol: TCP, port: pg\}\]/);
    assert.deepEqual(lint({ ...files, 'np.yaml': fixed }, { rules }).findings, []);
  });

  it('does not copy a numeric targetPort no pod declares: says so, names the declared ports, offers no fix; a declared one of two Services wins', () => {
    const files = {
      'db.yaml': workload('db', '[{name: http, containerPort: 8080}]'),
      'svc.yaml': service('db', '[{port: 80, targetPort: 8081}]'),
      'np.yaml': policy(ingressPorts('[{protocol: TCP, port: 80}]')),
    };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.column, f.text, f.object, f.fixes.length]), [['np.yaml', 9, 37, '80', 'NetworkPolicy shop/db', 0]]);
    assert.equal(findings[0].message, "ingress rule #0 of NetworkPolicy shop/db allows port 80/TCP, the port of Service shop/db, whose targetPort 8081 none of the pods it applies to declares (they declare 8080/TCP): policies match the Pod's port after DNAT; fix that targetPort, then allow the Pod port");
    assert.ok(findings[0].message.length <= 300);
    assert.deepEqual(findings[0].related.map((r) => [r.file, r.line, r.message]), [['svc.yaml', 6, 'port 80 of Service shop/db → targetPort 8081, which no selected pod declares']]);
    // A second Service whose port 80 does reach the declared 8080: that is the port to allow, and the fix writes it.
    const both = { ...files, 'svc2.yaml': service('db', '[{port: 80, targetPort: 8080}]').replace('name: db,', 'name: db2,') };
    const two = lint(both, { rules }).findings;
    assert.deepEqual(two.map((f) => [f.line, f.column, f.fixes.map((x) => [x.title, x.preferred])]), [[9, 37, [['Allow the Pod port 8080 (targetPort of Service shop/db2)', true]]]]);
    assert.match(two[0].message, /the port of Service shop\/db2, which sends it to Pod port 8080: .*; allow 8080$/);
    // Fixed Service: the policy's 80 is still the Service port, now with the declared targetPort as the fix.
    const fixed = lint({ ...files, 'svc.yaml': service('db', '[{port: 80, targetPort: 8080}]') }, { rules }).findings;
    assert.deepEqual(fixed.map((f) => f.fixes.map((x) => x.title)), [['Allow the Pod port 8080 (targetPort of Service shop/db)']]);
  });

  it('warns at a named port none of the selected pods declares with that protocol', () => {
    const files = { 'db.yaml': workload('db', '[{name: pg, containerPort: 5432}, {name: dns, containerPort: 53, protocol: UDP}]'), 'np.yaml': policy(ingressPorts('[{port: postgres}, {port: dns}]')) };
    const { findings } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.text, f.message]), [
      ['postgres', 'ingress rule #0 of NetworkPolicy shop/db allows port "postgres"/TCP, which none of the pods it applies to declares (Deployment shop/db): the CNI resolves names per Pod, so this entry matches nothing and the traffic is dropped; allow a port they declare'],
      ['dns', 'ingress rule #0 of NetworkPolicy shop/db allows port "dns"/TCP, which none of the pods it applies to declares (Deployment shop/db): the CNI resolves names per Pod, so this entry matches nothing and the traffic is dropped; allow a port they declare'],
    ]);
    assert.deepEqual(findings[0].related.map((r) => r.message), ['Deployment shop/db declares pg/TCP, dns/UDP']);
  });

  it('judges egress ports on the destination pods when the peers resolve, Namespace labels included', () => {
    const egress = (to: string) => `  egress:\n    - to: ${to}\n      ports: [{port: 5432}]`;
    const files = {
      'db.yaml': workload('pg', '[{containerPort: 6432}]', 'data'),
      'svc.yaml': service('pg', '[{port: 5432, targetPort: 6432}]', 'data'),
      'ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: data, labels: {tier: data}}\n',
    };
    const byName = lint({ ...files, 'np.yaml': policy(egress('[{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: data}}, podSelector: {matchLabels: {app: pg}}}]'), '{}') }, { rules }).findings;
    assert.deepEqual(byName.map((f) => [f.text, f.message]), [['5432', 'egress rule #0 of NetworkPolicy shop/db allows port 5432/TCP, the port of Service data/pg, which sends it to Pod port 6432: policies match the Pod\'s port after DNAT, so this entry never matches Service traffic; allow 6432']]);
    const byLabel = lint({ ...files, 'np.yaml': policy(egress('[{namespaceSelector: {matchLabels: {tier: data}}}]'), '{}') }, { rules }).findings;
    assert.deepEqual(byLabel.map((f) => f.text), ['5432']);
    // Unknown namespace labels (no Namespace object), an ipBlock, or no `to`: the destinations are not known.
    const { 'ns.yaml': _ns, ...noNamespace } = files;
    for (const to of ['[{namespaceSelector: {matchLabels: {tier: data}}}]', '[{ipBlock: {cidr: 10.0.0.0/8}}, {podSelector: {}}]']) {
      assert.deepEqual(lint({ ...noNamespace, 'np.yaml': policy(egress(to), '{}') }, { rules }).findings, [], to);
    }
    assert.deepEqual(lint({ ...files, 'np.yaml': policy('  egress:\n    - ports: [{port: 5432}]', '{}') }, { rules }).findings, []);
  });

  it('honours endPort ranges and protocols', () => {
    const files = { 'db.yaml': workload('db', '[{containerPort: 6432}]'), 'svc.yaml': service('db', '[{port: 5432, targetPort: 6432}]') };
    assert.deepEqual(lint({ ...files, 'np.yaml': policy(ingressPorts('[{port: 5000, endPort: 7000}]')) }, { rules }).findings, []);
    const range = lint({ ...files, 'np.yaml': policy(ingressPorts('[{port: 5000, endPort: 6000}]')) }, { rules }).findings;
    assert.deepEqual(range.map((f) => [f.message, f.fixes.length]), [['ingress rule #0 of NetworkPolicy shop/db allows port 5000-6000/TCP, the port of Service shop/db, which sends it to Pod port 6432: policies match the Pod\'s port after DNAT, so this entry never matches Service traffic; allow 6432', 0]]);
    assert.deepEqual(lint({ ...files, 'np.yaml': policy(ingressPorts('[{port: 5432, protocol: UDP}]')) }, { rules }).findings, []);
  });

  it('stays silent for declared ports, numbers that are no Service port, policies selecting no pod, and other namespaces', () => {
    const files = { 'db.yaml': workload('db', '[{name: pg, containerPort: 5432}]'), 'svc.yaml': service('db', '[{port: 5432, targetPort: pg}]') };
    for (const ports of ['[{port: 5432}]', '[{port: pg}]', '[{port: 9999}]', '[{protocol: TCP}]']) {
      assert.deepEqual(lint({ ...files, 'np.yaml': policy(ingressPorts(ports)) }, { rules }).findings, [], ports);
    }
    assert.deepEqual(lint({ ...files, 'np.yaml': policy(ingressPorts('[{port: postgres}]'), '{matchLabels: {app: cache}}') }, { rules }).findings, []);
    assert.deepEqual(lint({ ...files, 'np.yaml': policy(ingressPorts('[{port: postgres}]'), '{}', 'blog') }, { rules }).findings, []);
  });

  it('reads the pods of every selected workload: a port declared by one of them is enough', () => {
    const files = {
      'a.yaml': workload('db', '[{name: pg, containerPort: 5432}]', 'shop', '{app: db, role: primary}'),
      'b.yaml': workload('replica', '[{name: metrics, containerPort: 9187}]', 'shop', '{app: db, role: replica}'),
      'np.yaml': policy(ingressPorts('[{port: pg}, {port: metrics}]')),
    };
    assert.deepEqual(lint(files, { rules }).findings, []);
  });

  it('judges each cluster on its own, and a variant of the pod template that declares the name is enough', () => {
    const config = { clusters: { dev: ['dev/**'], prod: ['prod/**'] } };
    const files = { 'dev/db.yaml': workload('db', '[{name: postgres, containerPort: 5432}]'), 'prod/db.yaml': workload('db', '[{name: pg, containerPort: 5432}]'), 'prod/np.yaml': policy(ingressPorts('[{port: pg}]')) };
    assert.deepEqual(lint(files, { rules, config }).findings, []);
    const wrong = lint({ ...files, 'prod/np.yaml': policy(ingressPorts('[{port: postgres}]')) }, { rules, config }).findings;
    assert.deepEqual(wrong.map((f) => [f.file, f.text, f.finding.clusters]), [['prod/np.yaml', 'postgres', ['prod']]]);
    // Without cluster groups the two files are variants of one Deployment: one of them declares postgres.
    assert.deepEqual(lint({ ...files, 'prod/np.yaml': policy(ingressPorts('[{port: postgres}]')) }, { rules }).findings, []);
  });
  it('applies a podSelector on a controller-set label (statefulset.kubernetes.io/pod-name) to that StatefulSet\'s Pods', () => {
    const sts = `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: main, image: x:1, ports: [{name: pg, containerPort: 5432}]}]}`;
    const selected = lint({ 'db.yaml': sts, 'np.yaml': policy(ingressPorts('[{port: postgres}]'), '{matchLabels: {statefulset.kubernetes.io/pod-name: db-1}}') }, { rules }).findings;
    assert.deepEqual(selected.map((f) => [f.line, f.text]), [[9, 'postgres']]);
    assert.match(selected[0].message, /declares \(StatefulSet shop\/db\)/);
    // db-2 is no Pod of a 2-replica StatefulSet: the policy applies to no pod here, so its ports are not judged.
    assert.deepEqual(lint({ 'db.yaml': sts, 'np.yaml': policy(ingressPorts('[{port: postgres}]'), '{matchLabels: {statefulset.kubernetes.io/pod-name: db-2}}') }, { rules }).findings, []);
  });
});
