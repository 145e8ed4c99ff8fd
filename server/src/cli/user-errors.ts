import { ClusterUnavailableError } from '../cluster/cli-cluster';
import { ConfigError, ConfigErrors } from '../core/config/config';
import { PathError } from '../node/discover-files';
import { UsageError } from './flags';
import type { CliIo } from './io';

/**
 * Runs a command and turns the errors that are the user's to fix into exit code 2: a usage error, a path that
 * cannot be read, a bad config file (every problem of it, one line each), a live cluster `--require-cluster` could
 * not read whole. Each is printed on stderr as `<prefix>: <message>`. Any other error is a bug: rethrown.
 * @param prefix the command's name in messages (`kube-netlint`, `kube-netlint ports`)
 */
export async function exitTwoOnUserErrors(prefix: string, io: CliIo, command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (err) {
    if (!(err instanceof UsageError || err instanceof PathError || err instanceof ConfigError || err instanceof ClusterUnavailableError)) throw err;
    for (const message of err instanceof ConfigErrors ? err.errors.map((e) => e.message) : [err.message]) io.stderr(`${prefix}: ${message}\n`);
    return 2;
  }
}
