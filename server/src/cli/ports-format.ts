import { escapeForTerminal } from '../core/output/escape-text';
import type { BandJson, ClaimJson, PortMapDocument, PortMapGroupJson } from '../core/port-map/document';

/** Free intervals a text or Markdown report lists per band before "and N more" (the JSON lists all). */
export const FREE_INTERVALS_SHOWN = 8;

/** The columns of the port table, in order (text and Markdown). */
export const PORT_COLUMNS = ['PORT', 'PROTO', 'CLAIM', 'OWNER', 'LOCATION', 'NODES', 'COLLISION'] as const;

/** `hostPort`, `hostPort on 192.0.2.1`, `externalIP 192.0.2.18`, `component kubelet API`. */
export function claimText(c: ClaimJson): string {
  if (c.kind === 'externalIP') return `externalIP ${c.address}`;
  if (c.kind === 'component') return `component ${c.component}`;
  const hostIP = c.hostIP && c.hostIP !== '0.0.0.0' ? ` on ${c.hostIP}` : '';
  return `${c.kind}${hostIP}`;
}

/** `Service streaming/broker-lb (port client)`, `StatefulSet streaming/broker (container broker)`, `-`. */
export function ownerText(c: ClaimJson): string {
  if (!c.owner) return '-';
  const name = c.owner.namespace ? `${c.owner.kind} ${c.owner.namespace}/${c.owner.name}` : `${c.owner.kind} ${c.owner.name}`;
  const detail = c.container ? ` (container ${c.container})` : c.portName ? ` (port ${c.portName})` : '';
  // A workload's own declared port of a node component says which component it is.
  const component = c.component && c.kind !== 'component' ? ` = ${c.component}` : '';
  return `${name}${detail}${component}`;
}

/** `streaming/broker-lb.yaml:11`, `cluster:prod/Service/shop/web`, `-`. */
export function locationText(c: ClaimJson): string {
  if (!c.location) return '-';
  return c.location.line === null ? c.location.file : `${c.location.file}:${c.location.line}`;
}

/** `every node`, `none (…)`, with `(may not run: …)` for uncertain component ports. */
export function nodesText(c: ClaimJson): string {
  if (c.inactive) return `none: ${c.inactive}`;
  return c.uncertain ? `${c.nodes.text} (${c.uncertain})` : c.nodes.text;
}

/** `error host-port-conflicts-healthcheck-nodeport`, several joined by `, `; `-` when none. */
export function collisionText(c: ClaimJson): string {
  return c.collisions.length ? c.collisions.map((x) => `${x.severity} ${x.rule}`).join(', ') : '-';
}

function cells(c: ClaimJson): string[] {
  return [String(c.port), c.protocol, claimText(c), ownerText(c), locationText(c), nodesText(c), collisionText(c)];
}

/** `Cluster group prod` or `Workspace (one cluster)`, with the NodePort range and where it comes from. */
function heading(g: PortMapGroupJson): string {
  const name = g.name ? `Cluster group ${g.name}` : 'Workspace (one cluster)';
  return `${name}: NodePort range ${g.nodePortRange.min}-${g.nodePortRange.max} (${rangeSource(g.nodePortRange.source)})`;
}

/** `the Kubernetes default`, `nodePortRange in .kube-netlint.yaml`, `kube-apiserver flag in Pod kube-system/kube-apiserver`. */
function rangeSource(source: string): string {
  if (source === 'default') return 'the Kubernetes default';
  return source === 'config' ? 'the config' : source;
}

function intervals(b: BandJson): string {
  if (b.freeIntervals.length === 0) return 'none';
  const text = b.freeIntervals.slice(0, FREE_INTERVALS_SHOWN).map((i) => (i.min === i.max ? `${i.min}` : `${i.min}-${i.max}`));
  const more = b.freeIntervals.length - FREE_INTERVALS_SHOWN;
  return more > 0 ? `${text.join(', ')} and ${more} more` : text.join(', ');
}

/** A band's fill: one decimal, but never "0.0%" for a band with a port used nor "100.0%" for one with a port free. */
export function percent(fill: number): string {
  const p = fill * 100;
  if (p > 0 && p < 0.05) return '<0.1%';
  if (p < 100 && p >= 99.95) return '>99.9%';
  return `${p.toFixed(1)}%`;
}

function bandLines(g: PortMapGroupJson): string[][] {
  return g.bands.map((b) => [`${b.band} band`, `${b.min}-${b.max}`, `${b.size} ports`, `${b.used} used (${percent(b.fill)})`, `${b.allocated} allocated`, `${b.free} free: ${intervals(b)}`]);
}

function automaticLine(g: PortMapGroupJson): string | undefined {
  const { nodePorts, healthCheckNodePorts } = g.automatic;
  if (!nodePorts && !healthCheckNodePorts) return undefined;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `The API server will allocate ${plural(nodePorts, 'nodePort')} and ${plural(healthCheckNodePorts, 'healthCheckNodePort')} itself (not written in the manifests), from the dynamic band first.`;
}

/**
 * Columns padded to their widest cell, two spaces apart; the last column is not padded. Cells are escaped
 * (control and bidi characters of names, paths and values shown as `\n`, `\u202e`: a name cannot forge a line).
 * Appended to `out` one line at a time: a workspace of 200,000 claims is 200,000 lines, more than a call's arguments.
 */
function table(rows: readonly (readonly string[])[], out: string[], indent = ''): void {
  const safe = rows.map((r) => r.map(escapeForTerminal));
  if (safe.length === 0) return;
  const widths = safe[0].map((_, i) => safe.reduce((w, r) => Math.max(w, r[i].length), 0));
  for (const r of safe) out.push(indent + r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
}

/**
 * The text report: per cluster group a heading, the port table (one line per claim, by port) and the NodePort
 * range's bands with their free intervals.
 */
export function formatPortsText(doc: PortMapDocument): string {
  const out: string[] = [];
  for (const g of doc.clusterGroups) {
    if (out.length) out.push('');
    out.push(escapeForTerminal(heading(g)), '');
    const rows: string[][] = [[...PORT_COLUMNS]];
    for (const p of g.ports) for (const c of p.claims) rows.push(cells(c));
    table(rows, out);
    out.push('');
    table(bandLines(g), out, '  ');
    const auto = automaticLine(g);
    if (auto) out.push(`  ${auto}`);
  }
  return out.join('\n') + '\n';
}

/**
 * A Markdown cell: Markdown punctuation escaped (a name cannot open a link, emphasis, code or HTML, nor end the
 * cell with `|`), line breaks and other control and bidi characters shown as escapes (`\n`, `\u202e`).
 */
export function md(text: string): string {
  return escapeForTerminal(text.replace(/[\\`*_[\]<>|~#&!]/g, '\\$&'));
}

/** The Markdown report: per cluster group a heading, the port table and the band table. */
export function formatPortsMarkdown(doc: PortMapDocument): string {
  const out: string[] = [];
  for (const g of doc.clusterGroups) {
    out.push(`## ${md(heading(g))}`, '');
    out.push(`| ${PORT_COLUMNS.map((c) => c.charAt(0) + c.slice(1).toLowerCase()).join(' | ')} |`, `| ${PORT_COLUMNS.map(() => '---').join(' | ')} |`);
    for (const c of g.ports.flatMap((p) => p.claims)) out.push(`| ${cells(c).map((x) => md(x === '-' ? '' : x)).join(' | ')} |`);
    out.push('', '| Band | Ports | Size | Used | Allocated | Free |', '| --- | --- | --- | --- | --- | --- |');
    for (const l of bandLines(g)) out.push(`| ${l.map(md).join(' | ')} |`);
    const auto = automaticLine(g);
    if (auto) out.push('', auto);
    out.push('');
  }
  return out.join('\n');
}

/** `--free N` as text: one port per line. */
export function formatFreeText(ports: readonly number[]): string {
  return ports.map((p) => `${p}\n`).join('');
}
