import { strict as assert } from 'node:assert';
import { clusterFile, clusterObjectFile, fromApiObject } from '../../server/out/core/model/from-api-object';
import { PARSE_OPTIONS } from '../../server/out/core/load/load-file';
import { parse } from 'yaml';
import { mergeClusterObjects, podController } from '../../server/out/core/model/merge-cluster-objects';
import type { K8sObject, NodeObject, ServiceObject, WorkloadObject } from '../../server/out/core/model/objects';
import { loadFile } from '../../server/out/core/load/load-file';
import { convertItems } from '../../server/out/cluster/read-cluster';
import { fixture } from './cluster-fixtures';

const item = (list: string, name: string): Record<string, unknown> => {
  const found = fixture(list).items.find((i) => (i.metadata as { name: string }).name === name);
  assert.ok(found, `${name} in ${list}.json`);
  return found;
};
const convert = (list: string, name: string, kind: string, apiVersion = 'v1'): K8sObject => fromApiObject(item(list, name), 'prod-admin', { kind, apiVersion })!;

describe('fromApiObject (cluster objects into the model)', () => {
  it('converts a Service with its auto-allocated nodePort, in the virtual file cluster:<context>/<kind>/<ns>/<name>', () => {
    const svc = convert('services', 'checkout', 'Service') as ServiceObject;
    assert.equal(svc.category, 'service');
    assert.deepEqual(svc.origin, { type: 'cluster', context: 'prod-admin' });
    assert.equal(svc.file, 'cluster:prod-admin/Service/shop/checkout');
    // Spans point into the read-only view: the object's anchor is metadata.name, the nodePort span is its value.
    const view = clusterObjectFile(item('services', 'checkout'), 'prod-admin', { kind: 'Service', apiVersion: 'v1' })!;
    const text = (span: { start: number; end: number }) => view.text.slice(span.start, span.end);
    assert.equal(svc.span.file, 'cluster:prod-admin/Service/shop/checkout');
    assert.equal(text(svc.span), 'checkout');
    assert.equal(svc.identity, '/Service/shop/checkout');
    assert.deepEqual(svc.ports.map((p) => [p.name?.value, p.port?.value, p.nodePort?.value, p.targetPort?.value, p.protocol.value]), [['http', 80, 31234, 8080, 'TCP']]);
    assert.equal(svc.type.value, 'NodePort');
    assert.deepEqual(svc.selector, { app: 'checkout' });
    assert.equal(text(svc.ports[0].nodePort!.span), '31234');
    assert.equal(view.lines.position(svc.ports[0].nodePort!.span.start).line, view.text.split('\n').findIndex((l) => l.trim() === 'nodePort: 31234') + 1);
    assert.match(view.text, /^# cluster:prod-admin\/Service\/shop\/checkout \(read-only: live cluster object\)\napiVersion: v1\nkind: Service\nmetadata:\n/);
    // Bulk no rule reads is dropped from raw.
    const meta = svc.raw.metadata as Record<string, unknown>;
    assert.equal(meta.managedFields, undefined);
    assert.deepEqual(svc.annotations, {});
  });

  it('reads healthCheckNodePort and externalTrafficPolicy of a LoadBalancer', () => {
    const svc = convert('services', 'grafana', 'Service') as ServiceObject;
    assert.deepEqual([svc.healthCheckNodePort?.value, svc.externalTrafficPolicy?.value, svc.ports[0].nodePort?.value, svc.allocateLoadBalancerNodePorts?.value], [32001, 'Local', 30917, true]);
  });

  it('converts a Pod with hostPorts and nodeName, and a DaemonSet pod template', () => {
    const pod = convert('pods', 'ingress-nginx-controller-5bq8d', 'Pod') as WorkloadObject;
    assert.equal(pod.pod.nodeName?.value, 'node-2');
    assert.deepEqual(pod.pod.containers[0].ports.map((p) => [p.containerPort?.value, p.hostPort?.value]), [[80, 80], [443, 443]]);
    const ds = convert('daemonsets-kube-system', 'calico-node', 'DaemonSet', 'apps/v1') as WorkloadObject;
    assert.deepEqual([ds.identity, ds.pod.path, ds.pod.hostNetwork?.value, ds.pod.containers[0].image?.value], ['apps/DaemonSet/kube-system/calico-node', 'spec.template.spec', true, 'docker.io/calico/node:v3.24.1']);
    assert.equal(ds.pod.containers[0].env.find((e) => e.name === 'IP')?.value?.value, 'autodetect');
  });

  it('converts a Node (cluster-scoped file name, addresses, annotation paths) and the kube-proxy ConfigMap', () => {
    const node = convert('nodes', 'node-3', 'Node') as NodeObject;
    assert.equal(node.file, 'cluster:prod-admin/Node/node-3');
    assert.equal(node.namespace, '');
    assert.deepEqual(node.addresses.map((a) => [a.type, a.address.value]), [['InternalIP', '10.0.0.13'], ['Hostname', 'node-3']]);
    assert.equal(node.annotations['projectcalico.org/IPv4Address'], '172.17.0.1/16');
    assert.ok(node.paths?.has('metadata.annotations.projectcalico.org/IPv4Address'));
    assert.equal((node.raw.status as Record<string, unknown>).images, undefined);
    const cm = convert('configmaps-kube-proxy', 'kube-proxy', 'ConfigMap');
    assert.equal(cm.category, 'other');
    assert.match(String((cm.raw.data as Record<string, unknown>)['config.conf']), /mode: ipvs/);
  });

  it('writes a view that reads back as the same object, whatever its strings hold', () => {
    const odd = ['yes', 'on', 'No', '~', 'null', '0755', '1_000', '2024-01-01T00:00:00Z', '.inf', '1:20', '', ' lead', 'a: b', '#c', '<<',
      'multi\nline\n', ' \n', '\n\n', 'end\n\n\n', '%{ for x in y }', '  %{ if a }\nb', '{{ .Values.x }}', '\u202e', '\u0000\u001b[31m', 'a\r\nb', 'x\u2028y', '\ufeffbom', 'x'.repeat(300)];
    const json = {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'odd', namespace: 'kube-system', annotations: Object.fromEntries(odd.map((v, i) => [`a${i}`, v])) },
      data: { '<<': 'not a merge key', 'config.conf': 'mode: ipvs\n%{ for x }\n' },
    };
    const view = clusterObjectFile(json, 'ctx\nforged: line')!;
    assert.deepEqual(view.objects[0].raw, json);
    assert.deepEqual(parse(view.text, PARSE_OPTIONS), json);
    assert.deepEqual(view.objects[0].origin, { type: 'cluster', context: 'ctx\nforged: line' });
    // The header stays one comment line: a context name with a newline cannot add a field to the view.
    assert.equal(view.text.split('\n')[0], '# cluster:ctx\\nforged: line/ConfigMap/kube-system/odd (read-only: live cluster object)');
    assert.deepEqual(view.problems, []);
  });

  it('converts again only the items whose uid@resourceVersion changed (a watch event on one Pod)', async () => {
    const pods = fixture('pods').items;
    const cache = new Map();
    const first = await convertItems(pods, { kind: 'Pod', apiVersion: 'v1' }, 'prod-admin', cache);
    const changed = pods.map((p, i) => (i === 0 ? { ...p, metadata: { ...(p.metadata as object), resourceVersion: '999999' } } : p));
    const second = await convertItems(changed, { kind: 'Pod', apiVersion: 'v1' }, 'prod-admin', cache);
    assert.equal(first.length, pods.length);
    assert.deepEqual(second.map((v, i) => v === first[i]), pods.map((_, i) => i !== 0));
    // Deleted items leave the cache.
    await convertItems(changed.slice(1), { kind: 'Pod', apiVersion: 'v1' }, 'prod-admin', cache);
    assert.equal(cache.size, pods.length - 1);
  });

  it('lets the event loop run while it converts a big list (a language server reading thousands of Pods keeps answering)', async () => {
    const pod = fixture('pods').items[0];
    const items = Array.from({ length: 500 }, (_, i) => ({ ...pod, metadata: { ...(pod.metadata as object), name: `p-${i}`, uid: `u-${i}` } }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const views = await convertItems(items, { kind: 'Pod', apiVersion: 'v1' }, 'c').finally(() => clearInterval(timer));
    assert.equal(views.length, 500);
    assert.ok(ticks >= 3, `${ticks} timer ticks during the conversion`);
  });

  it('refuses values that are not objects with kind, apiVersion and name', () => {
    assert.equal(fromApiObject(null, 'c'), undefined);
    assert.equal(fromApiObject({ metadata: { name: 'x' } }, 'c'), undefined);
    assert.equal(fromApiObject({ kind: 'Service', apiVersion: 'v1', metadata: {} }, 'c'), undefined);
    assert.equal(clusterFile('kind-kind', 'Pod', 'default', 'web'), 'cluster:kind-kind/Pod/default/web');
  });
});

describe('mergeClusterObjects (workspace over cluster)', () => {
  const clusterObjects = (): K8sObject[] => [
    ...fixture('services').items.map((i) => fromApiObject(i, 'prod-admin', { kind: 'Service', apiVersion: 'v1' })!),
    ...fixture('pods').items.map((i) => fromApiObject(i, 'prod-admin', { kind: 'Pod', apiVersion: 'v1' })!),
    ...fixture('daemonsets-kube-system').items.map((i) => fromApiObject(i, 'prod-admin', { kind: 'DaemonSet', apiVersion: 'apps/v1' })!),
  ];

  it('replaces a cluster object by the workspace object of the same kind, namespace and name', () => {
    const workspace = loadFile('frontend.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: frontend, namespace: shop}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30081}]}\n').objects;
    const merge = mergeClusterObjects(workspace, clusterObjects());
    assert.deepEqual(merge.shadowed, ['Service shop/frontend']);
    assert.ok(!merge.objects.some((o) => o.kind === 'Service' && o.name === 'frontend'));
    assert.ok(merge.objects.some((o) => o.kind === 'Service' && o.name === 'checkout'));
  });

  it('drops Pods whose controller is represented, and collapses the replicas of other controllers into one', () => {
    const workspace = loadFile('checkout.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n').objects;
    const merge = mergeClusterObjects(workspace, clusterObjects());
    const pods = merge.objects.filter((o) => o.kind === 'Pod') as WorkloadObject[];
    // kube-proxy pods: their DaemonSet was read from kube-system; checkout pods: the workspace Deployment.
    assert.deepEqual(pods.map((p) => [p.name, p.pod.nodeName?.value]), [['netshoot-debug', 'node-2'], ['ingress-nginx-controller-5bq8d', undefined]]);
    assert.equal(merge.podsFolded, 5);
  });

  it('matches twins by API group: extensions/v1beta1 is apps, a Knative Service is not a core Service', () => {
    const workspace = loadFile('w.yaml', [
      'apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata: {name: kube-proxy, namespace: kube-system}\nspec: {template: {spec: {containers: [{name: c, image: x}]}}}',
      'apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: checkout, namespace: shop}\nspec: {}',
    ].join('\n---\n')).objects;
    const merge = mergeClusterObjects(workspace, clusterObjects());
    assert.deepEqual(merge.shadowed, ['DaemonSet kube-system/kube-proxy']);
    assert.ok(merge.objects.some((o) => o.kind === 'Service' && o.name === 'checkout' && o.group === ''));
  });

  it('finds the Deployment behind a ReplicaSet-owned Pod from the pod-template-hash', () => {
    const pod = fromApiObject(item('pods', 'checkout-7d9f8c6b5-2xkqv'), 'c', { kind: 'Pod', apiVersion: 'v1' })!;
    assert.equal(podController(pod), 'apps/Deployment/shop/checkout');
    const bare = fromApiObject(item('pods', 'netshoot-debug'), 'c', { kind: 'Pod', apiVersion: 'v1' })!;
    assert.equal(podController(bare), undefined);
  });
});
