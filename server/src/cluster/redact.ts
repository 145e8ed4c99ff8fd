/**
 * Keeps credentials out of messages: every status line, log line and error this adapter produces goes
 * through {@link Redactor.redact}, which replaces each credential string of the loaded kubeconfig
 * (tokens, passwords, client keys, auth-provider and exec secrets) with `[redacted]`.
 */
export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: readonly (string | undefined)[]) {
    // Short strings would redact ordinary words; real credentials are long.
    this.secrets = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8))].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join('[redacted]');
    // Bearer tokens and PEM keys never appear in our messages; strip any that a library put there.
    return out
      .replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
      .replace(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '[redacted private key]');
  }
}
