import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, parseDocument } from 'yaml';
import { mib, readRegularFile } from './read-file';
import { ConfigError, ConfigErrors, CoreConfig, DEFAULT_CONFIG, parseConfig } from '../core/config/config';
import { ruleIds } from '../core/rules/index';
import { QUIET } from '../core/load/parse-options';

export const CONFIG_FILE_NAME = '.kube-netlint.yaml';

/** Finds `.kube-netlint.yaml` in `start` (a file's folder or a folder) or its ancestors. */
export function findConfigFile(start: string): string | undefined {
  let dir = resolve(start);
  try {
    if (!statSync(dir).isDirectory()) dir = dirname(dir);
  } catch {
    dir = dirname(dir);
  }
  for (;;) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Reads and validates a config file.
 * @throws ConfigError naming the file, key and line, for unreadable files, YAML errors, unknown keys and bad values
 */
export function readConfigFile(path: string): CoreConfig {
  return parseConfigText(readConfigText(path), path);
}

/** A config file is small: one larger than this is not a config (and never read whole). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of a config file. Only a regular file is read (a FIFO named `.kube-netlint.yaml` would block the
 * read forever), at most 1 MiB, as UTF-8.
 * @throws ConfigError naming the file when it cannot be read, is not a regular file or is too large
 */
export function readConfigText(path: string): string {
  let read;
  try {
    read = readRegularFile(path, MAX_CONFIG_BYTES);
  } catch (err) {
    throw new ConfigError(path, '', `cannot read the config file (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  if ('notRegular' in read) throw new ConfigError(path, '', `cannot read the config file: it is ${read.notRegular}, not a regular file`);
  if ('tooLarge' in read) throw new ConfigError(path, '', `cannot read the config file: it is larger than ${mib(MAX_CONFIG_BYTES)}`);
  return Buffer.from(read.bytes).toString('utf8').replace(/^\uFEFF/, '');
}

/**
 * Parses config text (see {@link readConfigFile}); error lines are 1-based.
 * @throws ConfigError for a file that cannot be used at all or has one problem, ConfigErrors (every problem, in
 *   line order) for several
 */
export function parseConfigText(text: string, path: string): CoreConfig {
  const { config, ignored } = parseKeepingWhatIsValid(text, path);
  if (ignored.length === 1) throw ignored[0].error;
  if (ignored.length) throw new ConfigErrors([...ignored].map((i) => i.error).sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  return config;
}

/**
 * A `render.helm` release whose `chart` folder (relative to the config file) holds no Chart.yaml would render
 * nothing, silently: CI would pass without linting the release. Checked here, at the edge, since it reads the disk.
 * @returns the config unchanged
 * @throws ConfigError naming the file, the `render.helm.N.chart` key and its line
 */
function checkChartFolders(config: CoreConfig, path: string, lineOf: (key: string) => number | undefined): CoreConfig {
  config.render?.helm?.forEach((release, i) => {
    if (existsSync(join(resolve(dirname(path), release.chart), 'Chart.yaml'))) return;
    const key = `render.helm.${i}.chart`;
    throw new ConfigError(path, key, `no Chart.yaml in ${JSON.stringify(release.chart)}: this release would not be rendered; give the chart's folder, relative to this file`, lineOf(key));
  });
  return config;
}

/** What {@link parseConfigTextLeniently} keeps of a config file. */
export interface LenientConfig {
  readonly config: CoreConfig;
  /** The top-level keys the file sets that are used (the others fall back to the editor settings or defaults). */
  readonly keys: readonly string[];
  /** One line per ignored value: the ConfigError's text (file:line: 'key': reason) and what is ignored. */
  readonly problems: readonly string[];
}

/**
 * Parses config text for the language server, which must keep working while the file is being edited: a key
 * with a bad value is left out (for `rules:`, only the bad rule entry) and the rest of the file applies. The CLI
 * uses {@link parseConfigText} instead and exits 2 on any problem, so CI never passes with a broken config.
 * @throws ConfigError when the file as a whole cannot be used (not YAML, several documents, not a mapping)
 */
export function parseConfigTextLeniently(text: string, path: string): LenientConfig {
  const { config, keys, ignored } = parseKeepingWhatIsValid(text, path);
  return { config, keys, problems: ignored.map((i) => `${i.error.message} (${i.what}; the rest of the file applies)`) };
}

/**
 * The config with every bad value left out (for `rules:`, only the bad rule entry), and what was left out, in the
 * order found.
 * @throws ConfigError when the file as a whole cannot be used (not YAML, several documents, not a mapping)
 */
function parseKeepingWhatIsValid(text: string, path: string): { config: CoreConfig; keys: readonly string[]; ignored: readonly { error: ConfigError; what: string }[] } {
  const { value, lineOf } = readConfigDocument(text, path);
  if (value === null || value === undefined) return { config: DEFAULT_CONFIG, keys: [], ignored: [] };
  const ignored: { error: ConfigError; what: string }[] = [];
  const kept = typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : value;
  for (;;) {
    try {
      const config = checkChartFolders(parseConfig(kept, path, ruleIds, lineOf), path, lineOf);
      return { config, keys: Object.keys(kept as object), ignored };
    } catch (err) {
      if (!(err instanceof ConfigError) || !err.key || kept !== Object(kept)) throw err;
      const v = kept as Record<string, unknown>;
      const [top, id] = err.key.split('.');
      const rules = v.rules;
      if (top === 'rules' && id !== undefined && rules && typeof rules === 'object' && id in rules) {
        const { [id]: _dropped, ...rest } = rules as Record<string, unknown>;
        v.rules = rest;
        ignored.push({ error: err, what: 'this rule setting is ignored' });
      } else if (top in v) {
        delete v[top];
        ignored.push({ error: err, what: `'${top}' is ignored` });
      } else throw err;
    }
  }
}

/** The config document's plain value and a dotted key → 1-based line lookup; throws ConfigError for YAML problems. */
function readConfigDocument(text: string, path: string): { value: unknown; lineOf: (key: string) => number | undefined } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { ...QUIET, lineCounter: counter, prettyErrors: false });
  if (doc.errors.some((e) => e.code === 'MULTIPLE_DOCS')) {
    const second = parseAllDocuments(text, QUIET)[1] as { range?: [number, number, number] } | undefined;
    const line = second?.range ? counter.linePos(Math.max(0, text.lastIndexOf('---', second.range[0]))).line : undefined;
    throw new ConfigError(path, '', 'holds more than one YAML document (`---`): a config is one mapping; merge the documents or remove the separator', line);
  }
  if (doc.errors.length) {
    const e = doc.errors[0];
    throw new ConfigError(path, '', `not valid YAML: ${e.message.split('\n')[0]}`, counter.linePos(e.pos[0]).line);
  }
  const lineOf = (key: string): number | undefined => {
    let node: unknown = doc.contents;
    let line: number | undefined;
    for (const step of key.split('.')) {
      if (isSeq(node) && /^\d+$/.test(step)) {
        // `nodes.1.address`: step into the list item, so the line is the item's, not the list's.
        node = node.items[Number(step)];
        const range = (node as { range?: [number, number, number] } | undefined)?.range;
        if (range) line = counter.linePos(range[0]).line;
        continue;
      }
      if (!isMap(node)) break;
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === step);
      if (!pair) break;
      const range = (pair.key as { range?: [number, number, number] }).range;
      if (range) line = counter.linePos(range[0]).line;
      node = pair.value;
    }
    return line;
  };
  return { value: doc.toJS(), lineOf };
}
