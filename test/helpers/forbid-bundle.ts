/**
 * Preloaded (`node --require`) by tests of start-up paths that must answer without the CLI bundle: loading
 * dist/cli.js then fails the process with exit code 86 and says so on stderr.
 */
import Module = require('node:module');
import { basename, dirname } from 'node:path';

const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
const load = loader._load;
loader._load = function (request: string, parent: unknown, isMain: boolean): unknown {
  if (basename(request) === 'cli.js' && basename(dirname(request)) === 'dist') {
    process.stderr.write(`the CLI bundle was loaded (${request})\n`);
    process.exit(86);
  }
  return load.call(this, request, parent, isMain);
};
