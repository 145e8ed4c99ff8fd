import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package version, read from the nearest package.json named kube-netlint above this module. */
export function packageVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'kube-netlint' && pkg.version) return pkg.version;
      } catch {
        // keep looking
      }
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}
