// The two functions used, not the package's index: it builds semver's range machinery at start-up (~10 ms of every run).
import type SemVer from 'semver/classes/semver';
import coerce from 'semver/functions/coerce';
import lt from 'semver/functions/lt';

/** A container image reference split into its parts: `registry:5000/ns/name:tag@sha256:…`. */
export interface ImageRef {
  /** Everything before the tag/digest, e.g. `docker.io/calico/node`. */
  readonly repository: string;
  /** The last path segment of the repository, e.g. `node`. */
  readonly name: string;
  /** The path without a registry host, e.g. `calico/node` (a first segment with `.` or `:` or `localhost` is a registry). */
  readonly path: string;
  readonly tag?: string;
  readonly digest?: string;
}

/**
 * Splits an image reference. Never throws; an empty string gives an empty repository.
 * Grammar: https://github.com/distribution/reference (reference.go): the tag follows the last `:`
 * after the last `/`, the digest follows `@`.
 */
export function parseImage(image: string): ImageRef {
  const text = image.trim();
  const at = text.indexOf('@');
  const digest = at >= 0 ? text.slice(at + 1) : undefined;
  const withoutDigest = at >= 0 ? text.slice(0, at) : text;
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  const hasTag = colon > lastSlash;
  const repository = hasTag ? withoutDigest.slice(0, colon) : withoutDigest;
  const tag = hasTag ? withoutDigest.slice(colon + 1) : undefined;
  const segments = repository.split('/');
  const first = segments[0];
  const hasRegistry = segments.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const path = (hasRegistry ? segments.slice(1) : segments).join('/');
  return { repository, name: segments[segments.length - 1], path, tag: tag || undefined, digest };
}

/** An image's version: known (from a version-like tag), or unknown with the reason, for messages. */
export type ImageVersion =
  | { readonly known: true; readonly version: SemVer; readonly tag: string }
  | { readonly known: false; readonly reason: string };

/** Tags that name a version: `v1.9.11`, `1.9`, `v3.25.0-1-abc`, `v0.11.0-amd64`. */
const VERSION_TAG = /^v?\d+(\.\d+){0,2}([-+.].*)?$/;

/**
 * The version of an image from its tag, parsed with `semver` (v-prefixed and two-part tags are
 * coerced: `v1.9` → 1.9.0; build suffixes such as `-amd64` are dropped for comparisons, pre-releases such as
 * `-0.dev` or `-rc.1` are kept, so `v3.25.0-0.dev` is older than 3.25.0, as semver orders them).
 * Tags that are not versions (`latest`, `master`, `main`), missing tags and digest-only
 * references give an unknown version with a reason phrased for a message.
 */
export function imageVersion(image: string): ImageVersion {
  const ref = parseImage(image);
  if (!ref.tag) {
    return { known: false, reason: ref.digest ? `image ${image} is pinned by digest, so its version is unknown` : `image ${image} has no tag (":latest"), so its version is unknown` };
  }
  if (!VERSION_TAG.test(ref.tag)) return { known: false, reason: `tag "${ref.tag}" of image ${ref.repository} is not a version, so the version is unknown` };
  const full = coerce(ref.tag, { includePrerelease: true });
  if (!full) return { known: false, reason: `tag "${ref.tag}" of image ${ref.repository} is not a version, so the version is unknown` };
  // A pre-release (`v3.25.0-0.dev`, `v1.30.0-rc.1`) comes before its release and keeps the older behaviour;
  // other suffixes are builds of the release (`-amd64`, `-eksbuild.1`, `-1-abc`) and compare as the release.
  const pre = full.prerelease.length > 0 && PRE_RELEASE.test(full.prerelease.join('.'));
  return { known: true, version: pre ? full : coerce(ref.tag)!, tag: ref.tag };
}

/** Pre-release identifiers as projects tag them: Calico's `0.dev`, `alpha.1`, `beta.0`, `rc.2`, `dev`, `pre`, nightlies. */
const PRE_RELEASE = /^(0\.dev|alpha|beta|rc|dev|pre|snapshot|nightly)(\b|[.\-\d]|$)/i;

/** True when the version is known and lower than `min` (e.g. `'3.25.0'`). */
export function isOlderThan(v: ImageVersion, min: string): boolean {
  return v.known && lt(v.version, min);
}
