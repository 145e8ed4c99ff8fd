/**
 * Which kustomization entries name a remote source, by kustomize's own rules (kustomize v5.4,
 * api/internal/target/kusttarget.go `accumulateResources`, api/internal/git/repospec.go): a `resources`
 * entry is tried as a local file first, then an `http(s)` URL is fetched with an HTTP GET, and anything that
 * parses as a repository spec is cloned with `git`. There is no switch that turns this off, so kube-netlint
 * finds these entries before kustomize runs and leaves them out.
 *
 * Remote forms: any `scheme://` (`https://`, `http://`, `ssh://`, `file://` — still `git` — `git://`), `git::…`,
 * `gh:…`, scp-like `user@host:path`, scheme-less hosts `github.com/…` / `gitlab.com/…` / `bitbucket.org/…` or any
 * `host.tld/…` with a `?ref=`/`?version=`/`?timeout=` query or a `//` sub-path, and `oci://` charts.
 */
export function isRemoteReference(entry: string): boolean {
  const e = entry.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(e)) return true;
  if (/^(git::|gh:)/i.test(e)) return true;
  if (/^[\w.-]+@[\w.-]+:/.test(e)) return true;
  if (/^(github\.com|gitlab\.com|bitbucket\.org|dev\.azure\.com|ssh\.dev\.azure\.com)\//i.test(e)) return true;
  // A first segment that looks like a host name (has a dot, is not . or ..) plus a repo query or `//` sub-path.
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\//i.test(e) && (/[?&](ref|version|timeout|submodules)=/.test(e) || /[^:]\/\//.test(e))) return true;
  return false;
}
