import { strict as assert } from 'node:assert';
import { clientKeyPem, TOKEN } from './fake-api-server';

/** Asserts that no credential of the test kubeconfig appears in `text`. */
export function assertNoSecrets(text: string): void {
  assert.ok(!text.includes(TOKEN), 'the bearer token leaked');
  assert.ok(!text.includes(TOKEN.slice(8, 30)), 'part of the bearer token leaked');
  const keyBody = clientKeyPem().split('\n')[1];
  assert.ok(!text.includes(keyBody), 'the client key leaked');
  assert.ok(!text.includes(Buffer.from(clientKeyPem()).toString('base64').slice(0, 40)), 'the client key (base64) leaked');
}
