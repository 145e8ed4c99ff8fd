/**
 * Takes `--cluster`, `--cluster=CONTEXT` or `--cluster CONTEXT` out of argv (before `--`). The word after a
 * bare `--cluster` is the context unless it starts with `-` or names an existing file or folder (then it is
 * a path to lint and the kubeconfig's current-context is used).
 * @returns argv without the flag, and the context ('' = current-context; undefined = no cluster)
 */
export function takeClusterFlag(argv: readonly string[], pathExists: (p: string) => boolean): { argv: string[]; cluster?: string } {
  const out: string[] = [];
  let cluster: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith('--cluster=')) cluster = arg.slice('--cluster='.length);
    else if (arg === '--cluster') {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-') && !pathExists(next)) {
        cluster = next;
        i++;
      } else cluster = '';
    } else out.push(arg);
  }
  return { argv: out, cluster };
}
