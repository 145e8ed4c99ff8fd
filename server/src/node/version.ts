import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

let root: { dir: string; version: string } | null | undefined;

/**
 * The installed kube-netlint package: the nearest folder above this module whose package.json is named
 * kube-netlint (the clone, the npm package, or the unpacked .vsix). Undefined when there is none.
 */
export function packageRoot(): string | undefined {
  return findRoot()?.dir;
}

/** The package version, read from the package.json of {@link packageRoot}; '0.0.0' when there is none. */
export function packageVersion(): string {
  return findRoot()?.version ?? '0.0.0';
}

/** The rule's page shipped in the package (`docs/rules/<id>.md`), when it is there. */
export function bundledRuleDoc(ruleId: string): string | undefined {
  const dir = packageRoot();
  const file = dir && join(dir, 'docs', 'rules', `${ruleId}.md`);
  return file && existsSync(file) ? file : undefined;
}

/**
 * The `file:` URI of {@link bundledRuleDoc}, or undefined when the page is not there. Every link to a rule's page
 * (`kube-netlint rules`, diagnostics, hovers) is this one: the page ships in the npm package and in the .vsix, so
 * the link resolves wherever kube-netlint is installed — it never points at a web site.
 */
export function bundledRuleDocUri(ruleId: string): string | undefined {
  const file = bundledRuleDoc(ruleId);
  return file ? pathToFileURL(file).href : undefined;
}

function findRoot(): { dir: string; version: string } | undefined {
  if (root !== undefined) return root ?? undefined;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'kube-netlint' && pkg.version) return (root = { dir, version: pkg.version });
      } catch {
        // keep looking
      }
    }
    dir = dirname(dir);
  }
  root = null;
  return undefined;
}
