import type { LoadedFile } from '../../load/load-file';
import type { Fix, TextEdit } from '../rule';
import { applyEditsToText } from './apply-edits';

/**
 * True for a manifest written as JSON (`*.json`, which kubectl reads with a JSON decoder): an edit there must
 * leave valid JSON — keys and strings double-quoted, no comments, commas between entries.
 */
export function isJsonManifest(file: string): boolean {
  return /\.json$/i.test(file);
}

/**
 * True when applying `fix` keeps every JSON manifest it edits valid JSON (`JSON.parse`), judged only for files
 * that were valid JSON before the edit. YAML files are not judged here (their fixes are checked by re-loading).
 */
export function fixKeepsJson(fix: Fix, files: ReadonlyMap<string, LoadedFile>): boolean {
  const byFile = new Map<string, TextEdit[]>();
  for (const e of fix.edits) if (isJsonManifest(e.span.file)) (byFile.get(e.span.file) ?? byFile.set(e.span.file, []).get(e.span.file)!).push(e);
  for (const [name, edits] of byFile) {
    const file = files.get(name);
    if (!file) continue;
    // One JSON value replaced by another (`30080` → `30000`, `"https"` → `"http"`) keeps JSON valid: no parse needed.
    if (edits.every((e) => JSON_SCALAR.test(file.text.slice(e.span.start, e.span.end)) && JSON_SCALAR.test(e.newText))) continue;
    if (wasJson(file) && !parsesAsJson(applyEditsToText(file.text, edits))) return false;
  }
  return true;
}

/**
 * A word a fix writes as a plain YAML string scalar (`TCP`, `web-http`, `ClusterIP`): letters, digits, `.`, `_`, `-`,
 * starting with a letter, and none of the words YAML 1.1 or JSON read as a boolean or null.
 */
const PLAIN_WORD = /^[A-Za-z][A-Za-z0-9._-]*$/;
const NOT_STRINGS = /^(?:y|yes|n|no|on|off|true|false|null|nan|inf)$/i;

/**
 * `fix` with its edits in JSON manifests written as JSON: an edit that replaces one JSON string (`"tcp"`) with a
 * plain word (`TCP`, how a fix writes a string value in YAML) gets the word as a JSON string (`"TCP"`). Fixes are
 * written for YAML, where the word alone is that string; in JSON it would be invalid. Any other edit is kept as it is
 * (and {@link fixKeepsJson} then judges it).
 */
export function jsonQuotedFix(fix: Fix, files: ReadonlyMap<string, LoadedFile>): Fix {
  let changed = false;
  const edits = fix.edits.map((e) => {
    if (!isJsonManifest(e.span.file) || !PLAIN_WORD.test(e.newText) || NOT_STRINGS.test(e.newText)) return e;
    const text = files.get(e.span.file)?.text.slice(e.span.start, e.span.end);
    if (text === undefined || !text.startsWith('"') || !JSON_SCALAR.test(text)) return e;
    changed = true;
    return { ...e, newText: JSON.stringify(e.newText) };
  });
  return changed ? { ...fix, edits } : fix;
}

/** A JSON number, string, boolean or null, written as one token. */
const JSON_SCALAR = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\\u0000-\u001f]|\\.)*"|true|false|null)$/;

/** Whether a loaded file's text is valid JSON, parsed once per file (loaded files never change). */
const jsonFiles = new WeakMap<LoadedFile, boolean>();
function wasJson(file: LoadedFile): boolean {
  let known = jsonFiles.get(file);
  if (known === undefined) jsonFiles.set(file, (known = parsesAsJson(file.text)));
  return known;
}

/** False when `before` is valid JSON and `after` is not (text that was not JSON to begin with is not judged). */
export function staysJson(before: string, after: string): boolean {
  return !parsesAsJson(before) || parsesAsJson(after);
}

/**
 * One YAML `key: value` line (a scalar value: `targetPort: 8080`, `port: http`) as a JSON object entry
 * (`"targetPort": 8080`, `"port": "http"`); undefined for a nested line (`key:` alone, an indented line).
 */
export function jsonEntry(line: string): string | undefined {
  const m = /^([A-Za-z0-9_.\/-]+): (\S.*)$/.exec(line);
  if (!m) return undefined;
  const value = /^-?\d+$|^(true|false|null)$|^"/.test(m[2]) ? m[2] : JSON.stringify(m[2]);
  return parsesAsJson(value) ? `${JSON.stringify(m[1])}: ${value}` : undefined;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
