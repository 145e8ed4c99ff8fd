import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(path, '', `cannot read the config file (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  return parseConfigText(text, path);
}

/** Parses config text (see {@link readConfigFile}); error lines are 1-based. */
export function parseConfigText(text: string, path: string): CoreConfig {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
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
