import { shownJson } from './validation';
import type { ServiceObject } from '../../model/objects';
import { jsonType, notAString, SERVICE, SpecProblem, WrittenText } from './service-spec';
import { rawMapValueProblems, type SelectedByKey } from './string-maps';
import type { FileText } from '../../source/string-number';

type Raw = Record<string, unknown>;

/**
 * Service-level values of the wrong JSON type, which the API server's decoder refuses before any
 * validation (`json: cannot unmarshal … into Go struct field …`). The loader leaves such values out
 * of the typed model (a map under `ports` yields no ports, a string `externalIPs` no addresses), so
 * without this check they would pass silently. A common case: a label value written as a number
 * (`selector: {version: 1}`), which must be quoted: each such value (at most 20) is reported at the value, as
 * {@link rawMapValueProblems} says it, with the quick fix that quotes it; a null value decodes to "". `selected`:
 * the workloads the selector would select with an entry (a misread key's fix keeps the key as the Pods carry it).
 */
export function checkServiceShapes(svc: ServiceObject, written?: WrittenText, source?: FileText, selected?: SelectedByKey): SpecProblem[] {
  const spec = svc.raw.spec;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return [];
  const s = spec as Raw;
  const at = (key: string) => svc.fieldSpans.get(key);
  const decode = (key: string, value: unknown, what: string, goType: string, jsonValue = jsonType(value)): SpecProblem[] => {
    const span = at(key);
    return span ? [{ span, message: `${what}: the API server cannot decode ${SERVICE} ("json: cannot unmarshal ${jsonValue} into Go struct field ServiceSpec.spec.${key} of type ${goType}")` }] : [];
  };
  const out: SpecProblem[] = [];
  if (s.ports !== undefined && s.ports !== null && !Array.isArray(s.ports)) {
    out.push(...decode('ports', s.ports, `ports is a${jsonType(s.ports) === 'object' ? ' mapping' : ` ${jsonType(s.ports)}`}, not a list`, '[]v1.ServicePort'));
  }
  if (s.externalIPs !== undefined && s.externalIPs !== null) {
    if (!Array.isArray(s.externalIPs)) out.push(...decode('externalIPs', s.externalIPs, 'externalIPs is not a list (write `externalIPs: [203.0.113.10]`)', '[]string'));
    else {
      const bad = s.externalIPs.find((ip) => typeof ip !== 'string');
      if (bad !== undefined) out.push(...decode('externalIPs', bad, `externalIPs entry ${shownJson(bad)} is not a string`, 'string'));
    }
  }
  if (s.loadBalancerSourceRanges !== undefined && s.loadBalancerSourceRanges !== null) {
    const ranges = s.loadBalancerSourceRanges;
    if (!Array.isArray(ranges)) out.push(...decode('loadBalancerSourceRanges', ranges, 'loadBalancerSourceRanges is not a list (write `loadBalancerSourceRanges: [203.0.113.0/24]`)', '[]string'));
    else {
      const bad = ranges.find((r) => r !== null && typeof r !== 'string');
      if (bad !== undefined) out.push(...decode('loadBalancerSourceRanges', bad, `loadBalancerSourceRanges entry ${shownJson(bad)} is not a string`, 'string'));
    }
  }
  if (s.selector !== undefined && s.selector !== null) {
    if (typeof s.selector !== 'object' || Array.isArray(s.selector)) {
      out.push(...decode('selector', s.selector, 'selector is not a mapping of label keys to values', 'map[string]string'));
    } else {
      out.push(...rawMapValueProblems(svc, s.selector as Raw, 'spec.selector', 'spec.selector', 'ServiceSpec.spec.selector', SERVICE, written, source, selected));
    }
  }
  for (const [key, goType] of [['type', 'v1.ServiceType'], ['externalTrafficPolicy', 'v1.ServiceExternalTrafficPolicy'], ['internalTrafficPolicy', 'v1.ServiceInternalTrafficPolicy'], ['ipFamilyPolicy', 'v1.IPFamilyPolicy'], ['sessionAffinity', 'v1.ServiceAffinity']]) {
    out.push(...notAString(s[key], at(key), `ServiceSpec.spec.${key}`, goType, key, source));
  }
  return out;
}
