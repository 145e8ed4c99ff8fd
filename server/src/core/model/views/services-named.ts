import type { ServiceObject } from '../objects';

const byName = new WeakMap<readonly ServiceObject[], Map<string, ServiceObject[]>>();

/**
 * The Services of `services` named `name`, in their order. `services` is a list a model keeps (its `servicesIn(ns)`,
 * the same array on every call): it is indexed by name once, so rules that look up a backend's Service for every
 * Ingress or route of a namespace do not scan all of its Services each time.
 */
export function servicesNamed(services: readonly ServiceObject[], name: string): readonly ServiceObject[] {
  let index = byName.get(services);
  if (!index) {
    index = new Map();
    for (const s of services) {
      const list = index.get(s.name);
      if (list) list.push(s);
      else index.set(s.name, [s]);
    }
    byName.set(services, index);
  }
  return index.get(name) ?? [];
}
