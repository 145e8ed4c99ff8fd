/**
 * Custom LSP messages of rendering (helm / kustomize), shared by the language server and the VS Code client.
 *
 * SECURITY: the renderer binaries run programs, so their paths reach the server only through
 * {@link RENDER_SETTINGS_NOTIFICATION} (the VS Code client sends the *user-level* values, and only in a trusted
 * workspace) or `initializationOptions.kubeNetlint.render` (other editors: the user's own editor config) — never
 * through `workspace/configuration`, which merges workspace settings in.
 */

/** Client → server: where helm and kustomize are (sent after start and on every change). */
export const RENDER_SETTINGS_NOTIFICATION = 'kubeNetlint/renderSettings';

/** Settings `kubeNetlint.render.*` (empty = search PATH). */
export interface RenderSettings {
  readonly helmPath?: string;
  readonly kustomizePath?: string;
}

/** Client → server request `{uri}` → the rendered manifest's text (read-only view), or null when unknown. */
export const RENDERED_DOCUMENT_REQUEST = 'kubeNetlint/renderedDocument';

/** URI scheme of the read-only views of rendered manifests. */
export const RENDER_URI_SCHEME = 'kube-netlint-rendered';

/** `render:kustomize:overlays/prod` → `kube-netlint-rendered:/kustomize%3Aoverlays%2Fprod.yaml` (one encoded segment). */
export function renderedUri(file: string): string {
  return `${RENDER_URI_SCHEME}:/${encodeURIComponent(file.replace(/^render:/, ''))}.yaml`;
}

/** The inverse of {@link renderedUri}. */
export function renderedFileOfUri(uri: string): string | undefined {
  const m = new RegExp(`^${RENDER_URI_SCHEME}:/(.*)\\.yaml$`).exec(uri);
  if (!m) return undefined;
  try {
    return `render:${decodeURIComponent(m[1])}`;
  } catch {
    return undefined;
  }
}
