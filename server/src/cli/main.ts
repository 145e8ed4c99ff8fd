/** The `kube-netlint` command. */
import { readStdinSync, runCli } from './run';

const code = runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readStdin: readStdinSync,
});
process.exitCode = code;
