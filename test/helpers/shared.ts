import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The shared folder of field cases and corpora (`cases/`, `corpus/`): `KUBE_NETLINT_SHARED` when set, else
 * the first `shared/` beside the repository root or one of its parents (CI: `../shared`; a worktree under
 * /work/wt/<name>: /work/shared). Undefined when there is none.
 */
export function sharedDir(): string | undefined {
  if (process.env.KUBE_NETLINT_SHARED) return process.env.KUBE_NETLINT_SHARED;
  for (let dir = resolve(__dirname, '..', '..', '..'); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared');
    if (existsSync(join(candidate, 'cases'))) return candidate;
  }
  return undefined;
}
