/**
 * kube-netlint language server entry point (bundled to dist/server.js; started by the VS Code
 * client over node IPC, and by other editors with `kube-netlint-language-server --stdio`).
 * The transport (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=NAME`) is read from argv by
 * vscode-languageserver's createConnection; over stdio the input first goes through a {@link FrameGuard}.
 */
import { format } from 'node:util';
import { Connection, createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { FrameGuard } from './frame-guard';
import { startServer } from './server';

let connection: Connection;
if (process.argv.includes('--stdio')) {
  // A frame without a Content-Length would otherwise wedge the reader for good (see FrameGuard).
  const input = process.stdin.pipe(new FrameGuard((message) => connection?.console.log(message)));
  connection = createConnection(ProposedFeatures.all, input, process.stdout);
  // As vscode-languageserver does for --stdio: stdout carries the protocol, so console output goes to the client's log.
  console.log = console.info = (...args: unknown[]) => connection.console.log(format(...args));
  console.warn = (...args: unknown[]) => connection.console.warn(format(...args));
  console.error = (...args: unknown[]) => connection.console.error(format(...args));
} else {
  connection = createConnection(ProposedFeatures.all);
}
// Last line of defence: a stray promise rejection is logged to the client's output instead of
// ending the process (Node's default), so one failed request never takes the diagnostics away.
process.on('unhandledRejection', (reason) => connection.console.error(`kube-netlint: unhandled rejection: ${(reason as Error)?.stack ?? reason}`));
startServer(connection);
