// lsp-session.mjs — drives a language server over stdio with vscode-languageserver-protocol's client side
// (the real protocol library, no hand-written JSON-RPC) and times what a user waits for:
//   * workspace mode (kube-netlint): initialize on a folder → first kubeNetlint/status (every file analysed
//     and its diagnostics pushed);
//   * open: didOpen of one file → its first publishDiagnostics;
//   * edits: one-character incremental didChange → the next publishDiagnostics of that file.
// The edit inserts a newline at the start of a line in the middle of the file and deletes it again, so
// the YAML stays valid and every diagnostic below the edit moves (both servers must publish again).
// yaml-language-server gets the settings of its VS Code extension and its Kubernetes schema offline from
// peers/schema/ (answering its `vscode/content` requests, as peers/lsp-bench.mjs does).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

// CommonJS resolution works with both the root's vscode-languageserver-protocol 3.17 (no `exports` map) and
// a newer copy that bench/node_modules may hold (yaml-language-server's dependency).
const {
  createProtocolConnection, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, ExitNotification,
  InitializedNotification, InitializeRequest, PublishDiagnosticsNotification, ShutdownRequest, StreamMessageReader,
  StreamMessageWriter, DidChangeConfigurationNotification,
} = createRequire(import.meta.url)('vscode-languageserver-protocol/node');

const here = path.dirname(new URL(import.meta.url).pathname);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const YAML_LS_SETTINGS = {
  yaml: {
    validate: true, hover: true, completion: true, format: { enable: false },
    schemas: { kubernetes: ['*.yaml', '*.yml'] }, kubernetesVersion: 'v1.28.0',
    schemaStore: { enable: false }, kubernetesCRDStore: { enable: true }, maxItemsComputed: 5000,
  },
  http: { proxy: '', proxyStrictSSL: false },
};

/** Peak resident set (VmHWM) of a process in MB, read from /proc while it runs. */
export function peakRssMB(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(+(s.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0) / 1024);
  } catch {
    return null;
  }
}

/**
 * @param {{kind: 'kube-netlint'|'yaml-ls', command: string[], folder: string, initializationOptions?: object,
 *   openAtStart?: {file: string, text: string}}} opts
 *   `initializationOptions`: e.g. `{cacheFolder}` (kube-netlint's parse cache); `openAtStart`: a document opened
 *   right after `initialized`, as an editor restoring its open tab does (see `openedAtStart()`).
 */
export async function startSession({ kind, command, folder, initializationOptions = {}, openAtStart }) {
  const proc = spawn(process.execPath, command, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const waiters = [];
  const notify = (event) => { for (const w of waiters.splice(0)) if (!w(event)) waiters.push(w); };
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => notify({ type: 'diagnostics', uri: p.uri, count: p.diagnostics.length }));
  conn.onNotification('kubeNetlint/status', (p) => notify({ type: 'status', status: p }));
  conn.onNotification('window/logMessage', () => undefined);
  conn.onNotification('window/showMessage', () => undefined);
  conn.onNotification('telemetry/event', () => undefined);
  conn.onRequest('workspace/configuration', (p) => p.items.map((it) => (kind === 'yaml-ls' ? YAML_LS_SETTINGS[it.section] ?? null : null)));
  conn.onRequest('client/registerCapability', () => null);
  const progress = [];
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification('$/progress', (p) => progress.push({ at: performance.now(), ...p.value }));
  conn.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(folder).href, name: 'ws' }]);
  conn.onRequest('custom/schema/request', () => []);
  conn.onRequest('vscode/content', (uri) => {
    const m = /^https:\/\/raw\.githubusercontent\.com\/yannh\/kubernetes-json-schema\/master\/([^/]+)\/([^/#?]+)(?:#.*)?$/.exec(uri);
    if (!m) throw new Error(`offline: no local copy of ${uri}`);
    return fs.readFileSync(path.join(here, '..', 'peers', 'schema', m[1], m[2]), 'utf8');
  });
  conn.listen();
  const waitFor = (pred, timeoutMs = 600000) => new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timeout after ${timeoutMs} ms${stderr ? `; server stderr: ${stderr.slice(0, 300)}` : ''}`)), timeoutMs);
    waiters.push((e) => { if (pred(e)) { clearTimeout(t); resolve({ event: e, at: performance.now() }); return true; } return false; });
  });
  const folderUri = pathToFileURL(folder).href;
  const t0 = performance.now();
  const firstStatus = kind === 'kube-netlint' ? waitFor((e) => e.type === 'status' && e.status.files > 0) : undefined;
  await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid, rootUri: folderUri, workspaceFolders: [{ uri: folderUri, name: 'ws' }],
    capabilities: {
      workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: { dynamicRegistration: true } },
      textDocument: { synchronization: { didSave: true }, publishDiagnostics: { versionSupport: true, relatedInformation: true }, hover: {} },
      window: { workDoneProgress: true },
    },
    initializationOptions,
  });
  await conn.sendNotification(InitializedNotification.type, {});
  const tInitialized = performance.now();
  const openUri = openAtStart && pathToFileURL(openAtStart.file).href;
  const openedDiagnostics = openAtStart && waitFor((e) => e.type === 'diagnostics' && e.uri === openUri);
  if (openAtStart) await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: openUri, languageId: 'yaml', version: 1, text: openAtStart.text } });
  if (kind === 'yaml-ls') {
    await conn.sendNotification('yaml/registerContentRequest');
    await conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await sleep(500);
  }
  let version = 1;
  const session = {
    pid: proc.pid,
    /** `$/progress` values received (with their arrival time). */
    progress,
    /** ms from `initialized` to the first publishDiagnostics of the `openAtStart` document. */
    async openedAtStart() {
      const r = await openedDiagnostics;
      return { ms: r.at - tInitialized, diagnostics: r.event.count };
    },
    /** ms from `initialized` to the first status (the whole folder analysed). */
    async initialFromInitialized() {
      const r = await firstStatus;
      return { ms: r.at - tInitialized, status: r.event.status };
    },
    /** ms from spawn to the first status (kube-netlint: the whole folder analysed and published). */
    async initial() {
      if (!firstStatus) return null;
      const r = await firstStatus;
      return { ms: r.at - t0, status: r.event.status };
    },
    /**
     * didOpen → first publishDiagnostics of that file. With `wait: false` (kube-netlint, whose workspace scan
     * already published the file's diagnostics and which re-publishes only what changed) it does not wait.
     */
    async open(file, text, wait = true) {
      const uri = pathToFileURL(file).href;
      const w = wait ? waitFor((e) => e.type === 'diagnostics' && e.uri === uri) : undefined;
      const s = performance.now();
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version, text } });
      if (!w) return { ms: null, diagnostics: null };
      const r = await w;
      return { ms: r.at - s, diagnostics: r.event.count };
    },
    /** `n` one-character edits (newline inserted / removed at `line`), each awaited, `gapMs` apart. */
    async edits(file, line, n, gapMs = 300) {
      const uri = pathToFileURL(file).href;
      const out = [];
      for (let i = 0; i < n; i++) {
        const insert = i % 2 === 0;
        const change = insert
          ? { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: '\n' }
          : { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' };
        version++;
        const w = waitFor((e) => e.type === 'diagnostics' && e.uri === uri, 120000);
        const s = performance.now();
        await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [change] });
        const r = await w;
        out.push(r.at - s);
        await sleep(gapMs);
      }
      return out;
    },
    /** Waits until the server answers a request at once (its work queue is empty): hover round trip < 40 ms. */
    async settle(file, maxMs = 120000) {
      const uri = pathToFileURL(file).href;
      const until = performance.now() + maxMs;
      while (performance.now() < until) {
        const s = performance.now();
        await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } }).catch(() => null);
        if (performance.now() - s < 40) return;
        await sleep(100);
      }
    },
    peakRssMB: () => peakRssMB(proc.pid),
    async stop() {
      const rss = peakRssMB(proc.pid);
      try {
        await Promise.race([conn.sendRequest(ShutdownRequest.type), sleep(3000)]);
        await conn.sendNotification(ExitNotification.type);
      } catch { /* already gone */ }
      setTimeout(() => proc.kill(), 1000).unref();
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.on('exit', r)));
      conn.dispose();
      return rss;
    },
  };
  return session;
}

/** The 0-based line in the middle of `text` to edit: the first line at or after the middle that starts a mapping key. */
export function middleLine(text) {
  const lines = text.split('\n');
  for (let i = Math.floor(lines.length / 2); i < lines.length; i++) if (/^\s+[a-zA-Z]+:/.test(lines[i])) return i;
  return Math.floor(lines.length / 2);
}
