import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The repository root (this file runs from test-out/helpers/). */
const ROOT = resolve(__dirname, '..', '..');

/**
 * The shared folder of field cases and corpora (`cases/`, `corpus/`): `KUBE_NETLINT_SHARED` when set, else
 * the first `shared/` beside the repository root or one of its parents (CI: `../shared`; a worktree under
 * /work/wt/<name>: /work/shared), else the one beside the local repository this clone was cloned from (a
 * fresh clone in /tmp of a checkout that sits beside it). Undefined when there is none.
 */
export function sharedDir(): string | undefined {
  if (process.env.KUBE_NETLINT_SHARED) return process.env.KUBE_NETLINT_SHARED;
  return besideOrAbove(ROOT) ?? besideOrAbove(localOrigin());
}

/** The first `shared/` (with `cases/`) beside the repository `repo` or beside one of its parents. */
function besideOrAbove(repo: string | undefined): string | undefined {
  if (!repo) return undefined;
  for (let dir = dirname(repo); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared');
    if (existsSync(join(candidate, 'cases'))) return candidate;
  }
  return undefined;
}

/** The clone's `origin` when it is a folder on this machine (`git clone /work/main /tmp/fresh`), else undefined. */
function localOrigin(): string | undefined {
  const r = spawnSync('git', ['-C', ROOT, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8' });
  const url = r.status === 0 ? r.stdout.trim().replace(/^file:\/\//, '') : '';
  return isAbsolute(url) && existsSync(url) ? resolve(url) : undefined;
}
