// yaml-files.mjs — the file set every bench script reads: each *.yaml / *.yml file below a folder, in a stable
// (sorted) order, so the yardsticks, the peers and the corpus check all measure the same files.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Absolute paths of the YAML files below `dir` (recursive, names compared case-insensitively for the extension),
 * sorted by name within each folder.
 * @param {string} dir a folder
 * @returns {Generator<string>}
 */
export function* yamlFiles(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* yamlFiles(p);
    else if (/\.ya?ml$/i.test(e.name)) yield p;
  }
}
