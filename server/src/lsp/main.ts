/**
 * kube-netlint language server entry point (bundled to dist/server.js; started by the VS Code
 * client over node IPC, and by other editors with `kube-netlint-language-server --stdio`).
 * The transport (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=NAME`) is read from argv by
 * vscode-languageserver's createConnection.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const connection = createConnection(ProposedFeatures.all);
// Last line of defence: a stray promise rejection is logged to the client's output instead of
// ending the process (Node's default), so one failed request never takes the diagnostics away.
process.on('unhandledRejection', (reason) => connection.console.error(`kube-netlint: unhandled rejection: ${(reason as Error)?.stack ?? reason}`));
startServer(connection);
