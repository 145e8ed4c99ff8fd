/**
 * Lazy access to `@kubernetes/client-node` (1.x). The package is ESM-only (`"type": "module"`); our
 * CommonJS build loads it with `require`, which Node ≥ 20.19 supports for ESM without top-level await
 * (https://nodejs.org/api/modules.html#loading-ecmascript-modules-using-require), and the esbuild bundle
 * inlines it as CommonJS. Loading takes ~0.4 s, so it happens only when cluster access is enabled.
 */
export type ClientNode = typeof import('@kubernetes/client-node');

let cached: ClientNode | undefined;

/** The client-node module, loaded on first use. */
export function clientNode(): ClientNode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  cached ??= require('@kubernetes/client-node') as ClientNode;
  return cached;
}
