import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeAction, CodeActionRequest, ConfigurationRequest, createProtocolConnection, Diagnostic, DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification, DidChangeWorkspaceFoldersNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, ExitNotification,
  FileChangeType, Hover, HoverRequest, InitializedNotification, InitializeRequest, ProtocolConnection, PublishDiagnosticsNotification,
  Range, RegistrationRequest, ShutdownRequest, StreamMessageReader, StreamMessageWriter, TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

/** The compiled language server (tsc output; the bundle dist/server.js is exercised by the Neovim test). */
export const SERVER_MAIN = process.env.KUBE_NETLINT_SERVER ?? resolve(__dirname, '../../server/out/lsp/main.js');
export const FIXTURES = resolve(__dirname, '../../test/fixtures/lsp');

export const uriOf = (path: string): string => (/^[a-z][a-z0-9+.-]*:/.test(path) ? path : pathToFileURL(path).href);

/**
 * A real LSP client for tests: spawns the server over stdio and talks to it with
 * vscode-languageserver-protocol's client side. Records every publishDiagnostics and status notification.
 */
export class TestClient {
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly publishCount = new Map<string, number>();
  readonly statuses: unknown[] = [];
  /** window/logMessage lines (the server's output channel). */
  readonly logs: string[] = [];
  /** client/registerCapability registrations received. */
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  /** `window/workDoneProgress/create` tokens and `$/progress` values, in arrival order (with `workDoneProgress`). */
  readonly progress: unknown[] = [];
  /** window/showMessage notifications: `type message`. */
  readonly messages: string[] = [];
  readonly stderr: string[] = [];
  private listeners: (() => void)[] = [];
  private versions = new Map<string, number>();
  exitCode: number | null | undefined;

  private constructor(readonly proc: ChildProcess, readonly connection: ProtocolConnection) {}

  /** Starts the server and completes initialize/initialized on `folders` with optional settings. */
  static async start(folders: string[], options: { settings?: Record<string, unknown>; initializationOptions?: unknown; server?: string; dynamicWatchers?: boolean; workDoneProgress?: boolean; prefix?: string[] } = {}): Promise<TestClient> {
    // `prefix`: a command the server runs under (e.g. `unshare -n`: no network for renderer tests).
    const [command, ...args] = [...(options.prefix ?? []), process.execPath, options.server ?? SERVER_MAIN, '--stdio'];
    const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const client = new TestClient(proc, connection);
    proc.stderr!.on('data', (d: Buffer) => client.stderr.push(d.toString()));
    proc.on('exit', (code) => (client.exitCode = code));
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      client.diagnostics.set(p.uri, p.diagnostics);
      client.publishCount.set(p.uri, (client.publishCount.get(p.uri) ?? 0) + 1);
      client.listeners.forEach((l) => l());
    });
    connection.onNotification('kubeNetlint/status', (p: unknown) => {
      client.statuses.push(p);
      client.listeners.forEach((l) => l());
    });
    connection.onNotification('window/logMessage', (p: { message: string }) => client.logs.push(p.message));
    connection.onNotification('window/showMessage', (p: { type: number; message: string }) => client.messages.push(`${p.type} ${p.message}`));
    connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => options.settings ?? null));
    connection.onRequest(RegistrationRequest.type, (p) => {
      client.registrations.push(...p.registrations);
      return null;
    });
    connection.onRequest('window/workDoneProgress/create', (p: { token: unknown }) => {
      client.progress.push({ create: p.token });
      return null;
    });
    connection.onNotification('$/progress', (p: { token: unknown; value: unknown }) => {
      client.progress.push(p.value);
      client.listeners.forEach((l) => l());
    });
    connection.onRequest('window/showMessageRequest', (p: { type: number; message: string }) => {
      client.messages.push(`${p.type} ${p.message}`);
      return null;
    });
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: folders[0] ? uriOf(folders[0]) : null,
      workspaceFolders: folders.map((f) => ({ uri: uriOf(f), name: f })),
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: options.dynamicWatchers ?? false } },
        textDocument: { publishDiagnostics: { relatedInformation: true }, hover: { contentFormat: ['markdown'] } },
        ...(options.workDoneProgress ? { window: { workDoneProgress: true } } : {}),
      },
      initializationOptions: options.initializationOptions,
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Resolves with the file's diagnostics once `accept` holds for them (checked on each publish). */
  waitFor(path: string, accept: (d: Diagnostic[]) => boolean, timeoutMs = 15000): Promise<Diagnostic[]> {
    const uri = uriOf(path);
    return new Promise((res, rej) => {
      const check = (): boolean => {
        const d = this.diagnostics.get(uri);
        if (d && accept(d)) {
          this.listeners = this.listeners.filter((l) => l !== listener);
          clearTimeout(timer);
          res(d);
          return true;
        }
        return false;
      };
      const listener = (): void => void check();
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== listener);
        rej(new Error(`timeout waiting for diagnostics of ${path}; last: ${JSON.stringify(this.diagnostics.get(uri))}\nserver stderr: ${this.stderr.join('')}`));
      }, timeoutMs);
      if (!check()) this.listeners.push(listener);
    });
  }

  /** Opens a document: a file path, or a URI such as `untitled:Untitled-1`. */
  open(path: string, text = readFileSync(path, 'utf8')): void {
    this.versions.set(path, 1);
    void this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(path), languageId: 'yaml', version: 1, text } });
  }

  /** Sends a didChange: a full replacement text, or incremental range edits. */
  change(path: string, changes: string | TextDocumentContentChangeEvent[]): void {
    const version = (this.versions.get(path) ?? 1) + 1;
    this.versions.set(path, version);
    const contentChanges = typeof changes === 'string' ? [{ text: changes }] : changes;
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uriOf(path), version }, contentChanges });
  }

  close(path: string): void {
    void this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(path) } });
  }

  diskChanged(path: string, type: FileChangeType): void {
    void this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(path), type }] });
  }

  foldersChanged(added: string[], removed: string[]): void {
    const folders = (list: string[]): { uri: string; name: string }[] => list.map((f) => ({ uri: uriOf(f), name: f }));
    void this.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: folders(added), removed: folders(removed) } });
  }

  hover(path: string, line: number, character: number): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(path) }, position: { line, character } });
  }

  async codeActions(path: string, range: Range, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    const result = await this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(path) }, range, context: { diagnostics } });
    return (result ?? []) as CodeAction[];
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    await new Promise((r) => setTimeout(r, 50));
    this.connection.dispose();
    if (this.alive) this.proc.kill();
  }
}

/** Applies LSP text edits to a text (positions converted with the text's own line starts). */
export function applyTextEdits(text: string, edits: { range: Range; newText: string }[]): string {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const offset = (p: { line: number; character: number }): number => (starts[p.line] ?? text.length) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

export const fixture = (...parts: string[]): string => join(FIXTURES, ...parts);
