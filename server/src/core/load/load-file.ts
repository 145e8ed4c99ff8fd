import type { ProblemKey } from '../kubernetes/api-server/object-envelope';
import { Document, YAMLParseError } from 'yaml';
import { directiveProblem, streamDirectives } from './directives';
import { composeFromEvents } from './event-compose';
import { withoutDocumentStartBoms } from './document-boms';
import { PARSE_OPTIONS } from './parse-options';
import { LineIndex } from '../source/line-index';
import type { Span } from '../source/span';
import { type PackedPaths, PathTableBuilder } from '../source/packed-paths';
import { CLUSTER_SCOPED_KINDS, K8sObject, ObjectBase, POD_SPEC_PATHS } from '../model/objects';
import { containerHandlerPaths } from './handler-paths';
import { NodeReader } from './node-reader';
import { extractService } from './extract-service';
import { extractWorkload } from './extract-workload';
import { findLineSuppressions, LineSuppressions } from './suppressions';
import { collapseRepeatedErrors, documentReadProblem } from './document-error';
import { ListDefaults, notAnObject, readEnvelope } from './envelope-view';
import { parseDocuments } from './parse-documents';
import { JSON_STREAM_CODE, jsonStream, parseJsonStream, startsAsJson } from './json-stream';
import { documentsBeforeStop, readerStop, readerStopProblem } from './reader-stops';
import { looksLikeGoTemplate } from '../repo/go-template';
import { statedProxyMode, terraformTemplateAt } from '../repo/terraform-template';
import { RepoFileRole, repoFileRole } from '../repo/repo-files';
import type { RenderedSource } from '../render/jobs';

/** A problem found while reading a file (syntax error, alias bomb, unreadable file). Becomes a `yaml-syntax` finding. */
export interface LoadProblem {
  readonly span: Span;
  readonly message: string;
  /** `yaml`'s error code (`BAD_INDENT`, `DUPLICATE_KEY`, …) or one of ours. */
  readonly code: string;
  readonly severity: 'error' | 'warning' | 'info';
  /** True when quoting the value written at `span` fixes the problem (see EnvelopeProblem.quotable). */
  readonly quotable?: boolean;
  /** With {@link quotable}, for a map value: its key's span and the key as read (see EnvelopeProblem.key). */
  readonly key?: ProblemKey;
  /** With {@link quotable}: the end of `message` that says how to write the value (see EnvelopeProblem.advice). */
  readonly advice?: string;
}

/** One file after loading: its objects, problems and suppression comments. Plain data (no YAML nodes kept). */
export interface LoadedFile {
  readonly file: string;
  readonly text: string;
  readonly lines: LineIndex;
  readonly objects: readonly K8sObject[];
  readonly problems: readonly LoadProblem[];
  readonly suppressions: LineSuppressions;
  /** Set for kustomization files and Helm Chart.yaml files (they shape the repository layout: entry points, charts). */
  readonly role?: RepoFileRole;
  /** True for Go templates (Helm chart templates): not analysed and never reported as YAML errors. */
  readonly template?: boolean;
  /**
   * Set for a rendered manifest (the output of `kustomize build` / `helm template`, a virtual `render:` file): which
   * render made it and the source map from its offsets back to the files the user edits.
   */
  readonly render?: RenderedSource;
}

export interface LoadOptions {
  /** Namespace for objects that do not name one (default `default`). */
  readonly defaultNamespace?: string;
  /**
   * What parses the YAML (the result is the same; the differential test holds them equal): `events` (the
   * default) composes documents from js-yaml 5's event stream and leaves every file it does not fully
   * understand to `yaml` ({@link composeFromEvents}); `yaml` always uses `yaml`'s own parser.
   */
  readonly parser?: YamlParser;
  /**
   * True for a file only kustomize reads (a `resources:` member of a kustomization): kustomize reads it as YAML
   * whatever its first character, so a file starting with `{` is not decoded as kubectl's JSON stream
   * (see repo/kustomize-inputs.ts).
   */
  readonly kustomizeInput?: boolean;
  /**
   * Give each object's `paths` as {@link PackedPaths} over one table for the file (what they become when the file
   * crosses a thread boundary, see node/serialized-file.ts) instead of a `Map`: for a load worker, which only
   * serializes them, so no key string, span object or map is made per entry. Same keys, order and spans.
   */
  readonly packedPaths?: boolean;
}

export type YamlParser = 'events' | 'yaml';

/** The parser used when {@link LoadOptions.parser} is not set. */
export const DEFAULT_PARSER: YamlParser = 'events';

export { PARSE_OPTIONS };

/** Aliases one document may expand to before it is refused (yaml's own default is 100). */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses one YAML file into Kubernetes objects with source spans. Never throws: syntax errors,
 * alias bombs and broken objects become {@link LoadProblem}s: an object the API server would refuse
 * for its envelope (no apiVersion, kind or name, `spec: "x"`) becomes an `OBJECT_*` problem instead of an
 * object, a list or scalar document an info problem; a mapping with neither apiVersion nor kind (a Helm
 * values file, CI config) is not an object and is ignored silently.
 * A document with syntax errors yields no objects; the file's other documents are still read.
 * `kind: List` and `<Kind>List` documents (as `kubectl get -o yaml` writes them) yield their items.
 */
export function loadFile(file: string, text: string, options: LoadOptions = {}): LoadedFile {
  const { docs: list, streamErrors, lines } = parseFile(text, options.parser ?? DEFAULT_PARSER, options.kustomizeInput);
  const problems: LoadProblem[] = [];
  const objects: K8sObject[] = [];
  const role = repoFileRole(file, text);
  // A stop of kubectl's JSON decoder counts as a syntax error: with `{{` in the text, a Go template (`{{- if … }}` first).
  if (looksLikeGoTemplate(text, list) || (streamErrors.some((e) => e.code === (JSON_STREAM_CODE as never)) && text.includes('{{'))) {
    // Not silently: outside a Helm chart (whose Chart.yaml gets one finding instead) the file is named.
    const at = text.indexOf('{{');
    const line = lines.position(at).line;
    const problem: LoadProblem = {
      span: { file, start: at, end: at + 2 },
      message: `not analysed: Go template actions ({{ … }}, line ${line}) make this a template, not a manifest; lint the rendered output instead (e.g. helm template RELEASE CHART | kube-netlint -)`,
      code: 'FILE_TEMPLATE',
      severity: 'info',
    };
    return { ...templateFile(file, text, lines, role), problems: [problem] };
  }
  const terraform = terraformTemplateAt(text, list);
  if (terraform !== undefined) {
    const mode = statedProxyMode(text);
    const problem: LoadProblem = {
      span: { file, start: terraform, end: terraform + 2 },
      message: `not analysed: Terraform template syntax (%{ … } or \${ … }, line ${lines.position(terraform).line}) makes this a template, not a manifest; lint what templatefile() renders${mode ? `, or set kubeProxyMode: ${mode} in .kube-netlint.yaml (its --proxy-mode=${mode} is not read from the template)` : ''}`,
      code: 'FILE_TEMPLATE',
      severity: 'info',
    };
    return { ...templateFile(file, text, lines, role), problems: [problem] };
  }
  // An empty stream (no documents) may still have errors of its own.
  for (const e of streamErrors) problems.push({ span: { file, start: e.pos[0], end: e.pos[1] }, message: e.message, code: e.code, severity: 'error' });
  // kubectl stops at the first document with a `%` directive (see load/directives.ts): that document and the
  // later ones never reach the cluster, so only the documents before it are read.
  const directives = streamDirectives(text);
  for (const d of directives) problems.push(directiveProblem(file, d));
  let readable = directives.length ? directives[0].docIndex : list.length;
  // Where kubectl's own reading stops (a control character, content after `---`): it applies the documents before.
  const stop = !options.kustomizeInput && startsAsJson(text) ? undefined : readerStop(text);
  if (stop) {
    const before = documentsBeforeStop(text, list, stop);
    problems.push(readerStopProblem(file, stop, before));
    readable = Math.min(readable, before);
  }
  const pathTable = options.packedPaths ? new PathTableBuilder(file) : undefined;
  list.forEach((doc, docIndex) => {
    if (docIndex < readable) loadDocument(doc, docIndex, file, options, objects, problems, pathTable);
  });
  pathTable?.finish();
  return { file, text, lines, objects, problems, suppressions: findLineSuppressions(text, lines), ...(role ? { role } : {}) };
}

/**
 * The documents of a file, its stream errors and line index: value by value for a stream of JSON objects (see
 * {@link jsonStream}; not when `yamlOnly`), else from js-yaml's events when `parser` is `events` and the composer takes the text, else
 * from `yaml`.
 */
export function parseFile(text: string, parser: YamlParser, yamlOnly = false): { docs: Document.Parsed[]; streamErrors: readonly YAMLParseError[]; lines: LineIndex } {
  const stream = yamlOnly ? undefined : jsonStream(text);
  if (stream) return parseJsonStream(text, stream);
  // Parsed with each document's leading BOM moved out of the way (offsets unchanged); lines and spans are the text's.
  const yamlText = withoutDocumentStartBoms(text);
  if (parser === 'events') {
    const composed = composeFromEvents(yamlText);
    if (composed.docs?.length) return { docs: composed.docs, streamErrors: [], lines: LineIndex.of(text) };
  }
  // Lines from the text, not from `yaml`'s LineCounter: after some syntax errors in flow collections its lexer
  // skips blank lines, and every line number after them would be off (and differ from an edited document's).
  const { docs, streamErrors } = parseDocuments(yamlText, PARSE_OPTIONS);
  return { docs, streamErrors, lines: LineIndex.of(text) };
}

/**
 * Reads one parsed document of `file` into `objects` / `problems` (what {@link loadFile} does for each
 * document; exported for the incremental loader, which re-parses single documents of a file).
 */
export function loadDocument(doc: Document.Parsed, docIndex: number, file: string, options: LoadOptions, objects: K8sObject[], problems: LoadProblem[], pathTable?: PathTableBuilder): void {
  const syntax = doc.errors.map((e) => ({ span: { file, start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1) }, message: firstLine(e.message), code: e.code, severity: 'error' as const }));
  problems.push(...collapseRepeatedErrors(syntax));
  if (doc.errors.length) return;
  const reader = new NodeReader(doc, file, pathTable);
  const before = objects.length;
  try {
    readDocument(reader, docIndex, options, objects, problems);
  } catch (err) {
    // toJS throws for alias bombs, unresolved aliases and collection keys; report it on the document (or the
    // alias, the key). kubectl refuses the whole document: no object of it is kept (a List's earlier items neither).
    objects.length = before;
    problems.push(documentReadProblem(doc, file, err, reader.aliases));
  }
}

/** A Go template file: kept (so it is listed and its chart can be named) but with no objects; its only problem says why (see loadFile). */
export function templateFile(file: string, text: string, lines: LineIndex, role?: RepoFileRole): LoadedFile {
  // The YAML parser may stop counting lines early in a Go template (a `{{` read as a flow collection): findings on
  // rendered objects point into templates, so their lines are counted from the text itself.
  const counted = lines.lineCount === text.split('\n').length ? lines : LineIndex.of(text);
  return { file, text, lines: counted, objects: [], problems: [], suppressions: new Map(), template: true, ...(role ? { role } : {}) };
}

function readDocument(reader: NodeReader, docIndex: number, options: LoadOptions, out: K8sObject[], problems: LoadProblem[]): void {
  const file = reader.file;
  const root = reader.doc.contents;
  if (!reader.asMap(root)) {
    problems.push(...notAnObject(reader, root));
    return;
  }
  readItem(reader, root, `${file}#${docIndex}`, docIndex, options, out, problems, undefined, 0);
}

/** Lists inside lists kubectl flattens (cli-runtime FlattenListVisitor); deeper ones are read as objects. */
const MAX_LIST_DEPTH = 8;

/**
 * One document root or list item: a `List` / `<Kind>List` with `items` (a sequence, or null for none) yields
 * its items, nested lists too; anything else is one object. An item that writes neither apiVersion nor kind
 * takes the list's apiVersion and `<Kind>` (apimachinery unstructured decodeToList: "For typed lists, e.g., a
 * PodList, API server doesn't set each item's APIVersion and Kind"), as kubectl does.
 */
function readItem(reader: NodeReader, node: unknown, uid: string, docIndex: number, options: LoadOptions, out: K8sObject[], problems: LoadProblem[], defaults: ListDefaults | undefined, depth: number): void {
  const own = reader.asMap(node) && !reader.at(node, ['apiVersion']) && !reader.at(node, ['kind']) ? defaults : undefined;
  const kind = reader.string(node, ['kind']) ?? own?.kind;
  const map = reader.asMap(node);
  const items = map ? reader.at(node, ['items']) : undefined;
  // `items: null` (or empty) is a list of nothing, as `kubectl get` writes an empty list.
  const listed = reader.asSeq(items) ? reader.items(node, ['items']) : map && reader.pair(map, 'items') && (items === undefined || reader.scalarValue(items) === null) ? [] : undefined;
  if (kind && /List$/.test(kind.value) && listed && depth < MAX_LIST_DEPTH) {
    const apiVersion = reader.string(node, ['apiVersion']) ?? own?.apiVersion;
    const itemDefaults = apiVersion ? { apiVersion, kind: { value: kind.value.slice(0, -'List'.length), span: kind.span } } : undefined;
    listed.forEach((item, i) => readItem(reader, item, `${uid}/${i}`, docIndex, options, out, problems, itemDefaults, depth + 1));
    return;
  }
  const obj = readObject(reader, node, uid, docIndex, options, problems, own);
  if (obj) out.push(obj);
}

function readObject(reader: NodeReader, root: unknown, uid: string, docIndex: number, options: LoadOptions, problems: LoadProblem[], defaults?: ListDefaults): K8sObject | undefined {
  // What kubectl / the API server would refuse before reading any field (no kind, no name, `spec: "x"`).
  const envelope = reader.asMap(root) ? readEnvelope(reader, root, defaults) : { verdict: 'reject' as const, problems: notAnObject(reader, root, `item #${uid.slice(uid.lastIndexOf('/') + 1)} of this List`) };
  problems.push(...envelope.problems);
  if (envelope.verdict !== 'object') return undefined;
  const apiVersion = reader.string(root, ['apiVersion']) ?? defaults?.apiVersion;
  const kind = reader.string(root, ['kind']) ?? (defaults ? { value: defaults.kind.value, span: reader.span(root) ?? defaults.kind.span } : undefined);
  if (!apiVersion || !kind) return undefined;
  const file = reader.file;
  const nameLoc = reader.text(root, ['metadata', 'name']) ?? reader.text(root, ['metadata', 'generateName']);
  const extent = reader.span(root) ?? kind.span;
  const labels = reader.stringMap(root, ['metadata', 'labels']);
  const annotations = reader.stringMap(root, ['metadata', 'annotations']);
  const group = apiVersion.value.includes('/') ? apiVersion.value.slice(0, apiVersion.value.lastIndexOf('/')) : '';
  const namespace = CLUSTER_SCOPED_KINDS.has(kind.value)
    ? ''
    : reader.text(root, ['metadata', 'namespace'])?.value || options.defaultNamespace || 'default';
  const name = nameLoc?.value ?? '';
  const resolved = reader.resolve(root);
  const read = ((resolved && reader.toJS(resolved, MAX_ALIAS_COUNT)) ?? {}) as Record<string, unknown>;
  // Values this object takes from other objects through aliases and merge keys are reported on its own alias.
  reader.enterObject(root);
  // A typed list's item gets the apiVersion and kind kubectl gives it.
  const raw = defaults ? { apiVersion: apiVersion.value, kind: kind.value, ...read } : read;
  const base: ObjectBase = {
    uid,
    apiVersion: apiVersion.value,
    group,
    kind: kind.value,
    name,
    namespace,
    identity: `${group}/${kind.value}/${namespace}/${name}`,
    file,
    docIndex,
    span: nameLoc?.span ?? kind.span,
    extent,
    labels,
    annotations,
    origin: { type: 'file' },
    raw,
  };
  // `paths` is set on the object the extractor made (a fresh literal, not yet shared) instead of copying it into
  // another literal: a copy of ~30 fields per object, and a spread of a conditional object is a slow generic copy.
  if (kind.value === 'Service' && group === '') return withPaths(extractService(reader, root, base), reader.objectPaths([[root, '']])!);
  const podPath = POD_SPEC_PATHS[kind.value];
  if (podPath) {
    const workload = extractWorkload(reader, root, base, podPath);
    const paths = containerHandlerPaths(reader, root, raw, podPath, kind.value, workload.pod.rawChecks);
    return paths ? withPaths(workload, paths) : workload;
  }
  if (kind.value === 'Node' && group === '') {
    const addresses = reader.items(root, ['status', 'addresses']).flatMap((_, i) => {
      const type = reader.string(root, ['status', 'addresses', i, 'type'])?.value ?? '';
      const address = reader.string(root, ['status', 'addresses', i, 'address']);
      return address ? [{ type, address }] : [];
    });
    return { ...base, category: 'node', addresses, nodeLabels: labels, paths: reader.objectPaths([[root, '']]) };
  }
  return { ...base, category: 'other', paths: reader.objectPaths([[root, '']]) };
}

/** `obj` with `paths` added as its last field, in place (what `{ ...obj, paths }` gives, without the copy). */
function withPaths<T extends K8sObject>(obj: T, paths: ReadonlyMap<string, Span>): T {
  (obj as { paths?: ReadonlyMap<string, Span> }).paths = paths;
  return obj;
}

function firstLine(message: string): string {
  return message.split('\n')[0].trim();
}
