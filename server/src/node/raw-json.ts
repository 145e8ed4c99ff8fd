/**
 * The `raw` of a loaded file's objects as JSON text, parsed on the receiving thread when an object's `raw` is
 * first read. `raw` is half of what a load worker posts and of what a parse-cache entry holds (medium: 9.8 of
 * 23.4 MB), and as objects it is the most costly part to clone, v8-deserialize and garbage-collect: tens of
 * thousands of small objects and strings per file that the rules read for some kinds only (Services, workloads'
 * containers, Ingresses), never for most ConfigMaps, ServiceAccounts or PodDisruptionBudgets. One string per
 * file crosses as one copy, and `JSON.parse` of what is read is cheaper than deserializing all of it.
 */

/**
 * The JSON of the `raw` of a file's objects. Only a `raw` that JSON gives back exactly ({@link jsonExact}) is
 * held here; any other stays in its object as it was.
 */
export interface RawJson {
  /** The JSON of each object's `raw` held here, back to back, in the order of the objects. */
  readonly text: string;
  /**
   * Per object of the file, in order: the UTF-16 offset in `text` where its JSON ends, or -1 when its `raw`
   * stayed in the object.
   */
  readonly ends: Int32Array;
}

/** What stands for `raw` in an object whose `raw` is in the file's {@link RawJson} (a primitive: walks skip it). */
export const RAW_IN_JSON = 0;

/**
 * True when `JSON.parse(JSON.stringify(value))` gives back what v8 serialization (the structured clone, the
 * parse cache's old form) gives back for `value`: strings, booleans, null, finite numbers other than -0, arrays
 * without holes, and objects whose prototype is Object's (or none) without a `__proto__` key, none of them
 * reachable twice (an alias's value shared by two places stays one object, and an alias-heavy document must not
 * grow). Both keep only own enumerable string keys. Dates, Maps, `undefined`, NaN and Infinity (YAML's `.nan`,
 * `.inf`) are not.
 */
export function jsonExact(value: unknown): boolean {
  const seen = new Set<object>();
  const exact = (v: unknown, depth: number): boolean => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return true;
      case 'number':
        return Number.isFinite(v) && (v !== 0 || 1 / v > 0);
      case 'object':
        break;
      default:
        return false;
    }
    if (v === null) return true;
    // Deeper than this, JSON.stringify could overflow the stack: such a value stays as it is.
    if (depth > 512 || seen.has(v)) return false;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!(i in v) || !exact(v[i], depth + 1)) return false;
      return true;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    // With Object's prototype (nothing enumerable on it), `for…in` lists exactly the own enumerable string keys.
    for (const key in v) if (key === '__proto__' || !exact((v as Record<string, unknown>)[key], depth + 1)) return false;
    return true;
  };
  return exact(value, 0);
}

/**
 * Moves the `raw` of each object in `objects` that {@link jsonExact} accepts into one {@link RawJson}, IN PLACE
 * (each such object's `raw` becomes {@link RAW_IN_JSON}, at the same place among its keys); undefined when none is.
 */
export function rawToJson(objects: readonly { raw?: unknown }[]): RawJson | undefined {
  const parts: string[] = [];
  const ends = new Int32Array(objects.length);
  let at = 0;
  for (let i = 0; i < objects.length; i++) {
    const o = objects[i] as { raw?: unknown };
    if (o.raw === undefined || o.raw === RAW_IN_JSON || !jsonExact(o.raw)) {
      ends[i] = -1;
      continue;
    }
    const json = JSON.stringify(o.raw);
    parts.push(json);
    at += json.length;
    ends[i] = at;
    o.raw = RAW_IN_JSON;
  }
  return parts.length ? { text: parts.join(''), ends } : undefined;
}

/** Per object with a lazy `raw`: its JSON until first read, then the parsed value (or what was assigned). */
const lazyRaws = new WeakMap<object, string | object>();

function readRaw(this: object): unknown {
  const held = lazyRaws.get(this);
  if (typeof held !== 'string') return held;
  const parsed = JSON.parse(held) as object;
  lazyRaws.set(this, parsed);
  return parsed;
}

function writeRaw(this: object, value: object): void {
  lazyRaws.set(this, value);
}

/**
 * One accessor for every lazy `raw` (one getter and setter function shared by all objects, so objects with the
 * same keys keep sharing their hidden class).
 */
const RAW_PROPERTY: PropertyDescriptor = { get: readRaw, set: writeRaw, enumerable: true, configurable: true };

/**
 * The objects of a file with their `raw` back from `json` (made by {@link rawToJson} for these objects, in this
 * order): each object whose `raw` is in it, copied with the same keys in the same order, `raw` an own enumerable
 * accessor that parses its JSON when first read and gives the same value every time after (a spread copy gets
 * it as a value). With `eager`, `raw` is parsed now, in place (for a receiver that walks every value anyway).
 * @throws Error when `json` does not fit the objects (a damaged cache entry: the caller loads the file again)
 */
export function rawFromJson<T extends object>(objects: T[], json: RawJson, eager: boolean): T[] {
  const { text, ends } = json;
  if (ends.length !== objects.length) throw new Error('raw JSON does not fit the objects');
  let start = 0;
  const out = objects.slice();
  for (let i = 0; i < objects.length; i++) {
    const end = ends[i];
    if (end < 0) continue;
    if (end < start || end > text.length || (objects[i] as { raw?: unknown }).raw !== RAW_IN_JSON) throw new Error('raw JSON does not fit the objects');
    const piece = text.slice(start, end);
    start = end;
    if (eager) {
      (objects[i] as { raw?: unknown }).raw = JSON.parse(piece);
      continue;
    }
    const source = objects[i] as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const key in source) {
      if (key === 'raw') Object.defineProperty(copy, 'raw', RAW_PROPERTY);
      else copy[key] = source[key];
    }
    lazyRaws.set(copy, piece);
    out[i] = copy as T;
  }
  if (start !== text.length) throw new Error('raw JSON does not fit the objects');
  return out;
}
