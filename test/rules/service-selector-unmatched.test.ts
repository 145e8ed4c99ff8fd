import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';
import { fromApiObject } from '../../server/out/core/model/from-api-object';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import { portChainAt } from '../../server/out/core/references/port-chain';

const rules = ['service-selector-unmatched'];
// The selector's first entry is on line 7.
const service = (selector: string, ns = 'shop', extra = '') => `
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: ${ns}
spec:${extra}
  selector: ${selector}
  ports: [{port: 80, targetPort: 8080}]`;
const workload = (name: string, labels: string, ns = 'shop', kind = 'Deployment', apiVersion = 'apps/v1') => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata: {name: ${name}, namespace: ${ns}}
spec:
  template:
    metadata: {labels: ${labels}}
    spec: {containers: [{name: c, image: c:1}]}${apiVersion === 'apps/v1' ? `\n  selector: {matchLabels: ${labels}}` : ''}`;

describe('service-selector-unmatched', () => {
  it('warns when the selector matches only PodTemplate objects, which run no Pods, and stays silent when a workload also matches', () => {
    // A PodTemplate keeps its pod template under `template`, not `spec.template`.
    const podTemplate = `
apiVersion: v1
kind: PodTemplate
metadata: {name: web-template, namespace: shop}
template:
  metadata: {labels: {app: web}}
  spec: {containers: [{name: c, image: c:1}]}`;
    const { findings } = lint({ 'svc.yaml': service('{app: web}'), 'tpl.yaml': podTemplate }, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.file, f.line, f.text, f.message]), [['warning', 'svc.yaml', 7, 'app: web',
      'selector app=web of Service shop/web matches only PodTemplate shop/web-template: a PodTemplate object runs no Pods by itself, so the Service gets no endpoints and connections fail; select the labels of the workload that runs the Pods']]);
    assert.deepEqual(findings[0].related.map((r) => [r.file, r.line, r.message]), [['tpl.yaml', 3, 'PodTemplate shop/web-template matches the selector but runs no Pods']]);
    assert.deepEqual(lint({ 'svc.yaml': service('{app: web}'), 'tpl.yaml': podTemplate, 'web.yaml': workload('web', '{app: web}') }, { rules }).findings, []);
  });

  it('reads label keys named like object properties (constructor, toString, hasOwnProperty, __proto__) as any other key, for every kind', () => {
    const keys = '{app: web, constructor: x, toString: "t", hasOwnProperty: z, __proto__: p}';
    const sts = `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: c:1}]}
  selector: {matchLabels: {app: db}}`;
    const files = {
      'svc.yaml': service(keys), 'deploy.yaml': workload('web', keys),
      'db.yaml': sts, 'db-svc.yaml': service('{app: db, constructor: q}').replace('name: web', 'name: db'),
      'job.yaml': workload('batch', '{app: batch}', 'shop', 'Job', 'batch/v1'), 'job-svc.yaml': service('{app: batch, valueOf: v}').replace('name: web', 'name: batch'),
    };
    const { findings, analysis } = lint(files, { rules });
    assert.deepEqual(analysis.failures, []);
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.object, f.message.split(':')[0]]), [
      ['db-svc.yaml', 7, 'Service shop/db', 'selector app=db, constructor=q of Service shop/db matches no pod template of namespace shop'],
      ['job-svc.yaml', 7, 'Service shop/batch', 'selector app=batch, valueOf=v of Service shop/batch matches no pod template of namespace shop'],
    ]);
    assert.ok(findings.every((f) => !/function|\[native code\]/.test(f.message)), findings.map((f) => f.message).join('\n'));
  });

  it('warns at the first selector entry when the namespace holds workloads but none matches, naming the closest one', () => {
    const svc = `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector:
    app: web
    tier: frontend
  ports: [{port: 80}]`;
    const { findings } = lint({ 'svc.yaml': svc, 'a.yaml': workload('api', '{app: api}'), 'b.yaml': workload('web', '{app: web, tier: front}') }, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.file, f.line, f.column, f.endLine, f.text, f.severity, f.object], ['svc.yaml', 6, 5, 6, 'app: web', 'warning', 'Service shop/web']);
    assert.equal(f.message, 'selector app=web, tier=frontend of Service shop/web matches no pod template of namespace shop: the Service gets no endpoints, so connections fail (503 behind an Ingress); fix the selector or the labels; closest: Deployment shop/web (tier=front)');
    assert.deepEqual(f.related.map((r) => [r.file, r.line, r.message]), [['b.yaml', 3, 'closest pod template: Deployment shop/web (tier=front)']]);
  });

  it('keeps a long selector\'s message within ~300 characters: the fix, the closest pod template\'s differences, its name, then the 503 detail give way in turn (the related location keeps the closest)', () => {
    const selector = '{app.kubernetes.io/name: partners-elasticsearch, app.kubernetes.io/instance: partners-elasticsearch-prod}';
    const labels = '{app.kubernetes.io/name: campaigns-processor-2, app.kubernetes.io/instance: campaigns-processor-2-prod}';
    const svc = service(selector, 'experimentation').replace('name: web', 'name: partners-elasticsearch-headless');
    const { findings } = lint({ 'svc.yaml': svc, 'a.yaml': workload('campaigns-processor-2', labels, 'experimentation') }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.severity, f.message]), [[7, 'warning', 'selector app.kubernetes.io/name=partners-elasticsearch, app.kubernetes.io/instance=partners-elasticsearch-prod of Service experimentation/partners-elasticsearch-headless matches no pod template of namespace experimentation: the Service gets no endpoints; fix the selector or the labels']]);
    assert.deepEqual(findings[0].related.map((r) => [r.file, r.line, r.message]), [['a.yaml', 3, 'closest pod template: Deployment experimentation/campaigns-processor-2 (app.kubernetes.io/name=campaigns-processor-2, app.kubernetes.io/instance=campaigns-processor-2-prod)']]);
    // A shorter selector leaves room for the closest pod template's name, not for its differences.
    const shorter = lint({ 'svc.yaml': service('{app.kubernetes.io/name: partners, app.kubernetes.io/instance: partners}'), 'a.yaml': workload('campaigns-processor-2', labels) }, { rules }).findings;
    assert.deepEqual(shorter.map((f) => f.message.split('; ').slice(-2)), [['fix the selector or the labels', 'closest: Deployment shop/campaigns-processor-2']]);
  });

  it('lists the namespace\'s workloads when none shares a label, and treats a missing key as a difference', () => {
    const none = lint({ 'svc.yaml': service('{app: web}'), 'a.yaml': workload('api', '{team: x}') }, { rules }).findings;
    assert.equal(none[0].message, 'selector app=web of Service shop/web matches no pod template of namespace shop (it holds Deployment shop/api): the Service gets no endpoints, so connections fail (503 behind an Ingress); fix the selector or the labels');
    const missing = lint({ 'svc.yaml': service('{app: web, track: stable}'), 'a.yaml': workload('web', '{app: web}') }, { rules }).findings;
    assert.match(missing[0].message, /closest: Deployment shop\/web \(no track\)$/);
  });

  it('is info when the namespace holds no workload here, holds operator custom resources, or is kube-system', () => {
    const alone = lint({ 'svc.yaml': service('{app: web}'), 'other.yaml': workload('blog', '{app: blog}', 'blog') }, { rules }).findings;
    assert.deepEqual(alone.map((f) => [f.severity, f.message]), [['info', 'selector app=web of Service shop/web matches no pod template here (namespace shop holds none): fine if its Pods are deployed from elsewhere, else it has no endpoints and connections fail']]);
    const kafka = 'apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata: {name: events, namespace: shop}\nspec: {}\n';
    const cr = lint({ 'svc.yaml': service('{app: web}'), 'a.yaml': workload('api', '{app: api}'), 'k.yaml': kafka }, { rules }).findings;
    assert.deepEqual(cr.map((f) => [f.severity, f.message]), [['info', 'selector app=web of Service shop/web matches no known pod template in namespace shop, which holds custom resources an operator may turn into Pods (Kafka shop/events); closest: Deployment shop/api (app=api)']]);
    const sys = lint({ 'svc.yaml': service('{k8s-app: kube-proxy}', 'kube-system'), 'a.yaml': workload('calico-node', '{k8s-app: calico-node}', 'kube-system', 'DaemonSet') }, { rules }).findings;
    assert.deepEqual(sys.map((f) => f.severity), ['info']);
    assert.match(sys[0].message, /in kube-system the cluster installer creates Pods/);
  });

  it('does not count configuration-only custom resources (monitors, routes, certificates) as operator inputs', () => {
    const monitor = 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: m, namespace: shop}\nspec: {selector: {}}\n';
    const { findings } = lint({ 'svc.yaml': service('{app: web}'), 'a.yaml': workload('api', '{app: api}'), 'm.yaml': monitor }, { rules });
    assert.deepEqual(findings.map((f) => f.severity), ['warning']);
  });

  it('stays silent without a selector, with selector: {}, for ExternalName, when a pod template matches, and for CRD workloads that match', () => {
    const silent: Record<string, string>[] = [
      { 'svc.yaml': service('{}'), 'a.yaml': workload('api', '{app: api}') },
      { 'svc.yaml': service('{app: web}', 'shop', '\n  type: ExternalName\n  externalName: web.example.com'), 'a.yaml': workload('api', '{app: api}') },
      { 'svc.yaml': service('{app: web}'), 'a.yaml': workload('web', '{app: web, tier: x}', 'shop', 'StatefulSet') },
      { 'svc.yaml': service('{app: web}'), 'r.yaml': workload('web', '{app: web}', 'shop', 'Rollout', 'argoproj.io/v1alpha1') },
      { 'svc.yaml': service('{app: web}'), 'c.yaml': workload('web', '{app: web}', 'shop', 'CloneSet', 'apps.kruise.io/v1alpha1') },
    ];
    for (const files of silent) assert.deepEqual(lint(files, { rules }).findings, [], JSON.stringify(files));
    // Services alone (no pod template anywhere): nothing to judge them by.
    assert.deepEqual(lint({ 'svc.yaml': service('{app: web}'), 'svc2.yaml': service('{app: api}', 'blog') }, { rules }).findings, []);
    const noSelector = 'apiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: shop}\nspec: {ports: [{port: 5432}]}\n';
    assert.deepEqual(lint({ 'svc.yaml': noSelector, 'a.yaml': workload('api', '{app: api}') }, { rules }).findings, []);
  });

  describe('keys YAML 1.1 reads as booleans (kubectl reads an unquoted on as true)', () => {
    // Without a selector of its own to test, the Deployment selects its Pods by another label (tier), written last so
    // that no line moves (an apps/v1 Deployment without a selector is refused, and its Pods would not count).
    const deployment = (labels: string, selector?: string) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:${selector ? `\n  selector: {matchLabels: ${selector}}` : ''}
  template:
    metadata:
      labels: ${selector ? labels : labels.replace(/}$/, ', tier: web}')}
    spec: {containers: [{name: c, image: c:1}]}${selector ? '' : '\n  selector: {matchLabels: {tier: web}}'}`;
    const one = (files: Record<string, string>) => {
      const fs = lint(files, { rules }).findings;
      assert.equal(fs.length, 1);
      return fs[0];
    };

    it('says when the template writes the key unquoted (read as true) and the selector quotes it, where, and to quote it in the template or, with the workload\'s selector reading it too, to change the Service', () => {
      let f = one({ 'svc.yaml': service('{"on": web}'), 'a.yaml': deployment('{on: web}') });
      assert.equal(f.message, 'selector on=web of Service shop/web matches no pod template: the template label key of Deployment shop/web written on (a.yaml:7) reads as true in YAML 1.1, as kubectl reads it, so the Service gets no endpoints; quote "on" in its template labels');
      assert.deepEqual([f.line, f.column, f.severity, f.fixes], [7, 14, 'warning', []]);
      assert.deepEqual(f.related.map((r) => [r.file, r.line, r.column, r.text, r.message]), [['a.yaml', 7, 16, 'on', 'Deployment shop/web: the key written on reads as true in YAML 1.1, as kubectl reads it']]);
      // Its selector reads the key as true too, and an existing Deployment's selector cannot change: the Service is
      // the one to change, to the key its Pods carry.
      const files = { 'svc.yaml': service('{"on": web}'), 'a.yaml': deployment('{on: web}', '{on: web}') };
      f = one(files);
      assert.equal(f.message, 'selector on=web of Service shop/web matches no pod template: the template label key of Deployment shop/web written on (a.yaml:8) reads as true in YAML 1.1, as kubectl reads it; write the key as "true" in the Service\'s selector (spec.selector of an existing Deployment is immutable)');
      assert.deepEqual([f.line, f.column], [7, 14]);
      const fixedSvc = applyEdits(dedent(files['svc.yaml']), f.fixes[0].edits);
      assert.deepEqual([f.fixes.map((x) => x.title), fixedSvc], [['Change the key "on" to "true"'], dedent(service('{"true": web}'))]);
      assert.deepEqual(lint({ ...files, 'svc.yaml': fixedSvc }, { rules }).findings, []);
      // A ReplicationController's selector may change: no word of immutability.
      const rc = deployment('{on: web}', '{on: web}').replace('apps/v1', 'v1').replace('kind: Deployment', 'kind: ReplicationController').replace('selector: {matchLabels: {on: web}}', 'selector: {on: web}');
      f = one({ 'svc.yaml': service('{"on": web}'), 'a.yaml': rc });
      assert.match(f.message, /; write the key as "true" in the Service's selector$/);
    });

    it('says when the selector writes the key unquoted and the template quotes it, and the quick fix quotes the selector\'s key', () => {
      const files = { 'svc.yaml': service('{on: web}'), 'a.yaml': deployment('{"on": web}') };
      const f = one(files);
      assert.equal(f.message, 'selector true=web of Service shop/web matches no pod template: its key written on (svc.yaml:7) reads as true in YAML 1.1, as kubectl reads it, while Deployment shop/web labels its Pods on=web, so the Service gets no endpoints; quote the key ("on")');
      assert.deepEqual(f.fixes.map((x) => [x.title, applyEdits(dedent(files['svc.yaml']), x.edits)]), [['Quote "on"', dedent(service('{"on": web}'))]]);
      assert.deepEqual(lint({ ...files, 'svc.yaml': applyEdits(dedent(files['svc.yaml']), f.fixes[0].edits) }, { rules }).findings, []);
    });

    it('says how the selector reads a misread key when nothing comes close, and stays silent when both sides write the key alike', () => {
      const f = one({ 'svc.yaml': service('{on: web}'), 'a.yaml': workload('api', '{app: api}') });
      assert.equal(f.message, 'selector true=web (the unquoted key on reads as true in YAML 1.1, as kubectl reads it) of Service shop/web matches no pod template of namespace shop (it holds Deployment shop/api): the Service gets no endpoints, so connections fail (503 behind an Ingress); fix the selector or the labels');
      for (const [selector, labels] of [['{on: web}', '{on: web}'], ['{"on": web}', '{"on": web}'], ['{"true": web}', '{on: web}'], ['{yes: web}', '{on: web}']]) {
        assert.deepEqual(lint({ 'svc.yaml': service(selector), 'a.yaml': deployment(labels) }, { rules }).findings, [], `${selector} ${labels}`);
      }
      // A quoted "true" is the key true, written as it is read: nothing to say about it.
      const quoted = one({ 'svc.yaml': service('{"true": web}'), 'a.yaml': workload('api', '{app: api}') });
      assert.match(quoted.message, /^selector true=web of Service shop\/web matches no pod template of namespace shop /);
    });
  });

  it('names a pod template of another namespace that matches exactly when its own namespace holds others (the Service\'s namespace is probably wrong), in the message, related and hover', () => {
    // Service default/web selects app=web; Deployment shop/web matches it; default holds only Deployment other.
    const files = {
      'a.yaml': workload('web', '{app: web}', 'shop') + '\n---' + workload('other', '{app: other}', 'default'),
      'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n',
    };
    const { findings, analysis } = lint(files, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.column, f.text, f.severity, f.object]), [['svc.yaml', 5, 14, 'app: web', 'warning', 'Service default/web']]);
    assert.equal(findings[0].message, 'selector app=web of Service default/web matches no pod template of namespace default, but Deployment shop/web in namespace shop matches it: a Service selects Pods of its own namespace only, so it gets no endpoints; is its namespace meant to be shop?');
    assert.deepEqual(findings[0].related.map((r) => [r.file, r.line, r.message]), [['a.yaml', 3, 'Deployment shop/web of namespace shop matches the selector']]);
    const svcObj = analysis.model.objects.find((o) => o.kind === 'Service' && o.name === 'web')!;
    const chain = portChainAt(analysis.model, svcObj, files['svc.yaml'].indexOf('app: web') + 1);
    assert.deepEqual(chain?.steps.map((s) => s.text), [
      'selector of Service default/web needs pod labels app=web in namespace default',
      'matches no pod template of namespace default; Deployment shop/web of namespace shop matches (a Service selects only its own namespace\'s Pods)',
    ]);
    // A namespace that holds no workload at all (e.g. a kustomize base's placeholder namespace): info, as before.
    const empty = lint({ 'svc.yaml': service('{app: web}'), 'b.yaml': workload('web', '{app: web}', 'blog') }, { rules }).findings;
    assert.deepEqual(empty.map((f) => [f.severity, f.message]), [['info', 'selector app=web of Service shop/web matches no pod template here (namespace shop holds none): fine if its Pods are deployed from elsewhere, else it has no endpoints and connections fail']]);
    // A partial match elsewhere (another value) is not named; the closest of the own namespace is.
    const partial = lint({ 'svc.yaml': service('{app: web}'), 'a.yaml': workload('api', '{app: api}'), 'b.yaml': workload('web', '{app: web2}', 'blog') }, { rules }).findings;
    assert.deepEqual(partial.map((f) => f.message.split('; ').pop()), ['closest: Deployment shop/api (app=api)']);
    // Other clusters are not looked at.
    const clustered = lint({ 'prod/svc.yaml': service('{app: web}'), 'prod/a.yaml': workload('api', '{app: api}'), 'dev/web.yaml': workload('web', '{app: web}', 'blog') }, { rules, config: { clusters: { dev: ['dev/**'], prod: ['prod/**'] } } }).findings;
    assert.deepEqual(clustered.map((f) => f.message.split('; ').pop()), ['closest: Deployment shop/api (app=api) (in cluster prod)']);
  });

  it('matches only within the Service\'s namespace and cluster', () => {
    const otherNs = lint({ 'svc.yaml': service('{app: web}'), 'a.yaml': workload('api', '{app: api}'), 'b.yaml': workload('web', '{app: web}', 'blog') }, { rules }).findings;
    assert.deepEqual(otherNs.map((f) => [f.severity, f.related.map((r) => r.message)]), [['warning', ['Deployment blog/web of namespace blog matches the selector']]]);
    const files = { 'prod/svc.yaml': service('{app: web}'), 'prod/a.yaml': workload('api', '{app: api}'), 'dev/web.yaml': workload('web', '{app: web}') };
    const clusters = lint(files, { rules, config: { clusters: { dev: ['dev/**'], prod: ['prod/**'] } } }).findings;
    assert.deepEqual(clusters.map((f) => [f.file, f.severity, f.finding.clusters]), [['prod/svc.yaml', 'warning', ['prod']]]);
  });

  it('counts Pods read from the live cluster', () => {
    const pod = fromApiObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'shop', labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } }, 'kind-dev')!;
    const files = [loadFile('svc.yaml', service('{app: web}').slice(1)), loadFile('blog.yaml', workload('blog', '{app: blog}', 'blog').slice(1))];
    const analysis = analyze(files, DEFAULT_CONFIG, { extraObjects: [pod] });
    assert.deepEqual(analysis.findings.filter((f) => f.ruleId === 'service-selector-unmatched'), []);
    assert.deepEqual(analyze(files, DEFAULT_CONFIG).findings.filter((f) => f.ruleId === 'service-selector-unmatched').map((f) => f.severity), ['info']);
  });
  it('selects Pods by the labels their controller adds: StatefulSet pod-name / pod-index, a Job\'s job-name', () => {
    const kafka = `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec: {containers: [{name: c, image: c:1}]}`;
    const bench = `
apiVersion: batch/v1
kind: Job
metadata: {name: bench, namespace: shop}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}`;
    const files = { 'k.yaml': kafka, 'j.yaml': bench };
    for (const selector of ['{app: kafka, statefulset.kubernetes.io/pod-name: kafka-0}', '{apps.kubernetes.io/pod-index: "2", app: kafka}', '{statefulset.kubernetes.io/pod-name: kafka-2}', '{batch.kubernetes.io/job-name: bench}', '{job-name: bench}', '{app: kafka, controller-revision-hash: kafka-6f7c}']) {
      assert.deepEqual(lint({ ...files, 'svc.yaml': service(selector) }, { rules }).findings, [], selector);
    }
    const beyond = lint({ ...files, 'svc.yaml': service('{statefulset.kubernetes.io/pod-name: kafka-3}') }, { rules }).findings;
    assert.deepEqual(beyond.map((f) => [f.line, f.severity, f.message]), [[7, 'warning', 'selector statefulset.kubernetes.io/pod-name=kafka-3 of Service shop/web matches no pod template of namespace shop: the Service gets no endpoints, so connections fail (503 behind an Ingress); closest: StatefulSet shop/kafka (statefulset.kubernetes.io/pod-name kafka-0 … kafka-2 for replicas 3)']]);
    const wrongJob = lint({ ...files, 'svc.yaml': service('{batch.kubernetes.io/job-name: bench2}') }, { rules }).findings;
    assert.deepEqual(wrongJob.map((f) => f.message), ['selector batch.kubernetes.io/job-name=bench2 of Service shop/web matches no pod template of namespace shop: the Service gets no endpoints, so connections fail (503 behind an Ingress); fix the selector or the labels; closest: Job shop/bench (batch.kubernetes.io/job-name bench)']);
    // An HPA's minReplicas sets how many Pods the StatefulSet keeps, also when spec.replicas is not written.
    const hpa = (min: number) => `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: kafka, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: kafka}
  minReplicas: ${min}
  maxReplicas: 9`;
    const unwritten = kafka.replace('  replicas: 3\n', '');
    const pod4 = service('{statefulset.kubernetes.io/pod-name: kafka-4}');
    assert.deepEqual(lint({ 'k.yaml': unwritten, 'h.yaml': hpa(5), 'svc.yaml': pod4 }, { rules }).findings, []);
    assert.deepEqual(lint({ 'k.yaml': unwritten, 'h.yaml': hpa(4), 'svc.yaml': pod4 }, { rules }).findings.map((f) => [f.line, f.severity]), [[7, 'warning']]);
    // At replicas: 0 the HPA does not scale the StatefulSet, so no Pod carries the name.
    assert.deepEqual(lint({ 'k.yaml': kafka.replace('replicas: 3', 'replicas: 0'), 'h.yaml': hpa(5), 'svc.yaml': pod4 }, { rules }).findings.map((f) => [f.line, f.severity]), [[7, 'warning']]);
    // Another namespace's StatefulSet is not selected (a Service selects Pods of its own namespace only).
    assert.deepEqual(lint({ 'k.yaml': kafka, 'svc.yaml': service('{statefulset.kubernetes.io/pod-name: kafka-0}', 'other'), 'o.yaml': workload('api', '{app: api}', 'other') }, { rules }).findings.map((f) => [f.severity, f.line]), [['warning', 7]]);
  });
});
