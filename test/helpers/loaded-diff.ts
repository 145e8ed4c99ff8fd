import { isDeepStrictEqual } from 'node:util';
import type { LoadedFile } from '../../server/out/core/load/load-file';

/** A LoadedFile as plain data: its line index as the list of line starts. */
export function comparable(file: LoadedFile): Record<string, unknown> {
  const { lines, ...rest } = file;
  const starts: number[] = [];
  for (let line = 1; line <= lines.lineCount; line++) starts.push(lines.lineStart(line));
  return { ...rest, lineStarts: starts };
}

/**
 * The first place where two loaded files differ (`objects[3].paths[spec.ports.0.port].end: 41 ≠ 40`), or
 * undefined when they are equal in every field (objects, raw, paths, spans, problems, suppressions, lines).
 */
export function loadedFileDifference(a: LoadedFile, b: LoadedFile): string | undefined {
  const x = comparable(a);
  const y = comparable(b);
  return isDeepStrictEqual(x, y) ? undefined : firstDifference(x, y, '') ?? 'different (deep)';
}

function firstDifference(a: unknown, b: unknown, path: string, seen = new WeakSet<object>()): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path || '.'}: ${show(a)} ≠ ${show(b)}`;
  // `raw` of an object whose alias points into its own anchor is cyclic.
  if (seen.has(a)) return undefined;
  seen.add(a);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: different types`;
  if (a instanceof Map && b instanceof Map) {
    for (const [k, v] of a) {
      if (!b.has(k)) return `${path}[${String(k)}]: only in the first`;
      const d = firstDifference(v, b.get(k), `${path}[${String(k)}]`, seen);
      if (d) return d;
    }
    for (const k of b.keys()) if (!a.has(k)) return `${path}[${String(k)}]: only in the second`;
    return undefined;
  }
  if (a instanceof Set && b instanceof Set) return isDeepStrictEqual(a, b) ? undefined : `${path}: sets differ`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  for (const k of ka) {
    if (!(k in (b as object))) return `${path}.${k}: only in the first (${show((a as Record<string, unknown>)[k])})`;
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, seen);
    if (d) return d;
  }
  for (const k of kb) if (!(k in (a as object))) return `${path}.${k}: only in the second (${show((b as Record<string, unknown>)[k])})`;
  if (!isDeepStrictEqual(a, b)) return `${path}: differ (property order or descriptors)`;
  return undefined;
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : String(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
