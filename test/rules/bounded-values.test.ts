import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

// Written values and names are cut in messages (24 and 63 characters): a message stays its fact, consequence and
// fix, whatever was written. And one finding per value: the API server lists one cause per broken rule of a value.
const LONG = '$('.repeat(20000);
const CUT = `"${LONG.slice(0, 23)}…"`;

describe('messages quote written values and names bounded, one finding per value', () => {
  it('cuts a 40 kB targetPort and a 40 kB name in the one finding of the value', () => {
    const name = `${'{'.repeat(40000)}a`;
    const { findings } = lint(`
      apiVersion: v1
      kind: Service
      metadata:
        name: "${name}"
      spec: {ports: [{port: 80, targetPort: "${LONG}"}]}`);
    const mine = findings.filter((f) => f.ruleId === 'service-spec-invalid');
    assert.deepEqual(mine.map((f) => [f.line, f.column]), [[5, 39]]);
    const m = mine[0].message;
    assert.equal(m, `targetPort ${CUT} is not a valid port name (IANA_SVC_NAME): the API server rejects Service default/${'{'.repeat(62)}… with "spec.ports[0].targetPort: Invalid value: ${CUT}: must be no more than 15 characters"`);
    assert.ok(findings.every((f) => f.message.length < 500), findings.map((f) => f.message.length).join(', '));
  });

  it('reports a placeholder targetPort once, at its value, quoting the first of the API\'s causes', () => {
    const { findings } = lint(`
      apiVersion: v1
      kind: Service
      metadata: {name: web}
      spec:
        selector: {app: web}
        ports:
        - name: http
          port: 80
          targetPort: "\${TARGET_PORT}"`, { rules: ['service-spec-invalid'] });
    assert.deepEqual(findings.map((f) => [f.line, f.column, f.text]), [[9, 17, '"${TARGET_PORT}"']]);
    assert.equal(findings[0].message, 'targetPort "${TARGET_PORT}" is not a valid port name (IANA_SVC_NAME): the API server rejects Service default/web with "spec.ports[0].targetPort: Invalid value: "${TARGET_PORT}": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"');
  });

  it('bounds every written value the API-server checks quote: port names, protocols, externalIPs, policy and Ingress ports, probe ports', () => {
    const v = 'X'.repeat(5000);
    const files = {
      's.yaml': `apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  externalIPs: ["${v}"]\n  ports: [{name: "${v}", port: 80, protocol: "${v}"}, {name: b, port: 81, targetPort: {a: "${v}"}}]\n`,
      'p.yaml': `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: "${v}"\n    image: x\n    ports: [{name: "${v}", containerPort: 80, protocol: "${v}"}]\n    readinessProbe: {httpGet: {port: "${v}"}}\n`,
      'n.yaml': `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np}\nspec:\n  podSelector: {}\n  ingress: [{ports: [{port: "${v}"}]}]\n`,
      'i.yaml': `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}\nspec:\n  defaultBackend: {service: {name: web, port: {name: "${v}"}}}\n`,
    };
    const { findings } = lint(files);
    const byFile = (file: string) => findings.filter((f) => f.file === file).map((f) => f.ruleId);
    assert.deepEqual(byFile('s.yaml'), ['service-spec-invalid', 'service-spec-invalid', 'service-spec-invalid', 'service-spec-invalid']);
    assert.deepEqual(byFile('p.yaml'), ['pod-spec-invalid', 'pod-spec-invalid', 'pod-spec-invalid']);
    assert.deepEqual(byFile('n.yaml'), ['networkpolicy-spec-invalid']);
    assert.deepEqual(byFile('i.yaml'), ['ingress-spec-invalid']);
    for (const f of findings) {
      assert.ok(f.message.length <= 300, `${f.ruleId} ${f.message.length}: ${f.message.slice(0, 120)}`);
      assert.ok(!f.message.includes('X'.repeat(25)), `${f.ruleId} quotes the value whole`);
      for (const fix of f.fixes) assert.ok(fix.title.length <= 200, fix.title.slice(0, 80));
    }
    assert.ok(findings.some((f) => f.message.includes(`"${'X'.repeat(23)}…"`)));
  });
});
