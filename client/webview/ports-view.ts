/**
 * The "Node Ports" webview: renders the node-port map the extension posts (one row per port number, claims as
 * chips coloured by kind, collisions in the error colour, a bar per NodePort band, a filter box) and asks the
 * extension to open a claim's field when a row or chip is clicked. It runs under a strict Content-Security-Policy
 * (this script by nonce, the stylesheet from the extension, nothing remote); every message from the extension
 * is checked with parseHostMessage first, and all text goes into the DOM as text (never as HTML).
 */
import type { BandJson, ClaimJson, PortMapGroupJson, PortRowJson } from '../../server/src/core/port-map/document';
import { parseHostMessage, PortMapResponse, ViewMessage } from '../../server/src/protocol/port-map-messages';

interface VsCodeApi {
  postMessage(message: ViewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

/** What survives the panel being hidden (the webview is discarded then) and every update. */
interface ViewState {
  folder: number;
  group: number;
  filter: string;
  collisionsOnly: boolean;
  focus?: number;
}

const saved = vscode.getState() as Partial<ViewState> | undefined;
const state: ViewState = {
  folder: typeof saved?.folder === 'number' ? saved.folder : 0,
  group: typeof saved?.group === 'number' ? saved.group : 0,
  filter: typeof saved?.filter === 'string' ? saved.filter : '',
  collisionsOnly: saved?.collisionsOnly === true,
};
let response: PortMapResponse | undefined;
let statusText = 'Waiting for the language server…';
let pendingFocus: { port: number; folderUri?: string } | undefined;

/** Rows drawn at once: a workspace with thousands of claimed ports stays responsive; the filter finds the rest. */
const MAX_ROWS = 1000;

const KIND_LABELS: Record<string, string> = {
  nodePort: 'nodePort', healthCheckNodePort: 'healthCheckNodePort', hostPort: 'hostPort', hostNetwork: 'hostNetwork', externalIP: 'externalIP', component: 'component',
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string | undefined)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined) e.append(c);
  return e;
}

function save(): void {
  vscode.setState({ ...state, focus: undefined });
}

function ownerText(c: ClaimJson): string {
  if (!c.owner) return c.component ?? '';
  const name = c.owner.namespace ? `${c.owner.kind} ${c.owner.namespace}/${c.owner.name}` : `${c.owner.kind} ${c.owner.name}`;
  return c.container ? `${name} (container ${c.container})` : c.portName ? `${name} (port ${c.portName})` : name;
}

function locationText(c: ClaimJson): string {
  if (!c.location) return '';
  const file = c.location.file.split(/[\\/]/).pop() ?? c.location.file;
  return c.location.line === null ? c.location.file : `${file}:${c.location.line}`;
}

function claimLabel(c: ClaimJson): string {
  if (c.kind === 'externalIP') return `externalIP ${c.address ?? ''}`;
  if (c.kind === 'component') return c.component ?? 'component';
  return c.hostIP && c.hostIP !== '0.0.0.0' ? `${KIND_LABELS[c.kind] ?? c.kind} on ${c.hostIP}` : KIND_LABELS[c.kind] ?? c.kind;
}

/** The text a filter is matched against: port, protocol, kind, owner, component, file, nodes, rules. */
function searchText(row: PortRowJson): string {
  return [String(row.port), ...row.claims.flatMap((c) => [c.protocol, c.kind, ownerText(c), c.component ?? '', c.location?.file ?? '', c.nodes.text, c.address ?? '', ...c.collisions.map((x) => x.rule)])].join(' ').toLowerCase();
}

function worst(row: PortRowJson): string | undefined {
  return row.collision ?? undefined;
}

function open(group: number, claim: ClaimJson): void {
  if (!claim.link) return;
  vscode.postMessage({ type: 'open', folder: state.folder, group, claim: claim.id });
}

function chip(group: number, c: ClaimJson): HTMLElement {
  const collides = c.collisions.length > 0;
  const severity = collides ? (c.collisions.some((x) => x.severity === 'error') ? 'error' : 'warning') : '';
  const classes = ['chip', `kind-${c.kind}`, collides ? `collides ${severity}` : '', c.inactive ? 'inactive' : '', c.link ? 'linked' : ''].filter(Boolean).join(' ');
  const tooltip = [
    `${claimLabel(c)} ${c.port}/${c.protocol}`,
    ownerText(c),
    c.location ? (c.location.line === null ? c.location.file : `${c.location.file}:${c.location.line}`) : '',
    `Nodes: ${c.inactive ? `none — ${c.inactive}` : c.nodes.text}`,
    c.uncertain ? `May not run: ${c.uncertain}` : '',
    ...c.collisions.map((x) => `${x.severity} ${x.rule}: ${x.message}`),
  ].filter(Boolean).join('\n');
  const location = locationText(c);
  const button = el('button', { class: classes, type: 'button', title: tooltip, 'data-claim': String(c.id), 'data-kind': c.kind },
    el('span', { class: 'chip-head' },
      el('span', { class: 'chip-kind' }, claimLabel(c)),
      el('span', { class: 'chip-proto' }, c.protocol),
      c.owner ? el('span', { class: 'chip-owner' }, ownerText(c)) : undefined),
    el('span', { class: 'chip-sub' },
      el('span', { class: 'chip-nodes' }, c.inactive ? 'no port taken' : c.nodes.text),
      location ? el('span', { class: 'chip-location' }, location) : undefined),
  );
  if (!c.link) button.setAttribute('aria-disabled', 'true');
  button.addEventListener('click', (e) => {
    e.stopPropagation();
    open(group, c);
  });
  return button;
}

function rowElement(group: number, row: PortRowJson): HTMLTableRowElement {
  const severity = worst(row);
  const tr = el('tr', { class: `row${severity ? ` collision-${severity}` : ''}${row.port === state.focus ? ' focused' : ''}`, 'data-port': String(row.port), tabindex: '0' });
  const messages = row.claims.flatMap((c) => c.collisions.map((x) => `${x.severity} ${x.rule}: ${x.message}`));
  const unique = [...new Set(messages)];
  tr.append(
    el('td', { class: 'port' }, String(row.port), severity ? el('span', { class: `badge ${severity}`, title: `${severity}: collision` }, severity === 'error' ? '✖' : '⚠') : undefined),
    el('td', { class: 'claims' }, el('div', { class: 'chips' }, ...row.claims.map((c) => chip(group, c))),
      ...unique.slice(0, 3).map((m) => el('div', { class: `collision-message ${severity ?? ''}`, title: m }, m)),
      unique.length > 3 ? el('div', { class: 'collision-message more' }, `… and ${unique.length - 3} more`) : undefined),
  );
  const first = row.claims.find((c) => c.link);
  const activate = (): void => {
    if (first) open(group, first);
  };
  tr.addEventListener('click', activate);
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target === tr) activate();
  });
  return tr;
}

/** One band of the NodePort range as a bar: used ports as ticks (allocator-held, other claims, collisions). */
function bandElement(g: PortMapGroupJson, b: BandJson): HTMLElement {
  const bar = el('div', { class: `band-bar ${b.band}`, role: 'img', 'aria-label': `${b.band} band ${b.min}-${b.max}: ${b.used} of ${b.size} ports used` });
  const fill = el('div', { class: 'band-fill' });
  fill.style.width = `${Math.min(100, b.fill * 100)}%`;
  bar.append(fill);
  for (const row of g.ports) {
    if (row.port < b.min || row.port > b.max) continue;
    const allocated = row.claims.some((c) => (c.kind === 'nodePort' || c.kind === 'healthCheckNodePort') && !c.inactive);
    const tick = el('div', { class: `tick${allocated ? ' allocated' : ' other'}${row.collision ? ` collision-${row.collision}` : ''}`, title: `${row.port}: ${row.claims.map((c) => `${claimLabel(c)} ${ownerText(c)}`).join(', ')}` });
    tick.style.left = `${((row.port - b.min) / b.size) * 100}%`;
    tick.style.width = `${Math.max(100 / b.size, 0.25)}%`;
    tick.addEventListener('click', () => focusPort(row.port));
    bar.append(tick);
  }
  const free = b.freeIntervals.slice(0, 6).map((i) => (i.min === i.max ? `${i.min}` : `${i.min}-${i.max}`)).join(', ') + (b.freeIntervals.length > 6 ? ` and ${b.freeIntervals.length - 6} more` : '');
  const label = el('div', { class: 'band-label' },
    el('strong', {}, `${b.band === 'static' ? 'Static' : 'Dynamic'} band ${b.min}-${b.max}`),
    ` · ${b.used} of ${b.size} used (${(b.fill * 100).toFixed(1)}%) · ${b.allocated} allocated · free: ${free || 'none'}`);
  return el('div', { class: 'band' }, label, bar);
}

/** Highlights a port's row (kept across updates until another port is focused) and scrolls to it. */
function focusPort(port: number): void {
  state.focus = port;
  const row = document.querySelector<HTMLElement>(`tr[data-port="${port}"]`);
  document.querySelectorAll('tr.focused').forEach((r) => r.classList.remove('focused'));
  if (!row) return;
  row.classList.add('focused');
  row.scrollIntoView({ block: 'center' });
  row.focus({ preventScroll: true });
}

function render(): void {
  const app = document.getElementById('app')!;
  const focused = document.activeElement?.id;
  const scrolled = window.scrollY; // an update keeps the reader's place
  app.replaceChildren();
  if (!response || response.folders.length === 0) {
    app.append(el('p', { class: 'empty' }, response ? 'No Kubernetes manifests in this workspace.' : statusText));
    return;
  }
  state.folder = Math.min(state.folder, response.folders.length - 1);
  const folder = response.folders[state.folder];
  const groups = folder.document.clusterGroups;
  state.group = Math.min(state.group, Math.max(0, groups.length - 1));
  const g = groups[state.group];

  const toolbar = el('div', { class: 'toolbar' });
  if (response.folders.length > 1) {
    const select = el('select', { id: 'folder', 'aria-label': 'Workspace folder' }, ...response.folders.map((f, i) => el('option', { value: String(i) }, f.name)));
    select.value = String(state.folder);
    select.addEventListener('change', () => { state.folder = Number(select.value); state.group = 0; save(); render(); });
    toolbar.append(select);
  }
  if (groups.length > 1) {
    const tabs = el('div', { class: 'groups', role: 'tablist', 'aria-label': 'Cluster groups' });
    groups.forEach((grp, i) => {
      const collisions = grp.ports.filter((p) => p.collision).length;
      const tab = el('button', { type: 'button', role: 'tab', class: `group${i === state.group ? ' selected' : ''}`, 'aria-selected': String(i === state.group), 'data-group': grp.name },
        grp.name, collisions ? el('span', { class: 'count error' }, String(collisions)) : undefined);
      tab.addEventListener('click', () => { state.group = i; save(); render(); });
      tabs.append(tab);
    });
    toolbar.append(tabs);
  }
  const filter = el('input', { id: 'filter', type: 'search', placeholder: 'Filter: port, owner, kind, file, node, rule', 'aria-label': 'Filter ports', spellcheck: 'false' });
  filter.value = state.filter;
  filter.addEventListener('input', () => { state.filter = filter.value; save(); renderRows(); });
  const only = el('input', { id: 'collisions-only', type: 'checkbox' });
  only.checked = state.collisionsOnly;
  only.addEventListener('change', () => { state.collisionsOnly = only.checked; save(); renderRows(); });
  toolbar.append(filter, el('label', { class: 'toggle' }, only, 'Collisions only'), el('span', { id: 'summary', class: 'summary' }));
  app.append(toolbar);

  if (!g) return;
  const range = el('div', { class: 'range' },
    el('span', {}, `${g.name ? `Cluster group ${g.name}: ` : ''}NodePort range ${g.nodePortRange.min}-${g.nodePortRange.max} (${g.nodePortRange.source === 'default' ? 'the Kubernetes default' : g.nodePortRange.source})`),
    g.automatic.nodePorts || g.automatic.healthCheckNodePorts ? el('span', { class: 'automatic' }, ` · ${g.automatic.nodePorts + g.automatic.healthCheckNodePorts} more to be allocated by the API server`) : undefined);
  const legend = el('div', { class: 'legend' }, ...Object.keys(KIND_LABELS).map((k) => el('span', { class: `chip legend-chip kind-${k}` }, el('span', { class: 'chip-kind' }, KIND_LABELS[k]))));
  app.append(range, el('div', { class: 'bands' }, ...g.bands.map((b) => bandElement(g, b))), legend);
  const table = el('table', { class: 'ports' }, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Port'), el('th', { scope: 'col' }, 'Claims'))), el('tbody', { id: 'rows' }));
  app.append(table);
  renderRows();
  if (focused === 'filter') document.getElementById('filter')?.focus();
  window.scrollTo(0, scrolled);
}

function renderRows(): void {
  const body = document.getElementById('rows');
  const g = response?.folders[state.folder]?.document.clusterGroups[state.group];
  if (!body || !g) return;
  const words = state.filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = g.ports.filter((row) => (!state.collisionsOnly || row.collision) && (words.length === 0 || words.every((w) => searchText(row).includes(w))));
  body.replaceChildren(...shown.slice(0, MAX_ROWS).map((row) => rowElement(state.group, row)));
  if (shown.length === 0) body.append(el('tr', { class: 'empty' }, el('td', { colspan: '2' }, 'No port matches the filter.')));
  if (shown.length > MAX_ROWS) body.append(el('tr', { class: 'empty' }, el('td', { colspan: '2' }, `${shown.length - MAX_ROWS} more ports: narrow the filter to see them.`)));
  const collisions = g.ports.filter((p) => p.collision).length;
  const summary = document.getElementById('summary');
  if (summary) summary.textContent = `${shown.length} of ${g.ports.length} ports · ${collisions} with collisions`;
}

function applyFocus(): void {
  if (!pendingFocus || !response) return;
  const { port, folderUri } = pendingFocus;
  const folder = folderUri ? response.folders.findIndex((f) => folderUri.startsWith(f.uri)) : -1;
  if (folder >= 0) state.folder = folder;
  const groups = response.folders[state.folder]?.document.clusterGroups ?? [];
  const group = groups.findIndex((g) => g.ports.some((p) => p.port === port));
  if (group >= 0) state.group = group;
  // A port past the rows drawn at once is shown through the filter.
  const index = groups[state.group]?.ports.findIndex((p) => p.port === port) ?? -1;
  state.filter = index >= MAX_ROWS ? String(port) : '';
  state.collisionsOnly = false;
  pendingFocus = undefined;
  save();
  render();
  focusPort(port);
}

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseHostMessage(event.data);
  if (!message) return; // not from the extension, or not a shape this view knows
  if (message.type === 'portMap') {
    response = message.response;
    render();
    applyFocus();
  } else if (message.type === 'focus') {
    pendingFocus = { port: message.port, folderUri: message.folderUri };
    applyFocus();
  } else {
    statusText = message.text;
    if (!response) render();
  }
});

render();
vscode.postMessage({ type: 'ready' });
