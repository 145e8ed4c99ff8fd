import { Document, isScalar, visit } from 'yaml';
import { LoadedFile, loadFile } from '../load/load-file';
import { escapeForTerminal } from '../output/escape-text';
import { CLUSTER_SCOPED_KINDS, K8sObject } from './objects';
import { QUIET } from '../load/parse-options';

/**
 * Converts objects read from a live cluster (the JSON the API server returns, as `kubectl get -o json`
 * prints it) into the same typed model the YAML loader produces, so every rule sees cluster objects
 * and workspace objects alike. Pure data: no I/O, no client library.
 *
 * Each object is written once as the YAML its read-only view shows (`# cluster:… (read-only: live cluster
 * object)`, then the object as `kubectl get -o yaml` would print it) and that text is read by the normal
 * loader: every span, path and typed field of a cluster object points into the exact text the editor shows,
 * so a finding's squiggle, a related location or a port-map link lands on the field (a nodePort value), not
 * on the first line. The text lives in a virtual file `cluster:<context>/<kind>/<namespace>/<name>`
 * (`cluster:<context>/<kind>/<name>` for cluster-scoped kinds).
 */

type Json = Record<string, unknown>;

/** Annotations dropped from `raw` (and the view): large, and read by no rule. */
const DROPPED_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

/** The virtual file name of a cluster object. */
export function clusterFile(context: string, kind: string, namespace: string, name: string): string {
  return namespace ? `cluster:${context}/${kind}/${namespace}/${name}` : `cluster:${context}/${kind}/${name}`;
}

/** The first line of a cluster object's read-only view (control and bidi characters of the name escaped: a comment must stay one line). */
export function clusterViewHeader(file: string): string {
  return `# ${escapeForTerminal(file)} (read-only: live cluster object)\n`;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObj(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Converts one API object into its read-only view: a {@link LoadedFile} of the virtual file
 * `cluster:<context>/…` whose text is the view's text and whose only object is the API object, with origin
 * `{type: 'cluster', context}` and spans into that text.
 * @param json the object as the API returns it (Dates as ISO strings); `kind`/`apiVersion` may be
 *   missing on items of a typed list, so `defaults` supplies them
 * @returns undefined when the value is not an object with a kind, apiVersion and metadata.name
 */
export function clusterObjectFile(json: unknown, context: string, defaults: { kind?: string; apiVersion?: string } = {}): LoadedFile | undefined {
  if (!isObj(json)) return undefined;
  const kind = str(json.kind) ?? defaults.kind;
  const apiVersion = str(json.apiVersion) ?? defaults.apiVersion;
  const metadata = obj(json.metadata);
  const name = str(metadata.name);
  if (!kind || !apiVersion || !name) return undefined;
  const namespace = CLUSTER_SCOPED_KINDS.has(kind) ? '' : str(metadata.namespace) || 'default';
  const file = clusterFile(context, kind, namespace, name);
  // apiVersion and kind first, as kubectl prints objects.
  const raw = cleanRaw({ apiVersion, kind, ...json });
  Object.assign(raw, { apiVersion, kind });
  // Block scalars read best (a kube-proxy config.conf); should `yaml` write one that reads back differently
  // (whitespace-only lines), or a block line look like a template directive, every string is written quoted on one line.
  for (const style of [{}, { blockQuote: false, lineWidth: 0 }]) {
    const loaded = loadFile(file, clusterViewHeader(file) + yamlOf(raw, style));
    const object = loaded.objects.length === 1 ? loaded.objects[0] : undefined;
    if (!object || !sameJson(object.raw, raw)) continue;
    const cluster: K8sObject = { ...object, origin: { type: 'cluster', context } };
    return { ...loaded, objects: [cluster], problems: [] };
  }
  return undefined;
}

/**
 * Converts one API object into a {@link K8sObject} with origin `{type: 'cluster', context}` (the object of
 * {@link clusterObjectFile}).
 */
export function fromApiObject(json: unknown, context: string, defaults: { kind?: string; apiVersion?: string } = {}): K8sObject | undefined {
  return clusterObjectFile(json, context, defaults)?.objects[0];
}

/**
 * The object as YAML 1.1 (what the loader reads: `yes`, `0755` or `2024-01-01` strings come out quoted). A `<<`
 * key is tagged `!!str` so it is not read back as a merge key.
 */
function yamlOf(raw: Json, style: { blockQuote?: boolean; lineWidth?: number }): string {
  const doc = new Document(raw, { ...QUIET, version: '1.1', aliasDuplicateObjects: false });
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === '<<') pair.key.tag = 'tag:yaml.org,2002:str';
    },
  });
  return doc.toString(style);
}

/** Deep equality of JSON values (key order ignored; a key holding undefined is absent, as in JSON). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const keys = (o: object): string[] => Object.keys(o).filter((k) => (o as Json)[k] !== undefined);
  const ka = keys(a);
  if (ka.length !== keys(b).length) return false;
  return ka.every((k) => sameJson((a as Json)[k], (b as Json)[k]));
}

/** A copy without managedFields, node image lists and last-applied-configuration (bulk no rule reads). */
function cleanRaw(json: Json): Json {
  const metadata = { ...obj(json.metadata) };
  delete metadata.managedFields;
  if (isObj(metadata.annotations)) {
    const annotations = { ...metadata.annotations };
    for (const a of DROPPED_ANNOTATIONS) delete annotations[a];
    metadata.annotations = annotations;
  }
  const out: Json = { ...json, metadata };
  if (json.kind === 'Node' && isObj(json.status)) {
    const status = { ...json.status };
    delete status.images;
    out.status = status;
  }
  return out;
}
