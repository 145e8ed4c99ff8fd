import type { Rule } from './rule';

/** Files that were found but not analysed (too large, unreadable, Go templates outside a Helm chart). */
export const fileSkipped: Rule = {
  id: 'file-skipped',
  title: 'File not analysed',
  severity: 'info',
  reportsRejection: true,
  explanation: [
    'kube-netlint found this file but did not analyse it, and says why instead of skipping it silently:',
    '',
    '- **too large**: files above the size limit are not parsed: 5 MiB in the editor (to keep it responsive), 16 MiB',
    '  in the CLI (`--max-file-size MIB` changes it, `0` for none; standard input too);',
    '- **not a regular file**: a FIFO, a device or a socket found with a manifest name is never read (reading could',
    '  block forever or never end): an **error**, since the workspace holds something that is not a file;',
    '- **dangling symlink**: a link to a file that does not exist (or a link loop) is a leftover, reported as info;',
    '- **unreadable**: the file could not be read (permissions, a broken link);',
    '- **Go template**: the file has Go template actions (`{{ .Values.port }}`) where YAML expects a value, so it is',
    '  a template, not a manifest (files under a Helm chart\'s `templates/` get one `helm-chart-not-rendered` finding on',
    '  the chart instead). Lint the rendered output: `helm template RELEASE CHART | kube-netlint -`;',
    '- **Terraform template**: `templatefile()` sources with `%{ for … }` directives (or `${…}` where YAML then fails);',
    '  a `--proxy-mode` they hold is not read, so the message says which `kubeProxyMode` to set instead.',
    '',
    'Objects in a skipped file take no part in cross-file checks, so collisions with them are not reported. A binary',
    'file or one in an encoding kubectl does not read is not skipped: it gets the `yaml-syntax` finding of what kubectl',
    'does with it.',
  ].join('\n'),
  sources: ['https://kubernetes.io/docs/concepts/overview/working-with-objects/ (manifests are YAML or JSON text, v1.33)'],
  check({ model }) {
    return model.problems
      .filter((p) => p.code.startsWith('FILE_'))
      .map((p) => ({ ruleId: 'file-skipped', severity: p.severity, message: p.message, span: p.span, related: [], fixes: [] }));
  },
};
