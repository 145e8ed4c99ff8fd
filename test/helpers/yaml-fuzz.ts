/**
 * Generated manifests for the loaders' differential test: Kubernetes-shaped documents (so the loader reads them
 * into objects, with `raw`, `paths` and typed fields) whose bodies use the YAML a repository may hold: block and
 * flow styles, every quoting style and block scalar, anchors, aliases and merge keys, comments at every
 * indentation, blank lines, empty values, YAML 1.1 scalars; then random edits of that text (characters and lines
 * inserted, deleted, re-indented), CRLF line ends, a BOM, tabs. Deterministic for a seed.
 */
export class Random {
  constructor(private state: number) {}

  /** Uniform in [0, 1) (mulberry32). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

const WORDS = ['web', 'api', 'db', 'cache', 'http', 'metrics', 'grpc', 'worker', 'a', 'b', 'x1', 'TCP', 'UDP', 'NodePort', 'ClusterIP'];
const PLAIN = ['80', '8080', '30080', '31123', 'yes', 'no', 'on', 'Off', 'true', 'False', '~', 'null', 'Null', '', '0x1F', '0o17', '017', '0b101', '1_000', '3.5', '1e3', '.inf', '-.Inf', '.nan', '2024-01-02', '12:30:45', '+12', '-7', '0', 'y', 'n', 'N', 'foo bar', 'a:b', 'http://x/y?z=1#frag', 'x#y', '%x', '-1', '1.', '.5', '190:20:30', '<<'];
const QUOTED = ['a: b', '# not a comment', "it's", 'tab\there', 'line\nbreak', 'ünïcödé', '80', 'yes', '', ' lead', 'trail ', '"q"', 'back\\slash', '{{ .Values.x }}', '*notalias', '&notanchor'];

interface Ctx {
  anchors: string[];
  depth: number;
  serial: number;
}

/** One random scalar as YAML text for a value position at `indent`. */
function scalar(r: Random, indent: number, ctx: Ctx, flow: boolean): string {
  const kind = r.int(10);
  if (kind < 4) return r.pick(PLAIN.filter((p) => p !== '' || !flow)) || r.pick(WORDS);
  if (kind < 5) return r.pick(WORDS);
  if (kind < 6) return `'${r.pick(QUOTED).replace(/'/g, "''").replace(/\n/g, ' ')}'`;
  if (kind < 7) return JSON.stringify(r.pick(QUOTED)).replace('\\t', r.chance(0.5) ? '\\t' : '\\u0009');
  if (kind < 8 && ctx.anchors.length) return `*${r.pick(ctx.anchors)}`;
  if (kind < 9 && !flow) {
    const pad = ' '.repeat(indent + 2);
    const header = r.pick(['|', '>', '|-', '>-', '|+', '>+', '|2', '| # c']);
    const lines = Array.from({ length: 1 + r.int(3) }, (_, i) => (r.chance(0.2) ? '' : `${i === 1 && r.chance(0.3) ? '  ' : ''}${r.pick(WORDS)} ${r.pick(PLAIN)}`));
    const trail = r.chance(0.4) ? '\n' : '';
    return `${header}\n${lines.map((l) => (l ? pad + l : r.chance(0.5) ? '' : pad)).join('\n')}${trail}`;
  }
  if (!flow && r.chance(0.5)) return `${r.pick(WORDS)}\n${' '.repeat(indent + 2)}${r.pick(WORDS)}`;
  return r.pick(WORDS);
}

/** `&name ` or ''; the name is usable by aliases once {@link settle}d (after its node: no alias inside its own anchor). */
function anchor(r: Random, ctx: Ctx): string {
  if (!r.chance(0.12)) return '';
  return `&${r.pick(['a', 'base', 'p', 'x'])}${ctx.serial++} `;
}

function settle(ctx: Ctx, anchored: string): void {
  if (anchored.trim()) ctx.anchors.push(anchored.trim().slice(1));
}

function comment(r: Random, indent: number): string {
  return r.chance(0.15) ? `${' '.repeat(Math.max(0, indent + r.pick([-2, 0, 0, 2, 4])))}# ${r.pick(WORDS)}\n` : '';
}

function flowValue(r: Random, ctx: Ctx): string {
  if (ctx.depth > 3 || r.chance(0.5)) return scalar(r, 0, ctx, true);
  ctx.depth++;
  const n = r.int(4);
  const sep = r.pick([', ', ',', ' , ', ',\n    ']);
  const out = r.chance(0.5)
    ? `[${Array.from({ length: n }, () => flowValue(r, ctx)).join(sep)}${r.chance(0.1) ? ',' : ''}]`
    : `{${Array.from({ length: n }, (_, i) => `${r.pick(WORDS)}${i}: ${flowValue(r, ctx)}`).join(sep)}}`;
  ctx.depth--;
  return out;
}

/** A block mapping body at `indent` (lines, each ending in a line break). */
function blockMap(r: Random, indent: number, ctx: Ctx, keys = 1 + r.int(4), inline = false): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (let i = 0; i < keys; i++) {
    // The first key of a map after `- ` starts on that line.
    if (!inline || i > 0) {
      out += comment(r, indent);
      if (r.chance(0.08)) out += r.chance(0.5) ? '\n' : `${pad}  \n`;
    }
    const key = r.chance(0.1) ? JSON.stringify(`${r.pick(WORDS)}-${i}`) : r.chance(0.04) && ctx.anchors.length ? '<<' : `${r.pick(WORDS)}${i}`;
    out += `${pad}${key}:${value(r, indent, ctx, key === '<<')}`;
  }
  return out;
}

/** `: value` continued: a space and an inline value, or a nested block on the next lines. */
function value(r: Random, indent: number, ctx: Ctx, merge = false): string {
  const trailing = r.chance(0.12) ? ` # ${r.pick(WORDS)}` : '';
  if (merge) return ` *${r.pick(ctx.anchors)}${trailing}\n`;
  const kind = ctx.depth > 4 ? 0 : r.int(10);
  const a = anchor(r, ctx);
  let out: string;
  if (kind < 4) {
    const v = scalar(r, indent, ctx, false);
    out = ` ${v.startsWith('*') ? '' : a}${v}${trailing}\n`;
  }
  else if (kind < 5) out = r.chance(0.5) ? `${trailing}\n` : ` ${a}${trailing}\n`;
  else if (kind < 6) {
    const v = flowValue(r, ctx);
    out = ` ${v.startsWith('*') ? '' : a}${v}${trailing}\n`;
  }
  else {
    ctx.depth++;
    const head = `${a ? ` ${a.trim()}` : ''}${trailing}\n${comment(r, indent + 2)}`;
    out = kind < 8 ? head + blockMap(r, indent + 2, ctx) : head + blockSeq(r, r.chance(0.5) ? indent : indent + 2, ctx);
    ctx.depth--;
    out += comment(r, indent + r.pick([0, 2, 4]));
  }
  settle(ctx, a);
  return out;
}

function blockSeq(r: Random, indent: number, ctx: Ctx): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (let i = 0, n = 1 + r.int(3); i < n; i++) {
    out += comment(r, indent);
    if (r.chance(0.5) && ctx.depth < 5) {
      ctx.depth++;
      const body = blockMap(r, indent + 2, ctx, 1 + r.int(4), true);
      ctx.depth--;
      out += `${pad}- ${body.slice(indent + 2)}`;
    } else out += `${pad}-${value(r, indent, ctx)}`;
  }
  return out;
}

function ports(r: Random, indent: number): string {
  const pad = ' '.repeat(indent);
  const items = Array.from({ length: 1 + r.int(2) }, (_, i) => {
    const fields = [`containerPort: ${8000 + i}`, `hostPort: ${r.pick(['31123', '8080', '0', '"80"', 'x'])}`, `name: p${i}`, 'protocol: TCP'].filter((_, j) => j < 2 || r.chance(0.5));
    if (r.chance(0.3)) fields.reverse();
    if (r.chance(0.3)) return `${pad}- {${fields.join(', ')}}${r.chance(0.2) ? ' # c' : ''}\n`;
    return fields.map((f, j) => `${pad}${j === 0 ? '- ' : '  '}${f}${r.chance(0.1) ? ' # c' : ''}\n${r.chance(0.1) ? `${pad}    # deeper\n` : ''}`).join('');
  });
  return items.join('');
}

/** The apiVersion of each built-in kind the generator writes. */
const BUILTIN_VERSIONS: Readonly<Record<string, string>> = { ConfigMap: 'v1', Service: 'v1', Pod: 'v1', Deployment: 'apps/v1', DaemonSet: 'apps/v1' };

/** One Kubernetes-shaped document (without `---`). */
export function manifest(r: Random, n: number): string {
  const ctx: Ctx = { anchors: [], depth: 0, serial: 0 };
  const lead = comment(r, 0);
  const version = r.pick(['v1', 'apps/v1', 'example.com/v1']);
  const kind = r.pick(['ConfigMap', 'Deployment', 'Service', 'Widget', 'DaemonSet', 'Pod']);
  // A built-in kind under a built-in group takes its own group's version (kubectl refuses `v1` Deployments); a
  // custom group, or a custom kind, keeps what was drawn.
  const head = `${lead}apiVersion: ${version === 'example.com/v1' ? version : BUILTIN_VERSIONS[kind] ?? version}\n`;
  const labelsAnchor = anchor(r, ctx);
  const meta = r.chance(0.3) ? `metadata: {name: obj-${n}, labels: {app: ${r.pick(WORDS)}}}\n` : `metadata:\n  name: obj-${n}\n  labels: ${labelsAnchor}\n    app: web\n${comment(r, 2)}`;
  settle(ctx, labelsAnchor);
  let body: string;
  if (kind === 'Deployment' || kind === 'DaemonSet' || kind === 'Pod') {
    const podIndent = kind === 'Pod' ? 2 : 6;
    const spec = `${' '.repeat(podIndent - 2)}${kind === 'Pod' ? 'spec' : 'spec'}:\n${' '.repeat(podIndent)}hostNetwork: ${r.pick(['true', 'yes', 'false', '"true"'])}\n${' '.repeat(podIndent)}containers:\n${' '.repeat(podIndent)}- name: c\n${' '.repeat(podIndent)}  image: ${r.pick(WORDS)}\n${' '.repeat(podIndent)}  ports:\n${ports(r, podIndent + 2)}${r.chance(0.5) ? blockMap(r, podIndent + 2, ctx, 1) : ''}`;
    body = kind === 'Pod' ? spec : `spec:\n  replicas: ${r.pick(['1', '2', '"3"', 'x'])}\n  template:\n    metadata:\n      labels: {app: web}\n${spec}`;
  } else if (kind === 'Service') {
    body = `spec:\n  type: ${r.pick(['NodePort', 'ClusterIP', 'LoadBalancer'])}\n  selector: {app: web}\n  ports:\n${r.chance(0.5) ? '  - {port: 80, nodePort: 30080}\n' : '  - port: 80\n    nodePort: 30080\n    targetPort: http\n'}${blockMap(r, 2, ctx, r.int(2))}`;
  } else body = r.chance(0.5) ? `data:\n${blockMap(r, 2, ctx)}` : blockMap(r, 0, ctx, 1 + r.int(3));
  return head + `kind: ${kind}\n` + meta + body;
}

const EDIT_CHARS = [' ', ' ', '\n', ':', '-', '#', '"', "'", '[', ']', '{', '}', ',', '&', '*', '|', '>', '\t', 'x', '?', '!', '%', '\r'];

/** `text` after a few random edits: characters and lines inserted, deleted, re-indented. */
export function mutate(r: Random, text: string): string {
  let out = text;
  for (let i = 0, n = 1 + r.int(3); i < n; i++) {
    const at = r.int(out.length + 1);
    const lineStart = out.lastIndexOf('\n', at - 1) + 1;
    const lineEnd = out.indexOf('\n', at) === -1 ? out.length : out.indexOf('\n', at) + 1;
    switch (r.int(6)) {
      case 0:
        out = out.slice(0, at) + r.pick(EDIT_CHARS) + out.slice(at);
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at + 1);
        break;
      case 2:
        out = out.slice(0, lineEnd) + out.slice(lineStart, lineEnd) + out.slice(lineEnd);
        break;
      case 3:
        out = out.slice(0, lineStart) + out.slice(lineEnd);
        break;
      case 4:
        out = out.slice(0, lineStart) + ' '.repeat(1 + r.int(2)) + out.slice(lineStart);
        break;
      default:
        out = out.slice(0, lineStart) + out.slice(lineStart).replace(/^ {1,2}/, '');
    }
  }
  return out;
}

/** A whole file: 1–4 documents, `---` separators (with comments between), sometimes CRLF, a BOM, tabs or edits. */
export function manifestFile(r: Random, n: number): string {
  const docs = Array.from({ length: 1 + r.int(4) }, (_, i) => manifest(r, n * 10 + i));
  let text = (r.chance(0.3) ? '---\n' : '') + docs.map((d, i) => (i === 0 ? d : `${r.pick(['---\n', '---\n# Source: x\n', '\n---\n', '--- # doc\n'])}${d}`)).join('');
  if (r.chance(0.05)) text += '---\n';
  if (r.chance(0.35)) text = mutate(r, text);
  if (r.chance(0.05)) text = text.replace(/\n/g, '\r\n');
  if (r.chance(0.02)) text = `\uFEFF${text}`;
  if (r.chance(0.03)) text = text.replace(/\n {2}/, '\n\t');
  if (r.chance(0.05)) text = text.replace(/\n$/, '');
  return text;
}
