/**
 * A small declarative layer over `node:util` parseArgs: a command lists its flags once (name, short
 * name, value placeholder, help text and how the value lands in the command's options) and gets both
 * the parser and its `--help` text from that one table. Adding a flag is one entry in a table.
 */
import { parseArgs } from 'node:util';

/** A command-line mistake: printed on stderr with the usage, exit code 2. */
export class UsageError extends Error {}

/** One flag of a command. `O` is the command's mutable options object. */
export interface Flag<O> {
  /** Long name without `--`, kebab-case. */
  readonly name: string;
  /** One-letter short name without `-`. */
  readonly short?: string;
  /** Placeholder of the value in `--help` (`FILE`, `text|json`); absent: a boolean switch. */
  readonly value?: string;
  /**
   * The value may be left out (`--cluster`, `--cluster CONTEXT`, `--cluster=CONTEXT`): the next word is
   * its value unless it starts with `-` or names an existing path (then it is a path and the flag gets '').
   */
  readonly optionalValue?: boolean;
  /**
   * The value a bare `--NAME` stands for (`--color` is `--color always`, as eslint and chalk read it). Unlike an
   * {@link optionalValue} flag it is parsed in command-line order with the others (`--no-color --color` is always):
   * the next word is its value unless it starts with `-` or names an existing path.
   */
  readonly bareValue?: string;
  /**
   * Shown in `--help` as repeatable. Every flag may be given several times: `apply` runs once per
   * occurrence, in command-line order, so a single-valued flag given twice keeps the last value.
   */
  readonly repeatable?: boolean;
  /** One line (or several, `\n`-separated) for `--help`. */
  readonly help: string;
  /**
   * Stores the value in the options. Boolean switches get `true`.
   * @throws UsageError for a bad value (the message names the flag)
   */
  readonly apply: (options: O, value: string | true) => void;
}

/** Makes every property of T writable: the draft a command's flags fill in. */
export type Draft<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Parses argv (without node and script) against a flag table, filling `options` in command-line order.
 * Positionals (and everything after `--`) are returned.
 * @param pathExists decides, for flags with an optional value, whether the next word is a path (then it is not the value)
 * @throws UsageError for unknown flags, missing values and bad values
 */
export function parseFlags<O>(argv: readonly string[], flags: readonly Flag<O>[], options: O, pathExists: (p: string) => boolean = () => false): string[] {
  const rest = [...argv];
  for (const flag of flags.filter((f) => f.optionalValue)) {
    for (const value of takeOptionalValueFlag(rest, flag.name, pathExists)) flag.apply(options, value);
  }
  joinNegativeNumbers(rest, flags);
  fillBareValues(rest, flags, pathExists);
  const byName = new Map(flags.map((f) => [f.name, f]));
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: Object.fromEntries(
        flags
          .filter((f) => !f.optionalValue)
          .map((f) => [f.name, { type: f.value ? ('string' as const) : ('boolean' as const), multiple: true, ...(f.short ? { short: f.short } : {}) }]),
      ),
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(unknownOptionMessage(rest, flags));
    throw new UsageError((err as Error).message);
  }
  for (const token of parsed.tokens ?? []) {
    if (token.kind === 'option') byName.get(token.name)!.apply(options, token.value ?? true);
  }
  return parsed.positionals;
}

/**
 * `unknown option "--bogus"` for the first word before `--` that looks like a flag and is none of `flags` (node's
 * own message suggests `--` for positionals, which a Kubernetes path never needs).
 */
function unknownOptionMessage<O>(argv: readonly string[], flags: readonly Flag<O>[]): string {
  const known = new Set(flags.flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]));
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const word = argv.slice(0, end).find((a) => a.length > 1 && a.startsWith('-') && !known.has(a.split('=')[0]) && !(/^-[^-]/.test(a) && [...a.slice(1)].every((c) => known.has(`-${c}`))));
  return `unknown option${word ? ` "${word.split('=')[0]}"` : ''} (a path that starts with - goes after --)`;
}

/**
 * Rewrites `--NAME -1` (and `-S -1`) to `--NAME=-1` for flags that take a value, in place before `--`: parseArgs
 * reads a value that starts with `-` as a missing one, and `--max-warnings -1` is eslint's spelling.
 */
function joinNegativeNumbers<O>(argv: string[], flags: readonly Flag<O>[]): void {
  const valued = new Map<string, string>();
  for (const f of flags) {
    if (!f.value || f.optionalValue) continue;
    valued.set(`--${f.name}`, f.name);
    if (f.short) valued.set(`-${f.short}`, f.name);
  }
  for (let i = 0; i + 1 < argv.length && argv[i] !== '--'; i++) {
    const name = valued.get(argv[i]);
    if (name && /^-\d+$/.test(argv[i + 1])) argv.splice(i, 2, `--${name}=${argv[i + 1]}`);
  }
}

/** Rewrites a bare `--NAME` of a flag with a {@link Flag.bareValue} to `--NAME=VALUE`, in place before `--`. */
function fillBareValues<O>(argv: string[], flags: readonly Flag<O>[], pathExists: (p: string) => boolean): void {
  const bare = new Map(flags.filter((f) => f.bareValue !== undefined).map((f) => [`--${f.name}`, f.bareValue!]));
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    const value = bare.get(argv[i]);
    const next = argv[i + 1];
    if (value !== undefined && (next === undefined || next.startsWith('-') || pathExists(next))) argv[i] = `${argv[i]}=${value}`;
  }
}

/**
 * The text a command prints on stderr for a usage mistake: the message and where the options are listed
 * (`kube-netlint ports: no paths given` / `Run "kube-netlint ports --help" for the options.`), not the whole help.
 * @param command `kube-netlint` or `kube-netlint <subcommand>`
 */
export function usageErrorText(command: string, message: string): string {
  return `${command}: ${message}\nRun "${command} --help" for the options.\n`;
}

/**
 * Takes every `--NAME`, `--NAME=VALUE` and `--NAME VALUE` out of argv (in place, before `--`); see
 * {@link Flag.optionalValue}. Returns the values in order ('' for a bare flag).
 */
export function takeOptionalValueFlag(argv: string[], name: string, pathExists: (p: string) => boolean): string[] {
  const values: string[] = [];
  const long = `--${name}`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg.startsWith(`${long}=`)) {
      values.push(arg.slice(long.length + 1));
      argv.splice(i--, 1);
    } else if (arg === long) {
      const next = argv[i + 1];
      const takesNext = next !== undefined && !next.startsWith('-') && !pathExists(next);
      values.push(takesNext ? next : '');
      argv.splice(i--, takesNext ? 2 : 1);
    }
  }
  return values;
}

/** The `Options:` block of `--help`: `-f, --format text|json|sarif   help`, continuation lines aligned. */
export function formatFlagHelp(flags: readonly Flag<unknown>[]): string {
  const heads = flags.map((f) => {
    const value = (f.value ? (f.optionalValue || f.bareValue !== undefined ? ` [${f.value}]` : ` ${f.value}`) : '') + (f.repeatable ? ' ...' : '');
    return `${f.short ? `-${f.short}, ` : '    '}--${f.name}${value}`;
  });
  const width = Math.max(...heads.map((h) => h.length)) + 2;
  return flags
    .map((f, i) => {
      const [first, ...more] = f.help.split('\n');
      return [`  ${heads[i].padEnd(width)}${first}`, ...more.map((m) => `  ${''.padEnd(width)}${m}`)].join('\n');
    })
    .join('\n');
}

/**
 * Checks that `value` is one of `allowed`.
 * @throws UsageError `--flag must be a, b or c (got "x")`
 */
export function oneOf<T extends string>(flag: string, value: string | true, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const list = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}` : allowed[0];
  throw new UsageError(`--${flag} must be ${list} (got "${value}")`);
}
