import { allRules } from '../../core/rules/index';
import type { Rule } from '../../core/rules/rule';
import { bundledRuleDoc, bundledRuleDocUri } from '../../node/version';
import { Draft, Flag, formatFlagHelp, oneOf, parseFlags, UsageError, usageErrorText } from '../flags';
import type { CliIo, Subcommand } from '../io';

const FORMATS = ['text', 'json', 'markdown'] as const;

interface RulesOptions {
  readonly format: (typeof FORMATS)[number];
  readonly help: boolean;
}

const FLAGS: readonly Flag<Draft<RulesOptions>>[] = [
  { name: 'format', short: 'f', value: 'text|json|markdown', help: 'output format (default text)', apply: (o, v) => (o.format = oneOf('format', v, FORMATS)) },
  { name: 'help', short: 'h', help: 'print this help', apply: (o) => (o.help = true) },
];

const USAGE = `Usage: kube-netlint rules [options]

Lists every rule: id, default severity, title and its page (docs/rules/<id>.md, shipped in the package).

Options:
${formatFlagHelp(FLAGS as readonly Flag<unknown>[])}
`;

/** `kube-netlint rules`: the rule registry as a table (text), data (json) or a Markdown table. */
export const rulesCommand: Subcommand = {
  name: 'rules',
  summary: 'list every rule: id, default severity, title, its page (--format text|json|markdown)',
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const options: Draft<RulesOptions> = { format: 'text', help: false };
    try {
      const extra = parseFlags(argv, FLAGS, options);
      if (extra.length) throw new UsageError(`rules takes no arguments (got "${extra[0]}")`);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      io.stderr(usageErrorText('kube-netlint rules', err.message));
      return 2;
    }
    if (options.help) io.stdout(USAGE);
    else io.stdout(formatRules(allRules, options.format));
    return 0;
  },
};

/**
 * The rule list; each rule's page is the one shipped in the installed package (docs/rules/<id>.md), so every
 * link printed resolves on this machine. text: id, severity, title, and the page's path on the next line.
 * json: `{"version":1,"rules":[{"id","severity","title","docsUrl","docsFile"}]}` with `docsFile` the page's
 * path and `docsUrl` its `file:` URI (both null when the page is not there). markdown: a table whose ids link
 * to the pages' `file:` URIs.
 */
export function formatRules(rules: readonly Rule[], format: RulesOptions['format']): string {
  if (format === 'json') {
    const list = rules.map((r) => ({ id: r.id, severity: r.severity, title: r.title, docsUrl: bundledRuleDocUri(r.id) ?? null, docsFile: bundledRuleDoc(r.id) ?? null }));
    return JSON.stringify({ version: 1, rules: list }, null, 2) + '\n';
  }
  if (format === 'markdown') {
    const cell = (s: string): string => s.replace(/\|/g, '\\|');
    const id = (r: Rule): string => {
      const uri = bundledRuleDocUri(r.id);
      return uri ? `[${r.id}](${uri})` : r.id;
    };
    return ['| Rule | Default severity | Title |', '| --- | --- | --- |', ...rules.map((r) => `| ${id(r)} | ${r.severity} | ${cell(r.title)} |`), ''].join('\n');
  }
  // Titles are long: id and severity in columns, the title after them, the page on the line below it.
  const idWidth = Math.max(...rules.map((r) => r.id.length)) + 2;
  const indent = ''.padEnd(idWidth + 9);
  return rules.map((r) => `${r.id.padEnd(idWidth)}${r.severity.padEnd(9)}${r.title}\n${indent}${bundledRuleDoc(r.id) ?? '(no page shipped with this build)'}\n`).join('');
}
