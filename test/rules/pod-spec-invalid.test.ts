import { strict as assert } from 'node:assert';
import type { WorkloadObject } from '../../server/out/core/model/objects';
import { applyEdits, dedent, lint, TestFinding } from '../helpers/lint';

const rules = ['pod-spec-invalid'];
const check = (text: string) => lint(text, { rules }).findings;
/** [line, column, text, severity] of each finding, in report order. */
const where = (fs: TestFinding[]) => fs.map((f) => [f.line, f.column, f.text, f.severity]);

// Line numbers in comments are 1-based after dedent (the leading newline is dropped).
const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: "3"                 # line 7
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      hostNetwork: "true"       # line 12
      containers:
        - name: web
          image: nginx
          ports:
            - containerPort: 8080
              hostPort: "9100"  # line 18
            - containerPort: abc # line 19
`;

describe('pod-spec-invalid', () => {
  it('reports a selector that does not select its own pod template on the selector, and the workload then collides with nothing', () => {
    const workload = (kind: string, name: string, selector: string, labels: string, hostPort = 8080): string => `apiVersion: apps/v1
kind: ${kind}
metadata: {name: ${name}}
spec:
  selector: ${selector}
  template:
    metadata: {labels: ${labels}}
    spec: {containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: ${hostPort}}]}]}
`;
    const { findings } = lint({
      'd.yaml': workload('Deployment', 'd', '{matchLabels: {app: d}}', '{app: e}'),
      'ds.yaml': workload('DaemonSet', 'ds', '{matchLabels: {app: ds}}', '{app: ds, tier: x}'),
      'st.yaml': workload('StatefulSet', 'st', '{matchExpressions: [{key: app, operator: NotIn, values: [st]}]}', '{app: st}', 9090),
      'rs.yaml': workload('ReplicaSet', 'rs', '{matchLabels: {app: "${APP}"}}', '{app: web}', 9091),
    }, { rules: ['pod-spec-invalid', 'hostport-conflict'] });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.file, f.line, f.column, f.text]), [
      ['pod-spec-invalid', 'd.yaml', 5, 13, '{matchLabels: {app: d}}'],
      ['pod-spec-invalid', 'st.yaml', 5, 13, '{matchExpressions: [{key: app, operator: NotIn, values: [st]}]}'],
    ]);
    assert.equal(findings[0].message, 'selector app=d does not match the pod template\'s labels: the API server rejects Deployment default/d with "spec.template.metadata.labels: Invalid value: map[string]string{"app":"e"}: `selector` does not match template `labels`"; give the template every label the selector asks for');
    // A kustomize patch is half of an object: its selector is not judged against its own labels.
    const patch = lint({
      'kustomization.yaml': 'resources: [d.yaml]\npatches: [{path: patch.yaml}]\n',
      'd.yaml': workload('Deployment', 'd', '{matchLabels: {app: d}}', '{app: d}'),
      'patch.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {extra: x}}\n',
    }, { rules: ['pod-spec-invalid'] });
    assert.deepEqual(patch.findings, []);
  });

  it('says which side writes a key YAML 1.1 reads as true when a selector misses its template by it', () => {
    const workload = (selector: string, labels: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  selector: {matchLabels: ${selector}}
  template:
    metadata: {labels: ${labels}}
    spec: {containers: [{name: c, image: x}]}
`;
    const message = (selector: string, labels: string) => check(workload(selector, labels)).map((f) => f.message);
    assert.deepEqual(message('{"on": web}', '{on: web}'), ['selector on=web does not match the pod template\'s labels (kubectl reads the unquoted key on as true): the API server rejects Deployment default/d with "spec.template.metadata.labels: Invalid value: map[string]string{"true":"web"}: `selector` does not match template `labels`"; quote it on both sides']);
    assert.deepEqual(message('{yes: web}', '{"yes": web}'), ['selector true=web (kubectl reads the unquoted key yes as true) does not match the pod template\'s labels: the API server rejects Deployment default/d with "spec.template.metadata.labels: Invalid value: map[string]string{"yes":"web"}: `selector` does not match template `labels`"']);
    // Both read alike (on and yes are both true): they match.
    assert.deepEqual(message('{on: web}', '{yes: web}'), []);
  });

  it('reports a selector requirement validation refuses (an operator that is not one, In without values, Exists with values) instead of the match, and reads a null value as ""', () => {
    const { findings } = lint(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector:
    matchExpressions:
      - {key: app, operator: in, values: [web]}
      - {key: tier, operator: In, values: []}
      - {key: x, operator: Exists, values: [a]}
      - {key: zone, operator: NotIn}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: x}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: flags, namespace: shop}
spec:
  selector: {matchExpressions: [{key: flag, operator: In, values: [~, x]}]}
  template:
    metadata: {labels: {flag: ""}}
    spec: {containers: [{name: c, image: x}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: shop}
spec:
  selector: {matchExpressions: [{key: app, operator: NotIn, values: [ds]}]}
  template:
    metadata: {labels: {app: ds}}
    spec: {containers: [{name: c, image: x}]}
`, { rules: ['pod-spec-invalid'] });
    assert.deepEqual(findings.map((f) => [f.line, f.column, f.text, f.message]), [
      [7, 30, 'in', 'selector operator "in" on "app" is not a valid operator: the API server rejects Deployment shop/web with "spec.selector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator"; write In'],
      [8, 43, '[]', 'selector requirement on "tier" (In) has no values: the API server rejects Deployment shop/web with "spec.selector.matchExpressions[1].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'"; give the values to match, or use Exists'],
      [9, 44, '[a]', 'selector requirement on "x" (Exists) has values: the API server rejects Deployment shop/web with "spec.selector.matchExpressions[2].values: Forbidden: may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'"; remove values, or use In'],
      [10, 9, '{key: zone, operator: NotIn}', 'selector requirement on "zone" (NotIn) has no values: the API server rejects Deployment shop/web with "spec.selector.matchExpressions[3].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'"; give the values to match, or use Exists'],
      [28, 13, '{matchExpressions: [{key: app, operator: NotIn, values: [ds]}]}', 'selector app notin (ds) does not match the pod template\'s labels: the API server rejects DaemonSet shop/ds with "spec.template.metadata.labels: Invalid value: map[string]string{"app":"ds"}: `selector` does not match template `labels`"; make the template\'s labels satisfy the selector'],
    ]);
  });

  it('reports a refused selector requirement beside a decode error of the same object (the match itself is not judged then)', () => {
    const { findings } = lint('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: "2"\n  selector: {matchExpressions: [{key: app, operator: in, values: [web]}], matchLabels: {tier: x}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: x}]}\n', { rules: ['pod-spec-invalid'] });
    assert.deepEqual(findings.map((f) => [f.line, f.column, f.text]), [[5, 13, '"2"'], [6, 54, 'in']]);
  });

  it('reports a ReplicationController whose selector map does not select its template, and not one whose empty selector is defaulted', () => {
    const rc = (name: string, selector: string, labels: string): string => `apiVersion: v1\nkind: ReplicationController\nmetadata: {name: ${name}}\nspec:\n${selector}  template:\n    metadata: {labels: ${labels}}\n    spec: {containers: [{name: c, image: x}]}\n`;
    const { findings } = lint([rc('rc', '  selector: {app: rc}\n', '{app: other}'), rc('defaulted', '', '{app: other}'), rc('subset', '  selector: {app: a}\n', '{app: a, tier: z}')].join('---\n'), { rules: ['pod-spec-invalid'] });
    assert.deepEqual(findings.map((f) => [f.line, f.column, f.message]), [
      [5, 13, 'selector app=rc does not match the pod template\'s labels: the API server rejects ReplicationController default/rc with "spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`"; give the template every label the selector asks for'],
    ]);
  });

  it('reports an apps/v1 workload without a selector or with an empty one, but not in a kustomize resource, whose labels transformer may add it', () => {
    const workload = (kind: string, name: string, selector: string, labels = `{app: ${name}}`): string =>
      `apiVersion: apps/v1\nkind: ${kind}\nmetadata: {name: ${name}}\nspec:\n${selector}  template:\n    metadata: {labels: ${labels}}\n    spec: {containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]}\n`;
    const text = [
      workload('Deployment', 'none', ''),
      workload('StatefulSet', 'empty', '  selector: {}\n'),
      workload('ReplicaSet', 'nolabels', '  selector: {matchLabels: {}}\n'),
      workload('DaemonSet', 'nulled', '  selector: null\n', '{app: ds, tier: node}'),
      workload('DaemonSet', 'dsempty', '  selector: {}\n'),
      workload('Deployment', 'fine', '  selector: {matchLabels: {app: fine}}\n'),
    ].join('---\n');
    const { findings } = lint({ 'apps.yaml': text }, { rules: ['pod-spec-invalid', 'hostport-conflict'] });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.text]), [
      ['pod-spec-invalid', 3, 18, 'none'],
      ['pod-spec-invalid', 13, 13, '{}'],
      ['pod-spec-invalid', 22, 13, '{matchLabels: {}}'],
      ['pod-spec-invalid', 29, 18, 'nulled'],
      ['pod-spec-invalid', 40, 13, '{}'],
    ]);
    assert.deepEqual(findings.map((f) => f.message), [
      'Deployment has no spec.selector (apps/v1 does not take it from the template\'s labels): the API server rejects Deployment default/none with "spec.selector: Required value"; add selector.matchLabels with the template\'s label (app: none)',
      'spec.selector is empty: the API server rejects StatefulSet default/empty with "spec.selector: Invalid value: …: empty selector is invalid for statefulset"; add selector.matchLabels with the template\'s label (app: empty)',
      'spec.selector is empty: the API server rejects ReplicaSet default/nolabels with "spec.selector: Invalid value: …: empty selector is invalid for deployment"; add selector.matchLabels with the template\'s label (app: nolabels)',
      'DaemonSet has no spec.selector (apps/v1 does not take it from the template\'s labels): the API server rejects DaemonSet default/nulled with "spec.template.metadata.labels: Invalid value: map[string]string{"app":"ds", "tier":"node"}: `selector` does not match template `labels`"',
      'spec.selector is empty: the API server rejects DaemonSet default/dsempty with "spec.selector: Invalid value: …: empty selector is invalid for daemonset"; add selector.matchLabels with the template\'s label (app: dsempty)',
    ]);
    // The rejected workloads claim no hostPort: only "fine" is left, so nothing collides.
    assert.equal(findings.filter((f) => f.ruleId === 'hostport-conflict').length, 0);
    // Listed under a kustomization's resources, the same file is built by kustomize (commonLabels / labels add the
    // selector), so nothing is missing yet: no refusal, and the workloads' hostPorts collide.
    const built = lint({ 'kustomization.yaml': 'resources: [apps.yaml]\ncommonLabels: {team: a}\n', 'apps.yaml': text }, { rules: ['pod-spec-invalid', 'hostport-conflict'] });
    assert.deepEqual(built.findings.filter((f) => f.ruleId === 'pod-spec-invalid'), []);
    assert.ok(built.findings.some((f) => f.ruleId === 'hostport-conflict'), 'the built workloads are not rejected');
    // Read as written, beside a decode error of the same object; a requirement without a key is no empty selector
    // (validation refuses its key instead, which this rule leaves to the API server).
    const decoded = lint('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: "2"\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: x}]}\n', { rules: ['pod-spec-invalid'] });
    assert.deepEqual(decoded.findings.map((f) => [f.line, f.text]), [[3, 'web'], [5, '"2"']]);
    const keyless = lint('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchExpressions: [{operator: Exists}]}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: x}]}\n', { rules: ['pod-spec-invalid'] });
    assert.deepEqual(keyless.findings, []);
    // An older apps API version is not judged here (nor a ReplicationController, whose selector is defaulted: above).
    const other = lint('apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: old}\nspec:\n  template:\n    metadata: {labels: {app: old}}\n    spec: {containers: [{name: c, image: x}]}\n', { rules: ['pod-spec-invalid'] });
    assert.deepEqual(other.findings, []);
  });

  it('keeps the message of a missing or empty selector within 300 characters when the template has many long labels', () => {
    const labels = '{app.kubernetes.io/name: partners-elasticsearch-coordinating, app.kubernetes.io/instance: partners-elasticsearch-prod, app.kubernetes.io/component: coordinating-only, app.kubernetes.io/part-of: partners-search}';
    const workload = (kind: string, selector: string): string =>
      `apiVersion: apps/v1\nkind: ${kind}\nmetadata: {name: partners-elasticsearch-coordinating, namespace: experimentation}\nspec:\n${selector}  template:\n    metadata: {labels: ${labels}}\n    spec: {containers: [{name: c, image: x}]}\n`;
    const { findings } = lint([workload('DaemonSet', ''), workload('Deployment', '  selector: {}\n'), workload('DaemonSet', '  selector: {matchLabels: {app: es}}\n')].join('---\n'), { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.message.length <= 300]), [[3, true], [13, true], [22, true]]);
    assert.deepEqual(findings.map((f) => f.message), [
      // The labels map gives way (`{…}`), then the fix; the labels the fix lists go first.
      'DaemonSet has no spec.selector (apps/v1 does not take it from the template\'s labels): the API server rejects DaemonSet experimentation/partners-elasticsearch-coordinating with "spec.template.metadata.labels: Invalid value: map[string]string{…}: `selector` does not match template `labels`"',
      'spec.selector is empty: the API server rejects Deployment experimentation/partners-elasticsearch-coordinating with "spec.selector: Invalid value: …: empty selector is invalid for deployment"; add selector.matchLabels with the template\'s labels',
      'selector app=es does not match the pod template\'s labels: the API server rejects DaemonSet experimentation/partners-elasticsearch-coordinating with "spec.template.metadata.labels: Invalid value: map[string]string{…}: `selector` does not match template `labels`"',
    ]);
  });

  it('reports containers written as a mapping and a template that is not a mapping, with the decoder\'s message', () => {
    const fs = check(`
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: cmap}
      spec:
        selector: {matchLabels: {a: b}}
        template:
          metadata: {labels: {a: b}}
          spec:
            containers:
              web: {image: nginx}
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: tmplstr}
      spec:
        selector: {matchLabels: {a: b}}
        template: "nope"
      ---
      apiVersion: batch/v1
      kind: CronJob
      metadata: {name: cron}
      spec:
        schedule: "* * * * *"
        jobTemplate:
          spec: [a]
    `);
    assert.deepEqual(fs.map((f) => [f.line, f.message]), [
      [10, 'containers is a mapping, not a list of containers (`- name: web`): the API server cannot decode Deployment default/cmap ("json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container")'],
      [17, 'template "nope" is a string, not a mapping (metadata, spec): the API server cannot decode Deployment default/tmplstr ("json: cannot unmarshal string into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec")'],
      [25, 'spec is a list, not a mapping (template, …): the API server cannot decode CronJob default/cron ("json: cannot unmarshal array into Go struct field JobTemplateSpec.spec.jobTemplate.spec of type v1.JobSpec")'],
    ]);
  });

  it('shows a containerPort beyond int32 as written, with the decoder\'s number', () => {
    const fs = check(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        containers:
          - name: c
            ports: [{containerPort: 99999999999, hostPort: .nan}]
    `);
    assert.deepEqual(fs.map((f) => f.message), [
      'containerPort 99999999999 is outside the int32 range (-2147483648 to 2147483647): the API server cannot decode Pod default/p ("json: cannot unmarshal number 99999999999 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32")',
      'hostPort .nan is not a number JSON can hold: kubectl cannot convert the manifest ("error converting YAML to JSON: json: unsupported value: NaN")',
    ]);
  });

  it('says to remove a !!str tag, not quotes, from replicas, hostNetwork and hostPort, and the fixes remove the tag', () => {
    const tagged = deployment.replace('replicas: "3"', 'replicas: !!str 3').replace('hostNetwork: "true"', 'hostNetwork: !!str true').replace('hostPort: "9100"', 'hostPort: !!str 9100');
    const fs = check(tagged);
    assert.deepEqual(where(fs), [[7, 19, '3', 'error'], [12, 26, 'true', 'error'], [18, 31, '9100', 'error'], [19, 30, 'abc', 'error']]);
    assert.deepEqual(fs.slice(0, 3).map((f) => f.message.split('"); ')[1]), ['remove the `!!str` tag', 'remove the `!!str` tag', 'remove the `!!str` tag']);
    const fixed = applyEdits(dedent(tagged), fs.slice(0, 3).map((f) => f.fixes[0].edits[0]));
    assert.match(fixed, /\n {2}replicas: 3 {17}# line 7\n/);
    assert.match(fixed, /\n {6}hostNetwork: true {7}# line 12\n/);
    assert.match(fixed, /\n {14}hostPort: 9100  # line 18\n/);
    assert.deepEqual(check(fixed).map((f) => f.text), ['abc'], 'only the containerPort word is left');
  });

  it('reports wrongly typed replicas, hostNetwork, hostPort and containerPort of a Deployment with the decoder\'s message', () => {
    const fs = check(deployment);
    assert.deepEqual(where(fs), [
      [7, 13, '"3"', 'error'],
      [12, 20, '"true"', 'error'],
      [18, 25, '"9100"', 'error'],
      [19, 30, 'abc', 'error'],
    ]);
    assert.equal(fs[0].message, 'replicas "3" is a string, not an integer: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"); remove the quotes');
    assert.equal(fs[1].message, 'hostNetwork "true" is a string, not a boolean: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.hostNetwork of type bool"); remove the quotes');
    assert.equal(fs[2].message, 'hostPort "9100" is a string, not an integer: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.hostPort of type int32"); remove the quotes');
    assert.equal(fs[3].message, 'containerPort "abc" is a string, not an integer: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32")');
    assert.equal(fs[3].object, 'Deployment shop/web');
    assert.deepEqual(fs[3].fixes, [], 'no fix when the value is not a quoted number');
    // No "Required value" for the port whose containerPort is there but undecodable.
    assert.ok(!fs.some((f) => f.message.includes('Required value')));
  });

  it('fixes quoted numbers and booleans by removing the quotes, keeping comments, and the result is clean', () => {
    let text = dedent(deployment);
    for (let i = 0; i < 3; i++) {
      const f = lint(text, { rules }).findings.find((x) => x.fixes.length);
      if (!f) break;
      text = applyEdits(text, f.fixes[0].edits);
    }
    assert.match(text, /replicas: 3 {17}# line 7\n/);
    assert.match(text, /hostNetwork: true {7}# line 12\n/);
    assert.match(text, /hostPort: 9100 {2}# line 18\n/);
    assert.deepEqual(where(check(text)), [[19, 30, 'abc', 'error']]);
    assert.equal(check(deployment)[2].fixes[0].title, 'Change hostPort "9100" to 9100');
  });

  it('offers no fix for an anchored value (the edit would change every alias too), but still reports it', () => {
    const fs = check(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        containers:
          - name: a
            ports: [{containerPort: 80, hostPort: &hp "8080"}]
    `);
    assert.deepEqual(where(fs), [[7, 49, '"8080"', 'error']]);
    assert.deepEqual(fs[0].fixes, []);
  });

  it('reports ports that are not a list and port entries that are not mappings', () => {
    const fs = check(`
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: ns}
      spec:
        containers:
          - name: a
            ports: 80
          - name: b
            ports: ["8080:80"]
    `);
    assert.deepEqual(where(fs), [[7, 14, '80', 'error'], [9, 15, '"8080:80"', 'error']]);
    assert.equal(fs[0].message, 'ports 80 is a number, not a list of port entries: the API server cannot decode Pod ns/p ("json: cannot unmarshal number into Go struct field Container.spec.containers.ports of type []v1.ContainerPort")');
    assert.equal(fs[1].message, 'port entry #0 "8080:80" is a string, not a mapping (containerPort, hostPort, …): the API server cannot decode Pod ns/p ("json: cannot unmarshal string into Go struct field Container.spec.containers.ports of type v1.ContainerPort")');
  });

  it('checks DaemonSet port numbers (1–65535) and protocols with the API\'s wording; hostPort 0 and protocol "" are valid', () => {
    const fs = check(`
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: {name: agent, namespace: kube-system}
      spec:
        template:
          spec:
            containers:
              - name: agent
                ports:
                  - {containerPort: 70000}
                  - {containerPort: 80, hostPort: 65536}
                  - {containerPort: 81, hostPort: -1}
                  - {containerPort: 82, protocol: tcp}
                  - {containerPort: 83, protocol: HTTP}
                  - {containerPort: 84, hostPort: 0, protocol: ""}
                  - {containerPort: 65535, hostPort: 1, protocol: SCTP}
          metadata: {labels: {app: agent}}
        selector: {matchLabels: {app: agent}}
    `);
    assert.deepEqual(where(fs), [
      [10, 31, '70000', 'error'],
      [11, 45, '65536', 'error'],
      [12, 45, '-1', 'error'],
      [13, 45, 'tcp', 'error'],
      [14, 45, 'HTTP', 'error'],
    ]);
    assert.equal(fs[0].message, 'containerPort 70000 of container "agent" is not a port number: the API server rejects DaemonSet kube-system/agent with "spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"; use a port from 1 to 65535');
    assert.ok(fs[1].message.includes('"spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive"'));
    assert.ok(fs[2].message.includes('"spec.template.spec.containers[0].ports[2].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"'));
    assert.equal(fs[3].message, 'protocol "tcp" of container "agent" is not one of SCTP, TCP, UDP: the API server rejects DaemonSet kube-system/agent with "spec.template.spec.containers[0].ports[3].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP""; write TCP');
    assert.deepEqual(fs[3].fixes.map((f) => [f.title, f.edits[0].newText]), [['Change protocol "tcp" to "TCP"', 'TCP']]);
    assert.deepEqual(fs[4].fixes, [], 'HTTP is no protocol in any case');
  });

  it('requires containerPort in CronJob init containers and containers, pointing at the entry\'s hostPort or name', () => {
    const fs = check(`
      apiVersion: batch/v1
      kind: CronJob
      metadata: {name: backup, namespace: ops}
      spec:
        schedule: "0 3 * * *"
        jobTemplate:
          spec:
            template:
              spec:
                initContainers:
                  - name: wait
                    ports:
                      - hostPort: 9000
                containers:
                  - name: run
                    ports:
                      - name: metrics
                      - containerPort: 0
    `);
    assert.deepEqual(where(fs), [[13, 29, '9000', 'error'], [17, 25, 'metrics', 'error'], [18, 34, '0', 'error']]);
    assert.equal(fs[0].message, 'port entry #0 of init container "wait" has no containerPort: the API server rejects CronJob ops/backup with "spec.jobTemplate.spec.template.spec.initContainers[0].ports[0].containerPort: Required value"; set the port the container listens on');
    assert.ok(fs[1].message.startsWith('port entry #0 of container "run" has no containerPort'));
    assert.ok(fs[1].message.endsWith('"spec.jobTemplate.spec.template.spec.containers[0].ports[0].containerPort: Required value"; set the port the container listens on'));
    assert.ok(fs[2].message.startsWith('containerPort 0 of container "run" means "not set"'));
    assert.ok(fs[2].message.endsWith('"spec.jobTemplate.spec.template.spec.containers[0].ports[1].containerPort: Required value"; set the port the container listens on'));
  });

  it('checks port names (IANA_SVC_NAME) and duplicates inside one container, including restartable init containers', () => {
    const fs = check(`
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: db, namespace: data}
      spec:
        template:
          spec:
            initContainers:
              - name: proxy
                restartPolicy: Always
                ports:
                  - {name: metrics, containerPort: 9100}
                  - {name: metrics, containerPort: 9101}
            containers:
              - name: db
                ports:
                  - {name: postgres-replication, containerPort: 5432}
                  - {name: metrics, containerPort: 9187}
          metadata: {labels: {app: db}}
        selector: {matchLabels: {app: db}}
    `);
    assert.deepEqual(where(fs), [[12, 22, 'metrics', 'error'], [16, 22, 'postgres-replication', 'error']]);
    assert.equal(fs[0].message, 'port name "metrics" is used twice in sidecar "proxy": the API server rejects StatefulSet data/db with "spec.template.spec.initContainers[0].ports[1].name: Duplicate value: "metrics""; rename one of them');
    assert.deepEqual(fs[0].related.map((r) => [r.line, r.message]), [[11, 'first port named "metrics"']]);
    assert.equal(fs[1].message, 'port name "postgres-replication" of container "db" is not a valid port name (IANA_SVC_NAME): the API server rejects StatefulSet data/db with "spec.template.spec.containers[0].ports[0].name: Invalid value: "postgres-replication": must be no more than 15 characters"; rename it');
    assert.deepEqual(fs[1].fixes, []);
    // Upper case breaks two of the API's checks: one finding for the value, quoting the first; lower-casing fixes both.
    const upper = check('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, ports: [{name: HTTP, containerPort: 80}]}]');
    assert.deepEqual(upper.map((f) => [f.line, f.column, f.text]), [[5, 41, 'HTTP']]);
    assert.deepEqual(upper.map((f) => f.message.slice(f.message.indexOf('Invalid value'))), [
      'Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"; rename it',
    ]);
    assert.deepEqual(upper[0].fixes.map((f) => [f.title, f.edits[0].newText]), [['Change "HTTP" to "http"', 'http']]);
  });

  it('warns about hostIP without hostPort (hostPort 0 counts as unset), except on a hostNetwork Pod whose hostPort is defaulted', () => {
    const fs = lint({
      'pod.yaml': `
        apiVersion: v1
        kind: Pod
        metadata: {name: exporter, namespace: mon}
        spec:
          containers:
            - name: node-exporter
              ports:
                - {name: metrics, containerPort: 9100, hostIP: 10.0.0.5}
                - {containerPort: 9101, hostPort: 0, hostIP: "::1", protocol: UDP}
      `,
      'hostnet.yaml': `
        apiVersion: v1
        kind: Pod
        metadata: {name: hostnet}
        spec:
          hostNetwork: true
          containers:
            - name: a
              ports: [{containerPort: 9100, hostIP: 10.0.0.5}]
      `,
      'hostnet-ds.yaml': `
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: hostnet-ds}
        spec:
          template:
            spec:
              hostNetwork: yes
              containers:
                - name: a
                  ports: [{containerPort: 9100, hostIP: 10.0.0.5}]
            metadata: {labels: {app: hostnet-ds}}
          selector: {matchLabels: {app: hostnet-ds}}
      `,
    }, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.file, f.line, f.column, f.text, f.severity]), [
      ['hostnet-ds.yaml', 10, 49, '10.0.0.5', 'warning'],
      ['pod.yaml', 8, 56, '10.0.0.5', 'warning'],
      ['pod.yaml', 9, 54, '"::1"', 'warning'],
    ]);
    assert.equal(fs[1].message, 'hostIP "10.0.0.5" of container "node-exporter" is set without a hostPort, so it does nothing (only a hostPort is bound to a node address): the API server warns "spec.containers[0].ports[0]: hostIP set without hostPort: {Name:metrics HostPort:0 ContainerPort:9100 Protocol:TCP HostIP:10.0.0.5}"');
    assert.ok(fs[2].message.endsWith('hostIP set without hostPort: {Name: HostPort:0 ContainerPort:9101 Protocol:UDP HostIP:::1}"'));
    assert.ok(fs[0].message.includes('"spec.template.spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:9100 Protocol:TCP HostIP:10.0.0.5}"'));
  });

  it('reads unquoted YAML 1.1 booleans as kubectl does (hostNetwork: yes is true, not an error)', () => {
    const { findings, analysis } = lint('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostNetwork: yes\n  containers: [{name: a, ports: [{containerPort: 80}]}]', { rules });
    assert.deepEqual(findings, []);
    const w = analysis.model.workloads[0] as WorkloadObject;
    assert.equal(w.pod.hostNetwork?.value, true);
    assert.equal(w.invalidFields, undefined);
  });

  it('flags a hostIP that is not an IP address when a hostPort is set (portmap skips it), accepting IPv4, IPv6 and 0.0.0.0', () => {
    const fs = check(`
      apiVersion: apps/v1
      kind: ReplicaSet
      metadata: {name: rs, namespace: x}
      spec:
        replicas: -1
        template:
          spec:
            containers:
              - name: a
                ports:
                  - {containerPort: 80, hostPort: 8080, hostIP: node-1}
                  - {containerPort: 81, hostPort: 8081, hostIP: 0.0.0.0}
                  - {containerPort: 82, hostPort: 8082, hostIP: "fd00::1"}
                  - {containerPort: 83, hostPort: 8083, hostIP: 192.168.1.10}
          metadata: {labels: {app: rs}}
        selector: {matchLabels: {app: rs}}
    `);
    assert.deepEqual(where(fs), [[5, 13, '-1', 'error'], [11, 59, 'node-1', 'error']]);
    assert.equal(fs[0].message, 'replicas -1 is negative: the API server rejects ReplicaSet x/rs with "spec.replicas: Invalid value: -1: must be greater than or equal to 0"');
    assert.equal(fs[1].message, 'hostIP "node-1" of container "a" is not an IP address: the API server stores it (hostIP is not validated), but the CNI portmap plugin cannot parse it and skips the mapping on IPv4 pods, so hostPort 8080 is never opened on the node');
  });

  it('does not ask kustomize patches for a containerPort or hostPort they leave to the base, but checks the values they set', () => {
    const patch = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      containers:\n        - name: agent\n          ports:\n            - {name: metrics, hostIP: 10.0.0.5}\n            - {containerPort: 9101, protocol: tcp}\n';
    const files = {
      'base/kustomization.yaml': 'resources: [ds.yaml]\n',
      'base/ds.yaml': 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      containers:\n        - name: agent\n          ports: [{name: metrics, containerPort: 9100, hostPort: 9100}]\n',
      'overlay/kustomization.yaml': 'resources: [../base]\npatches:\n  - path: ds-patch.yaml\n',
      'overlay/ds-patch.yaml': patch,
    };
    const fs = lint(files, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.file, f.line, f.column, f.text, f.severity]), [['overlay/ds-patch.yaml', 11, 47, 'tcp', 'error']]);
    // The same partial DaemonSet outside a kustomization is an object of its own: containerPort and the selector
    // (apps/v1 requires one) are missing there.
    const alone = lint({ 'ds.yaml': patch }, { rules }).findings;
    assert.deepEqual(alone.map((f) => [f.line, f.text, f.severity]), [[3, 'agent', 'error'], [10, 'metrics', 'error'], [10, '10.0.0.5', 'warning'], [11, 'tcp', 'error']]);
    assert.equal(alone[0].message, 'DaemonSet has no spec.selector (apps/v1 does not take it from the template\'s labels): the API server rejects DaemonSet default/agent with "spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`"');
  });

  it('reports preferred affinity weights outside 1-100 (unset is 0), and a topology spread constraint\'s maxSkew below 1, empty topologyKey and unsupported whenUnsatisfiable, with the decoder\'s message for a quoted number', () => {
    const text = `
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            affinity:
              nodeAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                  - weight: 0
                    preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}
                  - preference: {matchExpressions: [{key: disk, operator: Exists}]}
                  - weight: "10"
                    preference: {matchExpressions: [{key: cpu, operator: Exists}]}
              podAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                  - weight: 101
                    podAffinityTerm: {topologyKey: zone, labelSelector: {matchLabels: {app: db}}}
              podAntiAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                  - {weight: 100, podAffinityTerm: {topologyKey: kubernetes.io/hostname}}
            topologySpreadConstraints:
              - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: doNotSchedule}
              - {topologyKey: "", whenUnsatisfiable: Never}
              - {maxSkew: 1, topologyKey: kubernetes.io/hostname}
              - {maxSkew: "1", topologyKey: rack, whenUnsatisfiable: ScheduleAnyway}
            containers: [{name: web, image: nginx}]
    `;
    const fs = check(text);
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.message]), [
      [12, 23, '0', 'nodeAffinity weight 0 of preferred term #0 is outside 1-100: the API server rejects Deployment shop/web with "spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"; use a weight from 1 to 100'],
      [14, 15, 'preference', 'preferred nodeAffinity term #1 has no weight (an unset weight is 0): the API server rejects Deployment shop/web with "spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].weight: Invalid value: 0: must be in the range 1-100"; use a weight from 1 to 100'],
      [15, 23, '"10"', 'weight "10" is a string, not an integer: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field PreferredSchedulingTerm.spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution.weight of type int32"); remove the quotes'],
      [19, 23, '101', 'podAffinity weight 101 of preferred term #0 is outside 1-100: the API server rejects Deployment shop/web with "spec.template.spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100"; use a weight from 1 to 100'],
      [25, 21, '0', 'maxSkew 0 of topology spread constraint #0 is not above 0: the API server rejects Deployment shop/web with "spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"; use 1 or more'],
      [25, 62, 'doNotSchedule', 'whenUnsatisfiable "doNotSchedule" is not supported: the API server rejects Deployment shop/web with "spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "doNotSchedule": supported values: "DoNotSchedule", "ScheduleAnyway""; write DoNotSchedule'],
      [26, 11, '{topologyKey: "", whenUnsatisfiable: Never}', 'topology spread constraint #1 has no maxSkew (an unset maxSkew is 0): the API server rejects Deployment shop/web with "spec.template.spec.topologySpreadConstraints[1].maxSkew: Invalid value: 0: must be greater than zero"; use 1 or more'],
      [26, 25, '""', 'topology spread constraint #1 has an empty topologyKey: the API server rejects Deployment shop/web with "spec.template.spec.topologySpreadConstraints[1].topologyKey: Required value: can not be empty"; set the node label to spread over, e.g. topology.kubernetes.io/zone'],
      [26, 48, 'Never', 'whenUnsatisfiable "Never" is not supported: the API server rejects Deployment shop/web with "spec.template.spec.topologySpreadConstraints[1].whenUnsatisfiable: Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway""; use DoNotSchedule or ScheduleAnyway'],
      [27, 11, '{maxSkew: 1, topologyKey: kubernetes.io/hostname}', 'topology spread constraint #2 has no whenUnsatisfiable: the API server rejects Deployment shop/web with "spec.template.spec.topologySpreadConstraints[2].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway""; use DoNotSchedule or ScheduleAnyway'],
      [28, 21, '"1"', 'maxSkew "1" is a string, not an integer: the API server cannot decode Deployment shop/web ("json: cannot unmarshal string into Go struct field TopologySpreadConstraint.spec.template.spec.topologySpreadConstraints.maxSkew of type int32"); remove the quotes'],
    ]);
    assert.deepEqual(fs.flatMap((f) => f.fixes.map((x) => [f.line, x.title])), [[15, 'Change weight "10" to 10'], [25, 'Change whenUnsatisfiable "doNotSchedule" to "DoNotSchedule"'], [28, 'Change maxSkew "1" to 1']]);
  });

  it('asks a kustomize patch for no weight, maxSkew, topologyKey or whenUnsatisfiable it leaves to the base, but checks the values it sets; and a refused workload collides with nothing', () => {
    const patch = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n            - podAffinityTerm: {topologyKey: zone}\n      topologySpreadConstraints:\n        - {topologyKey: zone}\n        - {topologyKey: rack, maxSkew: 0}\n';
    const files = {
      'base/kustomization.yaml': 'resources: [d.yaml]\n',
      'base/d.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n',
      'overlay/kustomization.yaml': 'resources: [../base]\npatches:\n  - path: patch.yaml\n',
      'overlay/patch.yaml': patch,
    };
    assert.deepEqual(lint(files, { rules }).findings.map((f) => [f.file, f.line, f.column, f.text]), [['overlay/patch.yaml', 13, 40, '0']]);
    // A Pod refused for its weight binds no hostPort: the other Pod's hostPort is free.
    const pod = (name: string, weight: number) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: ${weight}, preference: {matchExpressions: [{key: a, operator: Exists}]}}]}}\n  nodeName: n1\n  containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]\n`;
    const ids = (text: string) => lint(text).findings.filter((f) => f.ruleId === 'hostport-conflict' || f.ruleId === 'pod-spec-invalid').map((f) => [f.ruleId, f.line]);
    assert.deepEqual(ids(pod('a', 1) + '---\n' + pod('b', 1)).map(([id]) => id), ['hostport-conflict', 'hostport-conflict']);
    assert.deepEqual(ids(pod('a', 1) + '---\n' + pod('b', 0)), [['pod-spec-invalid', 13]]);
  });

  it('stays silent on valid manifests of every kind', () => {
    const valid = `
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: ok}
      spec:
        replicas: 0
        template:
          spec:
            initContainers:
              - name: init
                ports: [{containerPort: 8443, name: webhook}]
            containers:
              - name: app
                ports:
                  - {name: http, containerPort: 8080, protocol: TCP}
                  - {name: dns, containerPort: 53, protocol: UDP, hostPort: 0}
                  - {name: dns-tcp, containerPort: 53, protocol: TCP, hostPort: 53, hostIP: ""}
                  - {name: sctp, containerPort: 9899, protocol: SCTP, hostPort: 9899, hostIP: 10.1.2.3}
              - name: sidecar
                ports: [{name: http, containerPort: 9090}]
          metadata: {labels: {app: ok}}
        selector: {matchLabels: {app: ok}}
      ---
      apiVersion: batch/v1
      kind: Job
      metadata: {name: job}
      spec:
        replicas: -1
        template:
          spec:
            hostNetwork: false
            containers: [{name: j, ports: [{containerPort: 80, hostPort: 80}]}]
      ---
      apiVersion: v1
      kind: ReplicationController
      metadata: {name: rc}
      spec:
        replicas: 2
        template:
          spec:
            containers: [{name: c, ports: []}]
    `;
    assert.deepEqual(check(valid), []);
  });
  it('reports a quoted parallelism or completions of a Job or a CronJob\'s job template, with the fix that removes the quotes', () => {
    const job = dedent(`
      apiVersion: batch/v1
      kind: Job
      metadata: {name: once}
      spec:
        parallelism: "0"    # line 5
        completions: '2'    # line 6
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: x}]
    `);
    const fs = check(job);
    assert.deepEqual(where(fs), [[5, 16, '"0"', 'error'], [6, 16, "'2'", 'error']]);
    assert.equal(fs[0].message, 'parallelism "0" is a string, not an integer: the API server cannot decode Job default/once ("json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32"); remove the quotes');
    assert.equal(fs[1].message, 'completions "2" is a string, not an integer: the API server cannot decode Job default/once ("json: cannot unmarshal string into Go struct field JobSpec.spec.completions of type int32"); remove the quotes');
    assert.equal(applyEdits(job, fs.flatMap((f) => f.fixes[0].edits)), job.replace('"0"', '0').replace("'2'", '2'));
    const cron = dedent(`
      apiVersion: batch/v1
      kind: CronJob
      metadata: {name: nightly}
      spec:
        schedule: "@daily"
        jobTemplate:
          spec:
            completions: "1"
            template:
              spec:
                restartPolicy: Never
                containers: [{name: c, image: x}]
    `);
    const cfs = check(cron);
    assert.deepEqual(where(cfs), [[8, 20, '"1"', 'error']]);
    assert.equal(cfs[0].message, 'completions "1" is a string, not an integer: the API server cannot decode CronJob default/nightly ("json: cannot unmarshal string into Go struct field JobSpec.spec.jobTemplate.spec.completions of type int32"); remove the quotes');
    // Numbers are fine, and the Job is rejected: its hostPort collides with nothing.
    assert.deepEqual(check(job.replace('"0"', '0').replace("'2'", '2')), []);
    const both = lint({ 'j.yaml': job.replace('containers: [{name: c, image: x}]', 'containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 9100}]}]'), 'p.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 9100}]}]}\n' }, { rules: ['pod-spec-invalid', 'hostport-conflict'] });
    assert.deepEqual(both.findings.map((f) => f.ruleId), ['pod-spec-invalid', 'pod-spec-invalid']);
  });

  it('leaves the pod templates of custom workloads (Argo Rollouts, OpenKruise) unjudged, and counts them in the other checks', () => {
    const template = (labels: string) => `
  template:
    metadata: {labels: ${labels}}
    spec:
      hostNetwork: "true"
      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, preference: {matchExpressions: [{key: a, operator: In, values: [b]}]}}]
      topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]
      initContainers: [{name: i, image: x, restartPolicy: always}]
      containers:
        - name: c
          image: x
          ports: [{containerPort: 70000}, {containerPort: 8080, hostPort: "9100"}, {containerPort: 8443, protocol: tcp}, {containerPort: 9300, hostPort: 9300}]
          readinessProbe: {httpGet: {port: 8080, scheme: http}}
`;
    const workload = (apiVersion: string, kind: string, name: string, labels = `{app: ${name}}`): string =>
      `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: ${name}}\nspec:\n  replicas: "2"\n  selector: {matchLabels: {app: ${name}}}${template(labels)}`;
    const service = (name: string): string => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  selector: {app: ${name}}\n  ports: [{port: 80, targetPort: 8080}]\n`;
    const custom = {
      'ro.yaml': workload('argoproj.io/v1alpha1', 'Rollout', 'ro'),
      'cs.yaml': workload('apps.kruise.io/v1alpha1', 'CloneSet', 'cs', '{app: cs, version: 1}'),
      'ast.yaml': workload('apps.kruise.io/v1beta1', 'StatefulSet', 'ast'),
      'ads.yaml': workload('apps.kruise.io/v1alpha1', 'DaemonSet', 'ads', '{app: other}'),
      'svc.yaml': ['ro', 'cs', 'ast'].map(service).join('---\n'),
    };
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 9300}]}]}\n';
    const { findings } = lint({ ...custom, 'p.yaml': pod }, { rules: ['pod-spec-invalid', 'service-selector-unmatched', 'service-targetport-unresolved', 'hostport-conflict'] });
    // The Services select the custom workloads' Pods on a declared port, and their hostPort 9300 meets the Pod's:
    // none of them is taken as rejected.
    assert.deepEqual(findings.filter((f) => f.ruleId !== 'hostport-conflict'), []);
    assert.deepEqual([...new Set(findings.map((f) => `${f.file}:${f.line}:${f.text}`))].sort(), ['ads.yaml:19:9300', 'ast.yaml:19:9300', 'cs.yaml:19:9300', 'p.yaml:4:9300', 'ro.yaml:19:9300']);
    // The same Deployment is refused, on every one of those values, and takes part in no other check.
    const deployment = lint({ 'd.yaml': workload('apps/v1', 'Deployment', 'd'), 'svc.yaml': service('d'), 'p.yaml': pod }, { rules: ['pod-spec-invalid', 'service-targetport-unresolved', 'hostport-conflict'] }).findings;
    assert.deepEqual(deployment.map((f) => [f.ruleId, f.line, f.text]), [
      ['pod-spec-invalid', 5, '"2"'],
      ['pod-spec-invalid', 10, '"true"'],
      ['pod-spec-invalid', 13, '0'],
      ['pod-spec-invalid', 14, '0'],
      ['pod-spec-invalid', 15, 'always'],
      ['pod-spec-invalid', 19, '70000'],
      ['pod-spec-invalid', 19, '"9100"'],
      ['pod-spec-invalid', 19, 'tcp'],
      ['pod-spec-invalid', 20, 'http'],
    ]);
    assert.equal(deployment[8].message, 'readinessProbe scheme "http" of container "c" is not HTTP or HTTPS: the API server rejects Deployment default/d with "spec.template.spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "http": supported values: "HTTP", "HTTPS""; write HTTP');
  });
});
