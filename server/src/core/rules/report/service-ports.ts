import type { ServiceObject } from '../../model/objects';
import { joinNames } from './collisions';

/** `port 80 "http" (→ 8080), port 443 "https" (→ https)` — a Service's ports for messages; `no ports` when empty. */
export function servicePortList(svc: ServiceObject): string {
  if (svc.ports.length === 0) return 'no ports';
  return joinNames(svc.ports.map((sp) => {
    const target = sp.targetPort?.value;
    const shown = target !== undefined && target !== sp.port?.value ? ` (→ ${target})` : '';
    return `port ${sp.port?.value ?? '?'}${sp.name ? ` "${sp.name.value}"` : ''}${shown}`;
  }));
}
