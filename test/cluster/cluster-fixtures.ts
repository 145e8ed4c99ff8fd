import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from './fake-api-server';

/** Directory of the recorded API responses (sources, not compiled: read from test/, not test-out/). */
export const FIXTURES = join(__dirname, '..', '..', 'test', 'cluster', 'fixtures');

/** One recorded API response (a List as `kubectl get --raw <path>` prints it). */
export function fixture(name: string): { kind: string; apiVersion: string; metadata: { resourceVersion: string }; items: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
}

/** The API paths the cluster source reads, answered from the fixtures. */
export function clusterRoutes(): Record<string, Route> {
  return {
    '/api/v1/services': { body: fixture('services') },
    '/api/v1/pods': { body: fixture('pods') },
    '/api/v1/nodes': { body: fixture('nodes') },
    '/api/v1/namespaces/kube-system/configmaps': { body: fixture('configmaps-kube-proxy') },
    '/apis/apps/v1/namespaces/kube-system/daemonsets': { body: fixture('daemonsets-kube-system') },
  };
}
