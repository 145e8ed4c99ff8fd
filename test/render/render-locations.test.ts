import { strict as assert } from 'node:assert';
import { JsonFinding, lintRendered, scratchTrees } from '../helpers/render';

// Where findings on rendered objects land when kustomize replacements, JSON 6902 patch files or Helm range loops set
// the field, what they advise on a Helm value whose quoting the template decides, and where a release whose values file is missing is reported. Real helm and kustomize, inside unshare -n.
type Finding = JsonFinding & { object?: { kind: string; namespace?: string; name: string } };
const at = (r: { findings: JsonFinding[] }, rule: string): unknown[] =>
  (r.findings as Finding[]).filter((f) => f.ruleId === rule).map((f) => [f.file, f.line, f.column, f.object?.name, f.related.map((x) => `${x.file}:${x.line}`).join(' ')]);

const svc = (name: string, nodePort: number, port = 80): string =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: p${port}\n      port: ${port}\n      nodePort: ${nodePort}\n`;

describe('rendered locations: replacements, JSON 6902 patch files, Helm range loops, missing values files', function () {
  this.timeout(120_000);
  const { tree } = scratchTrees();

  describe('kustomize replacements', () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ports\ndata:\n  np: "30501"\n';
    const replacement = 'source:\n  kind: ConfigMap\n  name: ports\n  fieldPath: data.np\ntargets:\n  - select:\n      kind: Service\n      name: web\n    fieldPaths:\n      - spec.ports.[name=p80].nodePort\n';

    it('puts a finding on a replaced field on the source field the replacement copies (inline, in an overlay with namePrefix)', () => {
      const dir = tree({
        'base/kustomization.yaml': 'resources:\n  - web.yaml\n  - other.yaml\n  - cm.yaml\n',
        'base/web.yaml': svc('web', 30000),
        'base/other.yaml': svc('other', 30501),
        'base/cm.yaml': cm,
        'prod/kustomization.yaml': `resources:\n  - ../base\nnamePrefix: prod-\nreplacements:\n  - ${replacement.replace(/\n(?=.)/g, '\n    ')}`,
      });
      const r = lintRendered(dir, ['prod', 'base']);
      const prod = at(r, 'nodeport-duplicate').filter((x) => String((x as unknown[])[3]).startsWith('prod-'));
      assert.deepEqual(prod, [
        ['base/cm.yaml', 6, 7, 'prod-web', 'base/other.yaml:11'],
        ['base/other.yaml', 11, 17, 'prod-other', 'base/cm.yaml:6'],
      ]);
      // The base alone is not replaced: web keeps its own nodePort and collides with nothing.
      assert.deepEqual(at(r, 'nodeport-duplicate').filter((x) => !String((x as unknown[])[3]).startsWith('prod-')), []);
    });

    it('reads replacements from a file that `replacements: - path:` names, and a source field a patch sets points at the patch', () => {
      const dir = tree({
        'kustomization.yaml': 'resources:\n  - web.yaml\n  - other.yaml\n  - cm.yaml\npatches:\n  - path: cm-patch.yaml\nreplacements:\n  - path: replacements/np.yaml\n',
        'web.yaml': svc('web', 30000),
        'other.yaml': svc('other', 30777),
        'cm.yaml': cm,
        'cm-patch.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ports\ndata:\n  np: "30777"\n',
        'replacements/np.yaml': replacement,
      });
      assert.deepEqual(at(lintRendered(dir, ['.']), 'nodeport-duplicate'), [
        ['cm-patch.yaml', 6, 7, 'web', 'other.yaml:11'],
        ['other.yaml', 11, 17, 'other', 'cm-patch.yaml:6'],
      ]);
    });

    it('leaves a field alone that the replacement did not set (another target, or a value the replacement does not hold)', () => {
      const dir = tree({
        'kustomization.yaml': `resources:\n  - web.yaml\n  - other.yaml\n  - cm.yaml\nreplacements:\n  - ${replacement.replace('name: web', 'name: nothing').replace(/\n(?=.)/g, '\n    ')}`,
        'web.yaml': svc('web', 30501),
        'other.yaml': svc('other', 30501),
        'cm.yaml': cm,
      });
      assert.deepEqual(at(lintRendered(dir, ['.']), 'nodeport-duplicate'), [
        ['other.yaml', 11, 17, 'other', 'web.yaml:11'],
        ['web.yaml', 11, 17, 'web', 'other.yaml:11'],
      ]);
    });
  });

  describe('JSON 6902 patches in a .json file', () => {
    const files = (ops: string): Record<string, string> => ({
      'kustomization.yaml': 'resources:\n  - web.yaml\n  - other.yaml\npatches:\n  - path: np.json\n    target:\n      kind: Service\n      name: web\n',
      'web.yaml': svc('web', 30000),
      'other.yaml': svc('other', 30501),
      'np.json': ops,
    });

    it("puts a finding on a replaced value on the op's value in the .json file", () => {
      const r = lintRendered(tree(files('[\n  {"op": "replace", "path": "/spec/ports/0/nodePort", "value": 30501}\n]\n')), ['.']);
      assert.deepEqual(at(r, 'nodeport-duplicate'), [
        ['np.json', 2, 64, 'web', 'other.yaml:11'],
        ['other.yaml', 11, 17, 'other', 'np.json:2'],
      ]);
    });

    it('puts a finding on an added list item on its field inside the op\'s value; a .json patch that changes nothing is reported on its entry', () => {
      const ops = '[\n  {\n    "op": "add",\n    "path": "/spec/ports/-",\n    "value": {\n      "name": "b",\n      "port": 81,\n      "nodePort": 30501\n    }\n  }\n]\n';
      assert.deepEqual(at(lintRendered(tree(files(ops)), ['.']), 'nodeport-duplicate'), [
        ['np.json', 8, 19, 'web', 'other.yaml:11'],
        ['other.yaml', 11, 17, 'other', 'np.json:8'],
      ]);
      const same = lintRendered(tree(files('[{"op": "replace", "path": "/spec/ports/0/nodePort", "value": 30000}]\n')), ['.']);
      assert.deepEqual(at(same, 'kustomize-patch-no-effect').map((x) => (x as unknown[]).slice(0, 3)), [['kustomization.yaml', 5, 5]]);
    });
  });

  describe('Helm values iterated with range', () => {
    const chartFiles = (template: string, values: string): Record<string, string> => ({
      'c/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'c/values.yaml': values,
      'c/templates/svc.yaml': template,
    });
    const values = '# one Service per item\nservices:\n  - nodePort: 30100\n    port: 80\n  - nodePort: 30101\n    port: 80\n  - nodePort: 30100\n    port: 80\n';
    // The loop comes first; a fixed Service follows in the same template.
    const looped = (guard = ''): string =>
      '{{- range $i, $s := .Values.services }}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: np-{{ .nodePort }}-{{ $i }}\nspec:\n  type: NodePort\n  ports:\n    - port: {{ .port }}\n      nodePort: {{ .nodePort }}\n' +
      guard +
      '{{- end }}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: fixed\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: 30200\n';

    it('puts the findings of items whose names a number feeds on the list items\' fields in values.yaml (proved by the sentinel render)', () => {
      assert.deepEqual(at(lintRendered(tree(chartFiles(looped(), values)), ['.']), 'nodeport-duplicate'), [
        ['c/values.yaml', 3, 15, 'np-30100-0', 'c/values.yaml:7'],
        ['c/values.yaml', 7, 15, 'np-30100-2', 'c/values.yaml:3'],
      ]);
    });

    it('puts them on the template line inside the loop when the sentinel render cannot prove the key, never on the document after the loop', () => {
      // A guard that fails for sentinel numbers: only the real render succeeds.
      const guard = '{{- if gt (int .nodePort) 32767 }}{{ fail "nodePort too big" }}{{ end }}\n';
      assert.deepEqual(at(lintRendered(tree(chartFiles(looped(guard), values)), ['.']), 'nodeport-duplicate'), [
        ['c/templates/svc.yaml', 11, 17, 'np-30100-2', 'c/templates/svc.yaml:11'],
        ['c/templates/svc.yaml', 11, 17, 'np-30100-0', 'c/templates/svc.yaml:11'],
      ]);
    });

    it('still puts the fixed document\'s own finding on its line', () => {
      const r = lintRendered(tree(chartFiles(looped(), values.replace(/30101/, '30200'))), ['.']);
      assert.deepEqual(at(r, 'nodeport-duplicate').filter((x) => ['fixed', 'np-30200-1'].includes(String((x as unknown[])[3]))), [
        ['c/templates/svc.yaml', 22, 17, 'fixed', 'c/values.yaml:5'],
        ['c/values.yaml', 5, 15, 'np-30200-1', 'c/templates/svc.yaml:22'],
      ]);
    });
  });

  describe('Helm values whose quoting the template decides', () => {
    const chart = (values: string, templates: Record<string, string>): string =>
      tree({
        'c/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
        'c/values.yaml': values,
        ...Object.fromEntries(Object.entries(templates).map(([name, text]) => [`c/templates/${name}`, text])),
      });
    const deployment = (ports: string): string =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n          ports:\n${ports}`;
    type WithFixes = Finding & { fixes: string[] };
    const rows = (r: { findings: JsonFinding[] }): unknown[] => (r.findings as WithFixes[]).map((f) => [f.ruleId, f.file, f.line, f.column, f.fixes]);
    const decode = (field: string, goField: string, kind = 'Deployment'): string =>
      `${field} is a string, not an integer: the API server cannot decode ${kind} default/web ("json: cannot unmarshal string into Go struct field ${goField} of type int32")`;

    it('says to remove the template\'s `| quote` or the quotes around {{ }}, at the plain number in values.yaml, with no quick fix there', () => {
      const r = lintRendered(
        chart('# the app port\nport: 8080\nservice:\n  port: 80\n', {
          'deployment.yaml': deployment('            - containerPort: {{ .Values.port | quote }}\n'),
          'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n    - port: {{ .Values.service.port | quote }}\n      targetPort: "{{ .Values.port }}"\n',
        }),
        ['.'],
      );
      assert.deepEqual(rows(r), [
        ['pod-spec-invalid', 'c/values.yaml', 2, 7, []],
        ['service-spec-invalid', 'c/values.yaml', 2, 7, []],
        ['service-spec-invalid', 'c/values.yaml', 4, 9, []],
      ]);
      const [container, targetPort, port] = r.findings.map((f) => f.message);
      assert.equal(container, `${decode('containerPort "8080"', 'ContainerPort.spec.template.spec.containers.ports.containerPort')}; remove \`| quote\` in templates/deployment.yaml (Helm release web)`);
      assert.match(targetPort, /^targetPort "8080" is not a valid port name \(IANA_SVC_NAME\) \(a quoted number is a port name; unquote \{\{ \}\} in templates\/svc\.yaml\): /);
      assert.equal(port, `port "80" is not an integer: the API server cannot decode Service default/web ("json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32"); remove \`| quote\` in templates/svc.yaml (Helm release web)`);
    });

    it('names both ways of quoting when the template line is not known (the field written twice), and the `quote` function called', () => {
      const r = lintRendered(
        chart('a: 8080\nb: 9090\n', {
          'deployment.yaml': deployment('            - containerPort: {{ .Values.a | quote }}\n        - name: side\n          image: nginx:1.27\n          ports:\n            - containerPort: {{ .Values.b }}\n'),
          'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: nginx\n      ports:\n        - containerPort: {{ quote .Values.b }}\n',
        }),
        ['.'],
      );
      assert.deepEqual(rows(r), [
        ['pod-spec-invalid', 'c/values.yaml', 1, 4, []],
        ['pod-spec-invalid', 'c/values.yaml', 2, 4, []],
      ]);
      assert.match(r.findings[0].message, /; unquote it in templates\/deployment\.yaml \(Helm release web\)$/);
      assert.match(r.findings[1].message, /^containerPort "9090" is a string, not an integer: the API server cannot decode Pod default\/p .*; remove `quote` in templates\/pod\.yaml \(Helm release web\)$/);
    });

    it('says to remove the template\'s `| quote` of a small maxSkew or weight, which stays at the template line (no values key is traced to a count)', () => {
      const template = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n'
        + '      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n            - weight: {{ .Values.weight | quote }}\n              podAffinityTerm: {topologyKey: zone, labelSelector: {matchLabels: {app: web}}}\n'
        + '      topologySpreadConstraints:\n        - maxSkew: "{{ .Values.skew }}"\n          topologyKey: zone\n          whenUnsatisfiable: DoNotSchedule\n          labelSelector: {matchLabels: {app: web}}\n'
        + '      containers:\n        - name: web\n          image: nginx:1.27\n';
      const r = lintRendered(chart('skew: 7\nweight: 5\n', { 'deployment.yaml': template }), ['.']);
      assert.deepEqual(rows(r), [
        ['pod-spec-invalid', 'c/templates/deployment.yaml', 13, 23, []],
        ['pod-spec-invalid', 'c/templates/deployment.yaml', 16, 21, []],
      ]);
      const [weight, skew] = r.findings.map((f) => f.message);
      assert.equal(weight, `${decode('weight "5"', 'WeightedPodAffinityTerm.….weight')}; remove \`| quote\` in templates/deployment.yaml (Helm release web)`);
      assert.equal(skew, `${decode('maxSkew "7"', 'TopologySpreadConstraint.….topologySpreadConstraints.maxSkew')}; unquote {{ }} in templates/deployment.yaml (Helm release web)`);
    });

    it('tells a value rendered into a field with a fixed set of values to be one of them, not to be quoted', () => {
      const r = lintRendered(chart('scheme: on\n', { 'deployment.yaml': deployment('            - containerPort: 80\n          readinessProbe:\n            httpGet: {port: 80, scheme: {{ .Values.scheme }}}\n') }), ['.']);
      assert.deepEqual(r.findings.map((f) => f.message.slice(f.message.lastIndexOf(');') + 3)), ['use HTTP or HTTPS (Helm release web)']);
    });

    it('keeps "remove the quotes" and its quick fix at a number quoted in values.yaml that toYaml writes as it is', () => {
      const r = lintRendered(
        chart('ports:\n  - name: http\n    containerPort: "8080"\n', { 'deployment.yaml': deployment('            {{- toYaml .Values.ports | nindent 12 }}\n') }),
        ['.'],
      );
      assert.deepEqual(rows(r), [['pod-spec-invalid', 'c/values.yaml', 3, 20, ['Change containerPort "8080" to 8080']]]);
      assert.equal(r.findings[0].message, `${decode('containerPort "8080"', 'ContainerPort.spec.template.spec.containers.ports.containerPort')}; remove the quotes (Helm release web)`);
    });

    it('says to remove the template\'s `| quote` when values.yaml quotes the number too (unquoting values.yaml alone would change nothing)', () => {
      const r = lintRendered(chart('port: "8080"\n', { 'deployment.yaml': deployment('            - containerPort: {{ .Values.port | quote }}\n') }), ['.']);
      assert.deepEqual(rows(r), [['pod-spec-invalid', 'c/values.yaml', 1, 7, []]]);
      assert.match(r.findings[0].message, /; remove `\| quote` in templates\/deployment\.yaml \(Helm release web\)$/);
    });

    it('says nothing when the template writes the number plain', () => {
      const r = lintRendered(chart('port: 8080\n', { 'deployment.yaml': deployment('            - containerPort: {{ .Values.port }}\n') }), ['.']);
      assert.deepEqual(rows(r), []);
    });

    it('says to quote a value in the template that prints it where a string belongs, and in values.yaml when toYaml writes it', () => {
      const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels:\n    num: {{ .Values.num }}\n    {{- toYaml .Values.labels | nindent 4 }}\ndata: {}\n';
      const ingress = 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  ingressClassName: {{ .Values.num }}\n  rules:\n    - host: {{ .Values.labels.tier }}\n';
      const r = lintRendered(chart('num: 80\nlabels:\n  tier: 90\n', { 'cm.yaml': cm, 'ing.yaml': ingress }), ['.']);
      assert.deepEqual(rows(r), [
        ['ingress-spec-invalid', 'c/values.yaml', 1, 6, []],
        ['object-invalid', 'c/values.yaml', 1, 6, []],
        ['ingress-spec-invalid', 'c/values.yaml', 3, 9, []],
        ['object-invalid', 'c/values.yaml', 3, 9, ['Quote "90"']],
      ]);
      const refused = 'the API server refuses the ConfigMap ("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string")';
      const [className, num, host, tier] = r.findings.map((f) => f.message);
      assert.equal(num, `metadata.labels.num is a number, not a string (YAML 1.1 reads the unquoted value as the number 80): ${refused}; quote it in templates/cm.yaml (\`| quote\`) (Helm release web)`);
      assert.equal(tier, `metadata.labels.tier is a number, not a string (YAML 1.1 reads the unquoted value as the number 90): ${refused}; quote it (Helm release web)`);
      // The Ingress template prints both values: toYaml writes only the ConfigMap's labels.
      assert.match(className, /^ingressClassName 80 is not a string: .*; quote it in templates\/ing\.yaml \(`\| quote`\) \(Helm release web\)$/);
      assert.match(host, /^host 90 of rule #0 is not a string: .*; quote it in templates\/ing\.yaml \(`\| quote`\) \(Helm release web\)$/);
    });
  });

  describe('standard input named by --stdin-filename inside an overlay', () => {
    const patch = (nodePort: number): string => `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - name: p80\n      port: 80\n      nodePort: ${nodePort}\n`;
    const overlay = (): string =>
      tree({
        'base/kustomization.yaml': 'resources:\n  - web.yaml\n  - other.yaml\n',
        'base/web.yaml': svc('web', 30000),
        'base/other.yaml': svc('other', 30501),
        'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\npatches:\n  - path: np.yaml\n',
        'overlays/prod/np.yaml': patch(30100),
      });
    const rows = (r: { findings: JsonFinding[] }): unknown[] => (r.findings as Finding[]).map((f) => [f.ruleId, f.file, f.line, f.column, f.object?.name, /, rendered by overlays\/prod\)$/.test(f.message)]);

    it('renders the patch read from standard input in place of the file on disk, and reports only its findings', () => {
      const dir = overlay();
      const r = lintRendered(dir, ['--stdin-filename', 'overlays/prod/np.yaml', '-'], undefined, `# unsaved\n${patch(30501)}`);
      assert.deepEqual(rows(r), [['nodeport-duplicate', 'overlays/prod/np.yaml', 10, 17, 'web', true]]);
      assert.deepEqual(r.findings[0].related.map((x) => `${x.file}:${x.line}`), ['base/other.yaml:11']);
      // The disk's patch (30100) collides with nothing.
      assert.deepEqual(rows(lintRendered(dir, ['--stdin-filename', 'overlays/prod/np.yaml', '-'], undefined, patch(30100))), []);
    });

    it('renders a kustomization.yaml read from standard input (an inline patch it adds), not the one on disk', () => {
      const dir = overlay();
      const text = 'resources:\n  - ../../base\npatches:\n  - target: {kind: Service, name: web}\n    patch: |-\n      - op: replace\n        path: /spec/ports/0/nodePort\n        value: 30501\n';
      const r = lintRendered(dir, ['--stdin-filename', 'overlays/prod/kustomization.yaml', '-'], undefined, text);
      assert.deepEqual(rows(r), [['nodeport-duplicate', 'overlays/prod/kustomization.yaml', 8, 16, 'web', true]]);
      // The kustomization on disk (the np.yaml patch, 30100) collides with nothing.
      const disk = lintRendered(dir, ['--stdin-filename', 'overlays/prod/kustomization.yaml', '-'], undefined, 'resources:\n  - ../../base\npatches:\n  - path: np.yaml\n');
      assert.deepEqual(rows(disk), []);
    });
  });

  describe('a file of an overlay named alone on the command line (a pre-commit hook passes the changed files)', () => {
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      initContainers: [{name: side, image: envoy, restartPolicy: Always}]\n      containers:\n        - name: a\n          image: nginx\n          ports: [{containerPort: 80}]\n          readinessProbe: {httpGet: {path: /, port: 80}}\n';
    const patch = (probe: string): string => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      initContainers:\n        - name: side\n          readinessProbe: {tcpSocket: {port: 9901}}\n      containers:\n        - name: a\n          readinessProbe: ${probe}\n`;
    const overlay = (probe: string): string => tree({
      'base/kustomization.yaml': 'resources: [web.yaml]\n',
      'base/web.yaml': deployment,
      'overlay/kustomization.yaml': 'resources: [../base]\npatches:\n  - path: patch.yaml\n',
      'overlay/patch.yaml': patch(probe),
    });
    const rows = (r: { findings: JsonFinding[] }): unknown[] => r.findings.map((f) => [f.ruleId, f.file, f.line, f.column]);

    it('judges a patch as part of its overlay, with --no-render too, and reports only the named file', () => {
      // The base gives the sidecar its restartPolicy and the probe its port: judged alone, the patch broke two rules.
      const dir = overlay('{initialDelaySeconds: 5}');
      assert.deepEqual(rows(lintRendered(dir, ['--no-render', 'overlay/patch.yaml'])), []);
      assert.deepEqual(rows(lintRendered(dir, ['overlay/patch.yaml'])), []);
      // A tcpSocket beside the base's httpGet is two handlers in the build: reported at the patch, and the base is not linted.
      const both = overlay('{tcpSocket: {port: 80}}');
      assert.deepEqual(rows(lintRendered(both, ['overlay/patch.yaml'])), [['pod-spec-invalid', 'overlay/patch.yaml', 12, 28]]);
    });
  });

  describe('standard input named by --stdin-filename inside a chart', () => {
    const chartTree = (): string =>
      tree({
        '.kube-netlint.yaml': 'render:\n  helm:\n    - chart: charts/web\n      values: [envs/prod.yaml]\n',
        'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
        'charts/web/values.yaml': 'np: 30100\nhp: 30200\n',
        'charts/web/templates/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: {{ .Values.np }}\n',
        'charts/web/templates/pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: nginx\n      ports:\n        - containerPort: 8080\n          hostPort: {{ .Values.hp }}\n',
        'envs/prod.yaml': '# production\nnp: 30101\n',
      });
    const rows = (r: { findings: JsonFinding[] }): unknown[] => (r.findings as Finding[]).filter((f) => f.ruleId === 'host-port-conflicts-nodeport').map((f) => [f.file, f.line, f.column, f.object?.name]);

    it('renders a values file a configured release names, read from standard input, with the chart from disk', () => {
      const dir = chartTree();
      const r = lintRendered(dir, ['--stdin-filename', 'envs/prod.yaml', '-'], undefined, '# production\n\nnp: 30200\n');
      assert.deepEqual(rows(r), [['envs/prod.yaml', 3, 5, 'web']]);
      assert.deepEqual(rows(lintRendered(dir, ['--stdin-filename', 'envs/prod.yaml', '-'], undefined, '# production\nnp: 30101\n')), []);
    });

    it("renders a chart's template read from standard input in place of the file", () => {
      const dir = chartTree();
      const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: nginx\n      ports:\n        - containerPort: 8080\n          hostPort: 30101\n';
      assert.deepEqual(rows(lintRendered(dir, ['--stdin-filename', 'charts/web/templates/pod.yaml', '-'], undefined, pod)), [['charts/web/templates/pod.yaml', 11, 21, 'p']]);
    });
  });

  describe('a values file that render.helm names but that is missing', () => {
    const files = (values: string): Record<string, string> => ({
      '.kube-netlint.yaml': `# releases\nrender:\n  helm:\n    - chart: c\n      release: web-prod\n      values:\n        - c/values.yaml\n        - ${values}\n`,
      'c/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'c/values.yaml': 'np: 30100\n',
      'c/values-prod.yaml': 'np: 30101\n',
      'c/templates/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: {{ .Values.np }}\n',
    });

    it('is reported on the config line that names it, saying which file is missing', () => {
      const r = lintRendered(tree(files('c/values-prd.yaml')), ['.']);
      assert.deepEqual(r.findings.map((f) => [f.ruleId, f.file, f.line, f.column]), [['render-failed', '.kube-netlint.yaml', 8, 11]]);
      assert.equal(
        r.findings[0].message,
        "values file c/values-prd.yaml does not exist (Helm release web-prod, values.yaml, values-prd.yaml): helm cannot render the release, so its objects are not linted; correct the path (relative to the config file's folder) or create the file",
      );
      assert.equal(r.code, 1);
    });

    it('renders the release when every values file is there', () => {
      const r = lintRendered(tree(files('c/values-prod.yaml')), ['.']);
      assert.deepEqual(r.findings.map((f) => [f.ruleId, f.file, f.line]), []);
      assert.match(r.stderr, /rendered 0 kustomizations, 1 Helm release in/);
    });
  });
});
