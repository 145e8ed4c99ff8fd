import type { Document } from 'yaml';

/** A Terraform template directive at the start of a line: `%{ for x in xs ~}`, `%{ if … }`, `%{ endfor }`. */
const DIRECTIVE = /^[ \t]*%\{~?[ \t]*(for|if|else|endfor|endif)\b/m;
/** An interpolation `${var.port}` (not `$${`, Terraform's escape). */
const INTERPOLATION = /(^|[^$])\$\{[^}\n]*\}/;

/**
 * Where a file is a Terraform `templatefile()` source rather than YAML data: it has template directives
 * (`%{ for … }` lines, which YAML reads as broken `%` directives), or `${…}` interpolations where the YAML
 * parser then fails. `${…}` inside values that parse (`image: ${image}`) does not make a template: such
 * files are still manifests, with a literal string value. Returns the offset of the first directive or
 * interpolation, or undefined. Source: https://developer.hashicorp.com/terraform/language/expressions/strings
 * (Interpolation, Directives).
 */
export function terraformTemplateAt(text: string, docs: readonly Document.Parsed[]): number | undefined {
  const directive = text.includes('%{') ? DIRECTIVE.exec(text) : null;
  if (directive) return directive.index + directive[0].indexOf('%');
  if (!docs.some((d) => d.errors.length > 0)) return undefined;
  const interpolation = INTERPOLATION.exec(text);
  return interpolation ? interpolation.index + interpolation[1].length : undefined;
}

/**
 * The kube-proxy mode a skipped template states in a `--proxy-mode` flag, for the message only (the template is
 * not read, so the mode is not taken from it): undefined when it names none.
 */
export function statedProxyMode(text: string): string | undefined {
  return /--proxy-mode[= ]"?(iptables|ipvs|nftables)\b/.exec(text)?.[1];
}
