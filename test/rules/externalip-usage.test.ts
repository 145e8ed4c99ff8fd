import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['externalip-usage'];

describe('externalip-usage', () => {
  it('marks every externalIPs entry with CVE-2020-8554 and DenyServiceExternalIPs', () => {
    const { findings } = lint(`
      apiVersion: v1
      kind: Service
      metadata: {name: dns, namespace: infra}
      spec:
        ports: [{port: 53, protocol: UDP}]
        externalIPs: [203.0.113.5, 203.0.113.6]
    `, { rules });
    assert.deepEqual(findings.map((f) => [f.severity, f.line, f.column, f.text]), [['info', 6, 17, '203.0.113.5'], ['info', 6, 30, '203.0.113.6']]);
    assert.equal(findings[0].message, 'externalIP 203.0.113.5 of Service infra/dns: Kubernetes neither routes nor reserves it, and anyone who can create Services can claim any address this way (man in the middle); allow only known addresses (DenyServiceExternalIPs or a policy)');
  });

  it('stays silent for Services without externalIPs', () => {
    assert.deepEqual(lint('apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  type: LoadBalancer\n  ports: [{port: 80}]\n', { rules }).findings, []);
  });
});
