/** The `kube-netlint` command. */
import { packageVersion } from '../node/version';

const argv = process.argv.slice(2);
// `kube-netlint ... | head`: the reader went away; stop quietly instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw err;
  });
}
if (argv.length === 1 && argv[0] === '--version') {
  // Fast path: answer without loading the YAML parser, the rules and the formatters (start-up budget 150 ms).
  process.stdout.write(`${packageVersion()}\n`);
} else {
  // Loaded lazily (esbuild keeps `require` calls inside functions lazy) so `--version` stays cheap.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readStdinSync, runCli } = require('./run') as typeof import('./run');
  runCli(argv, {
    cwd: process.cwd(),
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: readStdinSync,
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`kube-netlint: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
