import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in Kubernetes API server for tests: HTTPS on 127.0.0.1 with a throwaway CA (made by the
 * `openssl` CLI), bearer-token authentication, List responses with resourceVersion, watch streams,
 * 403 Status bodies and slow answers. Every request is recorded; any non-GET is refused with 405 and
 * recorded in `writes`, so tests can assert the client never writes.
 */

export const TOKEN = 'kn-test-token-5f1d9c0e7a2b4d6f8e1c3a5b7d9f0e2c';

export interface Pki {
  readonly dir: string;
  readonly caPem: string;
  readonly keyPem: string;
  readonly certPem: string;
}

let pki: Pki | undefined;

/** A CA and a server certificate for 127.0.0.1 (generated once per test run). */
export function testPki(): Pki {
  if (pki) return pki;
  const dir = mkdtempSync(join(tmpdir(), 'kn-pki-'));
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=kube-netlint-test-ca');
  run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'san.ext');
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  pki = { dir, caPem: read('ca.crt'), keyPem: read('server.key'), certPem: read('server.crt') };
  return pki;
}

/** What a route answers: a JSON body (status 200 unless given), optionally late; or a handler. */
export type Route =
  | { readonly body: unknown; readonly status?: number; readonly delayMs?: number }
  | ((req: IncomingMessage, res: ServerResponse, url: URL) => void);

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorized: boolean;
}

export interface FakeApiServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly writes: RecordedRequest[];
  /** Routes by path; a `?watch=true` request looks up `WATCH <path>` first. */
  readonly routes: Map<string, Route>;
  /** Sends one watch event on every open watch stream of `path`. */
  push(path: string, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: unknown): void;
  close(): Promise<void>;
}

/** A Kubernetes `Status` body, as the API server sends with errors. */
export function statusBody(code: number, reason: string, message: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: {}, code };
}

export async function startFakeApiServer(routes: Record<string, Route>): Promise<FakeApiServer> {
  const { keyPem, certPem } = testPki();
  const requests: RecordedRequest[] = [];
  const writes: RecordedRequest[] = [];
  const routeMap = new Map(Object.entries(routes));
  const watchers = new Map<string, Set<ServerResponse>>();
  const server: Server = createServer({ key: keyPem, cert: certPem }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
    const record = { method: req.method ?? '', path: url.pathname + url.search, authorized };
    requests.push(record);
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') {
      writes.push(record);
      return send(405, statusBody(405, 'MethodNotAllowed', `the fake API server is read-only (${req.method})`));
    }
    if (!authorized) return send(401, statusBody(401, 'Unauthorized', 'Unauthorized'));
    if (url.searchParams.get('watch') === 'true') {
      const route = routeMap.get(`WATCH ${url.pathname}`);
      if (typeof route === 'function') return route(req, res, url);
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      const set = watchers.get(url.pathname) ?? new Set();
      set.add(res);
      watchers.set(url.pathname, set);
      res.on('close', () => set.delete(res));
      return;
    }
    const route = routeMap.get(url.pathname);
    if (!route) return send(404, statusBody(404, 'NotFound', `the server could not find the requested resource (get ${url.pathname})`));
    if (typeof route === 'function') return route(req, res, url);
    const answer = (): void => send(route.status ?? 200, route.body);
    if (route.delayMs) {
      const timer = setTimeout(answer, route.delayMs);
      res.on('close', () => clearTimeout(timer));
    } else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    writes,
    routes: routeMap,
    push(path, type, object) {
      for (const res of watchers.get(path) ?? []) res.write(JSON.stringify({ type, object }) + '\n');
    },
    async close() {
      for (const set of watchers.values()) for (const res of set) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A private key that stands in for a user's client key in kubeconfigs (must never be printed). */
export function clientKeyPem(): string {
  return testPki().keyPem;
}

/**
 * Writes a kubeconfig with context `prod-admin` (bearer token, CA data) pointing at `server`, plus a
 * context `other` whose user has a client key, to a fresh temp dir; returns its path.
 */
export function writeKubeconfig(server: string, options: { currentContext?: string } = {}): string {
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const dir = mkdtempSync(join(tmpdir(), 'kn-kubeconfig-'));
  const path = join(dir, 'config');
  writeFileSync(path, [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${options.currentContext ?? 'prod-admin'}`,
    'clusters:',
    '- name: prod',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(testPki().caPem)}`,
    'users:',
    '- name: admin',
    '  user:',
    `    token: ${TOKEN}`,
    '- name: cert-user',
    '  user:',
    `    client-certificate-data: ${b64(testPki().certPem)}`,
    `    client-key-data: ${b64(clientKeyPem())}`,
    'contexts:',
    '- name: prod-admin',
    '  context: {cluster: prod, user: admin}',
    '- name: other',
    '  context: {cluster: prod, user: cert-user}',
    '',
  ].join('\n'));
  return path;
}
