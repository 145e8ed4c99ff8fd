import type { Located } from '../source/span';
import type { ObjectBase, ServiceObject, ServicePort } from '../model/objects';
import { NodeReader, isInteger, isString } from './node-reader';
import { pairRemovalSpan } from './pair-removal';

/** Reads a Service's spec into a {@link ServiceObject}. Values of the wrong type are left out here and reported by `service-spec-invalid`. */
export function extractService(reader: NodeReader, root: unknown, base: ObjectBase): ServiceObject {
  const spec = reader.at(root, ['spec']);
  const typeLoc = reader.string(spec, ['type']);
  const ports: ServicePort[] = reader.items(spec, ['ports']).map((item, index) => {
    const span = reader.span(item) ?? base.span;
    const targetPort = reader.located(item, ['targetPort'], (v): v is number | string => isInteger(v) || isString(v));
    return {
      index,
      span,
      name: reader.string(item, ['name']),
      protocol: reader.string(item, ['protocol']) ?? { value: 'TCP', span },
      port: reader.integer(item, ['port']),
      targetPort,
      nodePort: positive(reader.integer(item, ['nodePort'])),
    };
  });
  const fieldSpans = new Map<string, ReturnType<NodeReader['span']> & object>();
  const specMap = reader.asMap(spec);
  for (const item of specMap?.items ?? []) {
    const key = reader.scalarValue(item.key);
    const s = reader.span(item.value) ?? reader.span(item.key);
    if (typeof key === 'string' && s) fieldSpans.set(key, s);
  }
  reader.items(spec, ['ports']).forEach((item, i) => {
    for (const pair of reader.asMap(item)?.items ?? []) {
      const key = reader.scalarValue(pair.key);
      const s = reader.span(pair.value) ?? reader.span(pair.key);
      if (typeof key === 'string' && s) fieldSpans.set(`ports.${i}.${key}`, s);
    }
  });
  return {
    ...base,
    category: 'service',
    type: typeLoc ?? { value: 'ClusterIP', span: base.span },
    typeWritten: typeLoc !== undefined,
    clusterIP: reader.string(spec, ['clusterIP']),
    selector: reader.asMap(reader.at(spec, ['selector'])) ? reader.stringMap(spec, ['selector']) : undefined,
    ports,
    healthCheckNodePort: positive(reader.integer(spec, ['healthCheckNodePort'])),
    // None for a spec written through an alias or anchor: the edit would change other Services too.
    healthCheckNodePortRemoval: pairRemovalSpan(reader.file, spec, 'healthCheckNodePort'),
    externalTrafficPolicy: reader.string(spec, ['externalTrafficPolicy']),
    internalTrafficPolicy: reader.string(spec, ['internalTrafficPolicy']),
    externalIPs: reader
      .items(spec, ['externalIPs'])
      .map((_, i) => reader.string(spec, ['externalIPs', i]))
      .filter((x): x is Located<string> => x !== undefined),
    allocateLoadBalancerNodePorts: reader.boolean(spec, ['allocateLoadBalancerNodePorts']),
    loadBalancerIP: reader.string(spec, ['loadBalancerIP']),
    fieldSpans,
  };
}

/** 0 means "allocate one for me" in the API: treat it as not written. */
function positive(loc: Located<number> | undefined): Located<number> | undefined {
  return loc && loc.value !== 0 ? loc : undefined;
}
