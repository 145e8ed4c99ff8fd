import { strict as assert } from 'node:assert';
import { Redactor } from '../../server/out/cluster/redact';
import { classifyError, summarize } from '../../server/out/cluster/status';

describe('Redactor and status lines', () => {
  it('replaces every known credential, Bearer/Basic values and PEM private keys', () => {
    const r = new Redactor(['s3cr3t-token-value', 'short', undefined]);
    assert.equal(r.redact('token s3cr3t-token-value twice s3cr3t-token-value'), 'token [redacted] twice [redacted]');
    assert.equal(r.redact('header Authorization: Bearer eyJhbGciOi.abc-def_ghi'), 'header Authorization: Bearer [redacted]');
    assert.equal(r.redact('a short word'), 'a short word'); // under 8 characters: not a credential
    assert.equal(r.redact('x -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY----- y'), 'x [redacted private key] y');
  });

  it('classifies HTTP and network errors without the client message (which embeds response headers)', () => {
    const spec = { id: 'nodes', label: 'Nodes', permission: 'list nodes (cluster-scoped)' };
    const r = new Redactor([]);
    const err = Object.assign(new Error('HTTP-Code: 401\nMessage: Unauthorized\nHeaders: {"www-authenticate":"x"}'), { code: 401, body: '{"kind":"Status","message":"Unauthorized"}' });
    assert.deepEqual(classifyError(err, spec, 5000, r), { id: 'nodes', label: 'Nodes', count: 0, state: 'unauthorized', detail: 'unauthorized: the API server rejected the credentials of this context (expired token or certificate?)' });
    const timeout = Object.assign(new Error('The user aborted a request.'), { name: 'AbortError', type: 'aborted' });
    assert.equal(classifyError(timeout, spec, 5000, r).detail, 'no answer within 5 s');
    const tls = Object.assign(new Error('request to https://10.0.0.1:6443/api/v1/nodes failed, reason: self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN', type: 'system' });
    const untrusted = "the server's certificate is not trusted by this context's certificate-authority (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain); check certificate-authority(-data) in the kubeconfig";
    assert.equal(classifyError(tls, spec, 5000, r).detail, untrusted);
    // Reached but not trusted reads "cannot be read", not "unreachable"; a refused connection stays unreachable.
    const failed = classifyError(tls, spec, 5000, r);
    assert.equal(summarize('prod', 'https://10.0.0.1:6443', [failed, { ...failed, id: 'services', label: 'Services' }]).message, `cluster prod at https://10.0.0.1:6443 cannot be read: ${untrusted}; analysing the workspace only`);
    const refused = Object.assign(new Error('request failed, reason: connect ECONNREFUSED 10.0.0.1:6443'), { code: 'ECONNREFUSED' });
    assert.equal(classifyError(refused, spec, 5000, r).detail, 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:6443');
  });

  it('says "unreachable" once when every list failed the same way, and lists what is missing otherwise', () => {
    const down = { count: 0, state: 'unreachable' as const, detail: 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:6443' };
    const all = summarize('prod', 'https://10.0.0.1:6443', [{ id: 'services', label: 'Services', ...down }, { id: 'nodes', label: 'Nodes', ...down }]);
    assert.deepEqual([all.state, all.message], ['unreachable', 'cluster prod at https://10.0.0.1:6443 is unreachable: ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:6443; analysing the workspace only']);
    const some = summarize('prod', 'https://x', [{ id: 'services', label: 'Services', state: 'ok', count: 3 }, { id: 'nodes', label: 'Nodes', state: 'forbidden', count: 0, detail: 'forbidden: RBAC does not allow list nodes (cluster-scoped)' }]);
    assert.deepEqual([some.state, some.message], ['partial', 'cluster prod: read 3 Services; missing Nodes (forbidden: RBAC does not allow list nodes (cluster-scoped))']);
  });
});
