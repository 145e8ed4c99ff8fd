import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeconfigError, loadKubeconfig } from '../../server/out/cluster/kubeconfig';

const config = (o: { server: string; user: string; userBody: string; context?: string; current?: string }) => [
  'apiVersion: v1', 'kind: Config', ...(o.current ? [`current-context: ${o.current}`] : []),
  'clusters:', `- name: c-${o.user}`, '  cluster:', `    server: ${o.server}`,
  'users:', `- name: ${o.user}`, '  user:', ...o.userBody.split('\n').map((l) => `    ${l}`),
  'contexts:', `- name: ${o.context ?? `ctx-${o.user}`}`, `  context: {cluster: c-${o.user}, user: ${o.user}}`, '',
].join('\n');

describe('kubeconfig loading (kubectl semantics, credentials)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'knl-kubeconfig-'));
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('merges KUBECONFIG files first-wins when they share a user name (client-node threw "Duplicate user")', () => {
    const a = file('a', config({ server: 'https://a.example:6443', user: 'admin', userBody: 'token: first', current: 'ctx-admin' }));
    const b = file('b', config({ server: 'https://b.example:6443', user: 'admin', userBody: 'token: second', context: 'other' }));
    const loaded = loadKubeconfig({ env: { KUBECONFIG: [a, b].join(delimiter) } });
    assert.equal(loaded.context, 'ctx-admin');
    assert.equal(loaded.kc.getUser('admin')?.token, 'first');
    assert.deepEqual(loaded.kc.getContexts().map((c) => c.name), ['ctx-admin', 'other']);
  });

  it('says which field is missing, and refuses certificate-authority-data that is not a PEM certificate, never quoting a token', () => {
    const noServer = file('no-server', config({ server: 'x', user: 'u', userBody: 'token: secret-token-1', current: 'ctx-u' }).replace('    server: x', '    insecure-skip-tls-verify: false'));
    assert.throws(() => loadKubeconfig({ path: noServer }), (err: unknown) => err instanceof KubeconfigError && err.message === `${noServer}: not a valid kubeconfig (clusters[0].cluster.server is missing)`);
    const garbage = file('garbage-ca', config({ server: 'https://10.0.0.1:6443', user: 'u', userBody: 'token: secret-token-2', current: 'ctx-u' })
      .replace('    server:', `    certificate-authority-data: ${Buffer.from('not a cert').toString('base64')}\n    server:`));
    assert.throws(() => loadKubeconfig({ path: garbage }), (err: unknown) => err instanceof KubeconfigError && !err.message.includes('secret-token')
      && err.message === 'kubeconfig context "ctx-u": certificate-authority-data of cluster "c-u" is not a PEM certificate, so the server cannot be verified (kubectl: "unable to load root certificates"); fix the data');
  });

  it('refuses a plain-HTTP server when credentials would be sent, insecure-skip-tls-verify or not', () => {
    const path = file('http', config({ server: 'http://10.0.0.1:8080', user: 'u', userBody: 'token: secret-token', current: 'ctx-u' }).replace('    server:', '    insecure-skip-tls-verify: true\n    server:'));
    assert.throws(() => loadKubeconfig({ path }), (err: unknown) => err instanceof KubeconfigError && /server http:\/\/10\.0\.0\.1:8080 is plain HTTP, so its credentials would be sent in clear; kube-netlint refuses to connect/.test(err.message) && !err.message.includes('secret-token'));
    const proxy = file('proxy', config({ server: 'http://127.0.0.1:8001', user: 'u', userBody: 'username: ""', current: 'ctx-u' }).replace("username: \"\"", 'as: nobody'));
    assert.equal(loadKubeconfig({ path: proxy }).server, 'http://127.0.0.1:8001', 'kubectl proxy without credentials is fine');
  });

  it('runs an exec credential plugin once for all the requests of a run (it ran once per list call)', async () => {
    const count = join(dir, 'runs');
    writeFileSync(count, '');
    const plugin = file('plugin.sh', `#!/bin/sh\necho run >> '${count}'\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin"}}'\n`);
    const path = file('exec', config({ server: 'https://a.example:6443', user: 'e', current: 'ctx-e', userBody: `exec:\n  apiVersion: client.authentication.k8s.io/v1\n  command: sh\n  args: ['${plugin}']\n  interactiveMode: Never` }));
    const { kc } = loadKubeconfig({ path });
    const headers = await Promise.all(Array.from({ length: 5 }, async () => {
      const opts: { headers?: Record<string, string> } = {};
      await kc.applyToHTTPSOptions(opts as never);
      return opts.headers?.Authorization;
    }));
    assert.deepEqual(headers, Array(5).fill('Bearer from-plugin'));
    assert.equal(readFileSync(count, 'utf8'), 'run\n');
  });
});
