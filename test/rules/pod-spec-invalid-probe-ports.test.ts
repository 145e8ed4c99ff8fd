import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['pod-spec-invalid'];
// Probe lines start at line 12 (indented by 10 spaces).
const pod = (probe: string) => `
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  containers:
    - name: web
      image: web:1
      ports: [{name: http, containerPort: 8080}]
      # probes
${probe}`;

describe('pod-spec-invalid: probe and lifecycle-hook ports', () => {
  it('rejects a quoted number in httpGet.port with the API server\'s message and unquotes it', () => {
    const text = pod('      readinessProbe:\n        httpGet: {path: /, port: "8080"}');
    const { findings } = lint({ 'p.yaml': text }, { rules });
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.deepEqual([f.line, f.column, f.text, f.severity], [13, 34, '"8080"', 'error']);
    assert.equal(f.message, 'readinessProbe port "8080" of container "web" is a quoted number, which the API reads as a port name: the API server rejects Pod shop/web with "spec.containers[0].readinessProbe.httpGet.port: Invalid value: "8080": must contain at least one letter (a-z)"; remove the quotes');
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Change the readinessProbe port "8080" to 8080', true]]);
    const fixed = applyEdits(dedent(text), f.fixes[0].edits);
    assert.match(fixed, /httpGet: \{path: \/, port: 8080\}/);
    assert.deepEqual(lint({ 'p.yaml': fixed }, { rules }).findings, []);
  });

  it('says to remove a !!str tag from a probe port, and the fix writes the plain number', () => {
    const text = pod('      readinessProbe:\n        httpGet: {path: /, port: !!str 8080}\n      livenessProbe:\n        grpc: {port: !!str 9090}');
    const fs = lint({ 'p.yaml': text }, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[13, '8080'], [15, '9090']]);
    assert.equal(fs[0].message, 'readinessProbe port "8080" of container "web" is a `!!str` number, which the API reads as a port name: the API server rejects Pod shop/web with "spec.containers[0].readinessProbe.httpGet.port: Invalid value: "8080": must contain at least one letter (a-z)"; remove the `!!str` tag');
    assert.match(fs[1].message, /of type int32"\); remove the `!!str` tag$/);
    const fixed = applyEdits(dedent(text), [...fs[0].fixes[0].edits, ...fs[1].fixes[0].edits]);
    assert.match(fixed, /httpGet: \{path: \/, port: 8080\}\n {6}livenessProbe:\n {8}grpc: \{port: 9090\}/);
    assert.deepEqual(lint({ 'p.yaml': fixed }, { rules }).findings, []);
    // An anchored value is not rewritten (its aliases would change too).
    assert.deepEqual(lint({ 'p.yaml': pod('      readinessProbe:\n        httpGet: {path: /, port: &p !!str 8080}') }, { rules }).findings[0].fixes, []);
  });

  it('rejects invalid names, out-of-range numbers and string grpc ports, for hooks too', () => {
    const probes = [
      '      livenessProbe:\n        tcpSocket: {port: HTTP}',
      '      startupProbe:\n        httpGet: {port: 70000}',
      '      readinessProbe:\n        grpc: {port: "9090"}',
      '      lifecycle:\n        preStop:\n          httpGet: {port: \'8081\'}',
    ].join('\n');
    const { findings } = lint({ 'p.yaml': pod(probes) }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.text, f.fixes.length]), [[13, 'HTTP', 0], [15, '70000', 0], [17, '"9090"', 1], [20, "'8081'", 1]]);
    assert.match(findings[0].message, /^livenessProbe port "HTTP" of container "web" is not a valid port name \(IANA_SVC_NAME\): the API server rejects Pod shop\/web with "spec\.containers\[0\]\.livenessProbe\.tcpSocket\.port: Invalid value: "HTTP": must contain only alpha-numeric characters \(a-z, 0-9\), and hyphens \(-\)"$/);
    assert.match(findings[1].message, /startupProbe port 70000 of container "web" is not a port number: .*"spec\.containers\[0\]\.startupProbe\.httpGet\.port: Invalid value: 70000: must be between 1 and 65535, inclusive"/);
    assert.match(findings[2].message, /json: cannot unmarshal string into Go struct field GRPCAction\.spec\.containers\.readinessProbe\.grpc\.port of type int32/);
    assert.match(findings[3].message, /preStop hook port "8081" of container "web" is a quoted number.*"spec\.containers\[0\]\.lifecycle\.preStop\.httpGet\.port:/);
  });

  it('offers no unquote fix on an anchored value or on its alias (the edit would change other places too)', () => {
    const text = pod('      readinessProbe:\n        httpGet: {port: &p "8080"}\n      livenessProbe:\n        httpGet: {port: *p}');
    const { findings } = lint({ 'p.yaml': text }, { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.fixes.length]), [[13, 0], [15, 0]]);
  });

  it('accepts valid names and numbers', () => {
    assert.deepEqual(lint({ 'p.yaml': pod('      readinessProbe:\n        httpGet: {port: http}\n      livenessProbe:\n        tcpSocket: {port: 8080}') }, { rules }).findings, []);
  });
});
