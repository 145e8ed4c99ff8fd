import {
  CodeActionKind, Connection, DidChangeConfigurationNotification, DidChangeWatchedFilesNotification, FileChangeType, InitializeResult, MessageType, ShowMessageNotification,
  TextDocuments, TextDocumentSyncKind, WorkspaceFolder,
} from 'vscode-languageserver/node';
import { packageVersion } from '../node/version';
import { clusterUri, type ClusterSettings } from '../protocol/cluster-messages';
import type { InitializationOptions } from '../protocol/messages';
import { RENDER_SETTINGS_NOTIFICATION, RENDERED_DOCUMENT_REQUEST, renderedFileOfUri, renderedUri, RenderSettings } from '../protocol/render-messages';
import { RENDER_FILE_PREFIX } from '../core/render/jobs';
import { CLUSTER_FILE_PREFIX, ClusterIntegration } from './cluster';
import { ChangedRanges } from './changed-ranges';
import { listenValidated } from './message-shapes';
import { DiagnosticPublisher } from './diagnostics';
import { PortMapService } from './port-map';
import { registerRequests } from './requests';
import { singleFileFindings } from './open-first';
import { ScanProgress } from './scan-progress';
import { findingsOnRendered, RenderManager } from './renders';
import { Scheduler } from './scheduler';
import { recalledStatus, statusOf, StatusReporter } from './status';
import { pathOfUri, UriMap } from './uris';
import { type Folder, type Scanning, Workspace } from './workspace';
import type { RecalledScan } from './remembered-scan';
import { contentHash } from '../node/parse-cache';
import type { Finding } from '../core/rules/rule';

/** Delay that coalesces bursts of edits into one analysis run (see {@link Scheduler}). */
export const ANALYSIS_DELAY_MS = 150;

/**
 * Wires the language server: workspace folders are scanned on start, open documents are analysed
 * from memory, disk changes come from workspace/didChangeWatchedFiles (the client registers the
 * watcher), and after every (debounced) analysis run diagnostics are pushed for each file whose
 * findings changed. Handlers never throw: failures are logged to the client's output.
 */
export function startServer(connection: Connection): void {
  const changedRanges = new ChangedRanges(); // where each buffer changed since the analysis read it
  const documents = new TextDocuments(changedRanges);
  const uris = new UriMap();
  const log = (message: string): void => connection.console.log(message);
  const shown = new Set<string>();
  const warn = (message: string): void => {
    log(message);
    if (shown.has(message)) return; // once per problem
    shown.add(message);
    // A notification (window/showMessage): showWarningMessage would send a request the client must answer.
    connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }).catch(() => undefined);
  };
  // The cache folder comes with initialize (initializationOptions.cacheFolder); scans read this object then.
  const scanning: { cacheFolder?: string } & Scanning = {
    progress: () => {
      const progress = new ScanProgress(connection);
      return (done, total) => progress.update(done, total);
    },
    onFolderAdded: () => scheduler.request(),
    onRecalled: (folder, recalled) => showRecalled(folder, recalled),
  };
  const workspace = new Workspace(log, warn, scanning);
  const early = new Map<string, string>(); // open documents given single-file diagnostics during the scan: uri → version and folder
  const portMap = new PortMapService(connection, workspace, uris);
  let portMapLinks = false; // the client shows the node-port map view: hovers link into it
  const publisher = new DiagnosticPublisher((uri, diagnostics) => void connection.sendDiagnostics({ uri, diagnostics }).catch(() => undefined));
  const status = new StatusReporter(connection);
  const pending = new Set<string>(); // URIs of open documents whose text is not loaded yet
  let ready = false;
  let settingsChangedEarly = false; // didChangeConfiguration arrived during the initial scan
  let hasConfiguration = false;
  let hasDynamicConfiguration = false;
  let hasFolderEvents = false;
  let registerWatcher = false; // the client can watch files for us and does not already
  let ruleDocsCommand = false; // the client opens rule pages with kubeNetlint.showRuleDocumentation
  let initSettings: Record<string, unknown> = {};
  let initialFolders: WorkspaceFolder[] = [];
  let lastFailures = '';
  let initializedAt = 0; // performance.now() at `initialized`
  let cluster: ClusterIntegration | undefined; // live cluster (read-only, opt-in), created at initialize
  let renders: RenderManager | undefined; // helm / kustomize renders, created at initialize
  // Rendered manifests (`render:…`) and live-cluster objects (`cluster:…`) are published under their read-only view's URI.
  const uriOfFile = (f: string): string => (f.startsWith(RENDER_FILE_PREFIX) ? renderedUri(f) : f.startsWith(CLUSTER_FILE_PREFIX) ? clusterUri(f) : uris.uriOf(f));

  const settingsFor = async (scopeUri: string | undefined): Promise<unknown> => {
    if (!hasConfiguration) return initSettings;
    try {
      const pulled = (await connection.workspace.getConfiguration({ scopeUri, section: 'kubeNetlint' })) as unknown;
      return { ...initSettings, ...(pulled && typeof pulled === 'object' ? pulled : {}) };
    } catch (err) {
      log(`kube-netlint: workspace/configuration failed, using initializationOptions: ${(err as Error).message}`);
      return initSettings;
    }
  };
  const openFiles = (): Set<string> => new Set(documents.all().map((d) => uris.fileOf(d.uri)));

  /**
   * While the workspace is being scanned: each open document gets, at once, the findings that depend on its
   * own file only (see open-first.ts); the whole analysis (cross-file findings too) replaces them when the
   * scan ends.
   */
  const runEarly = (): void => {
    for (const uri of pending) {
      const doc = documents.get(uri);
      if (!doc) continue;
      const file = uris.fileOf(uri);
      const folder = workspace.folderOf(file);
      if (early.get(uri) === `${doc.version} ${folder.uri}`) continue;
      if (folder.isExcluded(file)) continue;
      try {
        const { loaded, findings } = singleFileFindings(file, doc.getText(), folder.settings.config);
        // An empty list too: the editor learns the file was read (no single-file finding) before the scan ends.
        if (findings.length === 0 && !publisher.filesWithDiagnostics().includes(file)) void connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
        else publisher.publish([file], new Map([[file, findings]]), { loadedFile: () => loaded, uriOf: () => uri });
        early.set(uri, `${doc.version} ${folder.uri}`);
      } catch (err) {
        connection.console.error(`kube-netlint: analysis of ${file} failed: ${(err as Error).stack ?? err}`);
      }
    }
  };

  /**
   * A reopened folder whose files are all as the first analysis after an earlier scan read them, and whose findings
   * followed from them alone (lsp/remembered-scan.ts): that analysis's diagnostics at once, and the status when the
   * workspace is this one folder, while the files load; the analysis after the load then stands (it sends only
   * what differs). Nothing is shown early while the live cluster is read, or when an open document of the folder
   * differs from its file.
   */
  const showRecalled = (folder: Folder, recalled: RecalledScan): void => {
    const hashes = folder.scanned?.hashes;
    if (cluster?.enabled || !hashes) return;
    const open = documents.all().filter((d) => {
      const file = uris.fileOf(d.uri);
      return workspace.folderOf(file) === folder && !folder.isExcluded(file);
    });
    if (open.some((d) => hashes.get(uris.fileOf(d.uri)) !== contentHash(d.getText()))) return;
    const byFile = new Map<string, Finding[]>();
    for (const f of recalled.stored.findings) {
      const list = byFile.get(f.span.file);
      if (list) list.push(f);
      else byFile.set(f.span.file, [f]);
    }
    publisher.publish(byFile.keys(), byFile, { loadedFile: (f) => recalled.files.get(f), uriOf: uriOfFile });
    // Their diagnostics are the whole workspace's already: the scan's single-file ones would only take them back.
    for (const d of open) early.set(d.uri, `${d.version} ${folder.uri}`);
    if (initialFolders.length !== 1 || workspace.all().some((f) => f !== folder && f.host.files().length > 0)) return;
    status.report({ ...recalledStatus(recalled.stored, performance.now() - initializedAt), ...(renders ? { render: renders.status() } : {}) });
  };

  /** Hands the changed editor buffers to their folders (before an analysis, and before renders read them). */
  const applyPending = (): void => {
    for (const uri of pending) {
      const doc = documents.get(uri);
      if (doc) workspace.setText(uris.fileOf(uri), doc.getText(), changedRanges.take(uri));
    }
    pending.clear();
  };

  const runAnalysis = (): void => {
    if (!ready) return runEarly();
    early.clear();
    const started = performance.now();
    try {
      applyPending();
      const failures: string[] = [];
      for (const folder of workspace.all()) {
        folder.host.setClusterObjects(cluster?.objects() ?? [], cluster?.viewFiles());
        if (!folder.host.needsAnalysis || folder.host.busy) continue; // a loading folder keeps its last diagnostics
        const run = folder.host.analyze();
        if (!cluster?.enabled) workspace.rememberAnalysis(folder, run);
        const host = folder.host;
        publisher.publish(host.diagnosticFiles(), run.findingsByFile, { loadedFile: (f) => host.loadedFile(f), uriOf: uriOfFile });
        // The same findings on the rendered manifests, for their read-only views (squiggles on the rendered fields).
        const rendered = [...run.analysis.files.values()].filter((f) => f.render).map((f) => f.file);
        publisher.publish(rendered, findingsOnRendered(run.analysis.findings), { loadedFile: (f) => host.loadedFile(f), uriOf: uriOfFile });
        for (const f of run.analysis.failures) failures.push(`kube-netlint: rule ${f.ruleId} failed and was skipped: ${f.error}`);
      }
      const onCluster = cluster?.publish(workspace.all().flatMap((f) => f.host.last?.analysis.findings ?? []), (file, offset) => {
        const loaded = workspace.folderOf(file).host.loadedFile(file);
        return loaded ? { uri: uris.uriOf(file), line: loaded.lines.lspPosition(offset).line } : undefined;
      });
      // The same findings as squiggles on the fields of the cluster objects' read-only views.
      const views = cluster?.viewFiles();
      if (onCluster && views) publisher.publish(views.keys(), onCluster, { loadedFile: (f) => views.get(f) ?? workspace.folderOf(f).host.loadedFile(f), uriOf: uriOfFile });
      const gone = publisher.filesWithDiagnostics().filter((f) =>
        f.startsWith(RENDER_FILE_PREFIX) ? renders?.renderedText(f) === undefined : f.startsWith(CLUSTER_FILE_PREFIX) ? !views?.has(f) : !workspace.folderOf(f).host.publishes(f));
      publisher.clear(gone, uriOfFile);
      if (failures.join() !== lastFailures) failures.forEach((f) => connection.console.error(f));
      lastFailures = failures.join();
      status.report({ ...statusOf(workspace.all(), performance.now() - started), ...(renders ? { render: renders.status() } : {}) });
      portMap.analysed();
    } catch (err) {
      connection.console.error(`kube-netlint: analysis failed: ${(err as Error).stack ?? err}`);
    }
  };
  const scheduler = new Scheduler(runAnalysis, ANALYSIS_DELAY_MS);

  const reconfigureAll = async (): Promise<void> => {
    try {
      const open = openFiles();
      for (const folder of workspace.all()) {
        await workspace.reconfigure(folder, await settingsFor(folder.path ? folder.uri : undefined), open);
      }
    } catch (err) {
      connection.console.error(`kube-netlint: re-reading the settings failed: ${(err as Error).stack ?? err}`);
    }
    documents.all().forEach((d) => pending.add(d.uri));
    for (const folder of workspace.all()) renders?.schedule(folder);
    scheduler.request();
  };

  connection.onInitialize((params): InitializeResult => {
    const caps = params.capabilities;
    hasConfiguration = !!caps.workspace?.configuration;
    hasDynamicConfiguration = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    hasFolderEvents = !!caps.workspace?.workspaceFolders;
    registerWatcher = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration && !(params.initializationOptions as InitializationOptions | undefined)?.watchesFiles;
    const init = (params.initializationOptions ?? {}) as InitializationOptions & Record<string, unknown>;
    ruleDocsCommand = init.showRuleDocumentationCommand === true;
    initSettings = (init.kubeNetlint ?? init) as Record<string, unknown>;
    portMapLinks = init.portMapView === true;
    initialFolders = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []);
    if (typeof init.cacheFolder === 'string' && init.cacheFolder) scanning.cacheFolder = init.cacheFolder;
    // Cluster settings only from the client's user-level settings or initializationOptions, never workspace/configuration.
    cluster = new ClusterIntegration(connection, init.workspaceTrusted !== false, () => scheduler.request());
    renders = new RenderManager(init.workspaceTrusted !== false, () => scheduler.request(), log, process.env, () => (ready ? applyPending() : undefined));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'kube-netlint', version: packageVersion() },
    };
  });

  connection.onInitialized(async () => {
    initializedAt = performance.now();
    cluster?.configure((initSettings as { cluster?: ClusterSettings }).cluster); // other editors: initializationOptions
    renders?.configure((initSettings as { render?: RenderSettings }).render); // PATH, or other editors' initializationOptions
    if (hasDynamicConfiguration) connection.client.register(DidChangeConfigurationNotification.type, { section: 'kubeNetlint' }).catch((err) => log(`kube-netlint: cannot register for configuration changes: ${err}`));
    if (registerWatcher) {
      // JSON too: discovery lists *.json files that hold Kubernetes objects (the server tells them apart).
      const watchers = ['**/*.{yaml,yml,json}', '**/Kustomization', '**/.kube-netlint.yaml'].map((globPattern) => ({ globPattern }));
      connection.client.register(DidChangeWatchedFilesNotification.type, { watchers }).catch((err) => log(`kube-netlint: cannot watch files: ${err}`));
    }
    if (hasFolderEvents) {
      connection.workspace.onDidChangeWorkspaceFolders(async (e) => {
        for (const f of e.removed) {
          const gone = workspace.all().find((x) => x.uri === f.uri);
          if (gone) renders?.remove(gone);
          await workspace.removeFolder(f.uri);
        }
        for (const f of e.added) renders?.schedule(await workspace.addFolder(f.uri, await settingsFor(f.uri)));
        documents.all().forEach((d) => pending.add(d.uri));
        scheduler.request();
      });
    }
    for (const f of initialFolders) renders?.schedule(await workspace.addFolder(f.uri, await settingsFor(f.uri)));
    await workspace.reconfigure(workspace.loose, await settingsFor(undefined), openFiles());
    documents.all().forEach((d) => pending.add(d.uri));
    ready = true;
    runAnalysis();
    if (settingsChangedEarly) void reconfigureAll();
  });

  connection.onDidChangeConfiguration((change) => {
    const pushed = (change.settings as { kubeNetlint?: Record<string, unknown> } | null)?.kubeNetlint;
    if (!hasConfiguration && pushed) initSettings = pushed;
    if (ready) void reconfigureAll();
    else settingsChangedEarly = true;
  });

  documents.onDidOpen((e) => { pending.add(e.document.uri); scheduler.request(); });
  // Helm releases render unsaved buffers too: a buffer edit of a file one reads renders it again, after a pause.
  const bufferChanged = (uri: string): void => {
    const path = ready ? pathOfUri(uri) : undefined;
    if (path) renders?.bufferChanged(workspace.folderOf(path), path);
  };
  documents.onDidChangeContent((e) => { pending.add(e.document.uri); scheduler.request(); bufferChanged(e.document.uri); });
  documents.onDidClose((e) => {
    pending.delete(e.document.uri);
    changedRanges.forget(e.document.uri);
    if (!ready) return;
    workspace.closed(uris.fileOf(e.document.uri));
    scheduler.request();
    bufferChanged(e.document.uri);
  });

  connection.onDidChangeWatchedFiles((params) => {
    if (!ready) return;
    let configChanged = false;
    let rendering = params.changes.length > 0;
    const open = openFiles();
    for (const change of params.changes) {
      const path = pathOfUri(change.uri);
      if (!path) continue;
      configChanged = workspace.diskChanged(path, change.type === FileChangeType.Deleted, open) || configChanged;
      // helm and kustomize read the disk: saved changes re-render the renders that read them.
      rendering = (renders?.schedule(workspace.folderOf(path), [path]) ?? false) && rendering;
    }
    if (configChanged) void reconfigureAll();
    // Only files that renders read changed: the renders' end brings the analysis (one instead of two).
    else if (!rendering) scheduler.request();
  });

  registerRequests(connection, { documents, uris, workspace, publisher, ruleDocsCommand: () => ruleDocsCommand, portMapLinks: () => portMapLinks });
  connection.onNotification(RENDER_SETTINGS_NOTIFICATION, (settings: RenderSettings) => renders?.configure(settings));
  connection.onRequest(RENDERED_DOCUMENT_REQUEST, (params: { uri?: unknown }) => {
    const file = typeof params?.uri === 'string' ? renderedFileOfUri(params.uri) : undefined;
    return (file && renders?.renderedText(file)) ?? null;
  });

  connection.onShutdown(() => {
    scheduler.dispose();
    cluster?.dispose();
    renders?.dispose();
  });
  // Document notifications of the wrong shape (`text: 12345`) are dropped with a log line, never stored.
  listenValidated(documents, connection, log);
  connection.listen();
}
