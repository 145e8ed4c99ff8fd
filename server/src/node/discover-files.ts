import { closeSync, Dirent, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { Ignore } from 'ignore';
import picomatch from 'picomatch';
import { CONFIG_FILE_NAME } from './config-file';
import { compileExclude, ExcludeGlob } from './exclude-globs';
import { fileTypeOf } from './read-file';

/** Folders never searched for manifests (the language server's file watcher skips them too). */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** File names discovered in folders: YAML always, JSON only when it holds Kubernetes objects (see {@link holdsObjects}). */
/**
 * A manifest's name: `*.yaml`, `*.yml` or `*.json` (any case), or `Kustomization`, the third name kustomize reads a
 * kustomization from (kustomize api/konfig/builtinpluginconsts: RecognizedKustomizationFileNames, v5), with no
 * extension. Tested on names and on paths.
 */
export const MANIFEST_FILE = /(?:\.(?:[yY][aA]?[mM][lL]|[jJ][sS][oO][nN])|(?:^|[\\/])Kustomization)$/;
const JSON_FILE = /\.json$/i;
/** How much of a JSON file is read to see whether it holds Kubernetes objects. */
const JSON_SNIFF_BYTES = 64 * 1024;

/** A path the user named that could not be read: a usage error (exit 2 in the CLI). */
export class PathError extends Error {}

export interface DiscoverOptions {
  /** Honour `.gitignore` files (of the folders walked and their ancestors up to the git work tree's root). Default true. */
  readonly gitignore?: boolean;
  /** Throw a {@link PathError} for a named folder or glob that yields no manifest (the CLI); default false (an empty workspace folder is fine). */
  readonly failWhenEmpty?: boolean;
}

/**
 * Finds manifests below each path: `*.yaml` / `*.yml` files, and `*.json` files that hold Kubernetes objects
 * (an `"apiVersion"` and a `"kind"` key in their first 64 KiB; other JSON — package.json, tsconfig.json — is
 * not a manifest). A named file is taken as given, whatever its extension; a path that does not exist but is a
 * glob (`'manifests/**\/*.yaml'`, picomatch syntax, quoted so the shell leaves it) is expanded below its
 * literal base folder. Skipped: `node_modules`, `.git`, the `.kube-netlint.yaml` config files, files matching
 * `exclude` globs (picomatch, each matched against the path relative to its own base folder, with `/`
 * separators, `dot: true`, a later `!glob` re-including: see exclude-globs.ts) and, unless `gitignore: false`, files ignored by `.gitignore` (the `ignore` package, git's
 * rules; a file named on the command line is read even when ignored). A symlinked folder is followed once:
 * a folder reached again through a link (a loop, or a second link to it) is not walked twice. Symlinks that
 * point nowhere are returned like files, so the reader reports them (an info finding, see read-file.ts).
 * Results are sorted within each folder, in the order of `paths`, without duplicates.
 * @throws PathError when a named path does not exist (and is not a glob that matches), is not a regular
 *   file or folder (a FIFO, a device, a socket), cannot be read, or — with `failWhenEmpty` — yields no manifest
 */
export function discoverFiles(paths: readonly string[], exclude: readonly ExcludeGlob[], options: DiscoverOptions = {}): string[] {
  let isExcluded: (p: string, folder: boolean) => boolean;
  try {
    isExcluded = compileExclude(exclude);
  } catch (err) {
    throw new PathError(`exclude: not a valid glob (${(err as Error).message})`);
  }
  const out = new Set<string>();
  // Manifests the current path holds, counted even when an earlier path listed them already (`. sub`, `dir dir/`):
  // the path is empty only when it holds none.
  let found = 0;
  let visited = new Set<string>(); // real paths of folders walked for the current path
  const gitignore = options.gitignore !== false;

  const walk = (dir: string, ignores: readonly GitIgnore[], accept: (file: string) => boolean): void => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      real = dir;
    }
    if (visited.has(real)) return; // a symlink loop, or a folder linked twice: walked once
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      throw new PathError(`${dir}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? err})`);
    }
    const here = gitignore ? [...ignores, ...readGitIgnore(dir)] : ignores;
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const full = join(dir, e.name);
      let isDir = e.isDirectory();
      if (e.isSymbolicLink()) {
        try {
          isDir = statSync(full).isDirectory();
        } catch {
          isDir = false; // dangling: reported by the reader
        }
      }
      if (isDir) {
        if (SKIPPED_DIRS.has(e.name) || isExcluded(full, true) || isIgnored(here, full, true)) continue;
        // Linked folders last: a folder reachable both ways is listed under its own path.
        if (e.isSymbolicLink()) linked.push(() => walk(full, here, accept));
        else walk(full, here, accept);
      } else if (MANIFEST_FILE.test(e.name) && e.name !== CONFIG_FILE_NAME && accept(full)) {
        // Counted, not listed: an empty result then says which setting left every file out.
        if (isExcluded(full, false)) left.excluded++;
        else if (isIgnored(here, full, false)) left.ignored++;
        else if (!JSON_FILE.test(e.name) || holdsObjects(full)) {
          out.add(full);
          found++;
        }
      }
    }
  };

  const linked: (() => void)[] = [];
  /** YAML files the walk of the current path left out, by reason (folders left out whole are not counted). */
  const left = { excluded: 0, ignored: 0 };
  const noneFound = (p: string, where: 'matches this glob' | 'below it'): PathError => {
    const { excluded, ignored } = left;
    const n = excluded + ignored;
    const files = where === 'below it' ? 'below it' : 'matching this glob';
    const subject = n === 1 ? `the one YAML file ${files} is` : `all ${n} YAML files ${files} are`;
    const why = !n ? `no *.yaml, *.yml or Kubernetes *.json file ${where}`
      : !ignored ? `${subject} excluded by --exclude or exclude: in the config`
      : !excluded ? `${subject} ignored by .gitignore; name a file to read it anyway`
      : `${subject} left out: ${excluded} by --exclude or exclude: in the config, ${ignored} by .gitignore`;
    return new PathError(`${p}: no manifests found (${why})`);
  };
  const walkTree = (dir: string, ignores: readonly GitIgnore[], accept: (file: string) => boolean): void => {
    visited = new Set(); // each path is walked whole (a glob's base may have been walked for another glob)
    walk(dir, ignores, accept);
    while (linked.length) linked.shift()!();
  };
  for (const p of paths) {
    found = 0;
    left.excluded = left.ignored = 0;
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const glob = code === 'ENOENT' ? picomatch.scan(p) : undefined;
      if (glob?.isGlob) {
        const base = resolve(glob.base || '.');
        const matches = picomatch(glob.glob, { dot: true });
        if (existsSync(base)) walkTree(base, gitignore ? ancestorIgnores(base) : [], (file) => matches(relative(base, file).split(sep).join('/')));
        if (options.failWhenEmpty && found === 0) throw noneFound(p, 'matches this glob');
        continue;
      }
      if (code === 'ENOENT' || code === 'ELOOP') out.add(p); // a dangling or looping symlink: the reader says so
      if (code === 'ENOENT' && !isLink(p)) throw new PathError(`${p}: no such file or directory`);
      if (code !== 'ENOENT' && code !== 'ELOOP') throw new PathError(`${p}: cannot read (${code ?? err})`);
      continue;
    }
    if (st.isDirectory()) {
      walkTree(p, gitignore ? ancestorIgnores(resolve(p)) : [], () => true);
      if (options.failWhenEmpty && found === 0) throw noneFound(p, 'below it');
    } else if (st.isFile()) {
      out.add(p);
    } else {
      throw new PathError(`${p}: is ${fileTypeOf(st)}, not a regular file or folder: only regular files are read (pipe a stream in with -)`);
    }
  }
  return [...out];
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * True for a file discovery would list by its name and content: `*.yaml` / `*.yml`, or `*.json` that holds Kubernetes
 * objects (see {@link holdsObjects}). Not the config file. For files that change on disk (the language server's watcher).
 */
export function isManifestFile(file: string): boolean {
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf(sep)) + 1);
  return MANIFEST_FILE.test(name) && name !== CONFIG_FILE_NAME && (!JSON_FILE.test(name) || holdsObjects(file));
}

/** True when a JSON file's first 64 KiB have an `"apiVersion"` and a `"kind"` key (a Kubernetes object or List). */
function holdsObjects(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(JSON_SNIFF_BYTES);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const head = buffer.toString('utf8', 0, n);
    return /"apiVersion"\s*:/.test(head) && /"kind"\s*:/.test(head);
  } catch {
    return true; // unreadable: let the reader report why
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The rules of one `.gitignore`, for paths below its folder. */
interface GitIgnore {
  readonly dir: string;
  readonly rules: Ignore;
}

function readGitIgnore(dir: string): GitIgnore[] {
  const file = join(dir, '.gitignore');
  try {
    if (!statSync(file).isFile()) return [];
    return [{ dir, rules: ignore().add(readFileSync(file, 'utf8')) }];
  } catch {
    return [];
  }
}

/**
 * The `.gitignore` files of the folders above `dir` up to its git work tree's root (the folder holding `.git`); none
 * outside a work tree, and none when they ignore `dir` itself: a folder named on the command line (or opened as a
 * workspace folder) is read even when git ignores it, as a named file is (its own `.gitignore` files still apply).
 */
function ancestorIgnores(dir: string): GitIgnore[] {
  const chain: string[] = [];
  if (existsSync(join(dir, '.git'))) return [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    chain.unshift(d);
    // A folder named explicitly is linted even when an ancestor's .gitignore ignores it (a build output folder
    // handed to the linter): such a file's rules are dropped for this walk; the folder's own .gitignore files apply.
    if (existsSync(join(d, '.git'))) return chain.flatMap(readGitIgnore).filter((gi) => !isIgnored([gi], dir, true));
    if (dirname(d) === d) return []; // not in a git work tree (or `dir` is its root: the walk reads its .gitignore)
  }
}

function isIgnored(ignores: readonly GitIgnore[], path: string, isDir: boolean): boolean {
  for (const { dir, rules } of ignores) {
    const r = relative(dir, path).split(sep).join('/');
    if (!r || r.startsWith('..')) continue;
    if (rules.ignores(isDir ? `${r}/` : r)) return true;
  }
  return false;
}
