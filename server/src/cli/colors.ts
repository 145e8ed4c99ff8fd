import { createColors } from 'picocolors';
import type { Colors } from 'picocolors/types';
import type { ColorMode } from './options';

export type { Colors } from 'picocolors/types';

/**
 * Whether to colour the text report. `always` / `never` win (a flag overrides the environment, as
 * no-color.org asks); for `auto`: `FORCE_COLOR` set to anything but `0`/`false` turns colour on, `NO_COLOR`
 * set to a non-empty value turns it off, else colour is on when the report goes to a terminal that is not
 * `TERM=dumb` (never into an `--output` file).
 */
export function useColor(mode: ColorMode, env: Readonly<Record<string, string | undefined>>, toTerminal: boolean): boolean {
  if (mode !== 'auto') return mode === 'always';
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR) return false;
  return toTerminal && env.TERM !== 'dumb';
}

/** picocolors' formatters, on or off (off: every formatter returns its input unchanged). */
export function colors(enabled: boolean): Colors {
  return createColors(enabled);
}
