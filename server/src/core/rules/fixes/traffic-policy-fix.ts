import type { ServiceObject } from '../../model/objects';
import type { Located } from '../../source/span';
import type { Fix } from '../rule';

/** A fix replacing a traffic policy value with `Cluster`; edits only that scalar. */
export function setToCluster(value: Located<string>, title: string, preferred: boolean): Fix {
  return { title, edits: [{ span: value.span, newText: 'Cluster' }], preferred };
}

/**
 * The fix setting a Service's `externalTrafficPolicy` to `Cluster`. A written `healthCheckNodePort` goes in the
 * same edit: the API server accepts one only with `type: LoadBalancer` and `externalTrafficPolicy: Local`
 * (`spec.healthCheckNodePort: Invalid value: N: may only be set when \`type\` is 'LoadBalancer' and
 * \`externalTrafficPolicy\` is 'Local'`, kubernetes pkg/apis/core/validation/validation.go ValidateService, v1.31),
 * so keeping it would turn the fixed Service into a rejected one. No fix when that entry cannot be removed exactly
 * (see ServiceObject.healthCheckNodePortRemoval).
 * @param why the consequence, in parentheses after the title
 */
export function externalPolicyToCluster(svc: ServiceObject, why: string, preferred: boolean): Fix[] {
  const policy = svc.externalTrafficPolicy;
  if (!policy) return [];
  const hc = svc.healthCheckNodePort;
  if (!hc) return [setToCluster(policy, `Set externalTrafficPolicy to Cluster (${why})`, preferred)];
  const removal = svc.healthCheckNodePortRemoval;
  if (!removal) return [];
  return [{ title: `Set externalTrafficPolicy to Cluster and remove healthCheckNodePort ${hc.value} (${why})`, edits: [{ span: policy.span, newText: 'Cluster' }, { span: removal, newText: '' }], preferred }];
}
