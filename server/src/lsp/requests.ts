import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActions } from './code-actions';
import type { DiagnosticPublisher } from './diagnostics';
import { hoverAt } from './hover';
import { showPortsCommandUri } from '../protocol/port-map-messages';
import type { UriMap } from './uris';
import type { Folder, Workspace } from './workspace';

/** What the request handlers read: documents, the workspace's last analyses and the published findings. */
export interface RequestDeps {
  readonly documents: TextDocuments<TextDocument>;
  readonly uris: UriMap;
  readonly workspace: Workspace;
  readonly publisher: DiagnosticPublisher;
  /** True when hovers may link into the client's node-port map view. */
  readonly portMapLinks?: () => boolean;
  /** The client registers the "Show Rule Documentation" command (initializationOptions). */
  readonly ruleDocsCommand: () => boolean;
}

/**
 * Registers textDocument/hover and textDocument/codeAction. Both answer from the document's current
 * text (open buffer, else the loaded on-disk text) and the folder's last analysis; they never run
 * an analysis themselves.
 */
export function registerRequests(connection: Connection, { documents, uris, workspace, publisher, ruleDocsCommand, portMapLinks }: RequestDeps): void {
  const folderFor = (uri: string): { file: string; folder: Folder; text: string | undefined } => {
    const file = uris.fileOf(uri);
    const folder = workspace.folderOf(file);
    return { file, folder, text: documents.get(uri)?.getText() ?? folder.host.loadedFile(file)?.text };
  };
  const openDocument = (file: string): TextDocument | undefined => documents.all().find((d) => uris.fileOf(d.uri) === file);

  connection.onHover((params) => {
    const { file, folder, text } = folderFor(params.textDocument.uri);
    const doc = documents.get(params.textDocument.uri);
    const loaded = folder.host.loadedFile(file);
    if (text === undefined || (!doc && !loaded)) return null;
    const offset = doc ? doc.offsetAt(params.position) : loaded!.lines.offsetAt(params.position.line, params.position.character);
    return hoverAt({
      file, text, offset, analysis: folder.host.last?.analysis, findings: publisher.findingsAt(file, offset, text),
      loadedFile: (f) => folder.host.loadedFile(f), uriOf: (f) => uris.uriOf(f), ruleDocsCommand: ruleDocsCommand(),
      portMapLink: portMapLinks?.() ? (port) => showPortsCommandUri({ port, uri: params.textDocument.uri }) : undefined,
    });
  });

  connection.onCodeAction((params) => {
    const { file, folder, text } = folderFor(params.textDocument.uri);
    if (text === undefined) return [];
    const doc = documents.get(params.textDocument.uri);
    return codeActions(params, {
      file, text,
      findingFor: (key) => publisher.findingFor(file, key, text),
      findingAt: (ruleId, position) => {
        const offset = doc ? doc.offsetAt(position) : folder.host.loadedFile(file)?.lines.offsetAt(position.line, position.character);
        return offset === undefined ? undefined : publisher.findingsAt(file, offset, text).find((f) => f.ruleId === ruleId && f.span.start === offset);
      },
      analysedFile: (f) => folder.host.last?.analysis.files.get(f),
      currentText: (f) => openDocument(f)?.getText() ?? folder.host.loadedFile(f)?.text,
      uriOf: (f) => uris.uriOf(f),
      ruleDocsCommand: ruleDocsCommand(),
    });
  });
}
