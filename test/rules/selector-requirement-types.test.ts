import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint, TestFinding } from '../helpers/lint';

// Selector requirements (matchExpressions, a node selector term's matchFields) of the wrong JSON type: values is a
// []string, key and operator are strings; the API server's decoder refuses the whole object. Lines are 1-based after dedent.
const rules = ['pod-spec-invalid', 'networkpolicy-spec-invalid'];
const check = (text: string) => lint(text, { rules }).findings;
const where = (fs: TestFinding[]) => fs.map((f) => [f.ruleId, f.line, f.column, f.text, f.message]);

const deployment = `
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec:
    selector:
      matchLabels: {app: web}
      matchExpressions:
        - {key: tier, operator: In, values: a}
        - {key: env, operator: In, values: [1, true, ok, null]}
        - {key: 5, operator: Exists}
        - "app=web"
    template:
      metadata: {labels: {app: web, tier: a, env: ok, "5": x}}
      spec:
        containers: [{name: web, image: nginx}]
`;

describe('selector requirements of the wrong type (matchExpressions values, key, operator)', () => {
  it('reports a Deployment selector\'s values that are not a list, each value that is not a string, a number key and an entry that is not a mapping', () => {
    assert.deepEqual(where(check(deployment)), [
      ['pod-spec-invalid', 8, 43, 'a', 'values "a" is a string, not a list of strings: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field LabelSelectorRequirement.spec.selector.matchExpressions.values of type []string")'],
      ['pod-spec-invalid', 9, 43, '1', 'values[0] is a number, not a string (YAML 1.1 reads the unquoted value as the number 1): the API server cannot decode Deployment shop/web ("json: cannot unmarshal number into Go struct field LabelSelectorRequirement.spec.selector.matchExpressions.values of type string"); quote it'],
      ['pod-spec-invalid', 9, 46, 'true', 'values[1] is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode Deployment shop/web ("json: cannot unmarshal bool into Go struct field LabelSelectorRequirement.spec.selector.matchExpressions.values of type string"); quote it'],
      ['pod-spec-invalid', 10, 15, '5', 'key 5 is a number, not a string: the API server cannot decode Deployment shop/web ("json: cannot unmarshal number into Go struct field LabelSelectorRequirement.spec.selector.matchExpressions.key of type string"); quote it'],
      ['pod-spec-invalid', 11, 9, '"app=web"', 'matchExpressions[3] "app=web" is a string, not a mapping (key, operator, values): the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field LabelSelector.spec.selector.matchExpressions of type v1.LabelSelectorRequirement")'],
    ]);
  });

  it('says a key YAML 1.1 reads as true is read so, and that template labels writing it the same way must be quoted alike', () => {
    const workload = (name: string, labels: string) => `
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: ${name}, namespace: shop}
      spec:
        selector:
          matchExpressions:
            - {key: on, operator: Exists}
        template:
          metadata: {labels: ${labels}}
          spec:
            containers: [{name: web, image: nginx}]
    `;
    const refused = (name: string) => `key true is a boolean, not a string: the API server cannot decode Deployment shop/${name} ("json: cannot unmarshal bool into Go struct field LabelSelectorRequirement.spec.selector.matchExpressions.key of type string")`;
    const both = check(workload('a', '{on: web}'));
    assert.deepEqual(where(both), [['pod-spec-invalid', 7, 15, 'on', `${refused('a')}; quote it and the template labels' key on alike (YAML 1.1 reads both as true)`]]);
    assert.deepEqual(both[0].fixes, []);
    assert.deepEqual(where(check(workload('b', '{"on": web}'))), [['pod-spec-invalid', 7, 15, 'on', `${refused('b')}; quote it (YAML 1.1 reads the unquoted on as true)`]]);
    const policy = dedent(`
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np, namespace: shop}
      spec:
        podSelector:
          matchExpressions: [{key: yes, operator: Exists}]
    `);
    assert.deepEqual(check(policy).map((f) => f.message.slice(f.message.lastIndexOf(');') + 3)), ['quote it (YAML 1.1 reads the unquoted yes as true)']);
  });

  it('offers the quick fix that quotes a value as written; fixed and with the list written as one, nothing is left', () => {
    const fs = check(deployment);
    assert.deepEqual(fs.map((f) => f.fixes.map((x) => x.title)), [[], ['Quote "1"'], ['Quote "true"'], [], []]);
    const text = dedent(deployment);
    const quoted = applyEdits(text, [...fs[2].fixes[0].edits, ...fs[1].fixes[0].edits]);
    assert.match(quoted, /values: \["1", "true", ok, null\]/);
    const fixed = quoted.replace('values: a}', 'values: [a]}').replace('key: 5', 'key: "5"').replace('- "app=web"', '- {key: app, operator: In, values: [web]}');
    assert.deepEqual(check(fixed), []);
  });

  it('reports the selectors of pod affinity, node affinity and topology spread constraints, in every workload kind\'s pod spec', () => {
    assert.deepEqual(where(check(`
      apiVersion: batch/v1
      kind: CronJob
      metadata: {name: nightly, namespace: ops}
      spec:
        schedule: "0 3 * * *"
        jobTemplate:
          spec:
            selector: {matchExpressions: [{key: run, operator: In, values: [on]}]}
            template:
              spec:
                restartPolicy: Never
                affinity:
                  podAffinity:
                    preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 1
                        podAffinityTerm: {topologyKey: zone, namespaceSelector: {matchExpressions: [{key: team, operator: In, values: x}]}}
                  nodeAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [7]}]}]
                topologySpreadConstraints:
                  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: {key: app}}}
                containers: [{name: job, image: busybox}]
    `)), [
      ['pod-spec-invalid', 8, 71, 'on', 'values[0] is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server cannot decode CronJob ops/nightly ("json: cannot unmarshal bool into Go struct field LabelSelectorRequirement.spec.jobTemplate.spec.selector.matchExpressions.values of type string"); quote it'],
      ['pod-spec-invalid', 16, 129, 'x', 'values "x" is a string, not a list of strings: the API server cannot decode CronJob ops/nightly ("json: cannot unmarshal string into Go struct field LabelSelectorRequirement.….matchExpressions.values of type []string")'],
      ['pod-spec-invalid', 19, 96, '7', 'values[0] is a number, not a string: the API server cannot decode CronJob ops/nightly ("json: cannot unmarshal number into Go struct field NodeSelectorRequirement.….matchFields.values of type string"); quote it'],
      ['pod-spec-invalid', 21, 115, '{key: app}', 'matchExpressions is a mapping, not a list of requirements (`- key: app`): the API server cannot decode CronJob ops/nightly ("json: cannot unmarshal object into Go struct field LabelSelector.….labelSelector.matchExpressions of type []v1.LabelSelectorRequirement")'],
    ]);
  });

  it('reports a NetworkPolicy\'s podSelector and peer selectors as the workloads\' are said', () => {
    assert.deepEqual(where(check(`
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np, namespace: shop}
      spec:
        podSelector:
          matchExpressions:
            - {key: app, operator: In, values: web}
        ingress:
          - from:
              - namespaceSelector: {matchExpressions: [{key: team, operator: NotIn, values: [1.10, a]}]}
              - podSelector: {matchExpressions: [{key: tier, operator: 1}, x]}
    `)), [
      ['networkpolicy-spec-invalid', 7, 42, 'web', 'values "web" is a string, not a list of strings: the API server cannot decode NetworkPolicy shop/np ("json: cannot unmarshal string into Go struct field LabelSelectorRequirement.spec.podSelector.matchExpressions.values of type []string")'],
      ['networkpolicy-spec-invalid', 10, 88, '1.10', 'values[0] is a number, not a string: the API server cannot decode NetworkPolicy shop/np ("json: cannot unmarshal number into Go struct field LabelSelectorRequirement.spec.ingress.from.namespaceSelector.matchExpressions.values of type string"); quote it'],
      ['networkpolicy-spec-invalid', 11, 66, '1', 'operator 1 is a number, not a string: the API server cannot decode NetworkPolicy shop/np ("json: cannot unmarshal number into Go struct field LabelSelectorRequirement.spec.ingress.from.podSelector.matchExpressions.operator of type v1.LabelSelectorOperator"); use In, NotIn, Exists or DoesNotExist'],
      ['networkpolicy-spec-invalid', 11, 70, 'x', 'matchExpressions[1] is a string, not a mapping (key, operator, values): the API server cannot decode NetworkPolicy shop/np ("json: cannot unmarshal string into Go struct field LabelSelector.spec.ingress.from.podSelector.matchExpressions of type v1.LabelSelectorRequirement")'],
    ]);
  });

  it('reports a null matchExpressions entry (an empty requirement, refused for its empty operator) in a workload selector, affinity, topology spread and NetworkPolicy selectors, at the entry', () => {
    assert.deepEqual(where(check(`
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: db, namespace: shop}
      spec:
        serviceName: db
        selector:
          matchLabels: {app: db}
          matchExpressions:
            -
        template:
          metadata: {labels: {app: db}}
          spec:
            affinity:
              podAntiAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  - {topologyKey: kubernetes.io/hostname, labelSelector: {matchExpressions: [null]}}
              nodeAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}, null]}]
            topologySpreadConstraints:
              - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [null]}}
            containers: [{name: db, image: postgres}]
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np, namespace: shop}
      spec:
        podSelector: {matchExpressions: [{key: app, operator: In, values: [web]}, null]}
    `)), [
      ['pod-spec-invalid', 9, 7, '-', 'matchExpressions entry #0 is null, an empty requirement (no key, no operator): the API server rejects StatefulSet shop/db with "spec.selector.matchExpressions[0].operator: Invalid value: \"\": not a valid selector operator"; remove the entry'],
      ['pod-spec-invalid', 16, 88, 'null', 'matchExpressions entry #0 is null, an empty requirement (no key, no operator): the API server rejects StatefulSet shop/db with "spec.template.spec.affinity.podAntiAffinity.….matchExpressions[0].operator: Invalid value: \"\": not a valid selector operator"; remove the entry'],
      ['pod-spec-invalid', 19, 93, 'null', 'matchExpressions entry #1 is null, an empty requirement (no key, no operator): the API server rejects StatefulSet shop/db with "spec.template.spec.affinity.nodeAffinity.….matchExpressions[1].operator: Invalid value: \"\": not a valid selector operator"; remove the entry'],
      ['pod-spec-invalid', 21, 112, 'null', 'matchExpressions entry #0 is null, an empty requirement (no key, no operator): the API server rejects StatefulSet shop/db with "spec.template.spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].operator: Invalid value: \"\": not a valid selector operator"; remove the entry'],
      ['networkpolicy-spec-invalid', 28, 77, 'null', 'spec.podSelector.matchExpressions[1] is null, an empty requirement (no key, no operator): the API server rejects NetworkPolicy shop/np with "spec.podSelector.matchExpressions[1].operator: Invalid value: \"\": not a valid selector operator"; remove the entry'],
    ]);
  });

  it('reports an entry written as a bare dash (with or without a space after it) on its dash, also after other entries and in block-style affinity and NetworkPolicy selectors', () => {
    const found = where(check(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        selector:
          matchLabels: {app: web}
          matchExpressions:
            - {key: app, operator: In, values: [web]}
            - 
        template:
          metadata: {labels: {app: web}}
          spec:
            affinity:
              nodeAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  nodeSelectorTerms:
                    - matchExpressions:
                      -
            containers: [{name: web, image: nginx}]
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np, namespace: shop}
      spec:
        podSelector:
          matchExpressions:
            -${' '}
    `)).map((f) => f.slice(0, 4));
    assert.deepEqual(found, [
      ['pod-spec-invalid', 9, 7, '-'],
      ['pod-spec-invalid', 18, 17, '-'],
      ['networkpolicy-spec-invalid', 27, 7, '-'],
    ]);
  });

  it('reports the requirements validation refuses in affinity and topology spread selectors: an operator that is not one, In without values, Gt with two values', () => {
    const found = where(check(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            affinity:
              podAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                  - weight: 10
                    podAffinityTerm: {topologyKey: zone, labelSelector: {matchExpressions: [{key: app, operator: in, values: [db]}]}}
              nodeAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                  - weight: 1
                    preference: {matchExpressions: [{key: cpu, operator: Gt, values: ["4", "8"]}, {key: zone, operator: NotIn}]}
            topologySpreadConstraints:
              - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchExpressions: [{key: app, operator: Exists, values: [web]}]}}
            containers: [{name: web, image: nginx}]
    `));
    assert.deepEqual(found.map((f) => f.slice(0, 4)), [
      ['pod-spec-invalid', 13, 108, 'in'],
      ['pod-spec-invalid', 17, 80, '["4", "8"]'],
      ['pod-spec-invalid', 17, 93, '{key: zone, operator: NotIn}'],
      ['pod-spec-invalid', 19, 150, '[web]'],
    ]);
    assert.equal(found[0][4], 'selector operator "in" on "app" is not a valid operator: the API server rejects Deployment shop/web with "spec.template.spec.affinity.podAffinity.….matchExpressions[0].operator: Invalid value: "in": not a valid selector operator"; write In');
    assert.equal(found[1][4], 'selector requirement on "cpu" (Gt) has more than one value: the API server rejects Deployment shop/web with "spec.template.spec.affinity.nodeAffinity.….matchExpressions[0].values: Required value: must be specified single value when `operator` is \'Lt\' or \'Gt\'"; give exactly one value (an integer)');
  });

  it('stays silent on requirements the decoder accepts: strings, quoted numbers, null values, empty lists, Exists without values; and on custom workloads', () => {
    assert.deepEqual(check(`
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: db}
      spec:
        serviceName: db
        selector:
          matchExpressions:
            - {key: app, operator: In, values: [db, "1", 'true']}
            - {key: tier, operator: Exists}
            - {key: env, operator: Exists, values: []}
            - {key: zone, operator: In, values: [null, a]}
            - {key: x, operator: Exists, values: null}
        template:
          metadata: {labels: {app: db, tier: a, env: p, zone: a, x: "y"}}
          spec:
            affinity:
              podAntiAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  - {topologyKey: kubernetes.io/hostname, labelSelector: {matchExpressions: [{key: app, operator: In, values: ["1"]}]}}
              nodeAffinity: null
            topologySpreadConstraints: null
            containers: [{name: db, image: postgres}]
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np}
      spec:
        podSelector: {matchExpressions: [{key: app, operator: In, values: ["2", web]}]}
        ingress: [{from: [{podSelector: {matchExpressions: null}}, {namespaceSelector: {matchExpressions: []}}]}]
      ---
      apiVersion: argoproj.io/v1alpha1
      kind: Rollout
      metadata: {name: r}
      spec:
        selector: {matchExpressions: [{key: app, operator: In, values: [1]}]}
        template:
          metadata: {labels: {app: r}}
          spec: {containers: [{name: c, image: nginx}]}
    `), []);
  });
});
