import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { clientNode } from './client-node';
import { Redactor } from './redact';

/**
 * Where the kubeconfig comes from. SECURITY: callers pass values from user (application/machine-scoped)
 * settings, the command line or the process environment only — never from workspace settings or
 * `.kube-netlint.yaml`, because a kubeconfig can run an exec credential plugin.
 */
export interface KubeconfigOptions {
  /** Explicit kubeconfig path (user setting); overrides KUBECONFIG and ~/.kube/config. */
  readonly path?: string;
  /** Context to use; default: the kubeconfig's current-context. */
  readonly context?: string;
  /** Environment to read KUBECONFIG and HOME from (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A kubeconfig ready for use, with its credentials registered for redaction. */
export interface LoadedKubeconfig {
  readonly kc: KubeConfig;
  readonly context: string;
  /** The API server URL (without userinfo), for messages. */
  readonly server: string;
  /** The kubeconfig files read, in order. */
  readonly files: readonly string[];
  readonly redactor: Redactor;
}

/** The kubeconfig cannot be used: missing file, not a kubeconfig, no such context. The message never holds file contents. */
export class KubeconfigError extends Error {
  constructor(message: string, readonly reason: 'no-kubeconfig' | 'invalid' | 'no-context') {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/**
 * The kubeconfig files kubectl would read: the explicit path, else every entry of `KUBECONFIG`
 * (split on the platform's path delimiter, merged first-wins), else `~/.kube/config`.
 * Source: https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/ (v1.33).
 */
export function kubeconfigFiles(options: KubeconfigOptions): string[] {
  const env = options.env ?? process.env;
  if (options.path) return [options.path];
  const fromEnv = (env.KUBECONFIG ?? '').split(delimiter).filter((p) => p);
  if (fromEnv.length) return fromEnv;
  return [join(env.HOME || env.USERPROFILE || homedir(), '.kube', 'config')];
}

/**
 * Loads the kubeconfig like kubectl and selects the context.
 * @throws KubeconfigError when no file exists, a file is not a valid kubeconfig (line number only, no
 *   contents), or the context is missing (the available context names are listed)
 */
export function loadKubeconfig(options: KubeconfigOptions): LoadedKubeconfig {
  const k8s = clientNode();
  const files = kubeconfigFiles(options).filter((f) => existsSync(f));
  if (files.length === 0) {
    throw new KubeconfigError(`no kubeconfig found (looked at ${kubeconfigFiles(options).join(', ')}); set KUBECONFIG (in the editor: the kubeNetlint.cluster.kubeconfig user setting)`, 'no-kubeconfig');
  }
  const kc = new k8s.KubeConfig();
  files.forEach((file, i) => {
    const one = i === 0 ? kc : new k8s.KubeConfig();
    try {
      one.loadFromFile(file);
    } catch (err) {
      // js-yaml errors quote the offending lines, which may hold a token: keep the line number only.
      const line = (err as { mark?: { line?: number } }).mark?.line;
      // client-node's own checks name only the entry and field (`clusters[0].cluster.server is missing`): safe to say.
      const missing = /^(?:clusters|users|contexts)\[\d+\]\.[\w.-]+ is missing$/.exec((err as Error).message ?? '')?.[0];
      const why = line !== undefined ? 'not YAML' : missing ?? 'parse error';
      throw new KubeconfigError(`${file}${line !== undefined ? `:${line + 1}` : ''}: not a valid kubeconfig (${why})`, 'invalid');
    }
    if (i > 0) mergeFirstWins(kc, one);
  });
  const context = options.context || kc.getCurrentContext();
  const names = kc.getContexts().map((c) => c.name);
  if (!context || !names.includes(context)) {
    const available = names.length ? names.join(', ') : 'none';
    const what = context ? `context "${context}" not found` : 'no current-context set';
    throw new KubeconfigError(`kubeconfig ${files.join(', ')}: ${what} (contexts: ${available})`, 'no-context');
  }
  kc.setCurrentContext(context);
  const cluster = kc.getCurrentCluster();
  if (!cluster || !cluster.server) throw new KubeconfigError(`kubeconfig context "${context}" names no cluster with a server URL`, 'invalid');
  if (cluster.caData && !isPemCertificates(Buffer.from(cluster.caData, 'base64').toString('utf8'))) {
    // kubectl stops here too ("unable to load root certificates: unable to parse bytes as PEM block"); without the
    // check the TLS handshake fails later and reads as a server that cannot be reached.
    throw new KubeconfigError(`kubeconfig context "${context}": certificate-authority-data of cluster "${cluster.name}" is not a PEM certificate, so the server cannot be verified (kubectl: "unable to load root certificates"); fix the data`, 'invalid');
  }
  const user = kc.getCurrentUser();
  const credentials = !!user && !!(user.token || user.password || user.exec || user.authProvider || user.keyData || user.keyFile);
  if (credentials && /^http:/i.test(cluster.server)) {
    // Never send a bearer token (or a password, or an exec plugin's token) over plain HTTP, whatever
    // insecure-skip-tls-verify says: anyone on the path could read it.
    throw new KubeconfigError(`kubeconfig context "${context}": server ${stripUserinfo(cluster.server)} is plain HTTP, so its credentials would be sent in clear; kube-netlint refuses to connect (use an https:// server, or kubectl proxy without credentials)`, 'invalid');
  }
  cacheExecCredentials(kc);
  return { kc, context, server: stripUserinfo(cluster.server), files, redactor: new Redactor(secretsOf(kc)) };
}

/** True when `text` holds at least one PEM certificate and every PEM block in it parses as X.509. */
function isPemCertificates(text: string): boolean {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return false;
  try {
    blocks.forEach((b) => new X509Certificate(b));
    return true;
  } catch {
    return false;
  }
}

/**
 * kubectl's merge of several kubeconfig files: the first file that names a cluster, user or context wins, and
 * the first current-context set wins. client-node's mergeConfig throws `Duplicate user` instead when two files
 * share a name. Source: https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/#merging-kubeconfig-files (v1.33).
 */
function mergeFirstWins(into: KubeConfig, from: KubeConfig): void {
  const names = (list: readonly { name: string }[]): Set<string> => new Set(list.map((x) => x.name));
  const clusters = names(into.getClusters());
  const users = names(into.getUsers());
  const contexts = names(into.getContexts());
  for (const c of from.getClusters()) if (!clusters.has(c.name)) into.addCluster(c);
  for (const u of from.getUsers()) if (!users.has(u.name)) into.addUser(u);
  for (const c of from.getContexts()) if (!contexts.has(c.name)) into.addContext(c);
  if (!into.getCurrentContext() && from.getCurrentContext()) into.setCurrentContext(from.getCurrentContext());
}

interface ExecCredential { readonly status?: { readonly expirationTimestamp?: string } }
interface ExecAuthLike { getCredential(user: { name: string }): Promise<ExecCredential | null> }


/**
 * Runs an exec credential plugin once per user for this kubeconfig, not once per request: client-node caches a
 * credential only when it has an expirationTimestamp, so a plugin that omits it (allowed: client-go then keeps the
 * credential for the process) ran for each of the five list calls of a run, in parallel. The credential (or the
 * pending run) is reused until its expirationTimestamp, if it has one.
 * Source: https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins (v1.33).
 */
function cacheExecCredentials(kc: KubeConfig): void {
  const authenticators = (kc as unknown as { authenticators?: unknown[] }).authenticators ?? [];
  // client-node does not export ExecAuth: it is the authenticator that takes a user with an `exec` section.
  const probe = { name: '', exec: { command: 'probe' } };
  const exec = authenticators.find((a) => {
    const auth = a as { isAuthProvider?: (u: unknown) => boolean; getCredential?: unknown };
    return typeof auth.getCredential === 'function' && auth.isAuthProvider?.(probe) === true;
  }) as ExecAuthLike | undefined;
  if (!exec) return;
  const run = exec.getCredential.bind(exec);
  const cache = new Map<string, Promise<ExecCredential | null>>();
  const expired = (c: ExecCredential | null): boolean => {
    const at = c?.status?.expirationTimestamp;
    return at !== undefined && !(Date.parse(at) > Date.now());
  };
  exec.getCredential = async (user) => {
    const hit = cache.get(user.name);
    if (hit) {
      const credential = await hit.catch(() => null);
      if (credential && !expired(credential)) return credential;
    }
    const next = run(user);
    cache.set(user.name, next);
    next.catch(() => cache.delete(user.name)); // a failed run is retried on the next request
    return next;
  };
}

/** Every credential string in the kubeconfig (all users, not only the current one). */
function secretsOf(kc: KubeConfig): string[] {
  const out: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  for (const u of kc.getUsers()) {
    out.push(...[u.token, u.password, u.keyData].filter((s): s is string => !!s));
    if (u.keyData) out.push(Buffer.from(u.keyData, 'base64').toString('utf8'));
    collect((u.authProvider as { config?: unknown } | undefined)?.config);
    collect((u.exec as { env?: unknown } | undefined)?.env);
  }
  return out;
}

function stripUserinfo(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}
