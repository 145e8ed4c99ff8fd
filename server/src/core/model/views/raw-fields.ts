import type { Located, Span } from '../../source/span';
import type { K8sObject } from '../objects';

/**
 * Reading typed values out of an object's `raw` JSON with their spans from `paths`: the parser-independent
 * way the typed views of Ingresses, routes, policies, monitors and probes are built, so they work the same
 * for objects loaded from files, rendered by Helm / kustomize, or read from a live cluster (whose spans all
 * point at the object, see from-api-object.ts).
 */

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const asRecord = (v: unknown): Json => (isRecord(v) ? v : {});
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const asInteger = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** The value at a dotted `path` of `raw` (`spec.rules.0.http`), undefined when any step is missing. */
export function rawAt(raw: unknown, path: string): unknown {
  if (!path) return raw;
  // Step by step along the dots (no array of steps: the views call this for every field they read).
  let current = raw;
  for (let from = 0; ; ) {
    const dot = path.indexOf('.', from);
    const step = dot < 0 ? path.slice(from) : path.slice(from, dot);
    if (Array.isArray(current)) current = current[Number(step)];
    else if (isRecord(current)) current = current[step];
    else return undefined;
    if (current === undefined || dot < 0) return current;
    from = dot + 1;
  }
}

/**
 * The span of the value at `path`, else of its nearest ancestor that has one (a value reached through a merge
 * key, an object read from the cluster), else the object's anchor.
 */
export function spanAt(obj: K8sObject, path: string): Span {
  const paths = obj.paths;
  if (paths) {
    for (let p = path; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
      const span = paths.get(p);
      if (span) return span;
    }
  }
  return obj.span;
}

/** The span of the map key at `path` (`spec.selector.app` → the `app` key), else {@link spanAt}. */
export function keySpanAt(obj: K8sObject, path: string): Span {
  return obj.paths?.get(`${path}#key`) ?? spanAt(obj, path);
}

/**
 * The span of the sequence entry at `path` (`spec.selector.matchExpressions.0`) for a finding on the entry itself.
 * An entry written as a bare `-` has an empty span after its dash (the parser's), which editors hardly show: its
 * dash (one character) stands for it then, found in the file's text (`text`: the text of the file a span is in)
 * between the sequence's start and the entry; without the text, the sequence's key does.
 */
export function entryOrDashSpanAt(obj: K8sObject, path: string, text?: (span: Span) => string | undefined): Span {
  const span = spanAt(obj, path);
  if (span.end > span.start) return span;
  const listPath = path.slice(0, path.lastIndexOf('.'));
  const list = obj.paths?.get(listPath);
  const before = list && list.file === span.file && list.start <= span.start ? text?.(span)?.slice(list.start, span.start) : undefined;
  const dash = before?.lastIndexOf('-') ?? -1;
  if (dash >= 0 && !before!.slice(dash + 1).trim()) return { file: span.file, start: list!.start + dash, end: list!.start + dash + 1 };
  return keySpanAt(obj, listPath);
}

/** The span from the key at `path` to the end of its value (`app: web`), for findings on a whole entry. */
export function entrySpanAt(obj: K8sObject, path: string): Span {
  const key = obj.paths?.get(`${path}#key`);
  const value = obj.paths?.get(path);
  return key && value && key.file === value.file && value.end >= key.start ? { file: key.file, start: key.start, end: value.end } : spanAt(obj, path);
}

/**
 * The span of the mapping at `path` without the line break and indentation a block mapping's range ends
 * with: from its start to the end of its last written value (for findings on a whole list item).
 */
export function mappingSpanAt(obj: K8sObject, path: string): Span {
  const span = spanAt(obj, path);
  const value = rawAt(obj.raw, path);
  if (!isRecord(value) || !obj.paths) return span;
  let end = -1;
  for (const k of Object.keys(value)) {
    const child = obj.paths.get(`${path}.${k}`);
    if (child && child.file === span.file && child.end > end) end = child.end;
  }
  return end > span.start && end <= span.end ? { file: span.file, start: span.start, end } : span;
}

/**
 * The value at `path` with its span, when `accept` takes it. The span is looked up when first read: the views
 * built from these are read mostly for their values (is the port valid, does the name resolve), and finding a
 * span decodes the object's whole path index (PackedPaths), which most objects never need. It is the span
 * {@link spanAt} gives, the same object on every read (an edit that moves the object's spans moves it too).
 */
export function locatedAt<T>(obj: K8sObject, path: string, accept: (v: unknown) => v is T): Located<T> | undefined {
  const value = rawAt(obj.raw, path);
  return accept(value) ? lazilyLocated(obj, path, value) : undefined;
}

/** `value`, the value at `path` of `obj` read elsewhere, with the span {@link locatedAt} gives it (looked up when first read). */
export function lazilyLocated<T>(obj: K8sObject, path: string, value: T): Located<T> {
  let span: Span | undefined;
  return {
    value,
    get span(): Span {
      return (span ??= spanAt(obj, path));
    },
  };
}

export const isPortValue = (v: unknown): v is number | string => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
export const isStringValue = (v: unknown): v is string => typeof v === 'string';
export const isIntegerValue = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Views computed once per object: objects are immutable (an edit creates new ones), so a view never goes
 * stale, and every rule and hover asking for the same object's view shares one.
 */
export function cachedView<V>(build: (obj: K8sObject) => V): (obj: K8sObject) => V {
  const cache = new WeakMap<K8sObject, { value: V }>();
  return (obj) => {
    let hit = cache.get(obj);
    if (!hit) cache.set(obj, (hit = { value: build(obj) }));
    return hit.value;
  };
}
