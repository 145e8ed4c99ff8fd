import { isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';

/**
 * The `exclude` globs of a run (the config file's `exclude:`, the CLI's `--exclude`, the editor's
 * `kubeNetlint.exclude`), each with the folder its relative paths start from: the config file's folder for
 * `exclude:`, the working directory for `--exclude`. Keeping the base with the glob, instead of rewriting a glob
 * for another folder, is what lets `kube-netlint deploy/ --exclude 'deploy/gen/**'` work beside
 * `deploy/.kube-netlint.yaml`: a glob cannot in general be rewritten for a folder below the one it was written for
 * (`**\/a.yaml` relative to `.` is not `../**\/a.yaml` relative to `deploy/`).
 */
export interface ExcludeGlob {
  /** A picomatch glob (`dot: true`); `!glob` re-includes; an absolute glob is matched against the absolute path. */
  readonly glob: string;
  /** Absolute folder the glob's relative paths are taken from. */
  readonly baseDir: string;
}

/** `globs` as {@link ExcludeGlob}s relative to `baseDir` (an absolute folder). */
export function excludeGlobs(globs: readonly string[], baseDir: string): ExcludeGlob[] {
  return globs.map((glob) => ({ glob, baseDir }));
}

/** A path's test against the globs: `folder` when it is a folder (then `dir/**`-style globs match it too). */
export type ExcludeTest = (absolutePath: string, folder: boolean) => boolean;

/**
 * Compiles the globs into one test, in .gitignore's order semantics: the last glob that matches a path decides, so
 * a later `!glob` re-includes a file an earlier glob excluded (`["base/*.yaml", "!base/app.yaml"]` keeps
 * base/app.yaml) — but, as in git, not inside a folder an earlier glob excluded whole, since excluded folders are not
 * walked. Paths are matched relative to each glob's base with `/` separators; a path outside a glob's base (`..`)
 * never matches a relative glob.
 * @throws Error (picomatch's) for a glob picomatch cannot compile
 */
export function compileExclude(globs: readonly ExcludeGlob[]): ExcludeTest {
  if (globs.length === 0) return () => false;
  const tests = globs.map(({ glob, baseDir }) => {
    const negated = glob.startsWith('!');
    const body = negated ? glob.slice(1) : glob;
    const absolute = isAbsolute(body);
    const match = picomatch(absolute ? body.split(sep).join('/') : body, { dot: true });
    return { negated, match, absolute, baseDir };
  });
  return (path, folder) => {
    let excluded = false;
    for (const t of tests) {
      const rel = t.absolute ? path.split(sep).join('/') : relative(t.baseDir, path).split(sep).join('/');
      if (!t.absolute && (rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel))) continue;
      if (t.match(rel) || (folder && t.match(`${rel}/`))) excluded = !t.negated;
    }
    return excluded;
  };
}
