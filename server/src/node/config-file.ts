import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, parseDocument } from 'yaml';
import { mib, readRegularFile } from './read-file';
import { ConfigError, CoreConfig, DEFAULT_CONFIG, parseConfig } from '../core/config/config';
import { ruleIds } from '../core/rules/index';

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

/** Parses config text (see {@link readConfigFile}); error lines are 1-based. */
export function parseConfigText(text: string, path: string): CoreConfig {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.some((e) => e.code === 'MULTIPLE_DOCS')) {
    const second = parseAllDocuments(text)[1] as { range?: [number, number, number] } | undefined;
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
  const value = doc.toJS();
  return value === null || value === undefined ? DEFAULT_CONFIG : parseConfig(value, path, ruleIds, lineOf);
}
