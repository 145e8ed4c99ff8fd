import { strict as assert } from 'node:assert';
import { CoreConfig, DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { nodePortBands } from '../../server/out/core/kubernetes/api-server/node-port-allocator';
import { commonFreeNodePorts, freeNodePorts, PortMap, PortMapClaim, portMapsOf } from '../../server/out/core/port-map/port-map';
import { applyEdits, dedent, lint } from '../helpers/lint';
import { podWorkload } from '../helpers/manifests';

const service = (name: string, ns: string, spec: string) => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:${spec}`;

function maps(files: Record<string, string>, config: Partial<CoreConfig> = {}): PortMap[] {
  const full: CoreConfig = { ...DEFAULT_CONFIG, ...config };
  return portMapsOf(lint(files, { config: full }).analysis, full);
}

/** `port/PROTO kind owner` of every claim that is not a component port (those are the same in every workspace). */
function rows(map: PortMap): string[] {
  return map.rows.flatMap((r) => r.claims.filter((c) => c.kind !== 'component').map((c) => `${c.port}/${c.protocol} ${c.kind} ${c.object?.kind} ${c.object?.namespace}/${c.object?.name}`));
}

function claim(map: PortMap, port: number, kind: string): PortMapClaim {
  const found = map.rows.find((r) => r.port === port)?.claims.find((c) => c.kind === kind);
  assert.ok(found, `no ${kind} claim on ${port}`);
  return found;
}

describe('node-port map', () => {
  it('lists every kind of node-level claim by port, with the field that makes it', () => {
    const [map] = maps({
      'svc.yaml': service('lb', 'web', `
  type: LoadBalancer
  externalTrafficPolicy: Local
  healthCheckNodePort: 30990
  externalIPs: [192.0.2.7]
  ports:
    - {name: http, port: 80, nodePort: 30080}`),
      'pod.yaml': podWorkload({ name: 'agent', ns: 'ops', ports: '            - {containerPort: 9100, hostPort: 9100, hostIP: 192.0.2.1}' }),
      'hn.yaml': podWorkload({ kind: 'DaemonSet', name: 'exporter', ns: 'ops', container: 'exp', ports: '            - {containerPort: 9200, protocol: UDP}', spec: '\n      hostNetwork: true' }),
    });
    assert.equal(map.group, '');
    assert.deepEqual(rows(map), [
      '80/TCP externalIP Service web/lb',
      '9100/TCP hostPort Deployment ops/agent',
      '9200/UDP hostNetwork DaemonSet ops/exporter',
      '30080/TCP nodePort Service web/lb',
      '30990/TCP healthCheckNodePort Service web/lb',
    ]);
    const hostPort = claim(map, 9100, 'hostPort');
    assert.deepEqual([hostPort.container, hostPort.hostIP, hostPort.span?.file], ['main', '192.0.2.1', 'pod.yaml']);
    assert.deepEqual([claim(map, 80, 'externalIP').address, claim(map, 80, 'externalIP').portName], ['192.0.2.7', 'http']);
    assert.equal(claim(map, 9200, 'hostNetwork').container, 'exp');
    // kubelet and kube-proxy ports are on every node of every cluster; control-plane ports on control-plane nodes.
    const kubelet = claim(map, 10250, 'component');
    assert.deepEqual([kubelet.component?.component, kubelet.nodes.text, kubelet.object, kubelet.span], ['kubelet API', 'every node', undefined, undefined]);
    assert.equal(claim(map, 6443, 'component').nodes.scope.kind, 'control-plane');
    assert.equal(claim(map, 10248, 'component').hostIP, '127.0.0.1');
  });

  it('says which nodes each claim applies to: every node, a DaemonSet selection, a pinned node, scheduled replicas', () => {
    const nodes = `
apiVersion: v1
kind: List
items:
  - {apiVersion: v1, kind: Node, metadata: {name: n1, labels: {role: ingress, node-role.kubernetes.io/control-plane: ""}}}
  - {apiVersion: v1, kind: Node, metadata: {name: n2, labels: {role: ingress}}}
  - {apiVersion: v1, kind: Node, metadata: {name: n3, labels: {role: batch}}}`;
    const [map] = maps({
      'nodes.yaml': nodes,
      'ds.yaml': podWorkload({ kind: 'DaemonSet', name: 'edge', ns: 'x', ports: '            - {containerPort: 80, hostPort: 8080}', spec: '\n      nodeSelector: {role: ingress}' }),
      'all.yaml': podWorkload({ kind: 'DaemonSet', name: 'everywhere', ns: 'x', ports: '            - {containerPort: 80, hostPort: 8081}', spec: '\n      nodeSelector: {kubernetes.io/os: linux}' }),
      'pinned.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: x}\nspec:\n  nodeName: n3\n  containers: [{name: c, image: i, ports: [{containerPort: 80, hostPort: 8082}]}]\n',
      'deploy.yaml': podWorkload({ name: 'web', ns: 'x', ports: '            - {containerPort: 80, hostPort: 8083}', spec: '\n      nodeSelector: {role: batch}' }),
      'np.yaml': service('np', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30001}]'),
    });
    const nodesOf = (port: number) => map.rows.find((r) => r.port === port)!.claims[0].nodes;
    assert.deepEqual(nodesOf(8080), { scope: { kind: 'selection', selector: 'role=ingress' }, text: 'DaemonSet on role=ingress (n1, n2)', names: ['n1', 'n2'] });
    assert.deepEqual(nodesOf(8081), { scope: { kind: 'every-node' }, text: 'every node', names: ['n1', 'n2', 'n3'] });
    assert.deepEqual(nodesOf(8082), { scope: { kind: 'pinned', node: 'n3' }, text: 'node n3', names: ['n3'] });
    assert.deepEqual(nodesOf(8083), { scope: { kind: 'scheduled', replicas: 1, selector: 'role=batch' }, text: '1 replica on role=batch (n3)', names: ['n3'] });
    assert.deepEqual(nodesOf(30001).names, ['n1', 'n2', 'n3']);
    assert.deepEqual(claim(map, 6443, 'component').nodes.names, ['n1']);
  });

  it('marks collisions from the rules, naming the claims on the other side, and leaves variants and separate nodes alone', () => {
    const [map] = maps({
      'a.yaml': service('a', 'x', '\n  type: NodePort\n  ports: [{name: http, port: 80, nodePort: 30080}]'),
      'b.yaml': service('b', 'z', '\n  type: NodePort\n  ports: [{name: http, port: 80, nodePort: 30080}]'),
      'ds1.yaml': podWorkload({ kind: 'DaemonSet', name: 'one', ns: 'x', ports: '            - {containerPort: 80, hostPort: 9000}', spec: '\n      nodeSelector: {zone: a}' }),
      'ds2.yaml': podWorkload({ kind: 'DaemonSet', name: 'two', ns: 'x', ports: '            - {containerPort: 80, hostPort: 9000}', spec: '\n      nodeSelector: {zone: b}' }),
      'kubelet.yaml': podWorkload({ name: 'bad', ns: 'x', ports: '            - {containerPort: 80, hostPort: 10250}' }),
    });
    const a = map.rows.find((r) => r.port === 30080)!;
    assert.equal(a.collision, 'error');
    const [sa, sb] = a.claims;
    assert.deepEqual(sa.collisions.map((c) => [c.ruleId, c.severity, c.with]), [['nodeport-duplicate', 'error', [sb.id]]]);
    assert.deepEqual(sb.collisions.map((c) => [c.ruleId, c.with]), [['nodeport-duplicate', [sa.id]]]);
    // Two DaemonSets on disjoint node selections share the number but never a node.
    const nine = map.rows.find((r) => r.port === 9000)!;
    assert.equal(nine.collision, undefined);
    assert.deepEqual(nine.claims.map((c) => c.collisions.length), [0, 0]);
    // A hostPort on the kubelet's port: the component claim gets the collision too.
    const ten = map.rows.find((r) => r.port === 10250)!;
    const [host, kubelet] = ten.claims;
    assert.deepEqual([host.kind, kubelet.kind], ['hostPort', 'component']);
    assert.deepEqual(host.collisions.map((c) => [c.ruleId, c.with]), [['host-port-reserved', [kubelet.id]]]);
    assert.deepEqual(kubelet.collisions.map((c) => [c.ruleId, c.with]), [['host-port-reserved', [host.id]]]);
  });

  it('keeps a collision with something that is not a node-level claim as text (hostPort vs a ClusterIP port under IPVS)', () => {
    const [map] = maps({
      'svc.yaml': service('db', 'a', '\n  selector: {app: db}\n  ports: [{port: 3306}]'),
      'pod.yaml': podWorkload({ name: 'legacy', ns: 'b', ports: '            - {containerPort: 3306, hostPort: 3306}' }),
    }, { kubeProxyMode: 'ipvs' });
    const [c] = map.rows.find((r) => r.port === 3306)!.claims;
    assert.equal(c.collisions.length, 1);
    assert.equal(c.collisions[0].ruleId, 'hostport-shadows-service-port');
    assert.deepEqual(c.collisions[0].with, []);
    assert.deepEqual(c.collisions[0].others.map((o) => o.message), ['port 3306/TCP of Service a/db']);
  });

  it('ties an externalIP collision to the port it concerns, although one externalIPs entry claims every port of its Service', () => {
    const [map] = maps({
      'a.yaml': service('a', 'x', '\n  externalIPs: [192.0.2.9]\n  ports: [{name: http, port: 8080}, {name: ssh, port: 2222}]'),
      'b.yaml': service('b', 'x', '\n  externalIPs: [192.0.2.9]\n  ports: [{name: http, port: 8080}]'),
    });
    assert.equal(map.rows.find((r) => r.port === 8080)!.collision, 'error');
    const ssh = map.rows.find((r) => r.port === 2222)!;
    assert.deepEqual([ssh.collision, ssh.claims[0].collisions.length], [undefined, 0]);
  });

  it('shows a nodePort the API server would not allocate as taking no port', () => {
    const [map] = maps({ 'svc.yaml': service('c', 'x', '\n  ports: [{port: 80, nodePort: 30111}]') });
    const c = claim(map, 30111, 'nodePort');
    assert.match(c.inactive ?? '', /^Service type ClusterIP: no nodePort is allocated/);
    assert.deepEqual(c.nodes.scope, { kind: 'none', reason: c.inactive });
  });

  it('shows externalIPs the API server rejects as taking no port, and leaves them out of the band usage', () => {
    const [map] = maps({
      'a.yaml': service('a', 'x', '\n  externalIPs: [127.0.0.1, 0.0.0.0, not-an-ip, 192.0.2.9]\n  ports: [{name: a, port: 30010}, {name: b, port: 30020}]'),
      'b.yaml': service('b', 'x', '\n  externalIPs: [127.0.0.1]\n  ports: [{name: a, port: 30030}]'),
      'c.yaml': service('c', 'x', '\n  ports: [{port: 80, nodePort: 30040}]'),
      'd.yaml': service('d', 'x', '\n  externalIPs: [192.0.2.9]\n  ports: [{name: a, port: 30050}]'),
    });
    const ips = (port: number) => map.rows.find((r) => r.port === port)!.claims.map((c) => [c.address, c.inactive ?? null, c.nodes.scope.kind]);
    // The good address of Service a takes nothing either: the API server rejects the whole Service for the others.
    assert.deepEqual(ips(30010), [
      ['127.0.0.1', 'the API server rejects externalIP "127.0.0.1" (may not be in the loopback range (127.0.0.0/8, ::1/128))', 'none'],
      ['0.0.0.0', 'the API server rejects externalIP "0.0.0.0" (may not be unspecified (0.0.0.0))', 'none'],
      ['not-an-ip', 'the API server rejects externalIP "not-an-ip" (must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff))', 'none'],
      ['192.0.2.9', 'externalIP "127.0.0.1" is not usable: the API server rejects Service x/a with "spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)"', 'none'],
    ]);
    assert.deepEqual(ips(30050), [['192.0.2.9', null, 'every-node']]);
    // Only 30050 is taken; 30010-30030 (rejected Services) and 30040 (a nodePort on a ClusterIP Service) by nothing.
    const [stat] = map.bands;
    assert.deepEqual([stat.used, stat.allocated, stat.free], [1, 0, 85]);
    assert.deepEqual(stat.freeIntervals, [{ min: 30000, max: 30049 }, { min: 30051, max: 30085 }]);
    // The rules agree: no conflict between two Services on a rejected address.
    const { findings } = lint({ 'a.yaml': service('a', 'x', '\n  externalIPs: [127.0.0.1]\n  ports: [{port: 80}]'), 'b.yaml': service('b', 'x', '\n  externalIPs: [127.0.0.1]\n  ports: [{port: 80}]') });
    assert.deepEqual(findings.filter((f) => f.ruleId === 'externalip-port-conflict'), []);
    assert.deepEqual(findings.filter((f) => f.ruleId === 'service-spec-invalid').map((f) => f.file), ['a.yaml', 'b.yaml']);
  });

  it('shows every claim of a Service the API server rejects as taking nothing, with the reason, out of used, allocated and automatic', () => {
    const [map] = maps({
      // A LoadBalancer with eTP Cluster and a healthCheckNodePort: the whole Service is rejected, nodePort 30092 too.
      'lb.yaml': service('lb', 'x', '\n  type: LoadBalancer\n  healthCheckNodePort: 30091\n  ports: [{name: a, port: 80, nodePort: 30092}, {name: b, port: 81}]'),
      // Two unnamed ports: rejected, so its written nodePort and its port without one are not allocated.
      'c.yaml': service('c', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30001}, {port: 81}]'),
      'ok.yaml': service('ok', 'x', '\n  type: NodePort\n  ports: [{name: a, port: 80, nodePort: 30002}, {name: b, port: 81}]'),
    });
    const of = (port: number) => map.rows.find((r) => r.port === port)!.claims.map((c) => [c.kind, c.inactive ?? null, c.nodes.text]);
    assert.deepEqual(of(30091), [['healthCheckNodePort', 'not a LoadBalancer Service with externalTrafficPolicy Local: the API server rejects the healthCheckNodePort', 'none']]);
    assert.deepEqual(of(30092), [['nodePort', 'healthCheckNodePort 30091 is set on a LoadBalancer Service with externalTrafficPolicy unset (Cluster): the API server rejects Service x/lb with "spec.healthCheckNodePort: Invalid value: 30091: may only be set when `type` is \'LoadBalancer\' and `externalTrafficPolicy` is \'Local\'"', 'none']]);
    assert.match(of(30001)[0][1] as string, /^port #0 has no name, but a Service with more than one port must name each: the API server rejects Service x\/c with "spec\.ports\[0\]\.name: Required value"/);
    assert.deepEqual(of(30002), [['nodePort', null, 'every node']]);
    const [stat] = map.bands;
    assert.deepEqual([stat.used, stat.allocated], [1, 1]);
    // Only Service ok's port b gets an automatic nodePort.
    assert.deepEqual(map.automatic, { nodePorts: 1, healthCheckNodePorts: 0 });
    // --free and the quick fixes may pick the rejected Services' numbers: they are free.
    const { analysis } = lint({ 'lb.yaml': service('lb', 'x', '\n  type: LoadBalancer\n  healthCheckNodePort: 30001\n  ports: [{port: 80, nodePort: 30000}]') });
    assert.deepEqual(freeNodePorts(analysis.model, DEFAULT_CONFIG, 2), [30000, 30001]);
  });

  it('splits the NodePort range into the static and dynamic bands of KEP-3668 with fill and free intervals', () => {
    assert.deepEqual(nodePortBands({ min: 30000, max: 32767 }), [{ band: 'static', min: 30000, max: 30085 }, { band: 'dynamic', min: 30086, max: 32767 }]);
    assert.deepEqual(nodePortBands({ min: 30000, max: 30015 }), [{ band: 'dynamic', min: 30000, max: 30015 }]);
    const [map] = maps({
      'a.yaml': service('a', 'x', '\n  type: NodePort\n  ports: [{name: a, port: 80, nodePort: 30000}, {name: b, port: 81, nodePort: 30002}, {name: c, port: 82}]'),
      'h.yaml': podWorkload({ name: 'h', ns: 'x', ports: '            - {containerPort: 80, hostPort: 30100}' }),
    });
    const [stat, dyn] = map.bands;
    assert.deepEqual(stat, { band: 'static', min: 30000, max: 30085, size: 86, used: 2, allocated: 2, free: 84, freeIntervals: [{ min: 30001, max: 30001 }, { min: 30003, max: 30085 }] });
    assert.deepEqual(dyn, { band: 'dynamic', min: 30086, max: 32767, size: 2682, used: 1, allocated: 0, free: 2681, freeIntervals: [{ min: 30086, max: 30099 }, { min: 30101, max: 32767 }] });
    assert.deepEqual(map.automatic, { nodePorts: 1, healthCheckNodePorts: 0 });
  });

  it('builds one map per cluster group, each with its own claims and collisions', () => {
    const files = {
      'dev/a.yaml': service('a', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]'),
      'prod/a.yaml': service('a2', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]'),
      'prod/b.yaml': service('b', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]'),
      'base/c.yaml': service('c', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30090}]'),
    };
    const [dev, prod] = maps(files, { clusters: { dev: ['dev/**', 'base/**'], prod: ['prod/**', 'base/**'] } });
    assert.deepEqual([dev.group, prod.group], ['dev', 'prod']);
    assert.deepEqual(rows(dev), ['30080/TCP nodePort Service x/a', '30090/TCP nodePort Service x/c']);
    assert.deepEqual(rows(prod), ['30080/TCP nodePort Service x/a2', '30080/TCP nodePort Service x/b', '30090/TCP nodePort Service x/c']);
    assert.equal(dev.rows.find((r) => r.port === 30080)!.collision, undefined);
    assert.equal(prod.rows.find((r) => r.port === 30080)!.collision, 'error');
  });
});

describe('free nodePorts (one computation for the map, --free and the quick fixes)', () => {
  it('skips every claimed number of the static band, then continues in the dynamic band', () => {
    const { analysis } = lint({ 'a.yaml': service('a', 'x', '\n  type: NodePort\n  ports: [{name: a, port: 80, nodePort: 30000}]') + '\n---' + podWorkload({ name: 'h', ns: 'x', ports: '            - {containerPort: 80, hostPort: 30001}' }) });
    assert.deepEqual(freeNodePorts(analysis.model, DEFAULT_CONFIG, 3), [30002, 30003, 30004]);
    assert.deepEqual(freeNodePorts(analysis.model, DEFAULT_CONFIG, 2, new Set([30002])), [30003, 30004]);
    const all = freeNodePorts(analysis.model, DEFAULT_CONFIG, 100);
    assert.deepEqual([all.length, all[83], all[84]], [100, 30085, 30086]);
  });

  it('in a widened range, does not offer the ports of node components (the kubelet, kube-proxy, the control plane)', () => {
    const config = { nodePortRange: { min: 10248, max: 10400 } };
    const { findings } = lint({
      'a.yaml': service('a', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 10300}]'),
      'b.yaml': service('b', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 10300}]'),
    }, { config, rules: ['nodeport-duplicate'] });
    // Static band 10248-10263: 10248-10250 are the kubelet's and kube-proxy's, 10256-10259 too.
    assert.deepEqual(findings.map((f) => f.fixes[0].title), ['Change nodePort 10300 to free port 10251', 'Change nodePort 10300 to free port 10251']);
    const { analysis } = lint({ 'a.yaml': service('a', 'x', '\n  ports: [{port: 80}]') }, { config });
    assert.deepEqual(freeNodePorts(analysis.model, { ...DEFAULT_CONFIG, ...config }, 8), [10251, 10252, 10253, 10254, 10255, 10260, 10261, 10262]);
  });

  it('moves a hostPort out of the range to a port no component, host-level port or Service uses', () => {
    const { findings } = lint({
      'h.yaml': podWorkload({ name: 'h', ns: 'x', ports: '            - {containerPort: 80, hostPort: 10300}' }),
      's.yaml': service('s', 'x', '\n  ports: [{port: 10247}]'),
    }, { config: { nodePortRange: { min: 10251, max: 10400 } }, rules: ['host-port-in-nodeport-range'] });
    // 10250 kubelet, 10249 kube-proxy metrics, 10248 kubelet healthz, 10247 a Service port.
    assert.deepEqual(findings[0].fixes.map((f) => f.title), ['Change hostPort 10300 to 10246 (below the NodePort range)']);
    const text = dedent(podWorkload({ name: 'h', ns: 'x', ports: '            - {containerPort: 80, hostPort: 10300}' }));
    assert.match(applyEdits(text, findings[0].fixes[0].edits), /hostPort: 10246\}/);
  });

  it('finds ports free in every cluster group at once', () => {
    const files = {
      'dev/a.yaml': service('a', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30000}]'),
      'prod/a.yaml': service('b', 'x', '\n  type: NodePort\n  ports: [{port: 80, nodePort: 30001}]'),
    };
    const config: CoreConfig = { ...DEFAULT_CONFIG, clusters: { dev: ['dev/**'], prod: ['prod/**'] } };
    const { analysis } = lint(files, { config });
    const models = [...analysis.clusterModels.values()];
    assert.deepEqual(commonFreeNodePorts(models, config, 2), [30002, 30003]);
    assert.deepEqual(freeNodePorts(models[0], config, 2), [30001, 30002]);
  });
});
