/**
 * Messages of the node-port map view: the custom LSP request and notification between the language server and
 * the VS Code client, and the messages between the client and its webview. Plain types, method names and
 * validators only (no LSP, vscode or DOM dependency), so the server, the client and the webview script all
 * compile it. Everything that crosses into or out of the webview is checked with the validators here: the
 * webview only trusts what `parseHostMessage` accepts, the client only acts on what `parseViewMessage` accepts.
 */
import type { ClaimJson, PortMapDocument } from '../core/port-map/document';

/** Client → server request (no params): the port map of every workspace folder. */
export const PORT_MAP_REQUEST = 'kubeNetlint/portMap';

/** Server → client notification after every analysis run that changed some folder's analysis (params: {@link PortMapChangedParams}). */
export const PORT_MAP_CHANGED_NOTIFICATION = 'kubeNetlint/portMapChanged';

export interface PortMapChangedParams {
  /** Increases with every change; a client re-requests the map when it is newer than what it shows. */
  readonly version: number;
}

/** One workspace folder's port map. */
export interface PortMapFolder {
  /** The folder's name (its last path segment), `files outside the workspace folders` for loose documents. */
  readonly name: string;
  readonly uri: string;
  readonly document: PortMapDocument;
}

/** Result of {@link PORT_MAP_REQUEST}. */
export interface PortMapResponse {
  readonly version: number;
  readonly folders: readonly PortMapFolder[];
}

/** Command that opens the view (contributed in package.json), optionally on one port: `{port, uri?}`. */
export const SHOW_PORTS_COMMAND = 'kubeNetlint.showPorts';

/** The argument of {@link SHOW_PORTS_COMMAND} (from the hover's link). */
export interface ShowPortsArgs {
  readonly port?: number;
  /** The document the hover was in: the view shows that file's folder. */
  readonly uri?: string;
}

/** `command:kubeNetlint.showPorts?…` for a hover link to `port`, as VS Code expects command URIs (JSON array of arguments). */
export function showPortsCommandUri(args: ShowPortsArgs): string {
  return `command:${SHOW_PORTS_COMMAND}?${encodeURIComponent(JSON.stringify([args]))}`;
}

// ---- client ↔ webview ---------------------------------------------------------------------------------------

/** Client → webview. */
export type HostMessage =
  | { readonly type: 'portMap'; readonly response: PortMapResponse }
  | { readonly type: 'focus'; readonly port: number; readonly folderUri?: string }
  | { readonly type: 'status'; readonly text: string };

/** Webview → client. */
export type ViewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'open'; readonly folder: number; readonly group: number; readonly claim: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const isPort = (v: unknown): v is number => isInt(v, 1, 65535);
const isStr = (v: unknown, max = 100_000): v is string => typeof v === 'string' && v.length <= max;
const isStrOrNull = (v: unknown): boolean => v === null || isStr(v);
const isArray = (v: unknown, max = 1_000_000): v is unknown[] => Array.isArray(v) && v.length <= max;

/** A message from the webview, or undefined when it is not one the client handles (wrong shape, out-of-range numbers). */
export function parseViewMessage(data: unknown): ViewMessage | undefined {
  if (!isObject(data)) return undefined;
  if (data.type === 'ready' && Object.keys(data).length === 1) return { type: 'ready' };
  if (data.type === 'open' && isInt(data.folder, 0, 10_000) && isInt(data.group, 0, 10_000) && isInt(data.claim, 1, 10_000_000)) {
    return { type: 'open', folder: data.folder, group: data.group, claim: data.claim };
  }
  return undefined;
}

function isLink(v: unknown): boolean {
  return isObject(v) && isStr(v.uri, 10_000) && /^[a-z][a-z0-9+.-]*:/i.test(v.uri) && isInt(v.line) && isInt(v.character) && isInt(v.endLine) && isInt(v.endCharacter);
}

function isClaim(v: unknown): v is ClaimJson {
  if (!isObject(v)) return false;
  const owner = v.owner;
  const nodes = v.nodes;
  const location = v.location;
  return isInt(v.id, 1) && isPort(v.port) && isStr(v.protocol, 10) && isStr(v.kind, 40)
    && (owner === null || (isObject(owner) && isStr(owner.kind) && isStr(owner.namespace) && isStr(owner.name)))
    && isStrOrNull(v.component) && isStrOrNull(v.container) && isStrOrNull(v.portName) && isStrOrNull(v.hostIP) && isStrOrNull(v.address)
    && (location === null || (isObject(location) && isStr(location.file) && (location.line === null || isInt(location.line, 1))))
    && (v.rendered === undefined || v.rendered === null || (isObject(v.rendered) && isStr(v.rendered.file) && isInt(v.rendered.line, 1) && isStr(v.rendered.render)))
    && isObject(nodes) && isStr(nodes.scope, 40) && isStr(nodes.text) && (nodes.names === null || (isArray(nodes.names) && nodes.names.every((n) => isStr(n))))
    && isStrOrNull(v.inactive) && isStrOrNull(v.uncertain)
    && isArray(v.collisions) && v.collisions.every((c) => isObject(c) && isStr(c.rule, 200) && isStr(c.severity, 20) && isStr(c.message) && isArray(c.with) && c.with.every((w) => isInt(w, 1))
      && isArray(c.others) && c.others.every((o) => isObject(o) && isStr(o.file) && isStr(o.message)))
    && (v.link === undefined || isLink(v.link));
}

function isDocument(v: unknown): v is PortMapDocument {
  if (!isObject(v) || v.version !== 1 || !isArray(v.clusterGroups)) return false;
  return v.clusterGroups.every((g) => isObject(g) && isStr(g.name, 1000)
    && isObject(g.nodePortRange) && isPort(g.nodePortRange.min) && isPort(g.nodePortRange.max) && isStr(g.nodePortRange.source)
    && isArray(g.ports) && g.ports.every((p) => isObject(p) && isPort(p.port) && isStrOrNull(p.collision) && isArray(p.claims) && p.claims.every(isClaim))
    && isArray(g.bands) && g.bands.every((b) => isObject(b) && (b.band === 'static' || b.band === 'dynamic') && isPort(b.min) && isPort(b.max)
      && isInt(b.size) && isInt(b.used) && isInt(b.allocated) && isInt(b.free) && typeof b.fill === 'number'
      && isArray(b.freeIntervals) && b.freeIntervals.every((i) => isObject(i) && isPort(i.min) && isPort(i.max)))
    && isObject(g.automatic) && isInt(g.automatic.nodePorts) && isInt(g.automatic.healthCheckNodePorts));
}

/** True when `v` has the shape of a {@link PortMapResponse} (every field the view reads, with its type). */
export function isPortMapResponse(v: unknown): v is PortMapResponse {
  return isObject(v) && isInt(v.version) && isArray(v.folders, 1000)
    && v.folders.every((f) => isObject(f) && isStr(f.name, 1000) && isStr(f.uri, 10_000) && isDocument(f.document));
}

/** A message from the client, or undefined when the webview must ignore it. */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  if (!isObject(data)) return undefined;
  if (data.type === 'portMap' && isPortMapResponse(data.response)) return { type: 'portMap', response: data.response };
  if (data.type === 'focus' && isPort(data.port) && (data.folderUri === undefined || isStr(data.folderUri, 10_000))) {
    return { type: 'focus', port: data.port, folderUri: data.folderUri as string | undefined };
  }
  if (data.type === 'status' && isStr(data.text, 1000)) return { type: 'status', text: data.text };
  return undefined;
}
