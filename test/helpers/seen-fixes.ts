import type { CoreConfig } from '../../server/out/core/config/config';

/**
 * Every input of this mocha run's {@link lint} calls (test/helpers/lint.ts) whose findings offered a quick fix:
 * the files as linted and the config. The fix-results test applies each of those fixes and lints again, once every
 * test has run (a root `after` hook). Kept in memory only; one entry per distinct input.
 */
export interface SeenFixInput {
  readonly files: Readonly<Record<string, string>>;
  readonly config: CoreConfig;
}

/** By the files' JSON, the inputs with those files (configs hold Maps, so they are told apart by identity). */
const seen = new Map<string, SeenFixInput[]>();

/** Records an input whose findings had at least one fix (the same files and config are kept once). */
export function recordFixInput(files: Readonly<Record<string, string>>, config: CoreConfig): void {
  const key = JSON.stringify(files);
  const list = seen.get(key) ?? seen.set(key, []).get(key)!;
  if (!list.some((i) => i.config === config || JSON.stringify(i.config) === JSON.stringify(config))) list.push({ files, config });
}

/** The inputs recorded so far. */
export function seenFixInputs(): SeenFixInput[] {
  return [...seen.values()].flat();
}
