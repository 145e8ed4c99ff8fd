import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Lazy access to `@kubernetes/client-node` (1.x). The package is ESM-only (`"type": "module"`):
 * - the tsc build (server/out) loads it with `require`, which Node ≥ 20.19 supports for ESM without
 *   top-level await (https://nodejs.org/api/modules.html#loading-ecmascript-modules-using-require);
 * - the esbuild bundles (dist/) mark it external and load dist/kube-client.js instead, the package
 *   converted to CommonJS in a file of its own (~14 MB: parsing it would add ~0.6 s to every start).
 * Either way it is loaded only when cluster access is on.
 */
export type ClientNode = typeof import('@kubernetes/client-node');

let cached: ClientNode | undefined;

/** The client-node module, loaded on first use. */
export function clientNode(): ClientNode {
  if (!cached) {
    const bundled = join(__dirname, 'kube-client.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    cached = (existsSync(bundled) ? require(bundled) : require('@kubernetes/client-node')) as ClientNode;
  }
  return cached;
}
