import type { Redactor } from './redact';
import type { ResourceSpec } from './resources';

/** The outcome of reading one resource. */
export type ResourceState = 'ok' | 'forbidden' | 'unauthorized' | 'timeout' | 'unreachable' | 'error' | 'pending';

export interface ResourceStatus {
  readonly id: string;
  readonly label: string;
  readonly state: ResourceState;
  /** Objects read (0 unless ok). */
  readonly count: number;
  /** Why it is missing, safe to show (redacted, no response headers). */
  readonly detail?: string;
}

/** Overall state: `connected` = everything read; `partial` = some lists failed; `unreachable` = none could be read. */
export type ClusterState = 'disabled' | 'connecting' | 'connected' | 'partial' | 'unreachable' | 'error';

/** What the cluster source shows the user: one line, plus per-resource detail. */
export interface ClusterStatus {
  readonly state: ClusterState;
  /** The kubeconfig context ('' when none could be chosen). */
  readonly context: string;
  /** One clear line: what was read, or what is missing and why. Never holds credentials. */
  readonly message: string;
  /** When the last successful read finished. */
  readonly lastSync?: Date;
  readonly resources: readonly ResourceStatus[];
}

interface HttpError {
  code?: unknown;
  statusCode?: unknown;
  body?: unknown;
  name?: unknown;
  type?: unknown;
  errno?: unknown;
  message?: unknown;
}

/** The `message` of a Kubernetes Status body (string or parsed), e.g. `nodes is forbidden: User "x" cannot list …`. */
function statusMessage(body: unknown): string | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** Node's TLS verification error codes: the server was reached, its certificate was not trusted. */
const TLS_TRUST_ERRORS: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_SIGNATURE_FAILURE', 'CERT_UNTRUSTED',
  'CERT_REJECTED', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * Classifies an error of a list call. Only the HTTP code, the Status message and the network error
 * code are used: client-node's ApiException message embeds response headers, which we never show.
 */
export function classifyError(err: unknown, spec: Pick<ResourceSpec, 'id' | 'label' | 'permission'>, timeoutMs: number, redactor: Redactor): ResourceStatus {
  const e = (err ?? {}) as HttpError;
  const http = typeof e.code === 'number' ? e.code : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  const base = { id: spec.id, label: spec.label, count: 0 };
  const said = statusMessage(e.body);
  if (http === 403) return { ...base, state: 'forbidden', detail: redactor.redact(`forbidden: RBAC does not allow ${spec.permission}${said ? ` (${said})` : ''}`) };
  if (http === 401) return { ...base, state: 'unauthorized', detail: 'unauthorized: the API server rejected the credentials of this context (expired token or certificate?)' };
  if (e.name === 'AbortError' || e.type === 'aborted' || e.name === 'TimeoutError') return { ...base, state: 'timeout', detail: `no answer within ${timeoutMs / 1000} s` };
  if (http !== undefined) return { ...base, state: 'error', detail: redactor.redact(`HTTP ${http}${said ? `: ${said}` : ''}`) };
  const code = typeof e.code === 'string' ? e.code : typeof e.errno === 'string' ? e.errno : undefined;
  const reason = typeof e.message === 'string' ? (/reason: (.*)$/.exec(e.message)?.[1] ?? e.message) : String(err);
  if (code && TLS_TRUST_ERRORS.has(code)) {
    // The server answered: its certificate is what failed. Saying "unreachable" sent users to the network.
    return { ...base, state: 'unreachable', detail: redactor.redact(`the server's certificate is not trusted by this context's certificate-authority (${code}: ${reason.split('\n')[0]}); check certificate-authority(-data) in the kubeconfig`) };
  }
  return { ...base, state: 'unreachable', detail: redactor.redact(`${code ? `${code}: ` : ''}${reason.split('\n')[0]}`) };
}

/** The one-line summary of a set of resource outcomes. */
export function summarize(context: string, server: string, resources: readonly ResourceStatus[], lastSync?: Date): ClusterStatus {
  const ok = resources.filter((r) => r.state === 'ok');
  const missing = resources.filter((r) => r.state !== 'ok' && r.state !== 'pending');
  const read = ok.map((r) => `${r.count} ${r.label}`).join(', ');
  const at = lastSync ? ` (synced ${lastSync.toISOString().slice(11, 19)} UTC)` : '';
  if (resources.some((r) => r.state === 'pending')) return { state: 'connecting', context, message: `cluster ${context}: connecting to ${server}…`, resources };
  if (missing.length === 0) return { state: 'connected', context, message: `cluster ${context}: read ${read}${at}`, lastSync, resources };
  // When nothing could be read and every failure is the same kind, say it once.
  const kinds = new Set(missing.map((r) => r.state));
  if (ok.length === 0 && kinds.size === 1 && (kinds.has('unreachable') || kinds.has('timeout') || kinds.has('unauthorized'))) {
    // Reached but refused (credentials, certificate) is not "unreachable": say what failed.
    const reached = kinds.has('unauthorized') || (missing[0].detail ?? '').startsWith("the server's certificate");
    return { state: 'unreachable', context, message: `cluster ${context} at ${server} ${reached ? 'cannot be read' : 'is unreachable'}: ${missing[0].detail}; analysing the workspace only`, resources };
  }
  const why = missing.map((r) => `${r.label} (${r.detail})`).join('; ');
  return {
    state: ok.length ? 'partial' : 'unreachable',
    context,
    message: `cluster ${context}: ${ok.length ? `read ${read}${at}; ` : ''}missing ${why}`,
    lastSync: ok.length ? lastSync : undefined,
    resources,
  };
}
