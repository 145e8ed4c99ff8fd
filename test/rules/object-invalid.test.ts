import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint, TestFinding } from '../helpers/lint';

const rules = ['object-invalid'];
const check = (text: string | Record<string, string>) => lint(text, { rules }).findings;
const where = (fs: TestFinding[]) => fs.map((f) => [f.line, f.column, f.text, f.severity]);

describe('object-invalid', () => {
  it('reports a missing name, apiVersion or kind with kubectl\'s / the API server\'s words, on the value concerned', () => {
    const fs = check(`
      apiVersion: v1
      kind: Service
      metadata:
        namespace: shop
      spec:
        ports: [{port: 80}]
      ---
      kind: Deployment
      metadata: {name: web}
      ---
      apiVersion: apps/v1
      metadata: {name: kindless}
    `);
    assert.deepEqual(where(fs), [
      [4, 3, 'namespace: shop\n', 'error'],
      [8, 7, 'Deployment', 'error'],
      [11, 13, 'apps/v1', 'error'],
    ]);
    assert.equal(fs[0].message, 'Service has no metadata.name: the API server rejects it with "metadata.name: Required value: name or generateName is required"; give it a name');
    assert.equal(fs[1].message, 'Deployment has no apiVersion: kubectl cannot decode it ("Object \'apiVersion\' is missing in \'{…}\'") and applies nothing; add apiVersion: apps/v1');
    assert.equal(fs[2].message, 'object of apiVersion apps/v1 has no kind: kubectl cannot decode it ("Object \'Kind\' is missing in \'{…}\'") and applies nothing; add its kind');
  });

  it('reports a built-in kind under another built-in group\'s apiVersion, or in another case, and the object collides with nothing', () => {
    const twin = (apiVersion: string, kind: string, name: string): string =>
      `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: ${name}}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30001}]}\n`;
    const { findings } = lint({
      'a.yaml': twin('apps/v1', 'Service', 'a'), 'b.yaml': twin('v1', 'service', 'b'), 'c.yaml': twin('v1', 'Service', 'c'),
      'd.yaml': 'apiVersion: v1\nkind: Deployment\nmetadata: {name: d}\n',
    }, { rules: ['object-invalid', 'nodeport-duplicate'] });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.column, f.text, f.message]), [
      ['a.yaml', 1, 13, 'apps/v1', 'apiVersion apps/v1 has no kind Service: kubectl refuses it ("no matches for kind "Service" in version "apps/v1"") and applies nothing; use apiVersion: v1'],
      ['b.yaml', 2, 7, 'service', 'kind service is not a kind of v1 (kinds are case-sensitive): kubectl refuses it ("no matches for kind "service" in version "v1"") and applies nothing; write kind: Service'],
      ['d.yaml', 1, 13, 'v1', 'apiVersion v1 has no kind Deployment: kubectl refuses it ("no matches for kind "Deployment" in version "v1"") and applies nothing; use apiVersion: apps/v1'],
    ]);
    // Groups that may serve the kind are not judged: older built-in groups, other API groups, custom resources.
    const silent = check({
      'knative.yaml': 'apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: k}\n',
      'old.yaml': 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: i}\n',
      'beta.yaml': 'apiVersion: apps/v1beta2\nkind: ControllerRevision\nmetadata: {name: r}\n',
      'event.yaml': 'apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: e}\n',
      'list.yaml': 'apiVersion: v1\nkind: List\nitems: []\n---\napiVersion: v1\nkind: ServiceList\nitems: []\n',
    });
    assert.deepEqual(silent, []);
  });

  it('reports metadata or spec of the wrong shape as the decode error, and the object takes part in no other check', () => {
    const { findings, analysis } = lint(`
      apiVersion: v1
      kind: Service
      metadata: {name: as-string}
      spec: "nope"
      ---
      apiVersion: v1
      kind: Service
      metadata: [a, b]
      spec:
        type: NodePort
        ports: [{port: 80, nodePort: 30080}]
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: other}
      spec:
        type: NodePort
        ports: [{port: 80, nodePort: 30080}]
    `);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.text]), [
      ['object-invalid', 4, '"nope"'],
      ['object-invalid', 8, '[a, b]'],
    ], 'no "ClusterIP Service has no ports", no nodeport-duplicate with the undecodable Service');
    assert.equal(findings[0].message, 'spec is a string, not a mapping: the API server refuses the Service ("json: cannot unmarshal string into Go struct field Service.spec of type v1.ServiceSpec")');
    assert.equal(findings[1].message, 'metadata is a list, not a mapping: the API server refuses the Service ("json: cannot unmarshal array into Go struct field Service.metadata of type v1.ObjectMeta")');
    assert.deepEqual(analysis.model.services.filter((s) => s.origin.type === 'file').map((s) => s.name), ['other']);
  });

  it('names the Go type of the spec from the apiVersion written (autoscaling/v1 → v1, PodTemplate → template)', () => {
    const fs = check(`
      apiVersion: autoscaling/v2
      kind: HorizontalPodAutoscaler
      metadata: {name: a}
      spec: 3
      ---
      apiVersion: v1
      kind: PodTemplate
      metadata: {name: b}
      template: [x]
    `);
    assert.match(fs[0].message, /json: cannot unmarshal number into Go struct field HorizontalPodAutoscaler\.spec of type v2\.HorizontalPodAutoscalerSpec/);
    assert.match(fs[1].message, /Go struct field PodTemplate\.template of type v1\.PodTemplateSpec/);
  });

  it('reports a YAML 1.1 boolean or number in a string field of metadata on the value, and creates no object from it', () => {
    const text = `
      apiVersion: v1
      kind: Service
      metadata: {name: f, namespace: "on"}
      spec: {type: NodePort, ports: [{port: 80, nodePort: 30701}]}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: g, namespace: on}
      spec: {type: NodePort, ports: [{port: 80, nodePort: 30701}]}
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: 0123, namespace: n}
      spec: {podSelector: {}}
    `;
    const { findings, analysis } = lint(text);
    const invalid = findings.filter((f) => f.ruleId === 'object-invalid');
    assert.deepEqual(invalid.map((f) => [f.line, f.column, f.text, f.severity]), [[8, 32, 'on', 'error'], [13, 18, '0123', 'error'], [13, 35, 'n', 'error']]);
    assert.equal(invalid[0].message, 'metadata.namespace is a boolean, not a string (YAML 1.1 reads the unquoted value as true): the API server refuses the Service ("json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.namespace of type string"); quote it');
    assert.equal(invalid[1].message, 'metadata.name is a number, not a string (YAML 1.1 reads the unquoted value as the number 83): the API server refuses the NetworkPolicy ("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string"); quote it');
    assert.match(invalid[2].message, /^metadata\.namespace is a boolean, not a string \(YAML 1\.1 reads the unquoted value as false\)/);
    // The quick fix quotes the value as written; the fixed text has no such finding and Service on/g collides with on/f.
    assert.deepEqual(invalid.map((f) => f.fixes.map((x) => [x.title, x.edits[0].newText])), [[['Quote "on"', '"on"']], [['Quote "0123"', '"0123"']], [['Quote "n"', '"n"']]]);
    const fixed = applyEdits(dedent(text), invalid.flatMap((f) => f.fixes[0].edits));
    assert.match(fixed, /metadata: \{name: g, namespace: "on"\}/);
    const after = lint(fixed).findings;
    assert.deepEqual(after.filter((f) => f.ruleId === 'object-invalid'), []);
    assert.deepEqual(after.filter((f) => f.ruleId === 'nodeport-duplicate').map((f) => f.object), ['Service on/f', 'Service on/g']);
    // Neither object exists in the model (no namespace "true", no NetworkPolicy "83"): only Service on/f is left, alone on its nodePort.
    assert.deepEqual(analysis.model.objects.filter((o) => o.origin.type === 'file').map((o) => `${o.kind} ${o.namespace}/${o.name}`), ['Service on/f']);
    assert.deepEqual(findings.filter((f) => f.ruleId === 'nodeport-duplicate'), []);
  });

  it('reports non-string values of labels and annotations (keys with dots too), custom resources, and stays silent on quoted values and null', () => {
    const fs = check(`
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
        labels: {app.kubernetes.io/version: 1.10, enabled: yes, tier: "x"}
        annotations:
          replicas: 3
          note: ~
      spec: {template: {spec: {containers: []}}}
      ---
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: w, namespace: off}
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: "0123", namespace: "no", labels: {a: "true"}, annotations: null}
    `);
    assert.deepEqual(fs.map((f) => [f.line, f.text, f.message.split(' (')[0]]), [
      [5, '1.10', 'metadata.labels.app.kubernetes.io/version is a number, not a string'],
      [5, 'yes', 'metadata.labels.enabled is a boolean, not a string'],
      [7, '3', 'metadata.annotations.replicas is a number, not a string'],
      [13, 'off', 'metadata.namespace is a boolean, not a string'],
    ]);
    assert.match(fs[0].message, /\(YAML 1\.1 reads the unquoted value as the number 1\.1\): .*json: cannot unmarshal number into Go struct field ObjectMeta\.metadata\.labels of type string"\); quote it$/);
    assert.match(fs[3].message, /: the API server refuses it \("json: cannot unmarshal bool into Go struct field ObjectMeta\.metadata\.namespace of type string"\); quote it$/);
  });

  it('says a labels or annotations field that is not a mapping should be a mapping of strings', () => {
    const fs = check(`
      apiVersion: v1
      kind: Service
      metadata: {name: s, labels: [x], annotations: on}
    `);
    assert.deepEqual(fs.map((f) => [f.line, f.text, f.message]), [
      [3, '[x]', 'metadata.labels is a list, not a mapping of strings: the API server refuses the Service ("json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string"); give a mapping of key: "value" strings'],
      [3, 'on', 'metadata.annotations is a boolean, not a mapping of strings: the API server refuses the Service ("json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type map[string]string"); give a mapping of key: "value" strings'],
    ]);
    // Quoting `on` would give a string, still not a mapping: no "Quote" fix there.
    assert.deepEqual(fs.map((f) => f.fixes.length), [0, 0]);
  });

  it('reports a name or namespace the API server refuses, with its words, on the value, and the object then collides with nothing', () => {
    const text = `
      apiVersion: v1
      kind: Service
      metadata: {name: Web_App}
      spec: {type: NodePort, ports: [{port: 80, nodePort: 30080}]}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: 1api, namespace: Team_A}
      spec: {type: NodePort, ports: [{port: 80, nodePort: 30080}]}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: web}
      spec: {type: NodePort, ports: [{port: 80, nodePort: 30081}]}
    `;
    const fs = check(text);
    assert.deepEqual(where(fs), [[3, 18, 'Web_App', 'error'], [8, 18, '1api', 'error'], [8, 35, 'Team_A', 'error']]);
    assert.equal(fs[0].message, 'Service name "Web_App": the API server rejects it ("metadata.name: Invalid value: "Web_App": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character"); rename it');
    assert.equal(fs[2].message, 'Service namespace "Team_A": the API server rejects it ("metadata.namespace: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character"); use another namespace');
    // Neither object exists: no nodePort collision between them, and they are not in the model.
    const { findings, analysis } = lint(text);
    assert.deepEqual(findings.filter((f) => f.ruleId !== 'object-invalid').map((f) => f.ruleId), []);
    assert.deepEqual(analysis.model.services.filter((s) => s.origin.type === 'file').map((s) => s.name), ['web']);
  });

  it('takes each kind\'s own name rule: subdomains with dots, a length limit, and no judgement of generateName, placeholders or other kinds', () => {
    const ok = check(`
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: app.config-v2, namespace: shop}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {generateName: Web_, namespace: shop}
      spec: {containers: [{name: a, image: nginx}]}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: "\${APP_NAME}-svc", namespace: "\${NAMESPACE}"}
      spec: {ports: [{port: 80}]}
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: "system:controller:Web"}
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-a}
    `);
    assert.deepEqual(ok, []);
    const bad = check(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: Web.App, namespace: shop}
      spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: a, image: nginx}]}}}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: api.v1}
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: team.a}
      ---
      apiVersion: v1
      kind: Secret
      metadata: {name: ${'a'.repeat(254)}}
    `);
    assert.deepEqual(bad.map((f) => [f.line, f.text.slice(0, 10)]), [[3, 'Web.App'], [8, 'api.v1'], [12, 'team.a'], [16, 'aaaaaaaaaa']]);
    assert.match(bad[0].message, /^Deployment name "Web\.App": .*"metadata\.name: Invalid value: "Web\.App": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '\.', and must start and end with an alphanumeric character"\); rename it$/);
    assert.match(bad[2].message, /^Namespace name "team\.a": .*a lowercase RFC 1123 label must consist/);
    assert.match(bad[3].message, /^Secret name "a{19}…": .*Invalid value: "a{19}…": must be no more than 253 characters"\); rename it$/);
  });

  it('gives one info finding per document (or List item) that is a list or a scalar', () => {
    const fs = check(`
      - name: an Ansible play
        hosts: all
      ---
      just text
      ---
      apiVersion: v1
      kind: List
      items:
        - plain string item
    `);
    assert.deepEqual(fs.map((f) => [f.line, f.severity, f.message.split(':')[0]]), [
      [1, 'info', 'this document is a list, not a Kubernetes object (a mapping with apiVersion, kind and metadata)'],
      [4, 'info', 'this document is a string, not a Kubernetes object (a mapping with apiVersion, kind and metadata)'],
      [9, 'info', 'item #0 of this List is a string, not a Kubernetes object (a mapping with apiVersion, kind and metadata)'],
    ]);
  });

  it('stays silent on YAML that is not an API object and on partial objects', () => {
    assert.deepEqual(check({
      // Helm values, a kubeconfig, a kind cluster config, Drone CI, a kubeadm config without metadata, a CR without a name rule.
      'values.yaml': 'replicaCount: 2\nservice: {type: NodePort, port: 80}\n',
      'kubeconfig.yaml': 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\n',
      'kind.yaml': 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes: [{role: control-plane}]\n',
      '.drone.yml': 'kind: pipeline\ntype: docker\nname: default\n',
      'kubeadm.yaml': 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nnetworking: {podSubnet: 10.244.0.0/16}\n',
      'Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n',
      'empty.yaml': '# nothing here\n---\n',
      // A JSON 6902 patch (a list) used by a kustomization.
      'kustomization.yaml': 'resources: [svc.yaml]\npatches:\n  - path: patch.yaml\n    target: {kind: Service, name: a}\n',
      'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}\n',
      'patch.yaml': '- op: replace\n  path: /spec/ports/0/port\n  value: 81\n',
    }), []);
  });

  it('tells a tagged metadata string field to lose its tag, and the fix removes it; an alias gets no fix', () => {
    const text = dedent(`
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: !!int "5"
        namespace: !!bool yes  # ns
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: &n !!int 7
        generateName: *n
    `);
    const fs = check(text);
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.message.replace(/: the API server refuses the ConfigMap \(.*\)/, ': …'), f.fixes.map((x) => [x.title, applyEdits(text, x.edits)])]), [
      [4, 15, '"5"', 'metadata.name is a number, not a string (the `!!int` tag makes it the number 5): …; remove the `!!int` tag', [['Remove the !!int tag', text.replace('!!int "5"', '"5"')]]],
      [5, 21, 'yes', 'metadata.namespace is a boolean, not a string (the `!!bool` tag makes it true): …; remove the `!!bool` tag and quote it', [['Remove the !!bool tag and quote "yes"', text.replace('!!bool yes  # ns', '"yes"  # ns')]]],
      [10, 18, '7', 'metadata.name is a number, not a string (the `!!int` tag makes it the number 7): …; remove the `!!int` tag and quote it', []],
      [11, 17, '*n', 'metadata.generateName is a number, not a string (the `!!int` tag makes it the number 7): …; remove the `!!int` tag and quote it', []],
    ]);
  });
});
