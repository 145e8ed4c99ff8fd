import type { Connection, DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, TextDocuments } from 'vscode-languageserver/node';

type Handler<P> = (params: P) => void;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPosition = (v: unknown): boolean => isObject(v) && Number.isInteger(v.line) && Number.isInteger(v.character) && (v.line as number) >= 0 && (v.character as number) >= 0;
const isRange = (v: unknown): boolean => isObject(v) && isPosition(v.start) && isPosition(v.end);

/** What is wrong with a `textDocument/didOpen`, or undefined when it has the LSP 3.17 shape. */
export function didOpenProblem(p: unknown): string | undefined {
  const td = isObject(p) ? p.textDocument : undefined;
  if (!isObject(td)) return 'params.textDocument is not an object';
  if (typeof td.uri !== 'string' || !td.uri) return 'textDocument.uri is not a string';
  if (typeof td.text !== 'string') return `textDocument.text is ${td.text === null ? 'null' : typeof td.text}, not a string`;
  if (typeof td.version !== 'number' || !Number.isInteger(td.version)) return 'textDocument.version is not an integer';
  if (typeof td.languageId !== 'string') return 'textDocument.languageId is not a string';
  return undefined;
}

/** What is wrong with a `textDocument/didChange` (full or incremental changes), or undefined. */
export function didChangeProblem(p: unknown): string | undefined {
  const td = isObject(p) ? p.textDocument : undefined;
  if (!isObject(td) || typeof td.uri !== 'string') return 'params.textDocument.uri is not a string';
  if (typeof td.version !== 'number' || !Number.isInteger(td.version)) return 'textDocument.version is not an integer';
  const changes = isObject(p) ? p.contentChanges : undefined;
  if (!Array.isArray(changes)) return 'params.contentChanges is not a list';
  const bad = changes.findIndex((c) => !isObject(c) || typeof c.text !== 'string' || (c.range !== undefined && !isRange(c.range)));
  return bad >= 0 ? `contentChanges[${bad}] has no string text or a malformed range` : undefined;
}

/** What is wrong with a `textDocument/didClose` (or didSave / willSave), or undefined. */
export function documentIdProblem(p: unknown): string | undefined {
  const td = isObject(p) ? p.textDocument : undefined;
  return isObject(td) && typeof td.uri === 'string' ? undefined : 'params.textDocument.uri is not a string';
}

/**
 * Lets `documents` listen to `connection` through a gate that drops document notifications of the wrong shape
 * with one log line each. Without it, one `didOpen` whose `text` is a number is stored as the document's text
 * and every later analysis throws until that document is closed. Everything else passes through unchanged.
 */
export function listenValidated<T extends { uri: string }>(documents: TextDocuments<T>, connection: Connection, log: (message: string) => void): void {
  const gate = <P>(method: string, problem: (p: unknown) => string | undefined) => (register: (h: Handler<P>) => unknown) => (handler: Handler<P>) =>
    register((params: P) => {
      const wrong = problem(params);
      if (wrong) {
        log(`kube-netlint: dropped a ${method} notification: ${wrong}`);
        return;
      }
      handler(params);
    });
  const gated = Object.create(connection) as Connection;
  Object.assign(gated, {
    onDidOpenTextDocument: gate<DidOpenTextDocumentParams>('textDocument/didOpen', didOpenProblem)((h) => connection.onDidOpenTextDocument(h)),
    onDidChangeTextDocument: gate<DidChangeTextDocumentParams>('textDocument/didChange', didChangeProblem)((h) => connection.onDidChangeTextDocument(h)),
    onDidCloseTextDocument: gate<DidCloseTextDocumentParams>('textDocument/didClose', documentIdProblem)((h) => connection.onDidCloseTextDocument(h)),
  });
  documents.listen(gated);
  // TextDocuments tells the connection which sync kind it uses through this field.
  (connection as unknown as { __textDocumentSync?: unknown }).__textDocumentSync = (gated as unknown as { __textDocumentSync?: unknown }).__textDocumentSync;
}
