import { posix } from 'node:path';

/** A symbolic link found in a chart or kustomization folder: repository path of the link, and where it resolves. */
export interface FoundLink {
  readonly link: string;
  /** Absolute, `/`-separated real path of the target ('' when it dangles). */
  readonly target: string;
}

/**
 * The links that leave the repository: helm follows symlinks in a chart (`.Files.Get` on a link to `/etc/passwd`
 * renders that file, helm internal/sympath/walk.go v3.17), and Argo CD refuses such repositories for the same
 * reason (util/app/path/path.go `CheckOutOfBoundsSymlinks`). A dangling link is not an escape.
 * @param root absolute, `/`-separated real path of the repository root
 */
export function linksLeavingRepository(links: readonly FoundLink[], root: string): FoundLink[] {
  const base = root.endsWith('/') ? root : `${root}/`;
  return links.filter((l) => l.target !== '' && l.target !== root && !posix.normalize(l.target).startsWith(base));
}

/** True for a values file or chart reference that names a download instead of a repository file. */
export function isUrl(reference: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(reference.trim());
}
