import { strict as assert } from 'node:assert';
import { cpuTimed } from '../helpers/cpu-time';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import type { K8sObject, ServiceObject, WorkloadObject } from '../../server/out/core/model/objects';
import type { Span } from '../../server/out/core/source/span';
import { dedent } from '../helpers/lint';

const load = (text: string, options = {}): LoadedFile => loadFile('m.yaml', dedent(text), options);
/** `line:column` and covered text of a span in a loaded file. */
const at = (f: LoadedFile, span: Span | undefined): string => {
  assert.ok(span, 'span missing');
  const p = f.lines.position(span.start);
  return `${p.line}:${p.column} ${f.text.slice(span.start, span.end)}`;
};
const svc = (o: K8sObject): ServiceObject => (assert.equal(o.category, 'service'), o as ServiceObject);
const wl = (o: K8sObject): WorkloadObject => (assert.equal(o.category, 'workload'), o as WorkloadObject);
const names = (f: LoadedFile): string[] => f.objects.map((o) => `${o.kind} ${o.namespace}/${o.name}`);

describe('loadFile', () => {
  it('reads every document of a multi-document file with comments, keeping document indexes and exact spans', () => {
    const f = load(`
      # leading comment
      apiVersion: v1
      kind: Service
      metadata:
        name: a # trailing comment
      spec:
        type: NodePort
        ports:
          - port: 80 # http
            nodePort: 30080 # fixed
      ---
      # a document with only a comment
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: b, namespace: other}
      data: {k: v}
    `);
    assert.deepEqual(names(f), ['Service default/a', 'ConfigMap other/b']);
    assert.deepEqual(f.objects.map((o) => o.docIndex), [0, 2]);
    assert.deepEqual(f.problems, []);
    const a = svc(f.objects[0]);
    assert.equal(at(f, a.span), '5:9 a');
    assert.equal(at(f, a.ports[0].nodePort?.span), '10:17 30080');
    assert.equal(at(f, a.ports[0].port?.span), '9:13 80');
    assert.equal(a.ports[0].protocol.value, 'TCP');
    assert.equal(at(f, f.objects[1].paths?.get('data.k')), '17:11 v');
  });

  it('resolves anchors, aliases and merge keys, with spans where the alias is written', () => {
    const f = load(`
      apiVersion: v1
      kind: Service
      metadata: {name: a}
      spec:
        type: NodePort
        ports:
          - &http {name: http, port: 80, protocol: TCP}
          - <<: *http
            name: alt
            port: &p 8080
            nodePort: 30088
          - *http
          - {name: again, port: *p}
        selector: &sel {app: web}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: b}
      spec:
        selector: *sel
    `);
    const a = svc(f.objects[0]);
    assert.deepEqual(a.ports.map((p) => [p.name?.value, p.port?.value, p.protocol.value, p.nodePort?.value]), [
      ['http', 80, 'TCP', undefined],
      ['alt', 8080, 'TCP', 30088],
      ['http', 80, 'TCP', undefined],
      ['again', 8080, 'TCP', undefined],
    ]);
    // A value taken through a merge key points at the value where it is written (in the anchored map),
    // so an edit there stays valid YAML; the port entry itself spans the merging map.
    assert.equal(at(f, a.ports[1].protocol.span), '7:46 TCP');
    assert.match(at(f, a.ports[1].span), /^8:7 <<: \*http\n/);
    // A scalar alias: the value is the anchor's, the span is the alias where it is written.
    assert.equal(at(f, a.ports[3].port?.span), '13:27 *p');
    // The merged protocol is found through `<<`; the third port is an alias: its span is the alias `*http` itself.
    assert.equal(at(f, a.ports[2].span), '12:7 *http');
    assert.deepEqual(a.selector, { app: 'web' });
    assert.deepEqual((a.raw.spec as { ports: unknown[] }).ports[1], { name: 'alt', port: 8080, protocol: 'TCP', nodePort: 30088 });
    // Anchors are document-local: `*sel` in the next document is a problem located at the alias, and that document yields no object.
    assert.deepEqual(names(f), ['Service default/a']);
    assert.deepEqual(f.problems.map((p) => [p.code, at(f, p.span)]), [['UNRESOLVED_ALIAS', '20:13 *sel']]);
    assert.match(f.problems[0].message, /^Unresolved alias .*: sel$/);
  });

  it('refuses an alias bomb with a problem and no crash, and still reads the other documents', () => {
    const bomb = [
      'apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'data:',
      '  a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k, i, all) => `  ${k}: &${k} [${Array(10).fill(`*${i === 0 ? 'a' : all[i - 1]}`).join(',')}]`),
      '---', 'apiVersion: v1', 'kind: Service', 'metadata: {name: ok}', 'spec: {ports: [{port: 80}]}',
    ].join('\n');
    const [f, ms] = cpuTimed(() => loadFile('bomb.yaml', bomb));
    assert.ok(ms < 2000, `the bomb must not be expanded (took ${ms} ms of CPU)`);
    assert.deepEqual(names(f), ['Service default/ok']);
    assert.equal(f.problems.length, 1);
    assert.equal(f.problems[0].code, 'ALIAS_LIMIT');
    // On the alias whose expansion went over the limit (c's list, its 10th *b), not at the document start.
    assert.equal(f.problems[0].message, 'the aliases of this document expand past the limit at *b (an alias bomb), so it is not read; kubectl refuses it too ("yaml: document contains excessive aliasing")');
    assert.deepEqual(f.lines.position(f.problems[0].span.start), { line: 7, column: 34 });
    assert.equal(bomb.slice(f.problems[0].span.start, f.problems[0].span.end), '*b');
  });

  it('yields the items of kind: List and of <Kind>List documents, each with its own uid', () => {
    const f = load(`
      apiVersion: v1
      kind: List
      items:
        - {apiVersion: v1, kind: Service, metadata: {name: one}, spec: {ports: [{port: 80}]}}
        - {apiVersion: apps/v1, kind: Deployment, metadata: {name: two}, spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
      ---
      apiVersion: v1
      kind: ServiceList
      metadata: {resourceVersion: "1"}
      items:
        - apiVersion: v1
          kind: Service
          metadata: {name: three, namespace: x}
          spec:
            ports:
              - port: 53
                protocol: UDP
    `);
    assert.deepEqual(names(f), ['Service default/one', 'Deployment default/two', 'Service x/three']);
    assert.deepEqual(f.objects.map((o) => o.uid), ['m.yaml#0/0', 'm.yaml#0/1', 'm.yaml#1/0']);
    assert.equal(at(f, svc(f.objects[2]).ports[0].protocol.span), '17:21 UDP');
  });

  it('gives items of a typed list that write neither apiVersion nor kind the list\'s apiVersion and <Kind>, flattens nested lists, and reads items: null as none', () => {
    const f = load(`
      apiVersion: v1
      kind: ServiceList
      metadata: {resourceVersion: "1"}
      items:
        - metadata: {name: a, namespace: x}
          spec: {type: NodePort, ports: [{port: 80, nodePort: 30600}]}
        - apiVersion: v1
          kind: Service
          metadata: {name: b, namespace: x}
          spec: {type: NodePort, ports: [{port: 80, nodePort: 30600}]}
      ---
      apiVersion: v1
      kind: List
      items: null
      ---
      apiVersion: v1
      kind: List
      items:
        - apiVersion: apps/v1
          kind: DeploymentList
          items:
            - metadata: {name: d, namespace: x}
              spec: {template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: i, ports: [{containerPort: 80, hostPort: 8080}]}]}}}
    `);
    assert.deepEqual(names(f), ['Service x/a', 'Service x/b', 'Deployment x/d']);
    assert.deepEqual(f.objects.map((o) => [o.uid, o.apiVersion, o.group, o.raw.kind, o.raw.apiVersion]), [
      ['m.yaml#0/0', 'v1', '', 'Service', 'v1'], ['m.yaml#0/1', 'v1', '', 'Service', 'v1'], ['m.yaml#2/0/0', 'apps/v1', 'apps', 'Deployment', 'apps/v1'],
    ]);
    assert.equal(at(f, svc(f.objects[0]).ports[0].nodePort!.span), '6:57 30600');
    assert.equal(at(f, f.objects[0].span), '5:22 a');
    assert.equal(at(f, (f.objects[2] as WorkloadObject).pod.containers[0].ports[0].hostPort!.span), '23:135 8080');
    assert.deepEqual(f.problems, []);
  });

  it('does not fill in only one of apiVersion and kind (kubectl fills both or neither), and reports what is still missing', () => {
    const f = load(`
      apiVersion: v1
      kind: ServiceList
      items:
        - apiVersion: v1
          metadata: {name: a}
        - kind: Service
          metadata: {name: b}
        - metadata: {}
    `);
    assert.deepEqual(names(f), []);
    assert.deepEqual(f.problems.map((p) => [p.code, at(f, p.span).split(' ')[0], p.message.split(':')[0]]), [
      ['OBJECT_NO_KIND', '4:17', 'object of apiVersion v1 has no kind'],
      ['OBJECT_NO_API_VERSION', '6:11', 'Service has no apiVersion'],
      ['OBJECT_NO_NAME', '8:15', 'Service has no metadata.name'],
    ]);
  });

  it('ignores empty documents and mappings that are not Kubernetes objects; says so for lists, scalars and half objects', () => {
    const f = load(`
      ---
      ---
      just a string
      ---
      - a list
      ---
      name: values.yaml style map
      replicas: 3
      ---
      kind: pipeline
      name: a Drone CI config, not an API object
      ---
      kind: Service
      metadata: {name: no-api-version}
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-a}
    `);
    assert.deepEqual(names(f), ['Namespace /team-a']);
    assert.deepEqual(f.problems.map((p) => `${at(f, p.span).trim()} | ${p.severity} ${p.code}: ${p.message}`), [
      '3:1 just a string | info OBJECT_NOT_MAPPING: this document is a string, not a Kubernetes object (a mapping with apiVersion, kind and metadata): nothing in it is checked',
      '5:1 - a list | info OBJECT_NOT_MAPPING: this document is a list, not a Kubernetes object (a mapping with apiVersion, kind and metadata): nothing in it is checked',
      '13:7 Service | error OBJECT_NO_API_VERSION: Service has no apiVersion: kubectl cannot decode it ("Object \'apiVersion\' is missing in \'{…}\'") and applies nothing; add apiVersion: v1',
    ]);
    assert.deepEqual(loadFile('empty.yaml', '').objects, []);
    assert.deepEqual(loadFile('empty.yaml', '').problems, []);
    assert.deepEqual(loadFile('comments.yaml', '# only a comment\n').problems, []);
  });

  it('reports a syntax error at its position and still reads the other documents of the file', () => {
    const f = load(`
      apiVersion: v1
      kind: Service
      metadata: {name: before}
      spec: {ports: [{port: 80}]}
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: broken
         namespace: x
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: after}
      spec: {ports: [{port: 81}]}
    `);
    assert.deepEqual(names(f), ['Service default/before', 'Service default/after']);
    // yaml reports where the broken mapping starts: the value of `name` that swallows the next line.
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity, f.lines.position(p.span.start).line, f.lines.position(p.span.start).column]), [
      ['BLOCK_AS_IMPLICIT_KEY', 'error', 9, 9],
      ['MULTILINE_IMPLICIT_KEY', 'error', 9, 9],
    ]);
  });

  it('reads every workload kind and the old API versions', () => {
    const pod = 'spec: {containers: [{name: c, image: i, ports: [{containerPort: 80, hostPort: 8080}]}]}';
    const tpl = `template: {metadata: {labels: {app: x}}, ${pod}}`;
    const docs = [
      `apiVersion: v1\nkind: Pod\nmetadata: {name: pod}\n${pod}`,
      `apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: deploy}\nspec: {${tpl}}`,
      `apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata: {name: ds}\nspec: {${tpl}}`,
      `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec: {replicas: 3, ${tpl}}`,
      `apiVersion: apps/v1beta1\nkind: StatefulSet\nmetadata: {name: sts}\nspec: {${tpl}}`,
      `apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\nspec: {${tpl}}`,
      `apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: cron}\nspec: {schedule: "@daily", jobTemplate: {spec: {${tpl}}}}`,
      `apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec: {${tpl}}`,
    ];
    const f = loadFile('all.yaml', docs.join('\n---\n'));
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.objects.map((o) => `${o.apiVersion} ${o.kind}`), [
      'v1 Pod', 'apps/v1beta2 Deployment', 'extensions/v1beta1 DaemonSet', 'apps/v1 ReplicaSet', 'apps/v1beta1 StatefulSet',
      'batch/v1 Job', 'batch/v1beta1 CronJob', 'v1 ReplicationController',
    ]);
    for (const o of f.objects) {
      const w = wl(o);
      assert.equal(w.pod.containers[0].ports[0].hostPort?.value, 8080, `${o.kind}: hostPort`);
      assert.equal(f.text.slice(w.pod.containers[0].ports[0].hostPort!.span.start, w.pod.containers[0].ports[0].hostPort!.span.end), '8080');
    }
    assert.deepEqual(f.objects.map((o) => wl(o).pod.path), [
      'spec', 'spec.template.spec', 'spec.template.spec', 'spec.template.spec', 'spec.template.spec', 'spec.template.spec',
      'spec.jobTemplate.spec.template.spec', 'spec.template.spec',
    ]);
    assert.deepEqual(wl(f.objects[2]).pod.labels, { app: 'x' });
    assert.equal(wl(f.objects[3]).replicas?.value, 3);
    assert.equal(wl(f.objects[0]).replicas, undefined);
  });

  it('defaults namespaces to default, or to the configured namespace; cluster-scoped kinds have none', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: b, namespace: explicit}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}';
    assert.deepEqual(names(loadFile('n.yaml', text)), ['Service default/a', 'Service explicit/b', 'Node /n1']);
    assert.deepEqual(names(loadFile('n.yaml', text, { defaultNamespace: 'team-x' })), ['Service team-x/a', 'Service explicit/b', 'Node /n1']);
    assert.equal(loadFile('n.yaml', text, { defaultNamespace: 'team-x' }).objects[0].identity, '/Service/team-x/a');
  });

  it('gives restartable init containers the sidecar role and plain init containers the init role', () => {
    const f = load(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        initContainers:
          - {name: migrate, image: m}
          - {name: proxy, image: envoy, restartPolicy: Always, ports: [{name: admin, containerPort: 9901}]}
        containers:
          - {name: app, image: a, ports: [{containerPort: 8080, protocol: UDP, hostIP: 10.0.0.1}]}
    `);
    const pod = wl(f.objects[0]).pod;
    assert.deepEqual(pod.containers.map((c) => [c.name, c.role]), [['migrate', 'init'], ['proxy', 'sidecar'], ['app', 'container']]);
    assert.equal(pod.containers[1].ports[0].name?.value, 'admin');
    assert.deepEqual([pod.containers[2].ports[0].protocol.value, pod.containers[2].ports[0].hostIP?.value, pod.containers[2].ports[0].hostPort], ['UDP', '10.0.0.1', undefined]);
  });

  it('treats nodePort 0 and unwritten nodePorts as unknown (never 0), and keeps wrongly typed values out of the typed fields', () => {
    const f = load(`
      apiVersion: v1
      kind: Service
      metadata: {name: s}
      spec:
        type: LoadBalancer
        healthCheckNodePort: 0
        ports:
          - {port: 80, nodePort: 0}
          - {port: 81}
          - {port: 82, nodePort: "30082"}
    `);
    const s = svc(f.objects[0]);
    assert.deepEqual(s.ports.map((p) => p.nodePort), [undefined, undefined, undefined]);
    assert.equal(s.healthCheckNodePort, undefined);
    assert.equal(at(f, s.fieldSpans.get('ports.2.nodePort')), '10:28 "30082"');
    assert.equal(s.typeWritten, true);
  });
});
