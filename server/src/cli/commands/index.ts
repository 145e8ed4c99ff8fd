import type { Subcommand } from '../io';
import { portsCommand } from './ports';
import { rulesCommand } from './rules';

/** The subcommands of `kube-netlint`; anything else on the command line is the lint command's. */
export const SUBCOMMANDS: readonly Subcommand[] = [rulesCommand, portsCommand];

/** The `Commands:` block of `kube-netlint --help`. */
export function commandsHelp(): string {
  const width = Math.max(...SUBCOMMANDS.map((c) => c.name.length)) + 2;
  return SUBCOMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n');
}
