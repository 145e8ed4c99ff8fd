/**
 * kube-netlint language server entry point (bundled to dist/server.js; started by the VS Code
 * client over node IPC, and by other editors with `kube-netlint-language-server --stdio`).
 * The transport (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=NAME`) is read from argv by
 * vscode-languageserver's createConnection.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

startServer(createConnection(ProposedFeatures.all));
