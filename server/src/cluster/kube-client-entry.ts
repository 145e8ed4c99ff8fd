/**
 * Entry of the separate bundle dist/kube-client.js (scripts/bundle.mjs): all of @kubernetes/client-node,
 * ~14 MB, kept out of dist/cli.js and dist/server.js so their start-up does not parse it. Loaded by
 * client-node.ts only when cluster access is on.
 */
export * from '@kubernetes/client-node';
