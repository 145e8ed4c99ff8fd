import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PathError } from '../node/discover-files';

/**
 * Writes a command's report to `--output FILE`, creating its folder.
 * @throws PathError when the file cannot be written (exit 2)
 */
export function writeReport(file: string, report: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, report);
  } catch (err) {
    throw new PathError(`${file}: cannot write the report (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
}
