import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['networkpolicy-spec-invalid'];
// Line 6 is the first line of the ingress rules below.
const policy = (rules: string, apiVersion = 'networking.k8s.io/v1') => `
apiVersion: ${apiVersion}
kind: NetworkPolicy
metadata: {name: api, namespace: shop}
spec:
  podSelector: {matchLabels: {app: api}}
${rules}`;
const check = (rules: string) => lint(policy(rules), { rules: ['networkpolicy-spec-invalid'] }).findings;
const WHO = 'NetworkPolicy shop/api';

describe('networkpolicy-spec-invalid', () => {
  it('reports endPort below port, endPort with a named port and a lower-case protocol, as ValidateNetworkPolicyPort does', () => {
    const fs = check('  ingress:\n    - ports:\n        - {port: 8090, endPort: 8000}\n        - {port: http, endPort: 8100}\n        - {protocol: tcp, port: 8080}');
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.severity, f.object]), [
      [8, 33, '8000', 'error', WHO],
      [9, 33, '8100', 'error', WHO],
      [10, 22, 'tcp', 'error', WHO],
    ]);
    assert.deepEqual(fs.map((f) => f.message), [
      `endPort 8000 is below port 8090, so the range 8090-8000 is empty: the API server rejects ${WHO} with "spec.ingress[0].ports[0].endPort: Invalid value: …: must be greater than or equal to \`port\`"; port is the first port of the range, endPort the last`,
      `endPort 8100 is set with the named port "http" (a range needs numbers): the API server rejects ${WHO} with "spec.ingress[0].ports[1].endPort: Invalid value: 8100: may not be specified when \`port\` is non-numeric"; remove endPort or write port as a number`,
      `protocol "tcp" is not TCP, UDP or SCTP (case-sensitive): the API server rejects ${WHO} with "spec.ingress[0].ports[2].protocol: Unsupported value: "tcp": supported values: "TCP", "UDP", "SCTP""; write TCP`,
    ]);
    for (const f of fs) assert.ok(f.message.length <= 300, `${f.message.length}: ${f.message}`);
    assert.deepEqual(fs[2].fixes.map((x) => x.title), ['Change protocol "tcp" to "TCP"']);
    const text = dedent(policy('  ingress:\n    - ports:\n        - {port: 8090, endPort: 8000}\n        - {port: http, endPort: 8100}\n        - {protocol: tcp, port: 8080}'));
    const fixed = applyEdits(text, fs[2].fixes[0].edits);
    assert.match(fixed, /- \{protocol: TCP, port: 8080\}/);
    assert.deepEqual(lint(fixed, { rules }).findings.map((f) => f.line), [8, 9]);
  });

  it('reports port numbers out of range, endPort without port and invalid port names in egress rules, with fixes', () => {
    const text = '  egress:\n    - to: [{podSelector: {}}]\n      ports:\n        - {endPort: 9000}\n        - {port: 70000}\n        - {port: "8080"}\n        - {port: HTTP}\n        - {port: 53, endPort: 0}';
    const fs = check(text);
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[9, '9000'], [10, '70000'], [11, '"8080"'], [12, 'HTTP'], [13, '0'], [13, '0']]);
    assert.equal(fs[0].message, `endPort 9000 is set without port: the API server rejects ${WHO} with "spec.egress[0].ports[0].endPort: Invalid value: 9000: may not be specified when \`port\` is not specified"; add port (the first port of the range)`);
    assert.equal(fs[1].message, `port 70000 is not a port number: the API server rejects ${WHO} with "spec.egress[0].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive"; use 1-65535`);
    assert.equal(fs[2].message, `port "8080" is not a valid port name (IANA_SVC_NAME) (a quoted number is a port name; remove the quotes): the API server rejects ${WHO} with "spec.egress[0].ports[2].port: Invalid value: "8080": must contain at least one letter (a-z)"`);
    // One finding per value: the first of the API's causes (upper case breaks two).
    assert.deepEqual(fs.slice(3, 4).map((f) => f.message.split('"spec.egress[0].ports[3].port: ')[1]), [
      'Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"; write "http"',
    ]);
    // 0 is below port 53 and outside 1-65535: both errors, as the API server lists them.
    assert.equal(fs[4].message.split(' with ')[1], '"spec.egress[0].ports[4].endPort: Invalid value: …: must be greater than or equal to `port`"; port is the first port of the range, endPort the last');
    assert.equal(fs[5].message.split(' with ')[1], '"spec.egress[0].ports[4].endPort: Invalid value: 0: must be between 1 and 65535, inclusive"; use 1-65535');
    const fixed = applyEdits(dedent(policy(text)), [...fs[2].fixes[0].edits, ...fs[3].fixes[0].edits]);
    assert.match(fixed, /- \{port: 8080\}\n {8}- \{port: http\}\n/);
    assert.deepEqual(lint(fixed, { rules }).findings.map((f) => f.line), [9, 10, 13, 13]);
  });

  it('says to remove a !!str tag from port and endPort, and the fixes remove it', () => {
    const text = '  ingress:\n    - ports:\n        - {port: 53, endPort: !!str 60}\n        - {port: !!str 8080}';
    const fs = check(text);
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[8, '60'], [9, '8080']]);
    assert.match(fs[0].message, /^endPort "60" is not an integer: .* of type int32"\); remove the `!!str` tag$/);
    assert.match(fs[1].message, /^port "8080" is not a valid port name \(IANA_SVC_NAME\) \(a `!!str` number is a port name; remove the `!!str` tag\): /);
    const fixed = applyEdits(dedent(policy(text)), [...fs[0].fixes[0].edits, ...fs[1].fixes[0].edits]);
    assert.match(fixed, /- \{port: 53, endPort: 60\}\n {8}- \{port: 8080\}/);
  });

  it('reports values the decoder refuses before validation: a quoted endPort, a numeric protocol, a boolean port, a port list that is not a list', () => {
    const fs = check('  ingress:\n    - ports:\n        - {port: 53, endPort: "60"}\n        - {protocol: 6, port: 80}\n        - {port: true}\n        - {port: 80.5}\n        - 8080\n    - ports: 443');
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[8, '"60"'], [9, '6'], [10, 'true'], [11, '80.5'], [12, '8080'], [13, '443']]);
    assert.deepEqual(fs.map((f) => f.message), [
      `endPort "60" is not an integer: the API server cannot decode ${WHO} ("json: cannot unmarshal string into Go struct field NetworkPolicyPort.spec.ingress.ports.endPort of type int32"); remove the quotes`,
      `protocol 6 is not a string: the API server cannot decode ${WHO} ("json: cannot unmarshal number into Go struct field NetworkPolicyPort.spec.ingress.ports.protocol of type v1.Protocol"); use TCP, UDP or SCTP`,
      `port true is neither a port number nor a port name: the API server cannot decode ${WHO} ("json: cannot unmarshal bool into Go value of type int32")`,
      `port 80.5 is not an integer: the API server cannot decode ${WHO} ("json: cannot unmarshal number 80.5 into Go value of type int32")`,
      `port entry #4 of ingress rule #0 is a number, not a mapping with protocol, port, endPort: the API server cannot decode ${WHO} ("json: cannot unmarshal number into Go struct field NetworkPolicyIngressRule.spec.ingress.ports of type v1.NetworkPolicyPort")`,
      `ports of ingress rule #1 is a number, not a list: the API server cannot decode ${WHO} ("json: cannot unmarshal number into Go struct field NetworkPolicyIngressRule.spec.ingress.ports of type []v1.NetworkPolicyPort")`,
    ]);
    assert.deepEqual(fs[0].fixes.map((x) => [x.title, x.edits[0].newText]), [['Change endPort "60" to 60', '60']]);
  });

  it('reports selector requirements validation refuses, in podSelector and in peers, and stays silent on valid ones', () => {
    const text = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: shop}
spec:
  podSelector:
    matchExpressions: [{key: app, operator: in, values: [web]}, {key: ok, operator: Exists}]
  ingress:
    - from:
        - podSelector: {matchExpressions: [{key: a, operator: Exists, values: [b]}]}
        - namespaceSelector: {matchExpressions: [{key: a, operator: In, values: []}, {key: b, operator: NotIn, values: [x]}]}
`;
    assert.deepEqual(lint(text, { rules }).findings.map((f) => [f.line, f.column, f.text, f.message]), [
      [6, 45, 'in', 'selector operator "in" is not a valid operator: the API server rejects NetworkPolicy shop/np with "spec.podSelector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator"; write In'],
      [9, 79, '[b]', 'selector requirement (Exists) has values: the API server rejects NetworkPolicy shop/np with "spec.ingress[0].from[0].podSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'"; remove values, or use In'],
      [10, 81, '[]', 'selector requirement (In) has no values: the API server rejects NetworkPolicy shop/np with "spec.ingress[0].from[1].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'"; give the values to match, or use Exists'],
    ]);
  });

  it('stays silent on valid ports: ranges, names, every protocol, empty entries, YAML 1.1 integers; and on other NetworkPolicy kinds', () => {
    const valid = '  ingress:\n    - ports:\n        - {port: 8000, endPort: 8100}\n        - {port: 80, endPort: 80}\n        - {port: http}\n        - {port: dns, protocol: UDP}\n        - {protocol: SCTP}\n        - {}\n        - {port: 0o17, endPort: 0x1F, protocol: TCP}\n  egress:\n    - ports: [{port: 53, protocol: UDP}, {port: 1, endPort: 65535}]\n    - to: [{ipBlock: {cidr: 10.0.0.0/8}}]';
    assert.deepEqual(check(valid), []);
    assert.deepEqual(check('  ingress:\n    - {}\n    - ports: []\n    - ports: null\n  egress: []'), []);
    // Calico's own NetworkPolicy (another API group) has another schema.
    const calico = 'apiVersion: projectcalico.org/v3\nkind: NetworkPolicy\nmetadata: {name: c, namespace: shop}\nspec:\n  ingress:\n    - action: Allow\n      protocol: tcp\n      destination: {ports: [80, "8000:8100"]}\n';
    assert.deepEqual(lint(calico, { rules }).findings, []);
  });

  it('works on the policy of a Deployment without repeating networkpolicy-port-unresolved', () => {
    const files = {
      'api.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: shop}\nspec:\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: api, image: api:1, ports: [{name: http, containerPort: 8080}]}]}\n',
      'np.yaml': policy('  ingress:\n    - ports:\n        - {port: 8090, endPort: 8000}\n        - {port: http, endPort: 8100}\n        - {protocol: tcp, port: 8080}'),
    };
    const all = lint(files, { rules: ['networkpolicy-spec-invalid', 'networkpolicy-port-unresolved'] }).findings;
    assert.deepEqual(all.map((f) => [f.ruleId, f.file, f.line, f.text]), [
      ['networkpolicy-spec-invalid', 'np.yaml', 8, '8000'],
      ['networkpolicy-spec-invalid', 'np.yaml', 9, '8100'],
      ['networkpolicy-spec-invalid', 'np.yaml', 10, 'tcp'],
    ]);
  });
});
