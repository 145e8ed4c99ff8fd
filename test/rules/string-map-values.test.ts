import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint, TestFinding } from '../helpers/lint';

// A non-string value in a map[string]string field beyond the object's own metadata (object-invalid has those):
// pod template labels and annotations, nodeSelector, selectors. Lines are 1-based after dedent.
const rules = ['pod-spec-invalid', 'service-spec-invalid', 'networkpolicy-spec-invalid', 'object-invalid'];
const check = (text: string) => lint(text, { rules }).findings;
const where = (fs: TestFinding[]) => fs.map((f) => [f.ruleId, f.line, f.column, f.text, f.message]);

const deployment = `
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec:
    selector:
      matchLabels: {app: web, tier: 1}
    template:
      metadata:
        labels: {app: web, tier: 1}
        annotations: {prometheus.io/scrape: yes, note: "1", empty: null}
      spec:
        nodeSelector: {gpu: true, zone: a}
        containers: [{name: web, image: nginx, ports: [{containerPort: 8080, name: http}]}]
  ---
  apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
  spec:
    selector: {app: web, tier: 1.10}
    ports: [{port: 80, targetPort: http}]
`;

describe('string map values (labels, annotations, nodeSelector, selectors)', () => {
  it('reports each non-string value of a workload\'s selector, template labels, annotations and nodeSelector, and of a Service selector, at the value', () => {
    assert.deepEqual(where(check(deployment)), [
      ['pod-spec-invalid', 6, 35, '1', 'spec.selector.matchLabels.tier is a number, not a string (YAML 1.1 reads the unquoted value as the number 1): the API server cannot decode Deployment shop/web ("json: cannot unmarshal number into Go struct field LabelSelector.spec.selector.matchLabels of type string"); quote it'],
      ['pod-spec-invalid', 9, 32, '1', 'spec.template.metadata.labels.tier is a number, not a string (YAML 1.1 reads the unquoted value as the number 1): the API server cannot decode Deployment shop/web ("json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string"); quote it'],
      ['pod-spec-invalid', 10, 43, 'yes', 'spec.template.metadata.annotations.prometheus.io/scrape is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode Deployment shop/web ("json: cannot unmarshal bool into Go struct field ObjectMeta.spec.template.metadata.annotations of type string"); quote it'],
      ['pod-spec-invalid', 12, 27, 'true', 'spec.template.spec.nodeSelector.gpu is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode Deployment shop/web ("json: cannot unmarshal bool into Go struct field PodSpec.spec.template.spec.nodeSelector of type string"); quote it'],
      ['service-spec-invalid', 19, 30, '1.10', 'spec.selector.tier is a number, not a string (YAML 1.1 reads the unquoted value as the number 1.1): the API server cannot decode Service shop/web ("json: cannot unmarshal number into Go struct field ServiceSpec.spec.selector of type string"); quote it'],
    ]);
  });

  it('offers a quick fix that quotes the value as written', () => {
    const fs = check(deployment);
    const text = dedent(deployment);
    assert.deepEqual(fs.map((f) => f.fixes.map((x) => x.title)), [['Quote "1"'], ['Quote "1"'], ['Quote "yes"'], ['Quote "true"'], ['Quote "1.10"']]);
    assert.match(applyEdits(text, fs[2].fixes[0].edits), /annotations: \{prometheus\.io\/scrape: "yes", note: "1", empty: null\}/);
    assert.match(applyEdits(text, fs[4].fixes[0].edits), /selector: \{app: web, tier: "1\.10"\}/);
    // Every fix applied: nothing is left to report.
    const all = fs.flatMap((f) => f.fixes[0].edits).sort((a, b) => b.span.start - a.span.start);
    assert.deepEqual(check(applyEdits(text, all)), []);
  });

  it('leaves the rejected objects out of the other checks', () => {
    const text = `${dedent(deployment)}\n---\n${dedent(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: other, namespace: shop}
      spec:
        selector: {matchLabels: {app: other}}
        template:
          metadata: {labels: {app: other}}
          spec: {nodeSelector: {pool: "1"}, containers: [{name: c, image: nginx, ports: [{containerPort: 80, hostPort: 80}]}]}
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: clash, namespace: shop}
      spec:
        selector: {matchLabels: {app: clash}}
        template:
          metadata: {labels: {app: clash, v: 2}}
          spec: {containers: [{name: c, image: nginx, ports: [{containerPort: 80, hostPort: 80}]}]}
    `)}`;
    const { findings } = lint(text);
    assert.deepEqual(findings.filter((f) => f.ruleId === 'pod-spec-invalid').map((f) => [f.line, f.text]), [[6, '1'], [9, '1'], [10, 'yes'], [12, 'true'], [38, '2']]);
    assert.deepEqual(findings.filter((f) => f.ruleId === 'hostport-conflict'), [], 'the rejected Deployment claims no hostPort');
    assert.deepEqual(findings.filter((f) => f.ruleId === 'service-targetport-unresolved'), []);
    // Quoted, the label is accepted, and so is the Deployment: it collides.
    const accepted = lint(text.replace('v: 2}', 'v: "2"}')).findings;
    assert.deepEqual(accepted.filter((f) => f.ruleId === 'hostport-conflict').map((f) => f.line), [30, 39]);
  });

  it('covers a CronJob\'s job template and pod template, a ReplicationController, a PodTemplate and a Pod', () => {
    const fs = check(`
      apiVersion: batch/v1
      kind: CronJob
      metadata: {name: nightly}
      spec:
        schedule: "0 3 * * *"
        jobTemplate:
          metadata: {labels: {team: on}}
          spec:
            template:
              metadata: {labels: {app: nightly, v: 2}}
              spec: {nodeSelector: {ssd: 0123}, restartPolicy: Never, containers: [{name: c, image: busybox}]}
      ---
      apiVersion: v1
      kind: ReplicationController
      metadata: {name: rc}
      spec:
        selector: {app: rc, v: 2}
        template:
          metadata: {labels: {app: rc, v: "2"}}
          spec: {containers: [{name: c, image: nginx}]}
      ---
      apiVersion: v1
      kind: PodTemplate
      metadata: {name: pt}
      template:
        metadata: {labels: {a: [x]}}
        spec: {nodeSelector: "gpu=true", containers: [{name: c, image: nginx}]}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: pod}
      spec: {nodeSelector: {gpu: off}, containers: [{name: c, image: nginx}]}
    `);
    assert.deepEqual(where(fs), [
      ['pod-spec-invalid', 7, 31, 'on', 'spec.jobTemplate.metadata.labels.team is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode CronJob default/nightly ("json: cannot unmarshal bool into Go struct field ObjectMeta.spec.jobTemplate.metadata.labels of type string"); quote it'],
      ['pod-spec-invalid', 10, 46, '2', 'labels.v is a number, not a string (YAML 1.1 reads the unquoted value as the number 2): the API server cannot decode CronJob default/nightly ("json: cannot unmarshal number into Go struct field ObjectMeta.spec.jobTemplate.spec.template.metadata.labels of type string"); quote it'],
      ['pod-spec-invalid', 11, 36, '0123', 'nodeSelector.ssd is a number, not a string (YAML 1.1 reads the unquoted value as the number 83): the API server cannot decode CronJob default/nightly ("json: cannot unmarshal number into Go struct field PodSpec.spec.jobTemplate.spec.template.spec.nodeSelector of type string"); quote it'],
      ['pod-spec-invalid', 17, 26, '2', 'spec.selector.v is a number, not a string (YAML 1.1 reads the unquoted value as the number 2): the API server cannot decode ReplicationController default/rc ("json: cannot unmarshal number into Go struct field ReplicationControllerSpec.spec.selector of type string"); quote it'],
      ['pod-spec-invalid', 26, 26, '[x]', 'template.metadata.labels.a is a list, not a string: the API server cannot decode PodTemplate default/pt ("json: cannot unmarshal array into Go struct field ObjectMeta.template.metadata.labels of type string"); give a string'],
      ['pod-spec-invalid', 27, 24, '"gpu=true"', 'nodeSelector "gpu=true" is a string, not a mapping of strings: the API server cannot decode PodTemplate default/pt ("json: cannot unmarshal string into Go struct field PodSpec.template.spec.nodeSelector of type map[string]string")'],
      ['pod-spec-invalid', 32, 28, 'off', 'spec.nodeSelector.gpu is a boolean, not a string (YAML 1.1 reads the unquoted value as false): the API server cannot decode Pod default/pod ("json: cannot unmarshal bool into Go struct field PodSpec.spec.nodeSelector of type string"); quote it'],
    ]);
    assert.deepEqual(fs[4].fixes, [], 'a list is not quoted');
  });

  it('reports a selector or template metadata that is not a mapping', () => {
    assert.deepEqual(where(check(`
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: db}
      spec:
        selector: "app=db"
        template:
          metadata: [x]
          spec: {containers: [{name: c, image: postgres}]}
    `)), [
      ['pod-spec-invalid', 5, 13, '"app=db"', 'selector "app=db" is a string, not a mapping (matchLabels, matchExpressions): the API server cannot decode StatefulSet default/db ("json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.selector of type v1.LabelSelector")'],
      ['pod-spec-invalid', 7, 15, '[x]', 'metadata is a list, not a mapping (labels, annotations, …): the API server cannot decode StatefulSet default/db ("json: cannot unmarshal array into Go struct field PodTemplateSpec.spec.template.metadata of type v1.ObjectMeta")'],
    ]);
  });

  it('reports NetworkPolicy matchLabels values in spec.podSelector and in from / to peers', () => {
    const fs = check(`
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np}
      spec:
        podSelector:
          matchLabels: {app: web, tier: 1}
        ingress:
          - from:
              - podSelector: {matchLabels: {role: yes}}
              - namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: prod, env: null}}
        egress:
          - to:
              - namespaceSelector: {matchLabels: {team: 7}}
                podSelector: "app=x"
    `);
    assert.deepEqual(where(fs), [
      ['networkpolicy-spec-invalid', 6, 35, '1', 'spec.podSelector.matchLabels.tier is a number, not a string (YAML 1.1 reads the unquoted value as the number 1): the API server cannot decode NetworkPolicy default/np ("json: cannot unmarshal number into Go struct field LabelSelector.spec.podSelector.matchLabels of type string"); quote it'],
      ['networkpolicy-spec-invalid', 9, 45, 'yes', 'matchLabels.role is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode NetworkPolicy default/np ("json: cannot unmarshal bool into Go struct field LabelSelector.spec.ingress.from.podSelector.matchLabels of type string"); quote it'],
      ['networkpolicy-spec-invalid', 13, 51, '7', 'matchLabels.team is a number, not a string (YAML 1.1 reads the unquoted value as the number 7): the API server cannot decode NetworkPolicy default/np ("json: cannot unmarshal number into Go struct field LabelSelector.spec.egress.to.namespaceSelector.matchLabels of type string"); quote it'],
      ['networkpolicy-spec-invalid', 14, 24, '"app=x"', 'spec.egress[0].to[0].podSelector is a string, not a mapping (matchLabels, matchExpressions): the API server cannot decode NetworkPolicy default/np ("json: cannot unmarshal string into Go struct field NetworkPolicyPeer.spec.egress.to.podSelector of type v1.LabelSelector")'],
    ]);
    assert.deepEqual(fs.map((f) => f.fixes.map((x) => x.title)), [['Quote "1"'], ['Quote "yes"'], ['Quote "7"'], []]);
  });

  it('follows aliases and merge keys as kubectl does (a key the map writes itself wins over a merged one)', () => {
    const fs = check(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        selector: {matchLabels: &l {app: web, v: 1}}
        template:
          metadata:
            labels: {<<: *l, extra: on}
            annotations: {<<: [*l], v: "1"}
          spec:
            nodeSelector: *l
            containers: [{name: web, image: nginx}]
    `);
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.message.slice(0, f.message.indexOf(' is '))]), [
      [5, 44, '1', 'spec.selector.matchLabels.v'],
      [5, 44, '1', 'spec.template.metadata.labels.v'],
      [5, 44, '1', 'spec.template.spec.nodeSelector.v'],
      [8, 31, 'on', 'spec.template.metadata.labels.extra'],
    ]);
  });

  it('reports a value merged from another object at the merge key of each map that brings it in', () => {
    const fs = lint(dedent(`
      apiVersion: v1
      kind: List
      items:
      - apiVersion: v1
        kind: ConfigMap
        metadata: {name: labels, labels: &common {app: ds, v: "1"}}
        data: &values {v: 1}
      - apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: ds}
        spec:
          selector:
            matchLabels:
              <<: *values
          template:
            metadata:
              labels:
                <<: *values
            spec:
              containers: [{name: c, image: nginx}]
    `), { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.fixes.length, f.message.slice(0, f.message.indexOf(' is '))]), [
      [14, 13, '*values', 0, 'spec.selector.matchLabels.v'],
      [18, 15, '*values', 0, 'spec.template.metadata.labels.v'],
    ]);
  });

  it('reports at most 20 values of one map', () => {
    // Lists, which no quick fix can quote: with quotable values, quoting one would let the 21st be reported, which
    // the check that no quick fix adds a rejection (test/unit/fix-results.test.ts) counts against the fix.
    const values = Array.from({ length: 25 }, (_, i) => `k${i}: [${i}]`).join(', ');
    const fs = check(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec: {nodeSelector: {${values}}, containers: [{name: c, image: nginx}]}
    `);
    assert.equal(fs.length, 20);
    assert.equal(fs[19].text, '[19]');
  });

  it('in a JSON manifest, does not explain YAML 1.1', () => {
    const fs = lint({ 'd.json': '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"nodeSelector": {"gpu": true}, "containers": [{"name": "c", "image": "nginx"}]}}' }, { rules }).findings;
    assert.deepEqual(where(fs), [
      ['pod-spec-invalid', 1, 97, 'true', 'spec.nodeSelector.gpu is a boolean, not a string: the API server cannot decode Pod default/p ("json: cannot unmarshal bool into Go struct field PodSpec.spec.nodeSelector of type string"); quote it'],
    ]);
  });

  it('stays silent on strings, quoted numbers, null values, empty maps, and maps that are not these fields', () => {
    assert.deepEqual(check(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        selector: {matchLabels: {app: web, tier: "1"}}
        template:
          metadata: {labels: {app: web, tier: "1", v: '2'}, annotations: {}}
          spec:
            nodeSelector: {gpu: null, zone: ~, pool: }
            containers: [{name: web, image: nginx}]
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: web}
      spec: {selector: {}, ports: [{port: 80}]}
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np}
      spec:
        podSelector: {}
        ingress: [{from: [{podSelector: {matchLabels: {a: "1"}}, namespaceSelector: null}]}]
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: cm}
      data: {labels: "x"}
      ---
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: w}
      spec: {selector: {matchLabels: {a: 1}}, template: {metadata: {labels: {a: 1}}, spec: {nodeSelector: {b: true}}}}
      ---
      apiVersion: argoproj.io/v1alpha1
      kind: Rollout
      metadata: {name: r}
      spec:
        selector: {matchLabels: {app: r, v: 1}}
        template:
          metadata: {labels: {app: r, v: 1}}
          spec: {containers: [{name: c, image: nginx}]}
      ---
      apiVersion: apps.kruise.io/v1beta1
      kind: StatefulSet
      metadata: {name: k}
      spec:
        selector: {matchLabels: {app: k, v: 1}}
        template:
          metadata: {labels: {app: k, v: 1}}
          spec: {containers: [{name: c, image: nginx}]}
    `), []);
  });

  describe('keys YAML 1.1 reads as booleans or numbers, and values with an explicit tag', () => {
    /** Each finding as [rule, line, column, text, fixes as [title, edited text]]; `text` the dedented manifest. */
    const fixed = (fs: TestFinding[], text: string) => fs.map((f) => [f.ruleId, f.line, f.column, f.text, f.fixes.map((x) => [x.title, applyEdits(text, x.edits)])]);
    const keyed = dedent(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        selector:
          matchLabels: {app: web, on: 1}
        template:
          metadata:
            labels:
              app: web
              on: 1   # kept
              "yes": 2
          spec:
            nodeSelector:
              Y: no
              0x10: "a"
            containers: [{name: web, image: nginx}]
    `);

    it('quotes a misread key with the value, in the selector and the template labels together, keeping comments; a quoted key or a string value is left alone', () => {
      const fs = check(keyed);
      const swap = (from: string, to: string) => keyed.replace(from, to);
      // The selector and the template labels both read `on` as `true`: quoting it in one alone would make the selector
      // miss the template (refused), so each fix quotes it in both.
      const both = swap('{app: web, on: 1}', '{app: web, "on": "1"}').replace('on: 1   # kept', '"on": "1"   # kept');
      assert.deepEqual(fixed(fs, keyed), [
        ['pod-spec-invalid', 6, 33, '1', [['Quote "on" and "1" here and in the template labels', both]]],
        ['pod-spec-invalid', 11, 13, '1', [['Quote "on" and "1" here and in spec.selector.matchLabels', both]]],
        ['pod-spec-invalid', 12, 16, '2', [['Quote "2"', swap('"yes": 2', '"yes": "2"')]]],
        ['pod-spec-invalid', 15, 12, 'no', [['Quote "Y" and "no"', swap('Y: no', '"Y": "no"')]]],
      ]);
      assert.equal(fs[0].message, 'matchLabels.true is a number, not a string: the API server cannot decode Deployment default/web ("json: cannot unmarshal number into Go struct field LabelSelector.spec.selector.matchLabels of type string"); quote the key and the value, and the key in the template labels with it');
      assert.equal(fs[2].message, 'spec.template.metadata.labels.yes is a number, not a string (YAML 1.1 reads the unquoted value as the number 2): the API server cannot decode Deployment default/web ("json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string"); quote it');
      // Every fix applied: nothing is left, and the keys are the ones written.
      // (The selector's and the template's fixes hold the same edits: each once.)
      const all = [...new Map(fs.flatMap((f) => f.fixes[0].edits).map((e) => [e.span.start, e])).values()].sort((a, b) => b.span.start - a.span.start);
      const after = applyEdits(keyed, all);
      assert.deepEqual(check(after), []);
      const d = lint(after).analysis.model.workloads[0];
      assert.deepEqual(d.raw.spec, { selector: { matchLabels: { app: 'web', on: '1' } }, template: { metadata: { labels: { app: 'web', on: '1', yes: '2' } }, spec: { nodeSelector: { Y: 'no', 16: 'a' }, containers: [{ name: 'web', image: 'nginx' }] } } });
    });

    describe('a misread key that other selectors read as true too', () => {
      // The template labels write `on: 1` (a number: refused); the selector writes the key the same way with a string.
      const deployment = (selector: string, labels = '{on: 1}') => dedent(`
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: shop}
        spec:
          selector:
            matchLabels: ${selector}   # kept
          template:
            metadata:
              labels: ${labels}   # kept
            spec:
              containers: [{name: web, image: nginx}]
      `);

      it('quotes the key in the selector too when only the template\'s value is refused', () => {
        const text = deployment('{on: "1"}');
        const fs = check(text);
        assert.deepEqual(fixed(fs, text), [
          ['pod-spec-invalid', 9, 20, '1', [['Quote "on" and "1", and "on" in spec.selector.matchLabels', text.replace('{on: "1"}', '{"on": "1"}').replace('{on: 1}', '{"on": "1"}')]]],
        ]);
        assert.equal(fs[0].message, 'labels.true is a number, not a string: the API server cannot decode Deployment shop/web ("json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string"); quote the key and the value, and the key in spec.selector.matchLabels with it');
        // Applied, the Deployment decodes and its selector still matches its template.
        assert.deepEqual(check(applyEdits(text, fs[0].fixes[0].edits)), []);
      });

      it('offers no fix when the other map cannot be quoted the same way (its key written "true"), and says to change both', () => {
        const text = deployment('{"true": "1"}');
        const fs = check(text);
        assert.deepEqual(fixed(fs, text), [['pod-spec-invalid', 9, 20, '1', []]]);
        assert.equal(fs[0].message, 'labels.true is a number, not a string: the API server cannot decode Deployment shop/web ("json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string"); quote the key and the value, and the key in spec.selector.matchLabels with it (it reads true too)');
      });

      it('offers no fix when the selector and the template labels spell the key otherwise (ON and on, both read true), and says to write the same key', () => {
        // Quoted, `"ON"` and `"on"` are two label keys: the selector would miss its template (refused).
        const text = deployment('{app: web, ON: yes}', '{app: web, on: yes}');
        const fs = check(text);
        assert.deepEqual(fixed(fs, text), [['pod-spec-invalid', 6, 33, 'yes', []], ['pod-spec-invalid', 9, 30, 'yes', []]]);
        assert.equal(fs[0].message, 'matchLabels.true is a boolean, not a string: the API server cannot decode Deployment shop/web ("json: cannot unmarshal bool into Go struct field LabelSelector.spec.selector.matchLabels of type string"); quote the key and the value, and in the template labels the same key (on there)');
        assert.equal(fs[1].message, 'labels.true is a boolean, not a string: the API server cannot decode Deployment shop/web ("json: cannot unmarshal bool into Go struct field ObjectMeta.spec.template.metadata.labels of type string"); quote the key and the value, and in spec.selector.matchLabels the same key (ON there)');
        // The selector's value a string already (its key alone quoted with the template's): the same.
        for (const [selector, labels] of [['{On: "1"}', '{on: 1}'], ['{y: "1"}', '{Y: 1}'], ['{yes: "1"}', '{on: 1}']]) {
          const other = deployment(selector, labels);
          assert.deepEqual(check(other).map((f) => [f.ruleId, f.fixes.length, / the same key \([A-Za-z]+ there\)$/.test(f.message)]), [['pod-spec-invalid', 0, true]], selector);
        }
        // Spelled alike, the fix quotes both, and the Deployment decodes with a selector that matches.
        const alike = deployment('{app: web, On: yes}', '{app: web, On: yes}');
        const pair = check(alike);
        assert.deepEqual(pair.map((f) => f.fixes.map((x) => x.title)), [['Quote "On" and "yes" here and in the template labels'], ['Quote "On" and "yes" here and in spec.selector.matchLabels']]);
        const after = applyEdits(alike, pair[0].fixes[0].edits);
        assert.equal(after, deployment('{app: web, "On": "yes"}', '{app: web, "On": "yes"}'));
        assert.deepEqual(lint(after).findings, []);
      });

      it('leaves the fix alone when the selector does not ask for the key, or the key is quoted', () => {
        const text = deployment('{app: web}', '{app: web, on: 1}');
        assert.deepEqual(fixed(check(text), text), [['pod-spec-invalid', 9, 30, '1', [['Quote "on" and "1"', text.replace('on: 1', '"on": "1"')]]]]);
        const quoted = deployment('{"on": "1"}', '{"on": 1}');
        assert.deepEqual(fixed(check(quoted), quoted), [['pod-spec-invalid', 9, 22, '1', [['Quote "1"', quoted.replace('"on": 1}', '"on": "1"}')]]]]);
      });

      const selectors = dedent(`
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: web, namespace: shop}
        spec:
          selector: {on: "1"}
          ports: [{port: 80}]
        ---
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata: {name: allow, namespace: shop}
        spec:
          podSelector: {matchLabels: {"true": "1"}}
        ---
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: pdb, namespace: shop}
        spec:
          minAvailable: 1
          selector: {matchLabels: {on: "1"}}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: other, namespace: shop}
        spec:
          selector: {on: "2"}
          ports: [{port: 80}]
      `);

      it('offers no fix where a Service, NetworkPolicy or PodDisruptionBudget selects the Pods by the key as read, and names them', () => {
        const text = `${deployment('{on: 1}')}${selectors}`;
        const fs = check(text).filter((f) => f.ruleId === 'pod-spec-invalid');
        assert.deepEqual(fixed(fs, text), [['pod-spec-invalid', 6, 23, '1', []], ['pod-spec-invalid', 9, 20, '1', []]]);
        assert.equal(fs[1].message, 'labels.true is a number, not a string: the API server cannot decode Deployment shop/web ("json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string"); quote the key and the value, and the key in Service shop/web and 2 more, which select by true too');
        // A selector of another namespace, or one asking for another value, does not hold the fix back.
        const elsewhere = `${deployment('{on: 1}')}${selectors.replace(/namespace: shop/g, 'namespace: other')}`;
        assert.deepEqual(check(elsewhere).filter((f) => f.ruleId === 'pod-spec-invalid').map((f) => f.fixes.map((x) => x.title)), [['Quote "on" and "1" here and in the template labels'], ['Quote "on" and "1" here and in spec.selector.matchLabels']]);
      });

      it('quotes only the value of a Service\'s or a NetworkPolicy\'s entry when the Pods carry the key as read, the key too when they carry it as written or none are known', () => {
        const text = dedent(`
          apiVersion: v1
          kind: Pod
          metadata:
            name: web
            namespace: shop
            labels: {on: "1"}
          spec: {containers: [{name: web, image: nginx}]}
          ---
          apiVersion: v1
          kind: Service
          metadata: {name: web, namespace: shop}
          spec:
            selector: {on: 1}
            ports: [{port: 80}]
          ---
          apiVersion: networking.k8s.io/v1
          kind: NetworkPolicy
          metadata: {name: allow, namespace: shop}
          spec:
            podSelector: {matchLabels: {on: 1}}
            ingress: [{from: [{namespaceSelector: {matchLabels: {on: 1}}}]}]
        `);
        const fs = check(text);
        // Quoting the key would make them ask for the label on, which the Pod (labelled true=1) lacks.
        assert.deepEqual(fixed(fs, text), [
          ['service-spec-invalid', 13, 18, '1', [['Quote "1"', text.replace('selector: {on: 1}', 'selector: {on: "1"}')]]],
          ['networkpolicy-spec-invalid', 20, 35, '1', [['Quote "1"', text.replace('podSelector: {matchLabels: {on: 1}}', 'podSelector: {matchLabels: {on: "1"}}')]]],
          // A namespaceSelector selects Namespaces: its fix quotes both.
          ['networkpolicy-spec-invalid', 21, 60, '1', [['Quote "on" and "1"', text.replace('{namespaceSelector: {matchLabels: {on: 1}}}', '{namespaceSelector: {matchLabels: {"on": "1"}}}')]]],
        ]);
        assert.equal(fs[0].message, 'selector.true is a number, not a string: the API server cannot decode Service shop/web ("json: cannot unmarshal number into Go struct field ServiceSpec.spec.selector of type string"); quote it, not the key: Pods of Pod shop/web carry true'.replace('selector.true', 'spec.selector.true').replace('string: the', 'string (YAML 1.1 reads the unquoted value as the number 1): the'));
        assert.match(fs[1].message, /; quote it, not the key: Pods of Pod shop\/web carry true$/);
        // Pods labelled `"on": "1"` (the key on) are what the quoted key selects: the fix quotes both.
        const quotedPod = text.replace('labels: {on: "1"}', 'labels: {"on": "1"}');
        assert.deepEqual(check(quotedPod).map((f) => f.fixes.map((x) => x.title)), [['Quote "on" and "1"'], ['Quote "on" and "1"'], ['Quote "on" and "1"']]);
        // No Pods known (another value, or none): the fix quotes both, as the author wrote the key.
        for (const other of [text.replace('labels: {on: "1"}', 'labels: {on: "2"}'), text.slice(text.indexOf('---') + 4)]) {
          assert.deepEqual(check(other).map((f) => f.fixes.map((x) => x.title)), [['Quote "on" and "1"'], ['Quote "on" and "1"'], ['Quote "on" and "1"']]);
        }
      });

      it('keeps the key of a Service\'s selector as a Deployment\'s Pods carry it, and the fixes applied leave Service and NetworkPolicy selecting them', () => {
        const text = dedent(`
          apiVersion: apps/v1
          kind: Deployment
          metadata: {name: web, namespace: shop}
          spec:
            selector:
              matchLabels: {app: web, on: "yes"}
            template:
              metadata:
                labels: {app: web, on: "yes"}
              spec: {containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]}
          ---
          apiVersion: v1
          kind: Service
          metadata: {name: web, namespace: shop}
          spec:
            selector: {app: web, on: yes}   # kept
            ports: [{port: 80}]
          ---
          apiVersion: networking.k8s.io/v1
          kind: NetworkPolicy
          metadata: {name: allow, namespace: shop}
          spec:
            podSelector:
              matchLabels: {on: yes}
            ingress: [{}]
        `);
        const fs = check(text);
        const after = text.replace('{app: web, on: yes}', '{app: web, on: "yes"}').replace('matchLabels: {on: yes}', 'matchLabels: {on: "yes"}');
        assert.deepEqual(fs.map((f) => [f.ruleId, f.line, f.column, f.fixes.map((x) => x.title)]), [['service-spec-invalid', 16, 28, ['Quote "yes"']], ['networkpolicy-spec-invalid', 24, 23, ['Quote "yes"']]]);
        assert.equal(fs[0].message, 'spec.selector.true is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode Service shop/web ("json: cannot unmarshal bool into Go struct field ServiceSpec.spec.selector of type string"); quote it, not the key: Pods of Deployment shop/web carry true');
        assert.equal(applyEdits(text, [...fs[0].fixes[0].edits, ...fs[1].fixes[0].edits]), after);
        const relint = lint(after);
        assert.deepEqual(relint.findings, []);
        // The Service still selects the Pods (the key as read, true).
        const svc = relint.analysis.model.services[0];
        assert.deepEqual([svc.selector, relint.analysis.model.selectedWorkloads(svc).length], [{ app: 'web', true: 'yes' }, 1]);
        // A Service whose other entries select no Pods: none known, the fix quotes the key too.
        const elsewhere = text.replace('{app: web, on: yes}', '{app: api, on: yes}');
        assert.deepEqual(check(elsewhere).map((f) => f.fixes.map((x) => x.title)), [['Quote "on" and "yes"'], ['Quote "yes"']]);
      });

      it('withholds object-invalid\'s fix of a Pod label that a Service selects by the key as read, and keeps it otherwise', () => {
        const pod = (labels: string) => dedent(`
          apiVersion: v1
          kind: Pod
          metadata:
            name: web
            namespace: shop
            labels: ${labels}
          spec: {containers: [{name: web, image: nginx}]}
          ---
          apiVersion: v1
          kind: Service
          metadata: {name: web, namespace: shop}
          spec:
            selector: {on: "1"}
            ports: [{port: 80}]
        `);
        const text = pod('{on: 1}');
        const fs = check(text);
        assert.deepEqual(fixed(fs, text), [['object-invalid', 6, 16, '1', []]]);
        assert.equal(fs[0].message, 'metadata.labels.true is a number, not a string (YAML 1.1 reads the unquoted key on as true and the unquoted value as the number 1): the API server refuses the Pod ("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"); quote the key and the value, and the key in Service shop/web, which selects by true too'.replace(' (YAML 1.1 reads the unquoted key on as true and the unquoted value as the number 1)', ''));
        // Neither writes a namespace: both are in the default one.
        const unnamespaced = text.replace('  namespace: shop\n', '').replace('{name: web, namespace: shop}', '{name: web}');
        assert.deepEqual(check(unnamespaced).map((f) => [f.ruleId, f.fixes.length, f.message.endsWith(', and the key in Service default/web, which selects by true too')]), [['object-invalid', 0, true]]);
        // Another value is not selected: the fix quotes the key and the value.
        const other = pod('{on: 2}');
        assert.deepEqual(fixed(check(other), other), [['object-invalid', 6, 16, '2', [['Quote "on" and "2"', other.replace('{on: 2}', '{"on": "2"}')]]]]);
      });
    });

    it('says how object-invalid\'s metadata labels read a misread key, and quotes it with the value', () => {
      const text = dedent(`
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: cm
          labels:
            on: 80   # port
            off: web
            1.10: yes
            app: 1
      `);
      const fs = check(text);
      assert.deepEqual(fixed(fs, text), [
        ['object-invalid', 6, 9, '80', [['Quote "on" and "80"', text.replace('on: 80   # port', '"on": "80"   # port')]]],
        ['object-invalid', 8, 11, 'yes', [['Quote "1.10" and "yes"', text.replace('1.10: yes', '"1.10": "yes"')]]],
        ['object-invalid', 9, 10, '1', [['Quote "1"', text.replace('app: 1', 'app: "1"')]]],
      ]);
      assert.equal(fs[0].message, 'metadata.labels.true is a number, not a string (YAML 1.1 reads the unquoted key on as true and the unquoted value as the number 80): the API server refuses the ConfigMap ("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"); quote the key and the value');
      assert.equal(fs[1].message, 'metadata.labels.1.1 is a boolean, not a string (YAML 1.1 reads the unquoted key 1.10 as 1.1 and the unquoted value as true): the API server refuses the ConfigMap ("json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string"); quote the key and the value');
      assert.equal(fs[2].message, 'metadata.labels.app is a number, not a string (YAML 1.1 reads the unquoted value as the number 1): the API server refuses the ConfigMap ("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"); quote it');
    });

    it('reads a misread key the same with either parser', () => {
      const { loadFile } = require('../../server/out/core/load/load-file') as typeof import('../../server/out/core/load/load-file');
      const text = dedent(`
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: cm
          labels: {on: 80, app: y}
      `);
      const problems = (parser: 'yaml' | 'events') => loadFile('f.yaml', text, { parser }).problems.map((p) => [p.message, p.key?.read, p.key && text.slice(p.key.span.start, p.key.span.end)]);
      assert.deepEqual(problems('events'), problems('yaml'));
      assert.deepEqual(problems('events').map((p) => p.slice(1)), [['true', 'on'], ['app', 'app']]);
    });

    const tagged = dedent(`
      apiVersion: v1
      kind: Service
      metadata: {name: web}
      spec:
        selector:
          a: !!int "3"
          b: !!bool yes   # b
          c: !!str 4
          off: !!int 5
          d: &d !!int 6
        ports:
        - port: 80
          name: !!int 8080
          protocol: !!bool "on"
    `);

    it('tells a tagged value to lose its tag (quotes alone keep what the tag says), and the fix removes it', () => {
      const fs = check(tagged);
      const swap = (from: string, to: string) => tagged.replace(from, to);
      assert.deepEqual(fixed(fs, tagged), [
        ['service-spec-invalid', 6, 14, '"3"', [['Remove the !!int tag', swap('!!int "3"', '"3"')]]],
        ['service-spec-invalid', 7, 15, 'yes', [['Remove the !!bool tag and quote "yes"', swap('!!bool yes   # b', '"yes"   # b')]]],
        ['service-spec-invalid', 9, 16, '5', [['Quote "off", remove the !!int tag and quote "5"', swap('off: !!int 5', '"off": "5"')]]],
        ['service-spec-invalid', 10, 17, '6', []],
        ['service-spec-invalid', 13, 17, '8080', []],
        ['service-spec-invalid', 14, 22, '"on"', []],
      ]);
      assert.deepEqual(fs.map((f) => f.message.replace(/: the API server cannot decode Service default\/web \(.*\)/, ': …')), [
        'spec.selector.a is a number, not a string (the `!!int` tag makes it the number 3): …; remove the `!!int` tag',
        'spec.selector.b is a boolean, not a string (the `!!bool` tag makes it true): …; remove the `!!bool` tag and quote it',
        'selector.false is a number, not a string: …; quote the key, remove the `!!int` tag and quote the value',
        'spec.selector.d is a number, not a string (the `!!int` tag makes it the number 6): …; remove the `!!int` tag and quote it',
        'port name 8080 is not a string: …; remove the `!!int` tag and quote it',
        'protocol true is not a string: …; use TCP, UDP or SCTP',
      ]);
    });

    it('tells the string fields of an Ingress and a NetworkPolicy port to lose a tag, and an enum field the values it takes, tagged or not', () => {
      const text = dedent(`
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata: {name: ing}
        spec:
          rules:
          - http:
              paths:
              - path: /
                pathType: !!int 1
                backend:
                  service:
                    name: !!bool yes
                    port: {name: !!bool "on"}
        ---
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata: {name: np}
        spec:
          podSelector: {}
          ingress:
          - ports:
            - {port: 53, protocol: !!int 6}
            - {port: 54, protocol: 6}
      `);
      const fs = lint(text, { rules: ['ingress-spec-invalid', 'networkpolicy-spec-invalid'] }).findings;
      assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.message.slice(f.message.lastIndexOf(');') + 3), f.fixes.length]), [
        [9, 25, '1', 'use Prefix, Exact or ImplementationSpecific', 0],
        [12, 26, 'yes', 'remove the `!!bool` tag and quote it', 0],
        [13, 33, '"on"', 'remove the `!!bool` tag', 0],
        [22, 34, '6', 'use TCP, UDP or SCTP', 0],
        [23, 28, '6', 'use TCP, UDP or SCTP', 0],
      ]);
    });

    it('says "quote it" and quotes as before for values without a tag, and for JSON manifests', () => {
      const fs = lint({ 's.json': '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"selector": {"a": 1}, "ports": [{"port": 80, "name": 5}]}}' }, { rules }).findings;
      assert.deepEqual(fs.map((f) => [f.text, f.message.replace(/: the API server cannot decode Service default\/web \(.*\)/, ': …'), f.fixes.map((x) => x.title)]), [
        ['1', 'spec.selector.a is a number, not a string: …; quote it', ['Quote "1"']],
        ['5', 'port name 5 is not a string: …; quote it', []],
      ]);
    });
  });
});
