import { statSync } from 'node:fs';

/** True when `path` is a regular file (a symlink to one counts); false when it is anything else or cannot be read. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** True when `path` is a folder (a symlink to one counts); false when it is anything else or cannot be read. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
