import type { HostPortClaim } from '../../model/claims';
import { describe } from '../../model/objects';

/** `hostPort 31123/TCP` or `hostNetwork port 30092/TCP`, the way a claim is named in messages. */
export function portPhrase(c: HostPortClaim): string {
  return `${c.hostNetwork ? 'hostNetwork port' : 'hostPort'} ${c.port}/${c.protocol}${c.hostIP !== '0.0.0.0' ? ` on hostIP ${c.hostIP}` : ''}`;
}

/** `hostPort 31123/TCP of Deployment default/web (container web)`. */
export function claimLabel(c: HostPortClaim): string {
  return `${portPhrase(c)} of ${describe(c.workload)} (container ${c.container.name})`;
}
