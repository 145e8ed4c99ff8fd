/**
 * The e2e fixture workspace (test/e2e/workspace): frontend.yaml and payments.yaml each hold a Deployment and a
 * NodePort Service, and both Services claim nodePort 30080. Positions are read from the files, so editing the
 * fixture does not silently desynchronise the assertions.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './vsix';

export const FIXTURE_DIR = path.join(repoRoot, 'test', 'e2e', 'workspace');

/** The first line of a fixture file that contains `lineText`: its 1-based number, text, and the 30080 column. */
export function fixtureLine(file: string, lineText: string): { line: number; column: number; text: string } {
  const lines = fs.readFileSync(path.join(FIXTURE_DIR, file), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(lineText));
  assert.ok(index >= 0, `${lineText} not found in the fixture ${file}`);
  return { line: index + 1, column: lines[index].indexOf('30080') + 1, text: lines[index] };
}

/**
 * Negative control (E2E_BREAK=server|client): replaces the installed dist/server.js or dist/extension.js with a
 * module that throws, so that the suite must fail. No-op when E2E_BREAK is unset.
 */
export function breakInstalledExtension(installed: string): void {
  const which = process.env.E2E_BREAK;
  if (!which) return;
  if (which !== 'server' && which !== 'client') throw new Error(`E2E_BREAK must be server or client, not ${which}`);
  const file = path.join(installed, 'dist', which === 'client' ? 'extension.js' : 'server.js');
  fs.writeFileSync(file, `throw new Error('kube-netlint ${which} deliberately broken by E2E_BREAK');\n`);
}
