/** What a CLI command may touch: the working directory, the output streams, standard input and the environment. */
export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** All of standard input, or its first `maxBytes` + 1 bytes when it is longer (so an endless stream cannot exhaust memory). */
  readonly readStdin: (maxBytes?: number) => string | Uint8Array;
  /** Environment (`NO_COLOR`, `FORCE_COLOR`, `TERM`); default: none set. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Whether standard output is a terminal (for `--color auto`); default false. */
  readonly stdoutIsTTY?: boolean;
}

/**
 * A subcommand: `kube-netlint <name> [args]`. List it in commands/index.ts; its flags use the same
 * table as the lint command's (see flags.ts), so its `--help` comes with them.
 */
export interface Subcommand {
  readonly name: string;
  /** One line for the `Commands:` block of `kube-netlint --help`. */
  readonly summary: string;
  /**
   * Runs the command with the arguments after its name.
   * @returns the exit code (0 ok, 1 findings, 2 usage error)
   */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}
