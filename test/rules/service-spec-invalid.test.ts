import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['service-spec-invalid'];
// Line 7 is the first line of `spec` below.
const svc = (spec: string) => `
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
${spec}`;
const check = (spec: string) => lint(svc(spec), { rules }).findings;
const summary = (spec: string) => check(spec).map((f) => [f.line, f.text, f.message]);

describe('service-spec-invalid', () => {
  it('flags the same (protocol, port) twice at the second port, and allows TCP + UDP on one number', () => {
    const fs = check('  ports:\n    - {name: a, port: 80}\n    - {name: b, port: 80}\n    - {name: c, port: 53, protocol: TCP}\n    - {name: d, port: 53, protocol: UDP}');
    assert.equal(fs.length, 1);
    assert.deepEqual([fs[0].line, fs[0].column, fs[0].text, fs[0].severity, fs[0].object], [9, 23, '80', 'error', 'Service shop/web']);
    assert.match(fs[0].message, /^port 80\/TCP is listed twice in this Service: the API server rejects Service shop\/web with "spec\.ports\[1\]: Duplicate value: core\.ServicePort\{Protocol:"TCP", Port:80/);
    assert.deepEqual(fs[0].related.map((r) => [r.line, r.message]), [[8, 'first use of port 80/TCP']]);
  });

  it('requires a name on every port when there is more than one, and unique names', () => {
    const fs = summary('  ports:\n    - {port: 80}\n    - {name: a, port: 81}\n    - {name: a, port: 82}');
    assert.deepEqual(fs.map((f) => [f[0], f[1]]), [[8, '80'], [10, 'a']]);
    assert.ok(String(fs[0][2]).includes('"spec.ports[0].name: Required value"'));
    assert.ok(String(fs[1][2]).includes('"spec.ports[2].name: Duplicate value: \\"a\\""') || String(fs[1][2]).includes('spec.ports[2].name: Duplicate value: "a"'));
    assert.deepEqual(check('  ports:\n    - {port: 80}'), [], 'a single port needs no name');
  });

  it('flags port names that are not DNS-1123 labels, with a lower-case fix when that is enough', () => {
    const fs = check('  ports:\n    - {name: HTTP, port: 80}\n    - {name: grpc_web, port: 81}');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[8, 'HTTP'], [9, 'grpc_web']]);
    // The API server's message quotes its whole regex: the finding names the rule in words (the rule page quotes it).
    assert.equal(fs[0].message, 'port name "HTTP" is not a DNS-1123 label (lowercase letters, digits and \'-\', starting and ending with a letter or digit): the API server rejects Service shop/web with "spec.ports[0].name: Invalid value: "HTTP""; rename it, e.g. "http"');
    assert.equal(fs[1].message, 'port name "grpc_web" is not a DNS-1123 label (lowercase letters, digits and \'-\', starting and ending with a letter or digit): the API server rejects Service shop/web with "spec.ports[1].name: Invalid value: "grpc_web""; rename it, e.g. "grpc-web"');
    assert.ok(fs.every((f) => !f.message.includes('regex')), 'no regex in the message');
    // Nothing of the name is a label character: no suggestion.
    assert.match(check('  ports:\n    - {name: "__", port: 80}')[0].message, /Invalid value: "__""; rename it$/);
    // Over 63 characters: the API's length message is short and quoted as it is; the value is cut at 24 characters.
    const long = 'a'.repeat(64);
    assert.deepEqual(check(`  ports:\n    - {name: ${long}, port: 80}`).map((f) => f.message.split(' with ')[1]), [`"spec.ports[0].name: Invalid value: "${'a'.repeat(23)}…": must be no more than 63 characters"`]);
    assert.equal(fs[0].fixes[0].title, 'Change "HTTP" to "http"');
    assert.deepEqual(fs[1].fixes, []);
    // Longer than 15 is fine for a Service port name (DNS-1123, 63), unlike container port names.
    assert.deepEqual(check('  ports:\n    - {name: metrics-and-health, port: 80}'), []);
  });

  it('flags named targetPorts that are not IANA service names, one finding per value (the first API message)', () => {
    const fs = check('  ports:\n    - {name: a, port: 80, targetPort: http-metrics-long}\n    - {name: b, port: 81, targetPort: "8080"}\n    - {name: c, port: 82, targetPort: web--ui}');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[8, 'http-metrics-long'], [9, '"8080"'], [10, 'web--ui']]);
    assert.ok(fs[0].message.includes('spec.ports[0].targetPort: Invalid value: "http-metrics-long": must be no more than 15 characters'));
    assert.ok(fs[1].message.includes('must contain at least one letter (a-z)'));
    assert.match(fs[1].message, /a quoted number is a port name; remove the quotes/);
    assert.equal(fs[1].fixes[0].title, 'Change targetPort "8080" to the number 8080');
    assert.ok(fs[2].message.includes('must not contain consecutive hyphens'));
    const quoted = svc('  ports:\n    - {name: b, port: 81, targetPort: "8080"} # keep me');
    const fixed = applyEdits(dedent(quoted), lint(quoted, { rules }).findings[0].fixes[0].edits);
    assert.match(fixed, /targetPort: 8080\} # keep me/);
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('flags port and targetPort numbers outside 1–65535; targetPort 0 means "same as port"', () => {
    const fs = check('  ports:\n    - {name: a, port: 0}\n    - {name: b, port: 70000}\n    - {name: c, port: 82, targetPort: 65536}\n    - {name: d, port: 83, targetPort: 0}');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[8, '0'], [9, '70000'], [10, '65536']]);
    assert.ok(fs[1].message.includes('spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive'));
    assert.ok(fs[2].message.includes('spec.ports[2].targetPort: Invalid value: 65536: must be between 1 and 65535, inclusive'));
  });

  it('flags a port entry without a port number at the entry', () => {
    const fs = check('  ports:\n    - name: a\n      targetPort: 8080');
    assert.deepEqual(fs.map((f) => [f.line, f.column]), [[8, 7]]);
    assert.ok(fs[0].message.includes('spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'));
  });

  it('names a port entry that is not a mapping in plain words (a list, a string)', () => {
    const fs = check('  ports:\n    - [x]\n    - "80"');
    assert.deepEqual(fs.map((f) => [f.line, f.message.split(':')[0]]), [
      [8, 'port entry #0 is a list, not a mapping with port, targetPort, …'],
      [9, 'port entry #1 is a string, not a mapping with port, targetPort, …'],
    ]);
    assert.match(fs[0].message, /\("json: cannot unmarshal array into Go struct field ServiceSpec\.spec\.ports of type v1\.ServicePort"\)$/);
  });

  it('flags values that are not integers (quoted or words), which the loader leaves out of the model', () => {
    const fs = check('  type: NodePort\n  ports:\n    - name: a\n      port: "80"\n      nodePort: "30080"\n    - name: b\n      port: 81\n      nodePort: abc\n      targetPort: 8080.5');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[10, '"80"'], [11, '"30080"'], [14, 'abc'], [15, '8080.5']]);
    assert.match(fs[1].message, /^nodePort "30080" is not an integer: the API server cannot decode Service shop\/web \("json: cannot unmarshal string into Go struct field ServicePort\.spec\.ports\.nodePort of type int32"\); remove the quotes$/);
    assert.ok(fs[2].message.includes('cannot unmarshal string into Go struct field ServicePort.spec.ports.nodePort'));
    assert.ok(fs[3].message.includes('cannot unmarshal number 8080.5'));
    const hc = check('  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: "31000"\n  ports:\n    - {name: a, port: 80}');
    assert.deepEqual(hc.map((f) => [f.line, f.text]), [[9, '"31000"']]);
    assert.ok(hc[0].message.includes('ServiceSpec.spec.healthCheckNodePort'));
  });

  it('says to remove a !!str tag (not quotes) from a number on every integer field, and the fix removes the tag', () => {
    const text = svc('  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: !!str 31000\n  ports:\n    - name: a\n      port: !!str 80\n      nodePort: !!str 30556\n      targetPort: !!str 8080');
    const fs = lint(text, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[9, '31000'], [12, '80'], [13, '30556'], [14, '8080']]);
    assert.equal(fs[2].message, 'nodePort "30556" is not an integer: the API server cannot decode Service shop/web ("json: cannot unmarshal string into Go struct field ServicePort.spec.ports.nodePort of type int32"); remove the `!!str` tag');
    assert.ok(fs.slice(0, 2).every((f) => f.message.endsWith('; remove the `!!str` tag')), fs[0].message);
    assert.match(fs[3].message, /^targetPort "8080" is not a valid port name \(IANA_SVC_NAME\) \(a `!!str` number is a port name; remove the `!!str` tag\): /);
    assert.ok(fs.every((f) => !f.message.includes('quotes')));
    assert.match(applyEdits(dedent(text), fs[3].fixes[0].edits), /\n {6}targetPort: 8080$/);
    // Quoted and tagged: both go.
    assert.match(check('  ports:\n    - {port: 80, targetPort: !!str "8080"}')[0].message, /\(a `!!str` number is a port name; remove the `!!str` tag and the quotes\)/);
  });

  it('shows odd numbers as written and quotes the tool that refuses them (.inf, beyond int32); !!float 30081 is 30081', () => {
    const fs = check('  type: NodePort\n  ports:\n    - name: a\n      port: 80\n      nodePort: .inf\n    - name: b\n      port: 81\n      nodePort: 123456789012345678901234567890\n    - name: c\n      port: 82\n      nodePort: !!float 30081');
    assert.deepEqual(fs.map((f) => [f.line, f.text, f.message]), [
      [11, '.inf', 'nodePort .inf is not a number JSON can hold: kubectl cannot convert the manifest ("error converting YAML to JSON: json: unsupported value: +Inf")'],
      [14, '123456789012345678901234567890', 'nodePort 123456789012345678901234567890 is outside the int32 range (-2147483648 to 2147483647): the API server cannot decode Service shop/web ("json: cannot unmarshal number 1.2345678901234568e+29 into Go struct field ServicePort.spec.ports.nodePort of type int32")'],
    ]);
    const { findings } = lint(svc('  type: NodePort\n  ports:\n    - name: a\n      port: 80\n      nodePort: 123456789012345678901234567890\n    - name: c\n      port: 82\n      nodePort: !!float 30081'));
    assert.deepEqual(findings.filter((f) => f.ruleId === 'nodeport-out-of-range'), [], 'a number that cannot be decoded is not "out of range"');
    assert.equal(lint(svc('  type: NodePort\n  ports:\n    - {name: c, port: 82, nodePort: !!float 30081}\n')).analysis.model.services.find((x) => x.name === 'web')?.ports[0].nodePort?.value, 30081);
  });

  it('flags values of the wrong JSON type the decoder refuses: numbers for strings, mappings or strings for lists', () => {
    const fs = check('  selector: {app: web, version: 1}\n  externalIPs: 203.0.113.10\n  ports:\n    - {name: 8080, port: 80, protocol: 6}\n    -\n');
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text]), [[7, 33, '1'], [8, 16, '203.0.113.10'], [10, 14, '8080'], [10, 40, '6'], [11, 6, '']]);
    assert.equal(fs[0].message, 'spec.selector.version is a number, not a string (YAML 1.1 reads the unquoted value as the number 1): the API server cannot decode Service shop/web ("json: cannot unmarshal number into Go struct field ServiceSpec.spec.selector of type string"); quote it');
    assert.ok(fs[1].message.includes('"json: cannot unmarshal string into Go struct field ServiceSpec.spec.externalIPs of type []string"'));
    assert.ok(fs[2].message.includes('cannot unmarshal number into Go struct field ServicePort.spec.ports.name of type string"); quote it'));
    assert.ok(fs[3].message.includes('ServicePort.spec.ports.protocol of type v1.Protocol'));
    assert.ok(fs[4].message.includes('port entry #1 is empty: the API server rejects Service shop/web with "spec.ports[1].port: Invalid value: 0'));
    const map = check('  ports:\n    http: {port: 80}');
    assert.deepEqual(map.map((f) => [f.line, f.message.split(':')[0]]), [[8, 'ports is a mapping, not a list']]);
    // A null label value decodes to "" and is accepted.
    assert.deepEqual(check('  selector: {app: }\n  ports:\n    - {port: 80}'), []);
  });

  it('forbids nodePort on ClusterIP Services, also when type is not written', () => {
    const fs = check('  ports:\n    - {name: a, port: 80, nodePort: 30080}');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[8, '30080']]);
    assert.ok(fs[0].message.includes("spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"));
    assert.match(fs[0].message, /type is not written and defaults to ClusterIP/);
    assert.deepEqual(check('  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 30080}'), []);
  });

  it('warns about a nodePort on an ExternalName Service, which the API server accepts but never allocates', () => {
    const fs = check('  type: ExternalName\n  externalName: db.example.com\n  ports:\n    - {name: a, port: 80, nodePort: 30080}');
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.severity]), [[10, 37, '30080', 'warning']]);
    assert.equal(fs[0].message, 'nodePort 30080 is set on an ExternalName Service: the API server stores Service shop/web but allocates no nodePort for this type, so no node opens 30080 and another Service may take it; remove it');
    assert.deepEqual(check('  type: ExternalName\n  externalName: db.example.com\n  ports:\n    - {name: a, port: 80}'), []);
    assert.deepEqual(check('  type: LoadBalancer\n  ports:\n    - {name: a, port: 80, nodePort: 30080}'), []);
  });

  it('allows healthCheckNodePort only on LoadBalancer with externalTrafficPolicy Local', () => {
    const fs = check('  type: LoadBalancer\n  externalTrafficPolicy: Cluster\n  healthCheckNodePort: 31000\n  ports:\n    - {name: a, port: 80}');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[9, '31000']]);
    assert.ok(fs[0].message.includes("spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    assert.deepEqual(check('  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 31000\n  ports:\n    - {name: a, port: 80}'), []);
    const big = check('  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 70000\n  ports:\n    - {name: a, port: 80}');
    assert.ok(big[0].message.includes('spec.healthCheckNodePort: Invalid value: 70000: must be between 1 and 65535, inclusive'));
  });

  it('flags externalTrafficPolicy on a Service that is not externally accessible', () => {
    const fs = check('  externalTrafficPolicy: Local\n  ports:\n    - {name: a, port: 80}');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[7, 'Local']]);
    assert.ok(fs[0].message.includes('spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services'));
    // ClusterIP with externalIPs is externally accessible since v1.29.
    assert.deepEqual(check('  externalTrafficPolicy: Local\n  externalIPs: [203.0.113.10]\n  ports:\n    - {name: a, port: 80}'), []);
  });

  it('flags unknown type, protocol and policy values, fixing the case', () => {
    const fs = check('  type: Nodeport\n  ports:\n    - {name: a, port: 80, protocol: tcp}\n    - {name: b, port: 81, protocol: HTTP}\n  internalTrafficPolicy: local');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[7, 'Nodeport'], [9, 'tcp'], [10, 'HTTP'], [11, 'local']]);
    assert.ok(fs[0].message.includes('spec.type: Unsupported value: "Nodeport": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'));
    assert.deepEqual(fs.map((f) => f.fixes[0]?.title), ['Change type "Nodeport" to "NodePort"', 'Change protocol "tcp" to "TCP"', undefined, 'Change internalTrafficPolicy "local" to "Local"']);
    assert.ok(fs[2].message.includes('spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'));
    const etp = check('  type: NodePort\n  externalTrafficPolicy: OnlyLocal\n  ports:\n    - {name: a, port: 80}');
    assert.ok(etp[0].message.includes('spec.externalTrafficPolicy: Unsupported value: "OnlyLocal": supported values: "Cluster", "Local"'));
  });

  it('flags externalIPs that are not IPs or are special addresses', () => {
    const fs = check('  externalIPs: [node-1.example.com, 0.0.0.0, 127.0.0.1, 169.254.10.1, "::1", 203.0.113.7, "2001:db8::1"]\n  ports:\n    - {name: a, port: 80}');
    assert.deepEqual(fs.map((f) => f.text), ['node-1.example.com', '0.0.0.0', '127.0.0.1', '169.254.10.1', '"::1"']);
    assert.ok(fs[0].message.includes('spec.externalIPs[0]: Invalid value: "node-1.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    assert.ok(fs[1].message.includes('may not be unspecified (0.0.0.0)'));
    assert.ok(fs[2].message.includes('may not be in the loopback range (127.0.0.0/8, ::1/128)'));
    assert.ok(fs[3].message.includes('may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  });

  it('rejects clusterIP None on NodePort and LoadBalancer Services', () => {
    assert.deepEqual(summary('  type: NodePort\n  clusterIP: None\n  ports: [{port: 80}]'), [
      [8, 'None', 'clusterIP: None (headless) is set on a NodePort Service, which needs a cluster IP: the API server rejects Service shop/web with "spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services"'],
    ]);
    assert.equal(check('  type: LoadBalancer\n  clusterIP: None\n  ports: [{port: 80}]').length, 1);
    assert.deepEqual(check('  clusterIP: None\n  ports: [{port: 80}]'), []);
  });

  it('requires ports except on headless and ExternalName Services', () => {
    const fs = lint(svc('  selector: {app: web}'), { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[4, 'web']]);
    assert.ok(fs[0].message.includes('"spec.ports: Required value"'));
    assert.deepEqual(check('  clusterIP: None\n  selector: {app: web}'), []);
    assert.deepEqual(check('  type: ExternalName\n  externalName: db.example.com'), []);
  });

  it('does not ask kustomize patches for fields they leave to the base, but checks the values they set', () => {
    const patch = 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec:\n  ports:\n    - {name: http, nodePort: 30080}\n    - {name: Admin, nodePort: 30081}\n';
    const files = {
      'base/kustomization.yaml': 'resources: [svc.yaml]\n',
      'base/svc.yaml': svc('  type: NodePort\n  ports:\n    - {name: http, port: 80}\n    - {name: admin, port: 81}'),
      'overlay/kustomization.yaml': 'resources: [../base]\npatches:\n  - path: svc-patch.yaml\n',
      'overlay/svc-patch.yaml': patch,
    };
    const fs = lint(files, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.file, f.line, f.text]), [['overlay/svc-patch.yaml', 7, 'Admin']]);
    // The same partial Service outside a kustomization is a Service of its own, and the API server would reject it.
    const alone = lint({ 'svc.yaml': patch }, { rules }).findings;
    assert.deepEqual(alone.map((f) => [f.line, f.text]), [[6, '{name: http, nodePort: 30080}'], [6, '30080'], [7, '{name: Admin, nodePort: 30081}'], [7, 'Admin'], [7, '30081']]);
  });

  it('stays silent on a valid Service of every type and on the built-in default/kubernetes', () => {
    assert.deepEqual(check('  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 32000\n  ports:\n    - {name: https, port: 443, targetPort: https, nodePort: 30443}\n    - {name: dns, port: 53, protocol: UDP, targetPort: 5353}'), []);
    assert.deepEqual(check('  ports:\n    - {name: metrics, port: 9090, targetPort: metrics, appProtocol: http}'), []);
    assert.deepEqual(lint('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}', { rules }).findings, []);
  });

  it('forbids LoadBalancer-only fields on other types: loadBalancerSourceRanges (or its annotation), allocateLoadBalancerNodePorts, loadBalancerClass', () => {
    const fs = check('  type: NodePort\n  loadBalancerSourceRanges: [10.0.0.0/8]\n  allocateLoadBalancerNodePorts: false\n  loadBalancerClass: example.com/lb\n  loadBalancerIP: 10.0.0.9\n  ports: [{port: 80}]');
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text]), [[8, 29, '[10.0.0.0/8]'], [9, 34, 'false'], [10, 22, 'example.com/lb']]);
    assert.deepEqual(fs.map((f) => f.message), [
      'loadBalancerSourceRanges on a NodePort Service: the API server rejects Service shop/web with "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is \'LoadBalancer\'"; remove it or set type: LoadBalancer',
      'allocateLoadBalancerNodePorts on a NodePort Service: the API server rejects Service shop/web with "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is \'LoadBalancer\'"; remove it or set type: LoadBalancer',
      'loadBalancerClass on a NodePort Service: the API server rejects Service shop/web with "spec.loadBalancerClass: Forbidden: may only be used when `type` is \'LoadBalancer\'"; remove it or set type: LoadBalancer',
    ]);
    // type not written: ClusterIP; the annotation counts only when the field is empty.
    const annotated = lint('apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations: {service.beta.kubernetes.io/load-balancer-source-ranges: "10.0.0.0/8"}\nspec:\n  ports: [{port: 80}]\n', { rules }).findings;
    assert.deepEqual(annotated.map((f) => [f.line, f.text, f.message]), [[5, 'service.beta.kubernetes.io/load-balancer-source-ranges', 'load-balancer-source-ranges annotation on a Service without type (ClusterIP): the API server rejects Service default/web with "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Forbidden: may only be used when `type` is \'LoadBalancer\'"; remove it or set type: LoadBalancer']]);
    for (const f of [...fs, ...annotated]) assert.ok(f.message.length <= 300, `${f.message.length}`);
  });

  it('rejects a LoadBalancer source range that is not a CIDR (an address without /32, a prefix over 32), at the first such entry of the field or the annotation', () => {
    const fs = check('  type: LoadBalancer\n  loadBalancerSourceRanges:\n    - 10.0.0.0/8\n    - 203.0.113.7\n    - 10.1.0.0/33\n  ports: [{port: 80}]');
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.severity]), [[10, 7, '203.0.113.7', 'error']]);
    assert.equal(fs[0].message, 'source range "203.0.113.7" is not a CIDR: the API server rejects Service shop/web with "spec.LoadBalancerSourceRanges: Invalid value: "[10.0.0.0/8 203.0.113.7…": must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 "; write 203.0.113.7/32 for the one address');
    const v6 = check('  type: LoadBalancer\n  loadBalancerSourceRanges: ["2001:db8::/129"]\n  ports: [{port: 80}]');
    assert.deepEqual(v6.map((f) => [f.line, f.text]), [[8, '"2001:db8::/129"']]);
    assert.match(v6[0].message, /; write each range as address\/prefix length$/);
    const annotated = lint('apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations: {service.beta.kubernetes.io/load-balancer-source-ranges: "10.0.0.0/8, 192.168.0.0/33"}\nspec:\n  type: LoadBalancer\n  ports: [{port: 80}]\n', { rules }).findings;
    assert.deepEqual(annotated.map((f) => [f.line, f.text]), [[5, '"10.0.0.0/8, 192.168.0.0/33"']]);
    assert.equal(annotated[0].message, 'source range "192.168.0.0/33" is not a CIDR: the API server rejects Service default/web with "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "10.0.0.0/8, 192.168.0.0…": must be a list of IP ranges…"; write each range as address/prefix length');
    for (const f of [...fs, ...v6, ...annotated]) assert.ok(f.message.length <= 300, `${f.message.length}: ${f.message}`);
    // An empty entry (null, as a template leaves `- ` without a value) decodes as "", which is no CIDR.
    const empty = check('  type: LoadBalancer\n  loadBalancerSourceRanges:\n    - 0.0.0.0/0\n    -\n  ports: [{port: 80}]');
    assert.deepEqual(empty.map((f) => [f.line, f.severity]), [[10, 'error']]);
    assert.match(empty[0].message, /^source range "" is not a CIDR: .*Invalid value: "\[0\.0\.0\.0\/0 \]": must be a list of IP ranges/);
    // White space around an entry is trimmed, leading zeros are read as decimal, IPv6 ranges count; the annotation is read only when the field is empty.
    assert.deepEqual(check('  type: LoadBalancer\n  loadBalancerSourceRanges: [" 10.0.0.0/8", "2001:db8::/32", "010.1.0.0/16", 0.0.0.0/0]\n  ports: [{port: 80}]'), []);
    assert.deepEqual(lint('apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations: {service.beta.kubernetes.io/load-balancer-source-ranges: "bad"}\nspec:\n  type: LoadBalancer\n  loadBalancerSourceRanges: [10.0.0.0/8]\n  ports: [{port: 80}]\n', { rules }).findings, []);
  });

  it('checks session affinity: an unsupported value (case fix), a ClientIP timeout outside 1-86400, and warns of a config the API server drops without ClientIP', () => {
    const text = dedent(svc('  sessionAffinity: clientIP\n  ports: [{port: 80}]'));
    const [wrongCase] = lint(text, { rules }).findings;
    assert.deepEqual([wrongCase.line, wrongCase.text, wrongCase.severity], [7, 'clientIP', 'error']);
    assert.equal(wrongCase.message, 'sessionAffinity "clientIP" is not one of ClientIP, None: the API server rejects Service shop/web with "spec.sessionAffinity: Unsupported value: "clientIP": supported values: "ClientIP", "None""');
    assert.equal(applyEdits(text, wrongCase.fixes[0].edits), text.replace('clientIP', 'ClientIP'));
    assert.deepEqual(summary('  sessionAffinity: ClientIP\n  sessionAffinityConfig:\n    clientIP: {timeoutSeconds: 86401}\n  ports: [{port: 80}]'), [[9, '86401',
      'sessionAffinityConfig timeoutSeconds 86401 is outside 1-86400: the API server rejects Service shop/web with "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400"; use at most a day (10800, three hours, is the default)']]);
    assert.deepEqual(summary('  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 0}}\n  ports: [{port: 80}]').map((f) => f[1]), ['0']);
    const dropped = check('  sessionAffinityConfig: {clientIP: {timeoutSeconds: 600}}\n  ports: [{port: 80}]');
    assert.deepEqual(dropped.map((f) => [f.line, f.text, f.severity, f.message]), [[7, '{clientIP: {timeoutSeconds: 600}}', 'warning',
      'sessionAffinityConfig is set without sessionAffinity: ClientIP (it defaults to None): the API server drops the config when it stores Service shop/web, so kube-proxy keeps no client on one endpoint; set sessionAffinity: ClientIP or remove it']]);
    assert.match(check('  sessionAffinity: None\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 600}}\n  ports: [{port: 80}]')[0].message, /^sessionAffinityConfig is set with sessionAffinity: None: /);
    // Accepted: ClientIP with 1..86400 or without a config (defaulted to 10800), None without a config.
    for (const spec of ['  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 86400}}', '  sessionAffinity: ClientIP', '  sessionAffinity: None', '  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {}}']) {
      assert.deepEqual(check(`${spec}\n  ports: [{port: 80}]`), [], spec);
    }
  });

  it('tells a YAML 1.1 boolean or number in type, a traffic policy, ipFamilyPolicy or a port protocol to write one of the values they take, with no quick fix', () => {
    const fs = lint(svc('  type: yes\n  externalTrafficPolicy: 1\n  internalTrafficPolicy: true\n  ipFamilyPolicy: no\n  selector: {app: web}\n  ports: [{port: 80, protocol: on}]'), { rules }).findings;
    const cannot = (field: string, read: string, type: string, goField: string, goType: string) => `${field} ${read} is not a string: the API server cannot decode Service shop/web ("json: cannot unmarshal ${type} into Go struct field ${goField} of type ${goType}")`;
    assert.deepEqual(fs.map((f) => [f.line, f.text, f.message, f.fixes.length]), [
      [7, 'yes', `${cannot('type', 'true', 'bool', 'ServiceSpec.spec.type', 'v1.ServiceType')}; use ClusterIP, NodePort, LoadBalancer or ExternalName`, 0],
      [8, '1', `${cannot('externalTrafficPolicy', '1', 'number', 'ServiceSpec.spec.externalTrafficPolicy', 'v1.ServiceExternalTrafficPolicy')}; use Cluster or Local`, 0],
      [9, 'true', `${cannot('internalTrafficPolicy', 'true', 'bool', 'ServiceSpec.spec.internalTrafficPolicy', 'v1.ServiceInternalTrafficPolicy')}; use Cluster or Local`, 0],
      [10, 'no', `${cannot('ipFamilyPolicy', 'false', 'bool', 'ServiceSpec.spec.ipFamilyPolicy', 'v1.IPFamilyPolicy')}; use SingleStack, PreferDualStack or RequireDualStack`, 0],
      [12, 'on', `${cannot('protocol', 'true', 'bool', 'ServicePort.spec.ports.protocol', 'v1.Protocol')}; use TCP, UDP or SCTP`, 0],
    ]);
    // Accepted values, quoted or not, are no decode error.
    assert.deepEqual(check('  type: "NodePort"\n  externalTrafficPolicy: Local\n  ipFamilyPolicy: "SingleStack"\n  selector: {app: web}\n  ports: [{port: 80, protocol: "TCP"}]'), []);
  });

  it('reports source ranges and session affinity values of the wrong JSON type as the decoder refuses them', () => {
    assert.deepEqual(summary('  type: LoadBalancer\n  loadBalancerSourceRanges: 10.0.0.0/8\n  sessionAffinity: 1\n  ports: [{port: 80}]'), [
      [8, '10.0.0.0/8', 'loadBalancerSourceRanges is not a list (write `loadBalancerSourceRanges: [203.0.113.0/24]`): the API server cannot decode Service shop/web ("json: cannot unmarshal string into Go struct field ServiceSpec.spec.loadBalancerSourceRanges of type []string")'],
      [9, '1', 'sessionAffinity 1 is not a string: the API server cannot decode Service shop/web ("json: cannot unmarshal number into Go struct field ServiceSpec.spec.sessionAffinity of type v1.ServiceAffinity"); use None or ClientIP'],
    ]);
    assert.deepEqual(summary('  type: LoadBalancer\n  loadBalancerSourceRanges: [1234, 10.0.0.0/8]\n  ports: [{port: 80}]').map((f) => [f[0], f[2]]), [
      [8, 'loadBalancerSourceRanges entry 1234 is not a string: the API server cannot decode Service shop/web ("json: cannot unmarshal number into Go struct field ServiceSpec.spec.loadBalancerSourceRanges of type string")'],
    ]);
    assert.deepEqual(summary('  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: "100"}}\n  ports: [{port: 80}]'), [[8, '"100"',
      'sessionAffinityConfig timeoutSeconds "100" is not an integer: the API server cannot decode Service shop/web ("json: cannot unmarshal string into Go struct field ClientIPConfig.spec.sessionAffinityConfig.clientIP.timeoutSeconds of type int32"); remove the quotes']]);
    assert.match(check('  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 1.5}}\n  ports: [{port: 80}]')[0].message, /unmarshal number 1\.5 into Go struct field ClientIPConfig\.spec\.sessionAffinityConfig\.clientIP\.timeoutSeconds of type int32"\)$/);
    // Beyond int32 the decoder refuses it before validation could say "outside 1-86400".
    assert.deepEqual(summary('  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 9999999999}}\n  ports: [{port: 80}]').map((f) => f[2]), [
      'sessionAffinityConfig timeoutSeconds 9999999999 is outside the int32 range (-2147483648 to 2147483647): the API server cannot decode Service shop/web ("json: cannot unmarshal number 9999999999 into Go struct field ClientIPConfig.spec.sessionAffinityConfig.clientIP.timeoutSeconds of type int32")',
    ]);
  });

  it('allows the LoadBalancer-only fields on a LoadBalancer, empty or null ones anywhere, and loadBalancerIP on any type', () => {
    assert.deepEqual(check('  type: LoadBalancer\n  loadBalancerSourceRanges: [10.0.0.0/8]\n  allocateLoadBalancerNodePorts: false\n  loadBalancerClass: example.com/lb\n  ports: [{port: 80}]'), []);
    assert.deepEqual(check('  type: ClusterIP\n  loadBalancerSourceRanges: []\n  allocateLoadBalancerNodePorts: null\n  loadBalancerClass: ~\n  loadBalancerIP: 10.0.0.9\n  ports: [{port: 80}]'), []);
    assert.deepEqual(check('  type: ExternalName\n  externalName: db.example.com\n  loadBalancerIP: 10.0.0.9'), []);
    // A kustomize patch that does not write type may patch a LoadBalancer.
    const files = {
      'base/svc.yaml': svc('  type: LoadBalancer\n  ports: [{port: 80}]'),
      'base/kustomization.yaml': 'resources: [svc.yaml]\n',
      'prod/kustomization.yaml': 'resources: [../base]\npatches: [{path: patch.yaml}]\n',
      'prod/patch.yaml': svc('  loadBalancerSourceRanges: [10.0.0.0/8]\n  allocateLoadBalancerNodePorts: false'),
    };
    assert.deepEqual(lint(files, { rules }).findings, []);
    // Nor a patch's sessionAffinityConfig when the patch does not write sessionAffinity (the base may be ClientIP).
    const affinity = { ...files, 'base/svc.yaml': svc('  sessionAffinity: ClientIP\n  ports: [{port: 80}]'), 'prod/patch.yaml': svc('  sessionAffinityConfig: {clientIP: {timeoutSeconds: 600}}') };
    assert.deepEqual(lint(affinity, { rules }).findings, []);
  });
});
