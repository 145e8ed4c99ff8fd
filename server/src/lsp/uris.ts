import { URI } from 'vscode-uri';

/**
 * File keys used in core spans: the file-system path for `file:` URIs, the URI itself otherwise
 * (e.g. `untitled:Untitled-1`). The exact URI string a client used for an open document is
 * remembered, so diagnostics are published under the same string it sent.
 */
export class UriMap {
  private readonly clientUris = new Map<string, string>();

  /** The file key of a URI (and remembers the client's spelling of it). */
  fileOf(uri: string): string {
    const parsed = URI.parse(uri);
    const file = parsed.scheme === 'file' ? parsed.fsPath : uri;
    this.clientUris.set(file, uri);
    return file;
  }

  /** The URI to publish for a file key. */
  uriOf(file: string): string {
    return this.clientUris.get(file) ?? (isUriKey(file) ? file : URI.file(file).toString());
  }
}

/** True for keys that are URIs rather than paths (`untitled:…`); Windows drive paths (`C:\…`) are paths. */
function isUriKey(file: string): boolean {
  return /^[a-zA-Z][\w+.-]+:/.test(file) && !/^[a-zA-Z]:[\\/]/.test(file);
}

/** The file-system path of a `file:` URI, or undefined for other schemes. */
export function pathOfUri(uri: string): string | undefined {
  const parsed = URI.parse(uri);
  return parsed.scheme === 'file' ? parsed.fsPath : undefined;
}
