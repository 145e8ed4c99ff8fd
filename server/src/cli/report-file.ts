import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { PathError } from '../node/discover-files';
import type { CliIo } from './io';

/**
 * A command's report to standard output, or with `--output FILE` into that file ({@link writeReport}), which must
 * not be one of the `files` the run read (names relative to `io.cwd`, or absolute).
 * @throws PathError as {@link writeReport}
 */
export function deliverReport(report: string, output: string | undefined, files: readonly { readonly file: string }[], io: CliIo): void {
  if (output === undefined) return io.stdout(report);
  const absolute = (p: string): string => (isAbsolute(p) ? p : resolve(io.cwd, p));
  writeReport(absolute(output), report, files.map((f) => absolute(f.file)));
}

/**
 * Writes a command's report to `--output FILE`, creating its folder.
 * @param file absolute path of the report
 * @param inputs absolute paths of the files the run read (its manifests): the report never overwrites one
 * @throws PathError when `file` is one of `inputs` (the same file by device and inode, so a symlink or another
 *   spelling of the path counts) or cannot be written (exit 2); nothing is written then
 */
export function writeReport(file: string, report: string, inputs: readonly string[] = []): void {
  if (isOneOf(file, inputs)) {
    throw new PathError(`${file}: --output names a file this run lints; the report would overwrite it: choose another file`);
  }
  try {
    makeFolder(dirname(file));
    writeFileSync(file, report);
  } catch (err) {
    throw new PathError(`${file}: cannot write the report (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
}

/** Whether `file` exists and is the same file as one of `paths`. */
function isOneOf(file: string, paths: readonly string[]): boolean {
  let target;
  try {
    target = statSync(file);
  } catch {
    return false; // a new file is no input
  }
  return paths.some((p) => {
    if (p === file) return true;
    try {
      const st = statSync(p);
      return st.ino === target.ino && st.dev === target.dev;
    } catch {
      return false;
    }
  });
}

/**
 * Creates `dir` and its missing parents one level at a time. Not `mkdirSync(dir, { recursive: true })`: on Node 20
 * that never returns for a path below a folder where mkdir fails with ENOENT although the folder exists
 * (`/proc/nope/x`: procfs), so `--output /proc/nope/x` spun a core until the CI job's timeout.
 * @throws the first mkdir error (ENOENT, ENOTDIR, EACCES, …)
 */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // made meanwhile: fine
    }
  }
}
