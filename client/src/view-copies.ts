/**
 * Which diagnostics of a read-only rendered view are copies of a finding already listed on a source line (no
 * `vscode` import, so the split is unit-tested on its own; rendered-diagnostics.ts draws the copies).
 *
 * The language server publishes a finding on a rendered object twice: on the source line the user edits, with a
 * related-information link "in the rendered manifest" to the field in the view, and again in the view itself, with
 * the same code, message and range as that link (server/src/lsp/renders.ts findingsOnRendered). A finding whose
 * rendered field maps to no source line (generated output without a source map) is published in the view only: it
 * must stay a diagnostic, or Problems would not list it at all. So a view's diagnostic counts as a copy only while a
 * source diagnostic with the same code and message links to its exact range; everything else stays listed.
 */

/** A 0-based line/character position (vscode.Position fits). */
export interface PositionLike {
  readonly line: number;
  readonly character: number;
}

/** What the split reads of a diagnostic (vscode.Diagnostic fits). */
export interface DiagnosticLike {
  readonly range: { readonly start: PositionLike; readonly end: PositionLike };
  readonly message: string;
  readonly code?: string | number | { readonly value: string | number };
  readonly relatedInformation?: readonly { readonly location: { readonly uri: { toString(): string }; readonly range: { readonly start: PositionLike; readonly end: PositionLike } }; readonly message?: string }[];
}

/** A view's diagnostics: `listed` stay diagnostics (Problems lists them), `drawn` are copies of source-line ones. */
export interface ViewSplit<D> {
  readonly listed: D[];
  readonly drawn: D[];
}

/**
 * The last diagnostics the server published per URI, and the links from source diagnostics into the views.
 * URIs are compared as strings (`Uri.toString()`).
 */
export class ViewCopies<D extends DiagnosticLike> {
  /** View URI → the diagnostics the server published for it. */
  private readonly views = new Map<string, readonly D[]>();
  /** Source URI → the copy keys its diagnostics link to (see {@link copyKey}). */
  private readonly links = new Map<string, readonly string[]>();
  /** Copy key → how many source diagnostics link to it. */
  private readonly linked = new Map<string, number>();

  /** @param isView whether a URI is a rendered view's (its scheme) */
  constructor(private readonly isView: (uri: string) => boolean) {}

  /**
   * Records one `publishDiagnostics` (an empty list clears the URI).
   * @returns the view URIs whose split may have changed: the view itself, or the views a source URI linked to
   *   before or links to now
   */
  update(uri: string, diagnostics: readonly D[]): string[] {
    if (this.isView(uri)) {
      if (diagnostics.length) this.views.set(uri, diagnostics);
      else this.views.delete(uri);
      return [uri];
    }
    const before = this.links.get(uri) ?? [];
    const now: string[] = [];
    for (const d of diagnostics) {
      for (const r of d.relatedInformation ?? []) {
        const view = r.location.uri.toString();
        if (this.isView(view)) now.push(copyKey(view, r.location.range, d));
      }
    }
    for (const k of before) {
      const n = (this.linked.get(k) ?? 0) - 1;
      if (n > 0) this.linked.set(k, n);
      else this.linked.delete(k);
    }
    for (const k of now) this.linked.set(k, (this.linked.get(k) ?? 0) + 1);
    if (now.length) this.links.set(uri, now);
    else this.links.delete(uri);
    return [...new Set([...before, ...now].map(viewOfKey))];
  }

  /** The view's diagnostics, split into those that stay listed and the copies of source-line ones. */
  split(view: string): ViewSplit<D> {
    const listed: D[] = [];
    const drawn: D[] = [];
    for (const d of this.views.get(view) ?? []) (this.linked.has(copyKey(view, d.range, d)) ? drawn : listed).push(d);
    return { listed, drawn };
  }

  /** Forgets everything (the language server restarted: it publishes all again). */
  clear(): void {
    this.views.clear();
    this.links.clear();
    this.linked.clear();
  }
}

/** `view NUL range NUL code NUL message`: what a source diagnostic's link and the view's copy have in common. */
function copyKey(view: string, range: DiagnosticLike['range'], d: DiagnosticLike): string {
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  const at = `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
  return `${view}\u0000${at}\u0000${code ?? ''}\u0000${d.message}`;
}

function viewOfKey(key: string): string {
  return key.slice(0, key.indexOf('\u0000'));
}
