import { basename } from 'node:path';
import type { Connection } from 'vscode-languageserver';
import type { ClaimLink } from '../core/port-map/document';
import { portMapDocument } from '../core/port-map/document';
import { portMapsOf } from '../core/port-map/port-map';
import type { Span } from '../core/source/span';
import { RENDER_FILE_PREFIX } from '../core/render/jobs';
import { clusterUri } from '../protocol/cluster-messages';
import { renderedUri } from '../protocol/render-messages';
import { PORT_MAP_CHANGED_NOTIFICATION, PORT_MAP_REQUEST, PortMapFolder, PortMapResponse } from '../protocol/port-map-messages';
import type { UriMap } from './uris';
import type { Folder, Workspace } from './workspace';

/**
 * The node-port map in the language server: answers {@link PORT_MAP_REQUEST} from each folder's last analysis
 * (the same computation as `kube-netlint ports`, never an analysis of its own) and tells the client when a new
 * analysis changed it, so an open view updates without a manual refresh.
 */
export class PortMapService {
  private version = 0;
  private readonly seen = new WeakSet<object>();

  constructor(private readonly connection: Connection, private readonly workspace: Workspace, private readonly uris: UriMap) {
    connection.onRequest(PORT_MAP_REQUEST, () => this.response());
  }

  /** Call after every analysis run: notifies the client when some folder's analysis is new. */
  analysed(): void {
    let changed = false;
    for (const folder of this.workspace.all()) {
      const analysis = folder.host.last?.analysis;
      if (analysis && !this.seen.has(analysis)) {
        this.seen.add(analysis);
        changed = true;
      }
    }
    if (!changed) return;
    this.version++;
    this.connection.sendNotification(PORT_MAP_CHANGED_NOTIFICATION, { version: this.version }).catch(() => undefined);
  }

  /** The port map of every folder that has files and an analysis. */
  response(): PortMapResponse {
    const folders: PortMapFolder[] = [];
    for (const folder of this.workspace.all()) {
      const analysis = folder.host.last?.analysis;
      if (!analysis || folder.host.files().length === 0) continue;
      const maps = portMapsOf(analysis, folder.host.currentConfig);
      folders.push({
        name: folder.path ? basename(folder.path) : 'files outside the workspace folders',
        uri: folder.uri,
        document: portMapDocument(maps, analysis.files, { link: (span) => this.link(folder, span) }),
      });
    }
    return { version: this.version, folders };
  }

  /**
   * Where the editor opens a claim's field: the workspace file at the span; a live-cluster object's read-only
   * document at the field (its first line should the object be gone). A claim of a rendered object (kustomize / Helm output) comes here with the source
   * span it was rendered from (the port map maps it, see PortMapClaim.source), so it opens the line the user edits;
   * one the source map does not cover opens the read-only rendered manifest on the rendered field.
   */
  private link(folder: Folder, span: Span): ClaimLink | undefined {
    const loaded = folder.host.loadedFile(span.file); // live-cluster objects: their read-only view
    if (!loaded && span.file.startsWith('cluster:')) return { uri: clusterUri(span.file), line: 0, character: 0, endLine: 0, endCharacter: 0 };
    if (!loaded) return undefined; // built-in objects, files that left the workspace since the analysis
    const start = loaded.lines.lspPosition(span.start);
    const end = loaded.lines.lspPosition(span.end);
    const uri = span.file.startsWith(RENDER_FILE_PREFIX) ? renderedUri(span.file) : span.file.startsWith('cluster:') ? clusterUri(span.file) : this.uris.uriOf(span.file);
    return { uri, line: start.line, character: start.character, endLine: end.line, endCharacter: end.character };
  }
}
