import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['externalip-port-conflict'];
const svc = (name: string, ns: string, ports: string, ips: string) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  ports: ${ports}
  externalIPs: ${ips}
`;

describe('externalip-port-conflict', () => {
  it('reads 010.0.0.1 as the API server does (decimal 10.0.0.1, not octal 8.0.0.1) and says so on the value', () => {
    const { findings } = lint({
      'a.yaml': svc('zeros', 'team-a', '[{port: 443}]', '["010.0.0.1"]'),
      'b.yaml': svc('octal', 'team-b', '[{port: 443}]', '[8.0.0.1]'),
      'c.yaml': svc('plain', 'team-c', '[{port: 443}]', '[10.0.0.1]'),
    }, { rules: ['externalip-port-conflict', 'service-spec-invalid'] });
    const conflicts = findings.filter((f) => f.ruleId === 'externalip-port-conflict');
    assert.deepEqual(conflicts.map((f) => [f.file, f.text, f.object]), [['a.yaml', '"010.0.0.1"', 'Service team-a/zeros'], ['c.yaml', '10.0.0.1', 'Service team-c/plain']]);
    const [zeros] = findings.filter((f) => f.ruleId === 'service-spec-invalid');
    assert.deepEqual([zeros.file, zeros.line, zeros.severity], ['a.yaml', 8, 'warning']);
    assert.equal(zeros.message, 'externalIP "010.0.0.1" has leading zeros: up to v1.35 the API server reads it as 10.0.0.1 and warns ("spec.externalIPs[0]: non-standard IP address"); from v1.36 it rejects new Services ("must not have leading 0s"); write 10.0.0.1');
    assert.deepEqual(zeros.fixes[0].edits.map((e) => e.newText), ['10.0.0.1']);
  });

  it('writes an IPv6 address in its short form (RFC 5952), however each Service spells it', () => {
    const { findings } = lint({
      'a.yaml': svc('long', 'team-a', '[{port: 443}]', '["2001:DB8:0:0::1"]'),
      'b.yaml': svc('short', 'team-b', '[{port: 443}]', '["2001:db8::1"]'),
    }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.text, f.message.split(' is also')[0]]), [
      ['a.yaml', '"2001:DB8:0:0::1"', 'externalIP 2001:db8::1 port 443/TCP'],
      ['b.yaml', '"2001:db8::1"', 'externalIP 2001:db8::1 port 443/TCP'],
    ]);
  });

  it('reports both Services, each naming the other, at the externalIPs entries', () => {
    const { findings } = lint({
      'a.yaml': svc('web', 'team-a', '[{port: 443}]', '[198.51.100.10]'),
      'b.yaml': svc('proxy', 'team-b', '[{name: http, port: 80}, {name: https, port: 443, protocol: TCP}]', '[198.51.100.9, 198.51.100.10]'),
    }, { rules });
    assert.equal(findings.length, 2);
    const [a, b] = findings;
    assert.deepEqual([a.severity, a.file, a.line, a.column, a.text], ['error', 'a.yaml', 8, 17, '198.51.100.10']);
    assert.deepEqual([b.file, b.line, b.column, b.text], ['b.yaml', 8, 31, '198.51.100.10']);
    assert.equal(a.message, 'externalIP 198.51.100.10 port 443/TCP is also claimed by Service team-b/proxy: kube-proxy programs both Services for the same address and port, so only one of them receives the traffic; use another port or externalIP');
    assert.match(b.message, /Service team-a\/web/);
    assert.deepEqual(a.related.map((r) => [r.file, r.line]), [['b.yaml', 8]]);
  });

  it('stays silent for another port, another protocol, another address, and variants of one Service', () => {
    const { findings } = lint({
      'a.yaml': svc('dns', 'x', '[{port: 53, protocol: UDP}]', '[198.51.100.10]'),
      'b.yaml': svc('dns-tcp', 'x', '[{port: 53, protocol: TCP}, {port: 8080}]', '[198.51.100.10]'),
      'c.yaml': svc('other', 'x', '[{port: 53, protocol: UDP}]', '[198.51.100.11]'),
      'base/d.yaml': svc('same', 'z', '[{port: 80}]', '[198.51.100.12]'),
      'overlay/d.yaml': svc('same', 'z', '[{port: 80}]', '[198.51.100.12]'),
    }, { rules });
    assert.deepEqual(findings, []);
  });
});
