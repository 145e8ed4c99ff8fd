import type { Rule } from './rule';

const id = 'helm-chart-not-rendered';

/** One info finding per Helm chart: its templates are Go templates, not manifests, and are not linted. */
export const helmChartNotRendered: Rule = {
  id,
  title: 'Helm chart templates are not linted',
  severity: 'info',
  explanation: [
    "Files under a Helm chart's `templates/` folder are Go templates: `nodePort: {{ .Values.service.nodePort }}` is",
    'not YAML data until Helm renders it, so kube-netlint does not parse them (and reports no YAML errors for them).',
    'The ports they will claim depend on the values file of each release.',
    '',
    'Lint what Helm renders instead, once per values file you deploy:',
    '',
    '```sh',
    'helm template my-release ./chart -f values-prod.yaml | npx kube-netlint -',
    '```',
    '',
    'Files elsewhere that contain Go template actions (`{{ ... }}` where YAML expects a value) are skipped the same way;',
    "`{{ ... }}` inside quoted or block strings (e.g. Prometheus alert annotations) is ordinary text and does not skip a file.",
  ].join('\n'),
  sources: ['https://helm.sh/docs/helm/helm_template/ (Helm v3)', 'https://helm.sh/docs/chart_template_guide/getting_started/ (Helm v3)'],
  check({ layout }) {
    return (layout?.charts ?? []).map((chart) => ({
      ruleId: id,
      severity: 'info' as const,
      message: `Helm chart${chart.name ? ` "${chart.name}"` : ''}: ${chart.templates.length === 1 ? 'its template file is a Go template' : `its ${chart.templates.length} template files are Go templates`} and not linted; lint the rendered output instead: helm template RELEASE ${chart.file.replace(/[/\\\\]?Chart\.yaml$/, '') || '.'} | npx kube-netlint -`,
      span: { file: chart.file, start: 0, end: 0 },
      related: [],
      fixes: [],
    }));
  },
};
